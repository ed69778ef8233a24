"""The shares of ``serve --workers N`` served by worker processes on other machines, each
under its own lease (issue 29).

A *share worker* is ``fivecrowns serve --worker-of redis://... --workers N --store
postgresql://...``, on any machine. It listens for the front's link on ``--host``/``--port``,
takes a free share's lease ``fivecrowns:share:{k}`` in Redis (an epoch, renewal and expiry as
:class:`~fivecrowns.net.server.lease.Lease` does; the lease's value says where its link
listens), fences the store for that share (:class:`FencedPgStore` with the fence
``share:{k}``: every write of its inputs checks its epoch in the same statement, so a worker
that lost its lease never writes a move again), brings back that share's tables, and serves
them to the front over the same framed msgspec link as a child worker (workers.py), once the
front has proved it knows the shared secret.

The front is ``serve --workers N --shares-bus redis://...``: instead of starting children, it
reads each share's holder in Redis, connects to its link over TCP, and relays as it does to a
child. When the holder changes (a newer epoch: the worker died, kill -9, and another took the
share after the lease expired) or its lease is gone, the front drops that link, connects to
the new holder, and puts the connections back as it does for a restarted child
(:meth:`Front._put_back`): each hears every event after the last it was sent.

The link's handshake (why: the link carries every player's cards and moves; anyone who can
reach the port must not read or steer it): the worker sends ``MAGIC`` and a random nonce; the
front answers with its own nonce, its epoch (its cluster lease's with ``--bus``, else 0) and an
HMAC-SHA256 of them under the shared secret; the worker checks it (constant-time) and answers
with its own HMAC, its share and its epoch, which the front checks in turn. Every read of the
handshake has a fixed size and a deadline; at most ``HANDSHAKES_AT_ONCE`` handshakes are under
way at once, ``HANDSHAKES_PER_ADDRESS`` from one address (more are closed at once); the link's
batches are bounded by ``LINK_MOST`` as between a front and its children. The link is
authenticated, and encrypted only with ``--link-cert``, ``--link-key`` and ``--link-ca``
(mutual TLS: each end shows a certificate of the operator's own CA, :func:`link_context`);
without them, run it on a private network (or a VPN, or a TLS tunnel).

Several fronts (``--bus``, cluster.py): only the holder of the cluster lease links. A front
with a newer epoch than any the worker has seen ends the share's term (the old front's link is
dropped, everything saved, the lease given up and taken again); the new front then links to
the share's next holder. A front with an older epoch than one seen is refused (why: it lost the
cluster lease and is about to stop).

Needs the ``cluster`` extra (redis-py) and the ``postgresql`` one (psycopg).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import random
import socket
import ssl
import struct
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.server.lease import DROPS, Holder, Lease, connect
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.pgstore import FencedOutError, FencedPgStore
from fivecrowns.net.server.store import StoreError
from fivecrowns.net.server.workers import (
    BATCHES,
    LinkError,
    Sits,
    Worker,
    WorkerServer,
    _read_batch,
    _to_worker,
)

__all__ = [
    "SECRET_ENV",
    "RemoteShares",
    "ShareWorkerConfig",
    "read_secret",
    "serve_shares",
    "share_key",
]

log = logging.getLogger(__name__)

SECRET_ENV = "FIVECROWNS_LINK_SECRET"
SECRET_LEAST = 16  # bytes: a shorter secret is refused (guessable)
SECRET_MOST = 4096  # bytes read of a secret file at most
MAGIC = b"5CRL2"  # the link's first bytes, with its version
NONCE = 32
_MAC = 32
_IDENT = struct.Struct("!QQ")  # the worker's share and epoch
_FRONT = struct.Struct("!Q")  # the front's epoch
HANDSHAKE_WAIT = 5.0  # seconds each side gives the other to prove itself
# why caps: each handshake under way holds a socket and a task for up to two waits; a flood
# of connections to the link's port must not use up the worker's files or memory
HANDSHAKES_AT_ONCE = 32
HANDSHAKES_PER_ADDRESS = 4
KEEPALIVE = 3  # seconds between a quiet link's keep-alive probes (3 unanswered end it)
TERMS = 10**9  # lease terms a share worker serves at most (years of fail-overs)
TRIES = 10**9  # looks in Redis for a share's holder at most (years of waiting)

NO_SECRET = N_(
    "The link between the front and its share workers needs a shared secret of at least "
    "{least} bytes: give its file with --link-secret, or set {variable}."
)
BAD_SECRET_FILE = N_("Cannot read the link secret {path}: {reason}.")
BAD_TLS = N_(
    "Cannot use the link's certificate, key and authority (--link-cert, --link-key, "
    "--link-ca): {reason}."
)
SHARE_WORKER_STARTED = N_(
    "Share worker: its link listens on {address}; it takes a free share of {count} at "
    "{bus}. Ctrl+C stops it."
)


def share_key(index: int) -> str:
    """The Redis key of share ``index``'s lease."""
    return f"fivecrowns:share:{index}"


