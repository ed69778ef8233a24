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
front answers with its own nonce and an HMAC-SHA256 of both under the shared secret; the
worker checks it (constant-time) and answers with its own HMAC, its share and its epoch, which
the front checks in turn. Every read of the handshake has a fixed size and a deadline; the
link's batches are bounded by ``LINK_MOST`` as between a front and its children. The link is
authenticated, not encrypted: run it on a private network (or a VPN, or a TLS tunnel).

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
import struct
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.server.lease import DROPS, Lease, connect
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
MAGIC = b"5CRL1"  # the link's first bytes, with its version
NONCE = 32
_MAC = 32
_IDENT = struct.Struct("!QQ")  # the worker's share and epoch
HANDSHAKE_WAIT = 5.0  # seconds each side gives the other to prove itself
KEEPALIVE = 3  # seconds between a quiet link's keep-alive probes (3 unanswered end it)
TERMS = 10**9  # lease terms a share worker serves at most (years of fail-overs)
TRIES = 10**9  # looks in Redis for a share's holder at most (years of waiting)

NO_SECRET = N_(
    "The link between the front and its share workers needs a shared secret of at least "
    "{least} bytes: give its file with --link-secret, or set {variable}."
)
BAD_SECRET_FILE = N_("Cannot read the link secret {path}: {reason}.")
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
) -> bool:
    """The worker's side of the handshake: True if the front knows the secret (then the
    worker has told it its share and epoch)."""
    mine = os.urandom(NONCE)
    writer.write(MAGIC + mine)
    answer = await _exactly(reader, NONCE + _MAC)
    if answer is None:
        return False
    theirs, proof = answer[:NONCE], answer[NONCE:]
    if not hmac.compare_digest(proof, _mac(secret, b"front", mine, theirs)):
        return False
    ident = _IDENT.pack(share, epoch)
    writer.write(_mac(secret, b"worker", theirs, mine, ident) + ident)
    return True


async def link_to(
    address: str, secret: bytes, share: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int]:
    """The front's side: a link to the worker at ``address`` (host:port) that proved it knows
    the secret and serves ``share``; with its epoch. LinkError or OSError if not."""
    host, _colon, port = address.rpartition(":")
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host.strip("[]"), int(port), limit=2**20), HANDSHAKE_WAIT
    )
    try:
        hello = await _exactly(reader, len(MAGIC) + NONCE)
        if hello is None or not hello.startswith(MAGIC):
            raise LinkError(f"{address} does not speak the link")
        theirs = hello[len(MAGIC) :]
        mine = os.urandom(NONCE)
        writer.write(mine + _mac(secret, b"front", theirs, mine))
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

    def __init__(self, bus: str, secret: bytes, ttl: float) -> None:
        self.redis = connect(bus)
        self.secret = secret
        self.ttl = ttl

    async def holder(self, index: int) -> tuple[int, str] | None:
        """The epoch and link address of share ``index``'s holder (None: nobody, or Redis
        unreachable now)."""
        from fivecrowns.net.server.lease import Holder

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
                    reader, writer, epoch = await link_to(found[1], self.secret, index)
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
    """A share's fenced store that, once fenced out, stays so: why: the server saves soon
    after each move as well as before each frame, and a refused save drops the inputs it
    held; without this the next save, with nothing left to write, would succeed, and the
    frames of the refused moves would go out as if saved."""

    def __init__(self, url: str, fence: str) -> None:
        super().__init__(url, fence)
        self.fenced = asyncio.Event()

    def flush(self) -> None:
        if self.fenced.is_set():
            raise FencedOutError(f"epoch {self.epoch} is no longer the newest")
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


class _Term:
    """One lease on one share: the link that comes for it, and whether the lease was lost."""

    def __init__(self, index: int, epoch: int) -> None:
        self.index = index
        self.epoch = epoch
        self.links: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.Queue(maxsize=1)
        )
        self.lost = asyncio.Event()
        self.linked = False


async def serve_shares(
    config: ShareWorkerConfig, started: Callable[[str], None], stop: asyncio.Event
) -> None:
    """Serve one share at a time, until ``stop``: take a free one, serve it to the front that
    links, and take one again when the link ends (the front stopped) or the lease is lost."""
    term: _Term | None = None
    serving = asyncio.Event()  # set while a term is

    async def on_link(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if term is None:
            # why wait: the lease is in Redis, where the front reads it, a moment before the
            # store is claimed and the term begins
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(serving.wait(), HANDSHAKE_WAIT)
        here = term
        if here is None or here.linked or here.lost.is_set():
            writer.close()  # why: one front at a time, and only under a lease
            return
        proved = await front_proves(reader, writer, config.secret, here.index, here.epoch)
        if not proved or here.linked or here.lost.is_set():
            writer.close()
            return
        here.linked = True
        keep_alive(writer)
        here.links.put_nowait((reader, writer))

    listening = await asyncio.start_server(on_link, config.host, config.port, limit=2**20)
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
                term = None
                serving.clear()
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
            store = await asyncio.to_thread(ShareStore, config.store, f"share:{index}")
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
        server.recover()  # why not in a thread: it starts the recovered tables' timers
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
        await _first(_read(reader, worker), term.lost.wait(), stop.wait())
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


async def _read(reader: asyncio.StreamReader, worker: Worker) -> None:
    for _batch in range(BATCHES):
        body = await _read_batch(reader)
        if body is None:
            return
        ops = _to_worker.decode(body)
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
