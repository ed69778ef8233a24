"""``fivecrowns serve``: run a game server others join over the network (docs/network.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from fivecrowns.commands.serve_shares import TLS_OPTIONS, run_share_worker, shares_problem
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

__all__ = ["configure", "run"]

STARTED = N_(
    "Five Crowns server on ws://{host}:{port}/ws. Tables are kept in {where}. Ctrl+C stops it."
)
STARTED_IN_MEMORY = N_(
    "Five Crowns server on ws://{host}:{port}/ws. Tables are kept in memory only. Ctrl+C stops it."
)
OPEN_WARNING = N_(
    "Listening on {host}, not only this computer: anyone who can reach this address can join. "
    "See docs/network.md before opening a server to the internet."
)
IN_USE = N_(
    "Another Fivecrowns server already uses the data folder {path}; stop it or pick --data."
)
NOT_A_STORE = N_(
    "--store takes a PostgreSQL address that begins with postgresql://, such as "
    "postgresql://fivecrowns@localhost/fivecrowns."
)
CANNOT_LISTEN = N_("Cannot listen on {host} port {port}: {reason}.")
NEGATIVE = N_("{option} cannot be negative.")
MOST_WORKERS = 64  # why a bound: each worker is a process with its own memory
LEASE_LOST = N_(
    "This server process lost the tables to another process of the cluster, so it stopped; "
    "start it again to wait as a spare."
)
NOT_AN_ADDRESS = N_(
    "--trusted-proxy takes an address or a network such as 10.0.0.0/8, not {value}."
)


# the operator's commands: each changes one account in the data folder and exits (a running
# server sees the change at the account's next log-in or hello)
_OPERATOR_OPTIONS = {
    "--approve-account": N_("let the account NAME, made while sign-up needed approval, play"),
    "--disable-account": N_("disable the account NAME and end its log-ins, and exit"),
    "--enable-account": N_("enable the account NAME again, and exit"),
}
ACCOUNT_CHANGED = N_("The account {name} is now {status}.")
NO_ACCOUNT = N_("No account here has the name {name}.")
NO_ACCOUNTS = N_("No accounts yet.")
# TRANSLATORS: one line of --list-accounts, as in "Ann: active"
ACCOUNT_LINE = N_("{name}: {status}")
STATUS_WORDS = {
    "active": N_("active"),
    "pending": N_("waiting for approval"),
    "disabled": N_("disabled"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar=_("HOST"),
        help=_("address to listen on (default 127.0.0.1: this computer only)"),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8765,
        metavar=_("PORT"),
        help=_("port (default 8765; 0 picks a free one)"),
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar=_("DATA"),
        help=_("folder for the tables database and the history (default: the game's data folder)"),
    )
    parser.add_argument(
        "--store",
        default=None,
        metavar=_("URL"),
        help=_(
            "keep the tables, players and accounts in this PostgreSQL database, "
            "postgresql://USER@HOST:PORT/DATABASE, which several servers may share (needs "
            "pip install 'fivecrowns[postgresql]'); default: the SQLite file in the data "
            "folder, nothing to install"
        ),
    )
    parser.add_argument(
        "--memory",
        action="store_true",
        help=_("keep nothing on disk (tables end with the server)"),
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=30.0,
        metavar=_("GRACE"),
        help=_(
            "seconds before a computer plays for a player whose connection dropped (default 30)"
        ),
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        metavar=_("BOT_DELAY"),
        help=_("seconds a computer player waits before each move (default 0.8)"),
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=1000,
        metavar=_("MAX_TABLES"),
        help=_("tables at once (default 1000)"),
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=2500,
        metavar=_("MAX_CONNECTIONS"),
        help=_("connections at once (default 2500)"),
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=20,
        metavar=_("MAX_PER_ADDRESS"),
        help=_(
            "connections at once from one address (default 20; 0: no limit); behind a "
            "proxy, name it with --trusted-proxy so each client has its own address"
        ),
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar=_("ORIGIN"),
        help=_(
            "let web pages from ORIGIN (such as https://cards.example.org) play on this "
            "server too; the server's own page always may; '*' lets in every page; may be "
            "given more than once"
        ),
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar=_("ADDRESS"),
        help=_(
            "the address (or network, such as 10.0.0.0/8) of the reverse proxy in front of "
            "this server: the client address it passes in X-Forwarded-For is used for the "
            "limits per address, and every request must come through it; may be given more "
            "than once"
        ),
    )
    parser.add_argument(
        "--sounds",
        metavar=_("PACK"),
        help=_(
            "the sound pack the web page plays at first: default, or a folder in the sounds "
            "folder of the game's data folder, whose other packs are offered too (a pack that "
            "cannot be used: the default, and one line in the log)"
        ),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar=_("SEED"),
        help=_(
            "deal the games from this seed, the next game from the next number; for tests "
            "and demonstrations only, never for a server with real players: whoever knows the "
            "seed can rebuild every hand and the stock"
        ),
    )
    parser.add_argument(
        "--sign-up",
        choices=("open", "approval", "closed"),
        default="open",
        help=_(
            "who may make an account: open (anyone, the default), approval (accounts wait "
            "for --approve-account), closed (nobody; guests and accounts already made still "
            "play)"
        ),
    )
    for option, help_text in _OPERATOR_OPTIONS.items():
        parser.add_argument(option, metavar=_("NAME"), help=_(help_text))
    parser.add_argument(
        "--list-accounts",
        action="store_true",
        help=_("list the accounts in the data folder with their status, and exit"),
    )
    parser.add_argument(
        "--bus",
        default=None,
        metavar=_("URL"),
        help=_(
            "the Redis (redis://host:port) of several server processes that share their "
            "tables (the data folder, or the --store database) and one port: one holds the "
            "tables, the others pass their connections on to it and take over if it stops "
            "(docs/operations.md)"
        ),
    )
    parser.add_argument(
        "--lease",
        type=float,
        default=3.0,
        metavar=_("SECONDS"),
        help=_(
            "with --bus: seconds after which the tables of a process that died are taken "
            "over by another (default 3)"
        ),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar=_("COUNT"),
        help=_(
            "serve the tables in this many worker processes, a share each, behind this one, "
            "which keeps the connections and the lobby (default 0: all in this process; "
            "docs/operations.md)"
        ),
    )
    parser.add_argument(
        "--shares-bus",
        default=None,
        metavar=_("URL"),
        help=_(
            "with --workers and --store: the shares are served by 'serve --worker-of' "
            "processes on any machine, found through this Redis, not by this one's children "
            "(docs/operations.md)"
        ),
    )
    parser.add_argument(
        "--worker-of",
        default=None,
        metavar=_("URL"),
        help=_(
            "be a share worker of the front whose --shares-bus is this Redis: take a free "
            "share of --workers under a lease and serve its tables from --store; its link "
            "listens on --host and --port (docs/operations.md)"
        ),
    )
    parser.add_argument(
        "--link-secret",
        default=None,
        metavar=_("FILE"),
        help=_(
            "with --shares-bus or --worker-of: the file of the secret the front and its share "
            "workers share (else the FIVECROWNS_LINK_SECRET environment variable)"
        ),
    )
    for option, help_text in TLS_OPTIONS.items():
        parser.add_argument(option, default=None, metavar=_("FILE"), help=_(help_text))
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        metavar=_("RATE"),
        help=_("messages per second per connection (default 20)"),
    )


def run(args: argparse.Namespace) -> int:
    import asyncio

    from fivecrowns.net.server.store import MemoryStore, Store

    if args.memory and args.store is not None:
        print(_("--memory and --store cannot go together."), file=sys.stderr)
        return 2
    if args.store is not None and not _is_postgresql(args.store):
        print(_(NOT_A_STORE), file=sys.stderr)
        return 2
    if args.list_accounts or args.approve_account or args.disable_account or args.enable_account:
        return _operate(args)
    for name in ("grace", "bot_delay", "rate", "max_per_address"):
        if getattr(args, name) < 0:
            option = "--" + name.replace("_", "-")
            print(_(NEGATIVE).format(option=option), file=sys.stderr)
            return 2
    from fivecrowns.net.server.proxy import proxy_address

    proxies = []
    for value in args.trusted_proxy:
        try:
            proxies.append(proxy_address(value))
        except ValueError:
            print(_(NOT_AN_ADDRESS).format(value=value), file=sys.stderr)
            return 2
    args.trusted_proxy = proxies
    if args.bus is not None:
        problem = _bus_problem(args)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
    problem = _workers_problem(args) or shares_problem(args)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    if args.worker_of is not None:
        return run_share_worker(args)
    if not 0 <= args.port <= 65535:
        print(_("--port must be 0 to 65535, not {port}.").format(port=args.port), file=sys.stderr)
        return 2
    data: Path | None = None
    lock: Any = None
    store: Store
    where: str | None
    if args.memory:
        store = MemoryStore()
        where = None  # why: "kept in memory only" is its own sentence (STARTED_IN_MEMORY)
    else:
        from fivecrowns.storage.locks import exclusive_lock
        from fivecrowns.storage.paths import data_dir

        data = args.data if args.data is not None else data_dir() / "server"
        try:
            data.mkdir(parents=True, exist_ok=True)
            lock = exclusive_lock(data / "server.lock")
        except OSError as error:
            problem = _("Cannot use the data folder {path}: {reason}.")
            print(problem.format(path=data, reason=error.strerror), file=sys.stderr)
            return 1
        if lock is None and args.bus is None:  # why: with --bus sharing it is the point
            print(_(IN_USE).format(path=data), file=sys.stderr)
            return 1
        opened = _open_store(args, data)
        if isinstance(opened, str):
            print(opened, file=sys.stderr)
            return 1
        store, where = opened
    try:
        if not asyncio.run(_serve(args, store, data, where)):
            print(_(LEASE_LOST), file=sys.stderr)
            return 1
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


def _bus_problem(args: argparse.Namespace) -> str | None:
    """Why ``--bus`` cannot be used as given, in a sentence; None if it can."""
    if args.memory:
        return _("--bus needs the tables on disk, shared by every process: leave out --memory.")
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
        Redis.from_url(args.bus)
    except ValueError:
        return _("--bus takes an address such as redis://127.0.0.1:6379, not {value}.").format(
            value=args.bus
        )
    return None


def _workers_problem(args: argparse.Namespace) -> str | None:
    """Why ``--workers`` cannot be used as given, in a sentence; None if it can."""
    if args.workers == 0:
        return None
    if not 1 <= args.workers <= MOST_WORKERS:
        return _("--workers must be 0 to {most}, not {count}.").format(
            most=MOST_WORKERS, count=args.workers
        )
    if args.memory:
        return _(
            "--workers needs the tables on disk, shared by the worker processes: leave out "
            "--memory."
        )
    if args.bus is not None and args.shares_bus is None and args.worker_of is None:
        # why: children on one machine have no lease of their own to hand over to a spare
        return _(
            "--workers and --bus go together only with --shares-bus: the fronts share "
            "workers that run apart from them."
        )
    return None


async def _serve(
    args: argparse.Namespace, store: Any, data: Path | None, where: str | None
) -> bool:
    """Serve until stopped; False if this process lost the tables to another (--bus)."""
    import asyncio
    import contextlib
    import signal

    from aiohttp import web

    from fivecrowns.net.server.accounts import AccountRules
    from fivecrowns.net.server.app import Server, make_app
    from fivecrowns.net.server.collector import QuietCollector
    from fivecrowns.net.server.limits import Limits
    from fivecrowns.net.server.quiet import quiet_bad_requests
    from fivecrowns.net.server.resources import AcceptErrors, files_for_connections

    loop = asyncio.get_running_loop()
    loop.set_exception_handler(AcceptErrors())
    quiet_bad_requests()
    connections, files = files_for_connections(args.max_connections)
    limits = Limits(
        grace=args.grace,
        bot_delay=args.bot_delay,
        max_tables=args.max_tables,
        max_connections=connections,
        max_per_address=args.max_per_address,
        allowed_origins=tuple(args.allow_origin),
        trusted_proxies=tuple(args.trusted_proxy),
        rate=args.rate,
        burst=max(40, int(args.rate * 2)),
    )
    history = None if data is None else data / "history.jsonl"
    rules = AccountRules(sign_up=args.sign_up)
    server: Any
    if args.workers:
        from fivecrowns.net.server.workers import Front, make_front_app

        # why the store's address: each worker opens the same store itself
        store_at = args.store if args.store is not None else str(where)
        server = Front(
            store,
            limits,
            history=history,
            seed=args.seed,
            accounts=rules,
            workers=args.workers,
            store_at=store_at,
            remote=_remote(args),
        )
    else:
        server = Server(store, limits, history=history, seed=args.seed, accounts=rules)
    # why a short shutdown timeout: the server closes every connection itself when it stops
    # (Server.stop); aiohttp's 60 s wait for handlers is only a last guard.
    # why keepalive_timeout: aiohttp starts it when a connection opens and closes the
    # connection if no whole request has come by then, so it is the deadline for a half-sent
    # request (slowloris) as well as for an idle keep-alive one; a WebSocket is not idle
    node: Any = None
    if args.bus is not None:
        from fivecrowns.net.server.cluster import Node

        node = Node(server, store, args.bus, args.host, args.lease)
    if node is not None:
        app = node.public_app(args.sounds)
    elif args.workers:
        app = make_front_app(server, args.sounds)
    else:
        app = make_app(server, args.sounds)
    runner = web.AppRunner(
        app,
        handle_signals=False,
        access_log=None,
        shutdown_timeout=3.0,
        keepalive_timeout=limits.request_deadline,
    )
    await runner.setup()
    # why reuse_port with --bus: every process of a cluster listens on the one public port
    # (and hands each connection it accepts to the owner, net/server/handoff.py)
    site = (
        web.TCPSite(runner, args.host, args.port, backlog=1024)
        if node is None
        else node.public_site(runner, args.host, args.port, backlog=1024)
    )
    await site.start()
    port = runner.addresses[0][1] if runner.addresses else args.port
    if where is None:
        print(_(STARTED_IN_MEMORY).format(host=args.host, port=port), flush=True)
    else:
        print(_(STARTED).format(host=args.host, port=port, where=where), flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(_(OPEN_WARNING).format(host=args.host), flush=True)
    if connections < args.max_connections:
        text = ngettext(
            "The open-file limit (ulimit -n) is {files}, so this server takes at most {count} "
            "connection at once, not {asked}.",
            "The open-file limit (ulimit -n) is {files}, so this server takes at most {count} "
            "connections at once, not {asked}.",
            connections,
        )
        print(text.format(files=files, count=connections, asked=args.max_connections), flush=True)
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        # why suppress: Windows has no add_signal_handler; Ctrl+C still stops it there
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    # why after the start: the tables recovered and the modules loaded live as long as the
    # server, so they are frozen out of every collection (net/server/collector.py)
    collector = QuietCollector.from_environment()
    collector.start()
    collecting = asyncio.create_task(collector.run())
    if node is None:
        await stop.wait()
        collecting.cancel()
        await runner.cleanup()
    else:
        await _take_part(node, stop, args.host, runner)
        collecting.cancel()
    collector.stop()
    return node is None or not node.lost


async def _take_part(node: Any, stop: Any, host: str, runner: Any) -> None:
    """With --bus: listen on a private port too (where the others reach this process), hold
    or wait for the lease, until stopped or the lease is lost; then stop serving (every move
    saved) before the lease is given up, so the next owner finds them all."""
    import asyncio

    from aiohttp import web

    private = web.AppRunner(node.private_app(), handle_signals=False, access_log=None)
    await private.setup()
    await web.TCPSite(private, host, 0).start()
    port = private.addresses[0][1]
    try:
        async with node.running(f"ws://{host}:{port}/ws"):
            waits = [asyncio.create_task(stop.wait()), asyncio.create_task(node.stopped.wait())]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for wait in waits:
                wait.cancel()
            await runner.cleanup()
    finally:
        await private.cleanup()


def _remote(args: argparse.Namespace) -> Any:
    """With --shares-bus: where the front finds its share workers (None: its children)."""
    if args.shares_bus is None:
        return None
    from fivecrowns.net.server.shares import RemoteShares

    return RemoteShares(args.shares_bus, args.secret, args.lease, args.link_tls)


def _is_postgresql(value: str) -> bool:
    return value.startswith(("postgresql://", "postgres://"))


def _open_store(args: argparse.Namespace, data: Path) -> tuple[Any, str] | str:
    """The store ``--store`` names (PostgreSQL), or else the data folder's SQLite file, with
    where it is for the operator; or the sentence saying why it cannot be opened."""
    from fivecrowns.net.server.store import SqliteStore
    from fivecrowns.storage.migrations import NewerFileError

    bus = getattr(args, "bus", None) is not None
    if bus and args.store is None:
        from fivecrowns.net.server.cluster import FencedStore

        try:
            return FencedStore(data / "tables.sqlite3"), str(data / "tables.sqlite3")
        except NewerFileError as error:
            return str(error)
    if args.store is not None:
        from fivecrowns.net.server.pgstore import FencedPgStore, PgStore, StoreUnavailableError
        from fivecrowns.storage.pgschema import NewerSchemaError

        store: PgStore
        try:
            if bus:  # why fenced: several processes write the one database (cluster.py)
                from fivecrowns.net.server.cluster import FENCE

                store = FencedPgStore(args.store, FENCE)
            else:
                store = PgStore(args.store)
        except (StoreUnavailableError, NewerSchemaError) as error:
            return str(error)
        return store, store.where
    try:
        return SqliteStore(data / "tables.sqlite3"), str(data / "tables.sqlite3")
    except NewerFileError as error:
        return str(error)


def _operate(args: argparse.Namespace) -> int:
    """The operator's account commands, on the data folder's tables file (the server may run:
    SQLite lets both use it) or on the database --store names."""
    from fivecrowns.storage.accounts import Status, find_account
    from fivecrowns.storage.paths import data_dir

    if args.memory:
        print(_("A server with --memory keeps no accounts to change."), file=sys.stderr)
        return 2
    data = args.data if args.data is not None else data_dir() / "server"
    try:
        data.mkdir(parents=True, exist_ok=True)
        opened = _open_store(args, data)
    except OSError as error:
        problem = _("Cannot use the data folder {path}: {reason}.")
        print(problem.format(path=data, reason=error.strerror), file=sys.stderr)
        return 1
    if isinstance(opened, str):
        print(opened, file=sys.stderr)
        return 1
    store = opened[0]
    try:
        if args.list_accounts:
            accounts = store.accounts.accounts()
            for account in accounts:
                status = _(STATUS_WORDS[account.status])
                print(_(ACCOUNT_LINE).format(name=account.name, status=status))
            if not accounts:
                print(_(NO_ACCOUNTS))
            return 0
        changes: list[tuple[str, Status]] = [
            (args.approve_account, "active"),
            (args.enable_account, "active"),
            (args.disable_account, "disabled"),
        ]
        for name, status in changes:
            if name is None:
                continue
            found = find_account(store.accounts, name)
            if found is None:
                print(_(NO_ACCOUNT).format(name=name), file=sys.stderr)
                return 1
            store.accounts.set_status(found.id, status)
            if status == "disabled":
                store.accounts.end_sessions(found.id)
            print(_(ACCOUNT_CHANGED).format(name=found.name, status=_(STATUS_WORDS[status])))
        return 0
    finally:
        store.close()