def read_secret(path: str | None) -> bytes:
    """The shared secret, from the file ``path`` or else the environment; ValueError with
    the sentence for the operator if there is none fit to use."""
    secret: bytes
    if path is not None:
        try:
            with open(path, "rb") as file:
                secret = file.read(SECRET_MOST + 1)
        except OSError as error:
            text = _(BAD_SECRET_FILE).format(path=path, reason=error.strerror or error)
            raise ValueError(text) from None
    else:
        secret = os.environ.get(SECRET_ENV, "").encode()
    secret = secret.strip()
    if not SECRET_LEAST <= len(secret) <= SECRET_MOST:
        raise ValueError(_(NO_SECRET).format(least=SECRET_LEAST, variable=SECRET_ENV))
    return secret


def link_context(serving: bool, cert: str, key: str, ca: str) -> ssl.SSLContext:
    """The TLS of a link, mutual: the worker (``serving``) and the front each show a
    certificate of the authority ``ca`` and accept only one of it; ValueError with the
    sentence for the operator if the files cannot be used."""
    purpose = ssl.Purpose.CLIENT_AUTH if serving else ssl.Purpose.SERVER_AUTH
    try:
        context = ssl.create_default_context(purpose, cafile=ca)
        context.load_cert_chain(cert, key)
    except (OSError, ValueError) as error:  # why ValueError too: ssl's for a bad file's text
        reason = getattr(error, "strerror", None) or getattr(error, "reason", None) or error
        raise ValueError(_(BAD_TLS).format(reason=reason)) from None
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if serving:
        context.verify_mode = ssl.CERT_REQUIRED
    else:
        # why no host name: a worker is found by the address in its lease, and only the
        # operator's own authority signs; the certificate, not the name, is what is checked
        context.check_hostname = False
    return context


def keep_alive(writer: asyncio.StreamWriter) -> None:
    """TCP keep-alive probes on a link, every ``KEEPALIVE`` seconds, so a link whose other
    end's machine vanished ends within a few probes (why: without it a half-open link stalls
    its share's tables for the kernel's two hours; the lease does not see it, as both ends
    may still reach Redis)."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", KEEPALIVE), ("TCP_KEEPINTVL", KEEPALIVE)):
            if hasattr(socket, name):  # why: Linux's names; other systems keep their own
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
        if hasattr(socket, "TCP_KEEPCNT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)


def _mac(secret: bytes, *parts: bytes) -> bytes:
    return hmac.new(secret, b"".join(parts), hashlib.sha256).digest()


async def _exactly(reader: asyncio.StreamReader, size: int) -> bytes | None:
    """``size`` bytes within the handshake's deadline; None if they do not come."""
    try:
        return await asyncio.wait_for(reader.readexactly(size), HANDSHAKE_WAIT)
    except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
        return None


async def front_proves(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    secret: bytes,
    share: int,
    epoch: int,
    accept: Callable[[int], bool] = lambda _epoch: True,
) -> bool:
    """The worker's side of the handshake: True if the front knows the secret and
    ``accept`` takes its epoch (then the worker has told it its share and epoch)."""
    mine = os.urandom(NONCE)
    writer.write(MAGIC + mine)
    answer = await _exactly(reader, NONCE + _FRONT.size + _MAC)
    if answer is None:
        return False
    theirs, front, proof = answer[:NONCE], answer[NONCE:-_MAC], answer[-_MAC:]
    if not hmac.compare_digest(proof, _mac(secret, b"front", mine, theirs, front)):
        return False
    if not accept(_FRONT.unpack(front)[0]):
        return False
    ident = _IDENT.pack(share, epoch)
    writer.write(_mac(secret, b"worker", theirs, mine, ident) + ident)
    return True


