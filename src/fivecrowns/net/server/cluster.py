"""Several ``fivecrowns serve --bus redis://...`` processes behind one address: one owns the
tables, the others pass their connections on to it and take over when it dies.

How it fits together (docs/operations.md, "Several processes"):

- Every process listens on the same public port (``SO_REUSEPORT``: the kernel hands each new
  connection to one of them) and on a private port of its own.
- The tables are owned under one :class:`~fivecrowns.net.server.lease.Lease` in Redis, with
  an epoch. The owner serves every connection itself. The others give each connection they
  accept to the owner when it runs on the same machine (the socket itself, handoff.py), and
  otherwise pass each WebSocket on to the owner's private port as raw bytes (splice.py);
  the clients and the web page see one server.
  The lobby, presence and table list are the owner's, so they are the same from any port.
- The store is shared (one SQLite file in WAL mode on one machine, :class:`FencedStore`; or
  PostgreSQL on one machine or several, ``--store``,
  :class:`~fivecrowns.net.server.pgstore.FencedPgStore`) and *fenced*: the owner writes its
  epoch in the store when it takes over, and every flush of inputs checks, in the same write
  transaction, that no newer epoch has been written since. An owner that lost its lease
  (paused, cut off from Redis) never writes a move again, even before it notices (only the
  inputs are fenced; what else it writes before it notices, such as a table marked finished
  or a game's ratings, is not).
- When the owner dies (``kill -9``), its lease expires after ``ttl`` seconds; another process
  takes it (with a newer epoch), rebuilds every table by replaying its inputs
  (:meth:`Lobby.recover`) and serves. The clients, whose connections dropped, connect again
  with their tokens and last seq, as after a restart: nothing acknowledged is lost (a move is
  flushed before it is answered), nothing is said twice (they hear only what came after
  their last seq).
- A clean stop gives the lease up and says so on the bus (pub/sub), so another process
  takes over at once instead of after ``ttl``.

Why one lease for all the tables and not one per table: it is the smallest design in which
every table has exactly one writer and fail-over is whole; a lease per table (so that several
processes share the work) needs a connection routed by the table it is for, which is the
next step (issue 29). Nothing here runs without ``--bus``. The tables' server may be a front
of share workers (workers.py, shares.py): then the owner links to them when it takes the lease
(:meth:`Server.start_workers`), and holds its connections until they answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from aiohttp import web

from fivecrowns.i18n import N_, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.server.app import FULL_HEADERS, Server, full_response
from fivecrowns.net.server.cycles import let_go_of_websockets
from fivecrowns.net.server.handoff import Handing, HandingSite, Offer, Receiver, enabled, hand_off
from fivecrowns.net.server.lease import DROPS, Holder, Lease, Listener, connect
from fivecrowns.net.server.pgstore import FencedOutError, FencedPgStore
from fivecrowns.net.server.proxy import ProxyHeaders
from fivecrowns.net.server.splice import Owner, Refusal, reach, splice
from fivecrowns.net.server.store import SqliteStore, StoreError
from fivecrowns.net.server.web import accepted_language, add_web_routes

__all__ = ["CHANGING_OVER", "FENCE", "Fenced", "FencedStore", "Node"]

log = logging.getLogger(__name__)

CHANGING_OVER = N_("The server is changing over to another process; connect again in a moment.")
REFUSED = N_("The server cannot take this connection now; try again later.")
BAD_HEADER = N_(
    "The server cannot take this connection: a header of its request is not plain text."
)
LEASE_KEY = "fivecrowns:tables"
CHANNEL = "fivecrowns:owner"
FENCE = "tables"  # the fence's name in the store: the lease it guards
REFUSAL_HEADER = next(iter(FULL_HEADERS))  # how the owner says "full" apart from "changing over"


class Fenced(sqlite3.Error):
    """A write refused: a newer owner has written its epoch in the store."""


class FencedStore(SqliteStore):
    """A :class:`SqliteStore` shared by several processes, whose inputs are written only by
    the process holding the newest epoch (why a subclass: the fence must be checked in the
    same write transaction as the inputs, so it needs the store's own connection)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.epoch = 0
        # why a wait: another process may hold the write lock for a moment (a flush)
        self._db.execute("PRAGMA busy_timeout = 5000")

    def fence(self) -> int:
        """The newest epoch any owner has written (0: none yet)."""
        row = self._db.execute("SELECT epoch FROM fences WHERE name = ?", (FENCE,)).fetchone()
        return 0 if row is None else int(row[0])

    def claim(self, epoch: int) -> None:
        """Write ``epoch`` as the newest; :class:`Fenced` if a newer one is there already."""
        self._db.execute("BEGIN IMMEDIATE")  # why IMMEDIATE: read and write under one lock
        try:
            if self.fence() >= epoch:
                raise Fenced(f"epoch {epoch} is not newer than the store's")
            self._db.execute(
                "INSERT OR REPLACE INTO fences (name, epoch) VALUES (?, ?)", (FENCE, epoch)
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self.epoch = epoch
        self._pending = []  # why: nothing kept before the claim is this owner's

    def flush(self) -> None:
        if not self._pending:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if self.fence() != self.epoch:
                raise Fenced(f"epoch {self.epoch} is no longer the newest")
            self._db.executemany(
                "INSERT INTO inputs (table_id, idx, command) VALUES (?, ?, ?)", self._pending
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._pending = []

    def close(self) -> None:
        with contextlib.suppress(Fenced):  # why: a fenced owner's last inputs are not its own
            self.flush()
        self._db.close()


#: A store with a fence: SQLite's on one machine, PostgreSQL's on several.
SharedStore = FencedStore | FencedPgStore
#: What a store's refusal of an owner that is not the newest looks like.
FENCED = (Fenced, FencedOutError)


class Node:
    """One process of several: owner of the tables or passing connections on to the owner.

    ``host`` is where its private port listens (the address the others reach it at)."""

    def __init__(
        self, server: Server, store: SharedStore, bus: str, host: str, ttl: float = 3.0
    ) -> None:
        self.server = server
        self.store = store
        self.redis = connect(bus)
        self.name = secrets.token_hex(6)
        self.host = host
        self.ttl = ttl
        self.lease = Lease(self.redis, LEASE_KEY, self.name, "", ttl)
        self.owner = False
        self.lost = False  # the lease was lost: this process must stop
        self.stopped = asyncio.Event()  # set when this process must stop (the lease lost)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._renewed = 0.0
        # why counted: a connection passed on holds this process's socket and file (and one
        # to the owner), so it counts toward --max-connections here as one served does
        self.forwarded = 0
        self.handoff = enabled()
        self.receiver = Receiver(self._adopt)
        self._public: Callable[[], asyncio.BaseProtocol] | None = None
        # who held the lease at the last look (the lease's beat looks every ttl / 3), and the
        # look under way: a crowd of connections is then not a crowd of Redis requests
        # (redis-py's pool holds 100 connections and refuses the 101st at once)
        self._holder: Holder | None = None
        self._holder_seen = float("-inf")
        self._looking: asyncio.Future[Holder | None] | None = None

    # --- the two web applications --------------------------------------------------------

    def public_app(self, sounds: str | None = None) -> web.Application:
        """What the shared public port serves: the web page and ``/ws``."""
        app = web.Application(middlewares=[let_go_of_websockets])  # why: cycles.py
        if self.server.limits.trusted_proxies:
            app.middlewares.append(ProxyHeaders(self.server.limits.trusted_proxies).middleware)
        add_web_routes(app, sounds)
        app.router.add_get("/ws", self.handle_ws)

        async def stopping(app: web.Application) -> None:
            if self.owner or self.lost:  # why: as one process does (Server.stop)
                await self.server.stop()

        app.on_shutdown.append(stopping)
        app.cleanup_ctx.append(self._running)
        return app

    def private_app(self) -> web.Application:
        """What this process's own port serves to the others: ``/ws``, while it owns the
        tables; the client's address comes in X-Forwarded-For from the forwarding process."""
        app = web.Application(middlewares=[let_go_of_websockets])
        peers = sorted({"127.0.0.1", self.host})
        app.middlewares.append(ProxyHeaders(peers).middleware)
        app.router.add_get("/ws", self.handle_private)
        return app

    async def handle_ws(self, request: web.Request) -> web.StreamResponse:
        if self.owner:
            return await self.server.handle_ws(request)
        return await self._forward(request)

    async def handle_private(self, request: web.Request) -> web.StreamResponse:
        if self.owner:
            return await self.server.handle_ws(request)
        return _changing_over(request)  # why: the sender's idea of the owner is out of date

    def public_site(
        self, runner: web.AppRunner, host: str, port: int, backlog: int
    ) -> web.BaseSite:
        """The shared public port (``SO_REUSEPORT``), each accepted connection handed off to
        the owner when it is on this machine, else served by ``runner`` (after setup)."""
        server = runner.server
        assert server is not None
        self._public = server

        def factory() -> asyncio.BaseProtocol:
            return Handing(server, self._handing)

        return HandingSite(runner, host, port, factory, backlog)

    # --- the lease -------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self, address: str) -> AsyncIterator[None]:
        """Take part (the lease's loop, the bus) while inside, serving privately at
        ``address``; give the lease up on the way out."""
        offer = self.receiver.start() if self.handoff and self._public is not None else None
        # why after a space: the others read the private address, then the offer (lease.py)
        self.lease.address = address if offer is None else f"{address} {offer}"
        listener = Listener(self.redis, CHANNEL, self._heard)
        self._tasks = [
            asyncio.create_task(self._hold()),
            asyncio.create_task(listener.run()),
        ]
        try:
            yield
        finally:
            for task in self._tasks:
                task.cancel()
            await self._give_up()
            self.receiver.stop()
            with contextlib.suppress(*DROPS):
                await self.redis.aclose()

    async def _running(self, app: web.Application) -> AsyncIterator[None]:
        yield
        # why here: aiohttp's shutdown (Server.stop) has closed every connection by now
        if self.owner or self.lost:  # why lost too: its computer players must stop as well
            await self.server.stop_workers()
            for room in self.server.rooms.values():
                self.server.pacing.halt(room)
            self.server.close_workers()
        self.store.close()

    async def _hold(self) -> None:
        """Take the lease when nobody holds it, then keep it; stop if it is lost."""
        for _beat in range(10**12):  # why bounded: every loop is; this one by a count
            try:
                if self.owner:
                    if await self.lease.renew():
                        self._renewed = time.monotonic()
                    else:
                        self._lose("another process holds the lease")
                        return
                else:
                    await self._try_to_own()
            except DROPS as error:  # why: Redis away a moment; the lease may still be ours
                if self.owner and time.monotonic() - self._renewed > self.ttl:
                    self._lose(f"the bus could not be reached ({error})")
                    return
            except (*FENCED, StoreError, sqlite3.Error) as error:
                # why every store error: a database away a moment must not end this loop
                # (this process would never take over); the next beat tries again
                log.warning("Not taking over: %s", error)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.ttl / 3)

    async def _try_to_own(self) -> None:
        # why ask first: a spare would otherwise read the store's fence at every beat while
        # another process holds the lease (the database has nothing to say until it is free)
        holder = await self.lease.holder()
        self._holder, self._holder_seen = holder, time.monotonic()
        if holder is not None:
            return
        # why the floor: a Redis restarted without its data counts epochs from 1 again, and the
        # store would refuse those; the next epoch is then past the store's newest
        if not await self.lease.take(floor=self.store.fence()):
            return
        self._renewed = time.monotonic()
        try:
            self.store.claim(self.lease.epoch)
        except BaseException:
            # why give it up: a lease held without the tables keeps every process from them
            with contextlib.suppress(*DROPS):
                await self.lease.give_up()
            raise
        self.owner = True
        log.info("This process owns the tables now (epoch %d)", self.lease.epoch)
        try:
            self.server.recover()
        except Exception as error:  # why any: half the tables loaded is no state to serve from
            await self._give_up()
            self._lose(f"its tables could not be loaded: {error}")
            return
        self.server.start_bots()
        # why a task: a front links its share workers (shares.py) while it serves
        self._tasks.append(asyncio.create_task(self.server.start_workers(self.lease.epoch)))
        self._tasks.append(asyncio.create_task(self.server.lobby_updates()))
        self._tasks.append(asyncio.create_task(self.server.sweeps()))
        with contextlib.suppress(*DROPS):
            await self.redis.publish(CHANNEL, f"owner {self.lease.epoch}")

    def _lose(self, why: str) -> None:
        log.error("This process lost the tables (%s); it stops so that only one writes", why)
        self.owner = False
        self.lost = True
        self.server.stopping = True  # why: no move is taken from now on
        self.stopped.set()

    async def _give_up(self) -> None:
        if not self.owner:
            return
        self.owner = False
        with contextlib.suppress(*DROPS):
            await self.lease.give_up()
            await self.redis.publish(CHANNEL, "released")

    def _heard(self, message: str) -> None:
        if message == "released":  # why: take over now, not when the lease would expire
            self._wake.set()

    # --- handing off ------------------------------------------------------------------------

    def _handing(self, transport: asyncio.Transport) -> asyncio.Future[bool] | None:
        """A connection just accepted on the public port: None to serve it here (this process
        owns the tables, handing off is off, or this process is full: it says so itself),
        else the handoff under way (True once the owner has it; False to serve it here)."""
        if self.owner or not self.handoff or self.lost:
            return None
        if self.forwarded + len(self.server.connections) >= self.server.limits.max_connections:
            return None
        self.forwarded += 1  # why: until handed off, the socket is this process's
        task = asyncio.get_running_loop().create_task(self._hand(transport))
        task.add_done_callback(self._handing_done)
        return task

    def _handing_done(self, _task: asyncio.Task[bool]) -> None:
        self.forwarded -= 1

    async def _hand(self, transport: asyncio.Transport) -> bool:
        try:
            holder = await self._known_holder()
        except DROPS:
            return False  # why: served here, it waits for the bus as one passed on does
        if holder is None or holder.name == self.name:
            return False
        offer = Offer.parse(holder.offer)
        if offer is None or not offer.here():
            return False  # why: the owner is on another machine; its bytes are passed on
        return await hand_off(transport, offer)

    async def _known_holder(self) -> Holder | None:
        """Who holds the lease, as looked at within a third of a lease; one look at a time."""
        if time.monotonic() - self._holder_seen <= self.ttl / 3:
            return self._holder
        if self._looking is None:
            self._looking = asyncio.ensure_future(self._look())
        return await asyncio.shield(self._looking)

    async def _look(self) -> Holder | None:
        try:
            holder = await self.lease.holder()
            self._holder, self._holder_seen = holder, time.monotonic()
            return holder
        finally:
            self._looking = None

    async def _adopt(self, client: socket.socket) -> bool:
        """A socket handed off by a spare: served here as if accepted here, while this
        process owns the tables."""
        if not self.owner or self.server.stopping or self._public is None:
            client.close()
            return False
        client.setblocking(False)
        try:
            await asyncio.get_running_loop().connect_accepted_socket(self._public, client)
        except OSError:
            client.close()  # why: its client sees the connection drop and connects again
            return True  # why True: nobody else may serve it now
        return True

    # --- forwarding ---------------------------------------------------------------------------

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        """Pass this WebSocket on to the owner, as raw bytes both ways; while there is no
        owner (it died, its lease not yet expired) wait for one, about ``2 * ttl`` at most."""
        refusal = self.server.origin_refusal(request)
        if refusal is not None:
            return refusal
        if self.forwarded + len(self.server.connections) >= self.server.limits.max_connections:
            return full_response(request)
        self.forwarded += 1
        try:
            upstream = await self._reach_owner(request)
        except BaseException:
            self.forwarded -= 1
            raise
        if upstream is None and self.owner:  # why: this process took over meanwhile
            self.forwarded -= 1  # why first: served here, it counts among the connections
            return await self.server.handle_ws(request)
        try:
            return await self._forward_counted(request, upstream)
        finally:
            self.forwarded -= 1

    async def _forward_counted(
        self, request: web.Request, upstream: Owner | web.Response | None
    ) -> web.StreamResponse:
        if isinstance(upstream, web.Response):
            return upstream
        if upstream is None:
            return _changing_over(request)
        return await splice(request, upstream)

    async def _reach_owner(self, request: web.Request) -> Owner | web.Response | None:
        """A WebSocket to the owner, its handshake answered; the owner's refusal (a full
        server); None if there is no owner in time, or this process has become it."""
        headers = {
            "X-Forwarded-For": request.remote or "",
            "Accept-Language": request.headers.get("Accept-Language", ""),
        }
        for name in ("Origin", "Host"):  # why: the owner checks the page's origin itself
            if name in request.headers:
                headers[name] = request.headers[name]
        if not all(_passable(value) for value in headers.values()):
            # why: aiohttp reads a header's bytes as UTF-8, and the owner's handshake is sent
            # in Latin-1 (splice.reach); such a request is no browser's and no client's
            with speaking(accepted_language("")):
                return web.Response(status=400, text=_(BAD_HEADER) + "\n")
        deadline = time.monotonic() + 2 * self.ttl + 1.0
        for _attempt in range(1000):
            if self.owner or time.monotonic() > deadline:
                return None
            try:
                holder = await self.lease.holder()
                if holder is not None and holder.name != self.name:
                    return await reach(holder.address, headers)
            except Refusal as refusal:
                if refusal.status == 503 and refusal.headers.get(REFUSAL_HEADER.lower()) == "full":
                    return full_response(request)
                if refusal.status not in (502, 503):  # why: a refusal (too many) is final
                    return _refused(request, refusal.status)
            except (OSError, TimeoutError, *DROPS):
                pass  # the owner died and its lease has not expired yet, or the bus is away
            self._wake.set()  # why: if nobody holds the lease, try to take it now
            await asyncio.sleep(0.1)
        return None


def _passable(value: str) -> bool:
    """Whether ``value`` can go in the owner's handshake as it is (splice.reach)."""
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return "\r" not in value and "\n" not in value


def _refused(request: web.Request, status: int) -> web.Response:
    """The owner's refusal, passed on (its sentence stays with the owner)."""
    with speaking(accepted_language(request.headers.get("Accept-Language", ""))):
        text = _(REFUSED)
    return web.Response(status=status, text=text + "\n")


def _changing_over(request: web.Request) -> web.Response:
    with speaking(accepted_language(request.headers.get("Accept-Language", ""))):
        text = _(CHANGING_OVER)
    return web.Response(status=503, text=text + "\n")
