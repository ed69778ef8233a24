"""``fivecrowns serve``'s share workers on other machines (``--shares-bus``, ``--worker-of``
and the link's options): their checks and the share worker's run (docs/operations.md)."""

from __future__ import annotations

import argparse
import sys

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["TLS_ALL_OR_NONE", "TLS_OPTIONS", "run_share_worker", "shares_problem"]

TLS_OPTIONS = {
    "--link-cert": N_(
        "with --shares-bus or --worker-of: this process's certificate (PEM) for the link's "
        "TLS; with --link-key and --link-ca, the link is encrypted and each end must show a "
        "certificate of that authority"
    ),
    "--link-key": N_("with --link-cert: the certificate's private key (PEM)"),
    "--link-ca": N_(
        "with --link-cert: the authority (PEM) whose certificates the other ends must show"
    ),
}
TLS_ALL_OR_NONE = N_("--link-cert, --link-key and --link-ca go together: give all three or none.")


def shares_problem(args: argparse.Namespace) -> str | None:
    """Why ``--shares-bus`` or ``--worker-of`` cannot be used as given; None if they can."""
    bus = args.shares_bus if args.shares_bus is not None else args.worker_of
    if bus is None:
        if any((args.link_cert, args.link_key, args.link_ca, args.link_secret)):
            return _(
                "--link-secret, --link-cert, --link-key and --link-ca go with --shares-bus "
                "or --worker-of."
            )
        return None
    if args.shares_bus is not None and args.worker_of is not None:
        return _("--shares-bus and --worker-of cannot go together: a process is one or the other.")
    if not args.workers:
        return _("--shares-bus and --worker-of need --workers, the number of shares.")
    if args.worker_of is not None and args.bus is not None:
        return _("--worker-of and --bus cannot go together: a share worker has its own lease.")
    if args.worker_of is not None and args.host in ("0.0.0.0", "::", ""):
        # why: the lease tells the front this address; a wildcard reaches no machine
        return _(
            "--worker-of needs --host to be the address the front reaches this machine at, "
            "not {host}."
        ).format(host=args.host or '""')
    if args.store is None:
        return _(
            "--shares-bus and --worker-of need --store: the front and its share workers share "
            "one PostgreSQL database."
        )
    if args.lease <= 0:
        return _("--lease must be more than 0 seconds.")
    try:
        from redis.asyncio import Redis
    except ImportError:
        return _(
            "--bus needs the redis package: pip install 'fivecrowns[cluster]' "
            "(or scripts/setup --dev)."
        )
    try:
        Redis.from_url(bus)
    except ValueError:
        text = _(
            "--shares-bus and --worker-of take an address such as redis://127.0.0.1:6379, "
            "not {value}."
        )
        return text.format(value=bus)
    from fivecrowns.net.server.shares import link_context, read_secret

    try:
        args.secret = read_secret(args.link_secret)
    except ValueError as error:
        return str(error)
    files = (args.link_cert, args.link_key, args.link_ca)
    args.link_tls = None
    if any(files):
        if not all(files):
            return _(TLS_ALL_OR_NONE)
        try:
            args.link_tls = link_context(args.worker_of is not None, *files)
        except ValueError as error:
            return str(error)
    return None


def run_share_worker(args: argparse.Namespace) -> int:
    """``serve --worker-of``: serve a share at a time until stopped."""
    import asyncio
    import contextlib
    import signal

    # why here: serve.py imports this module, and shares its sentence for a port in use
    from fivecrowns.commands.serve import CANNOT_LISTEN
    from fivecrowns.net.server.limits import Limits
    from fivecrowns.net.server.shares import (
        SHARE_WORKER_STARTED,
        ShareWorkerConfig,
        serve_shares,
    )

    config = ShareWorkerConfig(
        bus=args.worker_of,
        store=args.store,
        count=args.workers,
        host=args.host,
        port=args.port,
        secret=args.secret,
        ttl=args.lease,
        limits=Limits(
            grace=args.grace,
            bot_delay=args.bot_delay,
            max_tables=args.max_tables,
            rate=args.rate,
            burst=max(40, int(args.rate * 2)),
        ),
        seed=args.seed,
        tls=args.link_tls,
    )

    def started(address: str) -> None:
        text = _(SHARE_WORKER_STARTED)
        print(text.format(address=address, count=args.workers, bus=args.worker_of), flush=True)

    async def work() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, stop.set)
        await serve_shares(config, started, stop)

    try:
        asyncio.run(work())
    except KeyboardInterrupt:
        pass
    except OSError as error:
        print(
            _(CANNOT_LISTEN).format(host=args.host, port=args.port, reason=error.strerror or error),
            file=sys.stderr,
        )
        return 1
    print(_("Server stopped."), file=sys.stderr)
    return 0