async def link_to(
    address: str,
    secret: bytes,
    share: int,
    front: int = 0,
    tls: ssl.SSLContext | None = None,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int]:
    """The front's side: a link to the worker at ``address`` (host:port) that proved it knows
    the secret and serves ``share``; with its epoch. ``front`` is this front's epoch (its
    cluster lease's; 0 without one); ``tls``, the link's TLS (:func:`link_context`) if any.
    LinkError or OSError if not."""
    host, _colon, port = address.rpartition(":")
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(
            host.strip("[]"),
            int(port),
            limit=2**20,
            ssl=tls,
            ssl_handshake_timeout=None if tls is None else HANDSHAKE_WAIT,
        ),
        HANDSHAKE_WAIT,
    )
    try:
        hello = await _exactly(reader, len(MAGIC) + NONCE)
        if hello is None or not hello.startswith(MAGIC):
            raise LinkError(f"{address} does not speak the link")
        theirs = hello[len(MAGIC) :]
        mine = os.urandom(NONCE)
        told = _FRONT.pack(front)
        writer.write(mine + told + _mac(secret, b"front", theirs, mine, told))
        answer = await _exactly(reader, _MAC + _IDENT.size)
        if answer is None:
            raise LinkError(f"{address} refused the link (another secret?)")
        proof, ident = answer[:_MAC], answer[_MAC:]
        if not hmac.compare_digest(proof, _mac(secret, b"worker", mine, theirs, ident)):
            raise LinkError(f"{address} did not prove it knows the secret")
        served, epoch = _IDENT.unpack(ident)
        if served != share:
            raise LinkError(f"{address} serves share {served}, not {share}")
    except BaseException:
        writer.close()
        raise
    keep_alive(writer)
    return reader, writer, epoch


# --- the front's side ------------------------------------------------------------------------


class RemoteShares:
    """What a front needs to find and reach the worker of each share."""

    def __init__(
        self, bus: str, secret: bytes, ttl: float, tls: ssl.SSLContext | None = None
    ) -> None:
        self.redis = connect(bus)
        self.secret = secret
        self.ttl = ttl
        self.tls = tls
        self.epoch = 0  # the front's, told to each worker: its cluster lease's (0: none)

    async def holder(self, index: int) -> tuple[int, str] | None:
        """The epoch and link address of share ``index``'s holder (None: nobody, or Redis
        unreachable now)."""
        try:
            value = await self.redis.get(share_key(index))
        except DROPS:
            return None
        holder = None if value is None else Holder.parse(str(value))
        return None if holder is None else (holder.epoch, holder.address)

    async def link(
        self, index: int, after: int
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int]:
        """A link to share ``index``'s holder, once one holds it with an epoch past ``after``
        (why past: the one before is dead or cut off), waiting as long as it takes."""
        told = None  # why: a link refused again and again (two fronts?) is logged once
        for _try in range(TRIES):
            found = await self.holder(index)
            if found is not None and found[0] > after:
                try:
                    reader, writer, epoch = await link_to(
                        found[1], self.secret, index, self.epoch, self.tls
                    )
                except (OSError, LinkError, TimeoutError, ValueError) as error:
                    if told != found:
                        told = found
                        log.warning("Share %d: no link to %s: %s", index, found[1], error)
                else:
                    if epoch == found[0]:
                        return reader, writer, epoch
                    writer.close()  # why: it took the share again meanwhile; read anew
            await asyncio.sleep(min(0.2, self.ttl / 5))
        raise LinkError(f"share {index} found no worker")

    async def watch(self, index: int, epoch: int, writer: asyncio.StreamWriter) -> None:
        """Close the link ``writer`` once share ``index`` is no longer held at ``epoch`` (its
        lease expired, or a newer worker took it): why: a worker whose machine died may never
        close its socket, and one cut off must not be relayed to."""
        for _look in range(TRIES):
            await asyncio.sleep(self.ttl / 4)
            try:
                value = await self.redis.get(share_key(index))
            except DROPS:
                continue  # why: Redis away is not the worker away; its lease says later
            if value is None or not str(value).startswith(f"{epoch} "):
                log.warning("Share %d is no longer held at epoch %d; linking anew", index, epoch)
                writer.close()
                return

    async def close(self) -> None:
        await self.redis.aclose()


# --- a share worker ---------------------------------------------------------------------------


class ShareStore(FencedPgStore):
    """A share's fenced store that says when it was fenced out (``fenced``): why: then a
    newer worker claimed the share, and this one's lease is lost at once, not at its next
    renewal (once refused, every later flush is refused too: FencedPgStore)."""

    def __init__(self, url: str, fence: str) -> None:
        super().__init__(url, fence)
        self.fenced = asyncio.Event()

    def flush(self) -> None:
        try:
            super().flush()
        except FencedOutError:
            self.fenced.set()
            raise


@dataclass
class ShareWorkerConfig:
    bus: str
    store: str
    count: int
    host: str
    port: int
    secret: bytes
    ttl: float
    limits: Limits
    seed: int | None = None
    tls: ssl.SSLContext | None = None  # the link's (link_context), if any


class _Term:
    """One lease on one share: the link that comes for it, and whether the lease was lost."""

    def __init__(self, index: int, epoch: int) -> None:
        self.index = index
        self.epoch = epoch
        self.links: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.Queue(maxsize=1)
        )
        self.lost = asyncio.Event()
        self.superseded = asyncio.Event()  # a newer front came: this term's link is the old's
        self.linked = False


async def serve_shares(
    config: ShareWorkerConfig, started: Callable[[str], None], stop: asyncio.Event
) -> None:
    """Serve one share at a time, until ``stop``: take a free one, serve it to the front that
    links, and take one again when the link ends (the front stopped) or the lease is lost."""
    term: _Term | None = None
    serving = asyncio.Event()  # set while a term is
    newest = [0]  # the newest front's epoch this worker has heard
    shaking: dict[str, int] = {}  # handshakes under way, by the front's address

    def accept(here: _Term, front: int) -> bool:
        """Whether the front of epoch ``front`` may link to ``here`` (and what it ends)."""
        if front < newest[0]:
            log.warning("A front of epoch %d is older than %d; refused", front, newest[0])
            return False
        if here.lost.is_set() or here.superseded.is_set() or term is not here:
            return False
        if here.linked:
            if front > newest[0]:
                # why end the term: the old front lost the cluster lease (or died with its
                # link half-open); the new one links to the share's next holder
                log.warning(
                    "A newer front (epoch %d) came; share %d is handed on", front, here.index
                )
                newest[0] = front
                here.superseded.set()
            return False  # why: one front at a time
        newest[0] = front
        return True

    async def on_link(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if (
            sum(shaking.values()) >= HANDSHAKES_AT_ONCE
            or shaking.get(address, 0) >= HANDSHAKES_PER_ADDRESS
        ):
            writer.close()  # why at once: a flood of connections waits for nothing here
            return
        shaking[address] = shaking.get(address, 0) + 1
        try:
            await shake(reader, writer)
        finally:
            shaking[address] -= 1
            if not shaking[address]:
                del shaking[address]

    async def shake(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if term is None:
            # why wait: the lease is in Redis, where the front reads it, a moment before the
            # store is claimed and the term begins
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(serving.wait(), HANDSHAKE_WAIT)
        here = term
        if here is None or here.lost.is_set():
            writer.close()  # why: only under a lease
            return
        proved = await front_proves(
            reader, writer, config.secret, here.index, here.epoch, lambda f: accept(here, f)
        )
        if not proved:
            writer.close()
            return
        here.linked = True
        keep_alive(writer)
        here.links.put_nowait((reader, writer))

    listening = await asyncio.start_server(
        on_link,
        config.host,
        config.port,
        limit=2**20,
        ssl=config.tls,
        ssl_handshake_timeout=None if config.tls is None else HANDSHAKE_WAIT,
    )
    bound = listening.sockets[0].getsockname()
    address = f"{config.host}:{bound[1]}"
    started(address)
    redis = connect(config.bus)
    # why host and pid: the lease's value names who holds it, for the operator
    name = f"{socket.gethostname()}/{os.getpid()}".replace(" ", "_")
    floors: dict[int, int] = {}
    try:
        for _term in range(TERMS):
            if stop.is_set():
                break
            taken = await _take(redis, config, name, address, floors, stop)
            if taken is None:
                break
            lease, store = taken
            term = _Term(int(lease.key.rsplit(":", 1)[1]), lease.epoch)
            serving.set()
            try:
                await _serve_term(config, term, lease, store, stop)
            finally:
                linked, term = term.linked, None
                serving.clear()
            if not linked:  # why: a term that failed before its link must not spin
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), config.ttl / 3)
    finally:
        listening.close()
        await redis.aclose()


async def _take(
    redis: Any,
    config: ShareWorkerConfig,
    name: str,
    address: str,
    floors: dict[int, int],
    stop: asyncio.Event,
) -> tuple[Lease, ShareStore] | None:
    """A free share's lease, and the store fenced at its epoch (None: stopped)."""
    for _try in range(TRIES):
        order = list(range(config.count))
        random.shuffle(order)  # why: workers starting together try different shares first
        for index in order:
            lease = Lease(redis, share_key(index), name, address, config.ttl)
            try:
                taken = await lease.take(floors.get(index, 0))
            except DROPS as error:
                log.warning("Redis cannot be reached (%s); trying again", error)
                break
            if not taken:
                continue
            try:
                store = await asyncio.to_thread(ShareStore, config.store, f"share:{index}")
            except StoreError as error:  # why: a database away a moment; the lease is given up
                log.warning("Share %d: the database cannot be used (%s)", index, error)
                with contextlib.suppress(*DROPS):
                    await lease.give_up()
                break
            try:
                # why claim before reading a table: a write of the worker before waits for it
                # (FOR SHARE), and any write after it is refused; so what is read is whole
                store.claim(lease.epoch)
            except (FencedOutError, StoreError) as error:
                log.warning("Share %d: epoch %d refused (%s)", index, lease.epoch, error)
                with contextlib.suppress(StoreError):
                    floors[index] = store.fence()
                store.close()
                with contextlib.suppress(*DROPS):
                    await lease.give_up()
                continue
            return lease, store
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), config.ttl / 3)
        if stop.is_set():
            return None
    return None


async def _renew(lease: Lease, term: _Term, ttl: float, fenced: asyncio.Event) -> None:
    """Renew the lease every third of its time; once it cannot have been renewed within its
    time, or the store was fenced out (a newer worker claimed the share), it is lost
    (``term.lost``)."""
    renewed = time.monotonic()
    for _renewal in range(10**12):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(fenced.wait(), ttl / 3)
        if fenced.is_set():
            break
        try:
            if not await lease.renew():
                break
            renewed = time.monotonic()
        except DROPS:
            if time.monotonic() - renewed >= ttl:
                break
    log.error("The lease of share %d was lost; its tables are another's now", term.index)
    term.lost.set()


async def _serve_term(
    config: ShareWorkerConfig,
    term: _Term,
    lease: Lease,
    store: ShareStore,
    stop: asyncio.Event,
) -> None:
    """Serve share ``term.index`` under ``lease`` until the link ends, the lease is lost or
    the worker is stopped; every move is saved (while the lease is held) before it ends."""
    server = WorkerServer(store, config.limits, history=None, seed=config.seed)
    server.lobby.share = (term.index, config.count)
    renewing = asyncio.create_task(_renew(lease, term, config.ttl, store.fenced))
    tasks: list[asyncio.Task[Any]] = []
    writer: asyncio.StreamWriter | None = None
    try:
        try:
            server.recover()  # why not in a thread: it starts the recovered tables' timers
        except Exception as error:  # why any: half a share's tables is no state to serve from
            log.error("Share %d: its tables could not be loaded: %s", term.index, error)
            return
        server.start_bots()
        linked = await _first(term.links.get(), term.lost.wait(), stop.wait())
        if not isinstance(linked, tuple):
            return
        reader, writer = linked
        worker = Worker(server, writer, config.limits)
        server.lobby.dirty = True
        worker.control(Sits(list(server.lobby.seated_players())))
        worker.flush()  # why: the first summary says this share is ready
        tasks = [
            asyncio.create_task(server.sweeps()),
            asyncio.create_task(worker.summaries()),
        ]
        await _first(
            _read(reader, worker, term.index),
            term.lost.wait(),
            term.superseded.wait(),
            stop.wait(),
        )
    finally:
        for task in (renewing, *tasks):
            task.cancel()
        if term.lost.is_set() and writer is not None:
            writer.close()  # why first: nothing more goes to the front from a lost share
        await server.stop()
        for room in server.rooms.values():
            server.pacing.halt(room)
        server.close_workers()
        await asyncio.to_thread(store.close)  # why: fenced if lost; a lost share writes nothing
        if writer is not None:
            writer.close()
        if not term.lost.is_set():
            with contextlib.suppress(*DROPS):
                await lease.give_up()


async def _read(reader: asyncio.StreamReader, worker: Worker, index: int) -> None:
    for _batch in range(BATCHES):
        try:
            body = await _read_batch(reader)
            ops = [] if body is None else _to_worker.decode(body)
        except (LinkError, msgspec.DecodeError) as error:  # why: the link's end, not the worker's
            log.error("Share %d: the front broke the link's rules (%s); it ends", index, error)
            return
        if body is None:
            return
        for op in ops:
            worker.handle(op)
        worker.handled += len(ops)
        worker.kick()
        if worker.stopped.is_set():
            return


async def _first(*waits: Awaitable[Any]) -> Any:
    """The result of whichever of ``waits`` ends first; the others are cancelled."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
    return next(iter(done)).result()
