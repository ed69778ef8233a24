# One file (~1,220 lines): both ends of the front-worker link share its messages, changed together.
"""``fivecrowns serve --workers N``: the tables of one machine served by N worker processes.

The process that accepts the sockets, the *front*, keeps every client's WebSocket, the
lobby, accounts, presence, the limits and the table list, and relays the traffic of each
table to the worker that owns it (the design of Lichess's lila-ws in front of its game
logic, issue 29). Each worker is a child of the front and runs an ordinary
:class:`~fivecrowns.net.server.app.Server` for its share of the tables: their rooms, tables,
computer players, pacing, the store writes of their inputs, and their recovery at start.
The clients see one WebSocket, as before.

- The link between the front and a worker is a Unix socket pair the worker inherits; each
  message on it is a batch of :mod:`msgspec` MessagePack operations (at most one batch per
  turn of the event loop and way), with a 4-byte length before it (at most ``LINK_MOST``).
- Front to worker: a connection arrives at a table (:class:`Arrive`: its id, its player, its
  language and the create, join or watch it asked), a client message for its table
  (:class:`Message`, the raw bytes: decoded once, on the worker), a connection gone
  (:class:`Gone`), stop (:class:`Stop`).
- Worker to front: frames to send (:class:`Frames`: a turn's frames and the connection of
  each, in the order sent; a frame sent again to the next connection crosses as ``b""``, so
  the fan-out's encoding once per class of viewer is kept), a connection
  at a table (:class:`Placed`) or back in the lobby (:class:`Back`), a message that is the
  front's after all (:class:`Bounce`), a connection to close with a sentence
  (:class:`Close`), the players seated there (:class:`Sits`), the worker's tables for the
  lobby list and the limits (:class:`Summary`), and how many operations it has handled and
  saved (:class:`Done`). A worker commits its store before it sends a batch with
  frames, so a frame the front writes tells only of moves already saved.
- On the worker a connection is a :class:`Seat`: a :class:`Connection` whose frames go into
  the link; the rooms, tables and fan-out are unchanged, and each seat still gets only its
  own frames (the worker addresses connections, the front only forwards).
- Which worker: a new table goes to the worker with the fewest; its id is made so that
  ``int(id, 16) % N`` names that worker (:attr:`Lobby.share`), so a restarted front and its
  workers find each stored table's worker the same way.

A worker that ends by itself is started again, and brings its tables back from the store;
the front puts its connections back where they were (:meth:`Front._put_back`), open all
along, each after the last event it was sent, and sends again what the worker had not
said it handled and saved (:class:`Done`). With ``--shares-bus`` the shares are served
instead by worker processes on any machine, each under its own lease, linked over TCP
(:mod:`fivecrowns.net.server.shares`); then the front may be several processes too
(``--bus``): the one holding the cluster lease links to them (cluster.py's ``Node`` calls
:meth:`Front.start_workers` when it takes the lease), the others pass connections on to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
from collections.abc import AsyncIterator, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import msgspec
from aiohttp import web

from fivecrowns.i18n import N_, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import (
    PROTOCOL_VERSION,
    CreateTable,
    DeleteAccount,
    Error,
    Hello,
    Join,
    LogOut,
    MuteChat,
    Presence,
    ProtocolError,
    TableInfo,
    Tables,
    Watch,
    decode_client,
    encode,
)
from fivecrowns.net.server.accounts import LEAVE_FIRST
from fivecrowns.net.server.app import Server, make_app
from fivecrowns.net.server.connection import CANNOT_SAVE, Connection
from fivecrowns.net.server.friends import FriendsHere
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.lobby import LISTED_TABLES, Lobby, invite_code
from fivecrowns.net.server.rooms import PlayerRecord, Room
from fivecrowns.net.server.web import accepted_language
from fivecrowns.table import TableError

if TYPE_CHECKING:
    from fivecrowns.net.server.shares import RemoteShares

__all__ = ["Front", "WorkerConfig", "make_front_app", "worker_main"]

log = logging.getLogger(__name__)

LINK_MOST = 64 * 1024 * 1024  # bytes in one batch on a link; more ends the link
READ_MOST = 1024 * 1024  # bytes a worker takes from its link at once
BATCHES = 10**15  # batches one link carries at most (years of a busy server)
START_WAIT = 120.0  # seconds a worker has to recover its tables and say it is ready
SHARE_WAIT_LEASES = 10  # leases' time the front waits at its start for every share's worker
SERVING_WAIT = 8.0  # seconds a connection to a front taking over waits for its workers, at most
STOP_WAIT = 10.0  # seconds a stopping worker has to save and end before it is killed
SUMMARY_EVERY = 1.0  # seconds between a worker's table lists while its tables change
RESTARTS = 10  # times a worker that ended by itself is started again
WAITING_MOST = 100_000  # operations kept for a worker while it is started again
#: Said to each connection at a worker that ended: its program connects again by itself.
CHANGING_OVER = N_("The server is changing over to another process; connect again in a moment.")
REFUSED = N_("The server cannot take this connection now; try again later.")
_LENGTH = struct.Struct("!I")

#: The messages a worker handles for a connection at one of its tables; every other kind
#: (hello, accounts, the table list, friends, ratings) stays with the front.
TABLE_KINDS = frozenset(
    {
        "act",
        "chat",
        "ask",
        "resume",
        "leave",
        "add_bot",
        "remove_bot",
        "start",
        "new_game",
        "spectator_chat",
        "mute_chat",
        "language",
        "kick",
        "listening",
        "create_table",
        "join",
        "watch",
    }
)


# --- the link's operations -------------------------------------------------------------------


class Arrive(msgspec.Struct, tag="arrive", array_like=True):
    conn: int
    player: str
    name: str
    token_hash: str
    language: str
    mute: str
    address: str
    # the create_table, join or watch, as the client's JSON; empty: a hello with a token or an
    # account, back to the seat the player holds at this worker (after last_seq)
    request: bytes
    last_seq: int | None = None
    account: bool = False  # logged in to an account (another device may have held the seat)
    listing: bool = False  # refused, the front is to send the table list (a hello's watch)
    quiet: bool = False  # put back after the worker started again: no ``seated`` frame


class Message(msgspec.Struct, tag="message", array_like=True):
    conn: int
    raw: bytes  # why bytes only: a msgspec union holds one string-like type


class Gone(msgspec.Struct, tag="gone", array_like=True):
    conn: int


class Stop(msgspec.Struct, tag="stop", array_like=True):
    pass


class Done(msgspec.Struct, tag="done", array_like=True):
    handled: int  # operations from the front handled and saved so far (since it started)


class Frames(msgspec.Struct, tag="frames", array_like=True):
    """A turn's frames, in the order sent: ``frames[i]`` to the connection ``conns[i]``;
    ``b""``: the frame before it again (no frame is empty)."""

    # why one operation a turn, not one per frame: a struct, its event number read and its
    # dispatch for each of a move's ~7 frames cost the worker more than its send (py-spy)
    conns: list[int]
    frames: list[bytes]


class Back(msgspec.Struct, tag="back", array_like=True):
    conn: int
    player: str | None = None
    seated: bool = False  # the player still holds a seat at this worker (dropped, not left)
    lobby: bool = False  # the front is to send it the table list (a seat not found again)


class Placed(msgspec.Struct, tag="placed", array_like=True):
    conn: int
    seated: bool  # at a seat (False: watching)
    table: str
    code: str | None = None  # a private table's invite code (to watch it again)


class Sits(msgspec.Struct, tag="sits", array_like=True):
    players: list[str]  # players who hold a seat at this worker


class Bounce(msgspec.Struct, tag="bounce", array_like=True):
    conn: int
    raw: bytes  # why bytes only: a msgspec union holds one string-like type


class Close(msgspec.Struct, tag="close", array_like=True):
    conn: int
    code: str
    text: str


class Summary(msgspec.Struct, tag="summary", array_like=True):
    tables: int  # every table the worker holds
    creates: int  # create_table requests it has handled
    listed: list[TableInfo]  # its open public tables, as the lobby lists them
    codes: list[str]  # its private tables' invite codes
    # its open tables with a person seated, by who made them and from where (the limits)
    creators: dict[str, int] = {}
    addresses: dict[str, int] = {}


ToWorker = Arrive | Message | Gone | Stop
ToFront = Frames | Back | Bounce | Close | Summary | Sits | Placed | Done
_to_worker = msgspec.msgpack.Decoder(list[ToWorker])
_to_front = msgspec.msgpack.Decoder(list[ToFront])
_encoder = msgspec.msgpack.Encoder()


class LinkError(Exception):
    """The other end of a link broke its rules (a batch too big)."""


async def _read_batch(reader: asyncio.StreamReader) -> bytes | None:
    """The next batch's bytes; None at the end of the link."""
    try:
        header = await reader.readexactly(_LENGTH.size)
        (size,) = _LENGTH.unpack(header)
        if size > LINK_MOST:
            raise LinkError(f"a batch of {size} bytes")
        return await reader.readexactly(size)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None


def _take_batches(pending: bytearray) -> list[bytes]:
    """The whole batches at the start of ``pending``, taken out of it (a cut one stays)."""
    bodies: list[bytes] = []
    start, header = 0, _LENGTH.size
    while len(pending) - start >= header:
        (size,) = _LENGTH.unpack_from(pending, start)
        if size > LINK_MOST:
            raise LinkError(f"a batch of {size} bytes")
        end = start + header + size
        if end > len(pending):
            break
        bodies.append(bytes(pending[start + header : end]))
        start = end
    del pending[:start]
    return bodies


def _framed(ops: list[Any], depth: int = 0) -> bytes:
    """``ops`` as batches on a link, each with its length first: one batch, or more if one
    would pass ``LINK_MOST`` (why: the other end ends a link that sends a bigger one)."""
    body = _encoder.encode(ops)
    if len(body) <= LINK_MOST:
        return _LENGTH.pack(len(body)) + body
    if len(ops) == 1 and isinstance(ops[0], Frames) and len(ops[0].conns) > 1:
        ops = _halves(ops[0])  # why: a turn's frames are one operation, however many
    if len(ops) == 1 or depth > 40:  # why: one operation that big is a bug, said loudly
        raise LinkError(f"an operation of {len(body)} bytes")
    half = len(ops) // 2
    return _framed(ops[:half], depth + 1) + _framed(ops[half:], depth + 1)


def _halves(op: Frames) -> list[Any]:
    """``op`` as two, in order; the second begins with its frame in full (not ``b""``)."""
    half = len(op.conns) // 2
    frames = op.frames
    first = next(frame for frame in reversed(frames[: half + 1]) if frame)
    return [
        Frames(op.conns[:half], frames[:half]),
        Frames(op.conns[half:], [first, *frames[half + 1 :]]),
    ]


@dataclass
class WorkerConfig:
    """What a worker needs to serve its share: sent pickled, first, on its own link (why
    pickle: the front starts the worker itself, on a socket pair nobody else holds)."""

    index: int
    count: int
    store: str  # the SQLite file's path, or a postgresql:// address
    limits: Limits
    history: str | None = None
    seed: int | None = None


# --- the front -----------------------------------------------------------------------------


@dataclass(eq=False)
class WorkerHandle:
    """One worker, as the front sees it."""

    index: int
    proc: subprocess.Popen[bytes] | None = None
    writer: asyncio.StreamWriter | None = None
    reader: asyncio.Task[None] | None = None
    tables: int = 0
    creates_sent: int = 0
    creates_seen: int = 0
    listed: list[TableInfo] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    creators: dict[str, int] = field(default_factory=dict)
    addresses: dict[str, int] = field(default_factory=dict)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    out: list[Any] = field(default_factory=list)
    restarts: int = 0
    dead: bool = False  # ended, and not started again
    # operations written to it and not yet said handled and saved (:class:`Done`): sent
    # again, in order, if it dies before it says so
    unsaid: list[Any] = field(default_factory=list)
    handled: int = 0
    epoch: int = 0  # a share worker's (shares.py): the epoch of its lease the link is to
    watch: asyncio.Task[None] | None = None  # a share worker's: drops the link when it changes

    def send(self, op: ToWorker) -> None:
        if self.dead:
            return
        if not self.out and self.writer is not None:
            asyncio.get_running_loop().call_soon(self.flush)
        if len(self.out) >= WAITING_MOST:  # why: a worker being started again holds them
            return
        self.out.append(op)

    def flush(self) -> None:
        writer = self.writer
        if writer is None or writer.is_closing():
            return  # why kept: sent once the worker is started again
        ops, self.out = self.out, []
        if ops:
            writer.write(_framed(ops))
            if len(self.unsaid) < WAITING_MOST:  # why bounded: a worker that never says
                self.unsaid += ops

    def done(self, handled: int) -> None:
        """The worker has handled (and saved what they changed) ``handled`` operations."""
        del self.unsaid[: handled - self.handled]
        self.handled = handled

    def load(self) -> int:
        """Its tables, with those asked of it and not yet counted in its last summary."""
        return self.tables + self.creates_sent - self.creates_seen


class FrontLobby(Lobby):
    """The front's lobby: its table list is the workers' (it holds no tables itself), and a
    player back with a token is sent on to the worker where they hold a seat."""

    front: Front
    _account = False

    def tables(self) -> Tables:
        front = getattr(self, "front", None)
        workers = () if front is None else front.workers
        infos = [info for worker in workers for info in worker.listed]
        infos.sort(key=lambda info: info.started)  # why stable: waiting tables first, as ever
        return Tables(infos[:LISTED_TABLES])

    def open_tables_of(self, player_id: str, address: str) -> tuple[int, int]:
        """Summed over the workers, as their last summaries say."""
        workers = self.front.workers
        mine = sum(worker.creators.get(player_id, 0) for worker in workers)
        return mine, sum(worker.addresses.get(address, 0) for worker in workers)

    def hello(
        self, conn: Connection, message: Hello, account: tuple[str, str] | None = None
    ) -> None:
        self._account = account is not None
        super().hello(conn, message, account)

    def _watch_again(
        self, conn: Connection, record: PlayerRecord, hello: Hello, seated_frame: bool = True
    ) -> None:
        front = self.front
        worker = front.seats_at.get(record.id)
        if worker is not None:
            front.arrive(conn, record, worker, b"", hello.last_seq, self._account)
        elif hello.watch is not None and front.owner(hello.watch) is not None:
            # why the hello itself: the worker puts the spectator back as one process does,
            # with the events missed (the client names what it watched: the front knows not)
            worker = front.owner(hello.watch)
            assert worker is not None
            again = msgspec.structs.replace(hello, token=None, access=None)  # why: not needed
            front.arrive(conn, record, worker, encode(again), hello.last_seq, listing=True)
        else:
            super()._watch_again(conn, record, hello, seated_frame)


class FrontFriends(FriendsHere):
    """The front's friends: where a player is comes from its workers' word."""

    front: Front

    def presence(self, player: PlayerRecord) -> Presence:
        front = self.front
        conn = player.conn
        if conn is None or conn.closed:
            return "away" if player.id in front.seats_at else "offline"
        seated = front.placed.get(conn)
        if seated is None:
            return "lobby"
        return "playing" if seated else "watching"


class _InLobby(Collection[Connection]):
    """The front's connections in its lobby: those at no worker's table."""

    def __init__(self, front: Front) -> None:
        self._front = front

    def __iter__(self) -> Iterator[Connection]:
        at = self._front.at
        return (conn for conn in self._front.connections if conn not in at)

    def __len__(self) -> int:
        return sum(1 for _conn in self)

    def __contains__(self, conn: object) -> bool:
        return conn in self._front.connections and conn not in self._front.at


class Front(Server):
    """The process that keeps the sockets, the lobby and the accounts, and relays each
    connection's table traffic to the worker that owns the table."""

    lobby_class = FrontLobby
    friends_class = FrontFriends

    def __init__(
        self,
        *args: Any,
        workers: int,
        store_at: str,
        remote: RemoteShares | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # why: the shares' workers on other machines, found in Redis (None: this one's children)
        self.remote = remote
        self._linking: set[asyncio.Task[None]] = set()
        self.workers = [WorkerHandle(index) for index in range(workers)]
        cast(FrontLobby, self.lobby).front = self
        cast(FrontFriends, self.friends).front = self
        self.placed: dict[Connection, bool] = {}  # at a worker's table: seated, or watching
        # where each is (the table and its code) and the last event it was sent: what puts
        # it back if its worker dies and starts again
        self._where: dict[Connection, tuple[str, str | None]] = {}
        # why the frame, its number read only then: reading it at each frame was 1-2% of the
        # front's samples (py-spy); the frame is the one sent (shared by a class of viewers)
        self._heard: dict[Connection, bytes] = {}
        self.seats_at: dict[str, WorkerHandle] = {}  # players' seats, by the workers' word
        self.store_at = store_at
        self.at: dict[Connection, WorkerHandle] = {}  # connections at a worker's table
        self._ids: dict[Connection, int] = {}
        self._by_id: dict[int, Connection] = {}
        self._next_id = itertools.count(1)
        self._restarting: asyncio.Task[None] | None = None
        # set once every worker said it is ready (or the wait for them ended): why: a player
        # back with a token before its share's worker says where it sits would be put in the
        # lobby, so a front taking over (cluster.py) holds connections until then
        self.serving = asyncio.Event()

    # --- the workers' lives ---------------------------------------------------------------

    async def handle_ws(self, request: web.Request) -> web.StreamResponse:
        if not self.serving.is_set():
            most = SERVING_WAIT if self.remote is None else min(SERVING_WAIT, self.remote.ttl * 4)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.serving.wait(), most)
            if not self.serving.is_set():
                with speaking(accepted_language(request.headers.get("Accept-Language", ""))):
                    text = _(CHANGING_OVER)
                return web.Response(status=503, text=text + "\n")
        return await super().handle_ws(request)

    def recover(self) -> None:
        """Nothing here: each worker brings back its own share of the tables."""

    async def start_workers(self, epoch: int = 0) -> None:
        try:
            await self._start_workers(epoch)
        finally:
            self.serving.set()

    async def _start_workers(self, epoch: int) -> None:
        if self.remote is not None:
            self.remote.epoch = epoch  # why: a share worker hands its share on to a newer front
        for worker in self.workers:
            if self.remote is None:
                await self._spawn(worker)
            else:  # why tasks: each share's worker may come at its own time
                self._start_linking(worker)
        waits = [asyncio.create_task(worker.ready.wait()) for worker in self.workers]
        # why shorter for share workers: the front serves without a missing one (below)
        most = START_WAIT if self.remote is None else self.remote.ttl * SHARE_WAIT_LEASES
        _done, late = await asyncio.wait(waits, timeout=most)
        for wait in late:
            wait.cancel()
        if late and self.remote is not None:
            # why serve anyway: a share worker may be started after the front; its share's
            # tables wait for it, and new tables go to the shares linked
            log.warning("%d share(s) have no worker yet; serving the others", len(late))
        elif late:
            raise RuntimeError(f"{len(late)} worker(s) did not start in {START_WAIT:.0f} s")

    def _start_linking(self, worker: WorkerHandle) -> None:
        task = asyncio.create_task(self._link(worker))
        self._linking.add(task)
        task.add_done_callback(self._linking.discard)

    async def _link(self, worker: WorkerHandle) -> None:
        """Link to the worker that holds ``worker``'s share (shares.py), with a newer epoch
        than the last; it says it is ready with a summary, as a child does."""
        remote = self.remote
        assert remote is not None
        worker.ready.clear()
        worker.unsaid, worker.handled = [], 0  # why: a new process counts from nothing
        reader, writer, worker.epoch = await remote.link(worker.index, worker.epoch)
        log.warning("Share %d linked at epoch %d", worker.index, worker.epoch)
        worker.writer = writer
        worker.flush()  # why: what came for it while it was away
        worker.reader = asyncio.create_task(self._read(worker, reader))
        worker.watch = asyncio.create_task(remote.watch(worker.index, worker.epoch, writer))

    async def _spawn(self, worker: WorkerHandle) -> None:
        """Start ``worker``'s process, on a new link; it says it is ready with a summary."""
        here, there = socket.socketpair()
        config = WorkerConfig(
            worker.index,
            len(self.workers),
            self.store_at,
            self.limits,
            None if self.history is None else str(self.history),
            self.seed,
        )
        worker.ready.clear()
        worker.unsaid, worker.handled = [], 0  # why: a new process counts from nothing
        with there:
            command = [sys.executable, "-m", "fivecrowns.net.server.workers", str(there.fileno())]
            # why the index too: it names the worker in ps and top
            worker.proc = subprocess.Popen(
                [*command, str(worker.index)], pass_fds=(there.fileno(),)
            )
        reader, writer = await asyncio.open_unix_connection(sock=here, limit=2**20)
        configured = pickle.dumps(config)
        writer.write(_LENGTH.pack(len(configured)) + configured)
        worker.writer = writer
        worker.flush()  # why: what came for it while it was started again
        worker.reader = asyncio.create_task(self._read(worker, reader))

    async def _start_again(self, worker: WorkerHandle) -> None:
        """A worker that ended by itself is started again: it brings its tables back from the
        store, and its connections are put back where they were (:meth:`_put_back`). At most
        ``RESTARTS`` times (why: one that dies at every start would spin)."""
        old = worker.proc
        if old is not None:
            try:
                await asyncio.to_thread(old.wait, STOP_WAIT)
            except subprocess.TimeoutExpired:  # why: its tables must have one writer
                old.kill()
                await asyncio.to_thread(old.wait, STOP_WAIT)
        if worker.restarts >= RESTARTS or self.stopping:
            log.error("Worker %d is not started again; restart the server", worker.index)
            self._given_up(worker)
            return
        worker.restarts += 1
        log.warning("Worker %d ended; starting it again", worker.index)
        try:
            await self._spawn(worker)
        except Exception:
            log.exception("Worker %d could not be started again", worker.index)
            self._given_up(worker)

    def _given_up(self, worker: WorkerHandle) -> None:
        """``worker`` is not started again: its connections are closed with a sentence."""
        worker.dead = True
        worker.out.clear()
        for conn, at in list(self.at.items()):
            if at is worker:
                self.at.pop(conn, None)
                self.placed.pop(conn, None)
                with speaking(conn.language):
                    conn.close_saying(Error("server_stopping", _(CHANGING_OVER)))

    async def stop_workers(self) -> None:
        for task in list(self._linking):
            task.cancel()
        for worker in self.workers:
            worker.send(Stop())
        if self.remote is not None:
            await self._unlink()
            return
        for worker in self.workers:
            proc = worker.proc
            if proc is None:
                continue
            try:
                await asyncio.to_thread(proc.wait, STOP_WAIT)
            except subprocess.TimeoutExpired:
                log.warning("Worker %d did not stop in time; killed", worker.index)
                proc.kill()
                await asyncio.to_thread(proc.wait, STOP_WAIT)
            if worker.reader is not None:
                worker.reader.cancel()
            if worker.writer is not None:
                worker.writer.close()

    async def _unlink(self) -> None:
        """Say stop to each share's worker, and close the links (the workers save, give up
        their leases and wait for the next front)."""
        for worker in self.workers:
            worker.flush()
            if worker.watch is not None:
                worker.watch.cancel()
            writer = worker.writer
            if writer is not None:
                with contextlib.suppress(ConnectionError):
                    await writer.drain()
                writer.close()
            if worker.reader is not None:
                worker.reader.cancel()
        assert self.remote is not None
        await self.remote.close()

    async def _read(self, worker: WorkerHandle, reader: asyncio.StreamReader) -> None:
        for _batch in range(BATCHES):
            try:
                body = await _read_batch(reader)
                ops = [] if body is None else _to_front.decode(body)
            except (LinkError, msgspec.DecodeError) as error:
                # why DecodeError too: a batch that is not the link's ends the link (a share
                # worker's is another machine's), not the front
                log.error("Worker %d broke the link: %s", worker.index, error)
                body = None
            if body is None:
                break
            for op in ops:
                try:
                    self._from_worker(worker, op)
                except Exception:  # why: one bad operation must not end the front
                    log.exception("An operation from worker %d could not be handled", worker.index)
        if worker.writer is not None:
            worker.writer.close()
        if worker.watch is not None:
            worker.watch.cancel()
        worker.writer = None  # why: what comes for it meanwhile waits for its next start
        if not self.stopping:
            if self.remote is None:
                log.error("Worker %d ended; starting it again", worker.index)
            else:
                log.error("The link to share %d ended; linking to its holder", worker.index)
            # why first in its queue: each of its connections is put back before any message
            # that comes meanwhile reaches it, then what it may not have handled comes again
            worker.out = self._put_back(worker) + worker.unsaid + worker.out
            worker.listed, worker.codes, worker.tables = [], [], 0
            worker.creators, worker.addresses = {}, {}
            worker.creates_sent = worker.creates_seen = 0
            self.lobby.dirty = True
            if self.remote is not None:
                # why not counted as restarts: another machine's worker takes the share
                self._start_linking(worker)
            else:
                self._restarting = asyncio.create_task(self._start_again(worker))

    def _put_back(self, worker: WorkerHandle) -> list[ToWorker]:
        """For each connection at ``worker``, which ended: its way back to where it sat or
        watched once the worker is started again, with every event after the last it was
        sent (nothing lost, nothing said twice), its connection left open. One whose place
        is not known yet (it was arriving) is closed with a sentence, and connects again."""
        ops: list[ToWorker] = []
        arriving = {op.conn for op in worker.unsaid if isinstance(op, Arrive)}
        for conn, at in list(self.at.items()):
            if at is not worker:
                continue
            seated, where, player = self.placed.get(conn), self._where.get(conn), conn.player
            if seated is None and self._ids.get(conn) in arriving:
                continue  # why: its arrival is sent again
            if seated is None or where is None or player is None or conn.closed:
                self.at.pop(conn, None)
                with speaking(conn.language):
                    # why server_stopping: the programs connect again by themselves
                    conn.close_saying(Error("server_stopping", _(CHANGING_OVER)))
                continue
            last = _event_seq(self._heard.get(conn, b""))
            heard = last if last >= 0 else None
            if seated:
                request = b""
            else:  # why a hello: the worker puts a spectator back as after a restart
                table, code = where
                request = encode(
                    Hello(
                        PROTOCOL_VERSION, player.name, last_seq=heard, watch=table, watch_code=code
                    )
                )
            ops.append(
                _arrival(self._ids[conn], conn, player, request, heard, listing=True, quiet=True)
            )
        return ops

    def _from_worker(self, worker: WorkerHandle, op: ToFront) -> None:
        if isinstance(op, Frames):
            by_id, heard = self._by_id, self._heard
            frame, event = b"", False
            for conn_id, data in zip(op.conns, op.frames, strict=True):
                if data:  # why: b"" is the frame before it again (see Frames)
                    frame, event = data, data.startswith(_EVENT)
                conn = by_id.get(conn_id)
                if conn is not None:
                    conn.send_raw(frame)
                    if event:
                        heard[conn] = frame
        elif isinstance(op, Back):
            if not op.seated and op.player is not None and self.seats_at.get(op.player) is worker:
                del self.seats_at[op.player]
            conn = self._by_id.get(op.conn)
            if conn is not None and self.at.get(conn) is worker:
                del self.at[conn]
                if op.lobby:
                    conn.send(self.lobby.tables())
                self._where.pop(conn, None)
                self._heard.pop(conn, None)
                if self.placed.pop(conn, None) is not None:
                    self.friends.moved(conn.player)
        elif isinstance(op, Placed):
            conn = self._by_id.get(op.conn)
            if conn is not None and self.at.get(conn) is worker:
                self.placed[conn] = op.seated
                self._where[conn] = (op.table, op.code)
                self.friends.moved(conn.player)
        elif isinstance(op, Done):
            worker.done(op.handled)
        elif isinstance(op, Sits):
            for player in op.players:
                self.seats_at[player] = worker
        elif isinstance(op, Bounce):
            conn = self._by_id.get(op.conn)
            if conn is not None and not conn.closed:
                self._here(conn, op.raw)
        elif isinstance(op, Close):
            conn = self._by_id.get(op.conn)
            if conn is None:
                pass
            elif op.text:
                conn.close_saying(Error(op.code, op.text))
            else:
                conn.close()
        else:
            worker.tables, worker.creates_seen = op.tables, op.creates
            worker.listed, worker.codes = op.listed, op.codes
            worker.creators, worker.addresses = op.creators, op.addresses
            worker.ready.set()
            self.lobby.dirty = True

    # --- a client's messages ------------------------------------------------------------------

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        worker = self.at.get(conn)
        if worker is None:
            super().receive(conn, raw)
            return
        self.messages += 1
        if self.stopping or conn.closed:
            return
        # why a language block only for a refusal: nearly every message is a move, passed on
        if not conn.allow():
            with speaking(conn.language):
                conn.send(Error("rate_limited", _("Too many messages at once; slow down.")))
            return
        if len(raw) > self.limits.max_message:
            with speaking(conn.language):
                text = _("A message has at most {count} bytes.")
                conn.send(Error("too_big", text.format(count=self.limits.max_message)))
            return
        kind = _kind(raw)
        if kind in TABLE_KINDS:
            if kind == "language":  # why both: the front words the lobby's sentences too
                self._here(conn, raw)
            elif kind == "mute_chat":  # why: kept for the next table, which may be another's
                self._keep_mute(conn, raw)
            data = raw.encode() if isinstance(raw, str) else raw
            worker.send(Message(self._ids[conn], data))
        else:
            self._here(conn, raw)

    def _keep_mute(self, conn: Connection, raw: str | bytes) -> None:
        """The front's copy of a ``mute_chat`` (the worker answers it, and says what is wrong
        with one that does not fit)."""
        with contextlib.suppress(ProtocolError):
            message = decode_client(raw)
            if isinstance(message, MuteChat) and conn.player is not None:
                conn.player.mute = message.who

    def _here(self, conn: Connection, raw: str | bytes) -> None:
        """Handle ``raw`` in the front, its rate already counted."""
        with speaking(conn.language):
            try:
                message = decode_client(raw)
            except ProtocolError as error:
                conn.send(Error("bad_message", str(error)))
                return
            self._handle(conn, message)

    def _dispatch(self, conn: Connection, message: Any) -> None:
        player = conn.player
        if isinstance(message, (CreateTable, Join, Watch)) and player is not None:
            self.to_worker(conn, player, message)
            return
        if (
            isinstance(message, (LogOut, DeleteAccount))
            and conn in self.at
            and player is not None
            and self.accounts._is_account(player.id)
        ):
            # why here: the accounts' own check asks conn.room, which only the worker knows
            raise TableError("at_table", _(LEAVE_FIRST))
        super()._dispatch(conn, message)

    def to_worker(
        self,
        conn: Connection,
        player: PlayerRecord,
        message: CreateTable | Join | Watch,
        listing: bool = False,
    ) -> None:
        """Send ``conn`` to the worker of the table ``message`` asks for (a sentence if none)."""
        if conn in self.at:  # why: a message on its way when the worker sent it back
            raise TableError("at_table", _("You are already at a table; leave it first."))
        if isinstance(message, CreateTable):
            if sum(worker.load() for worker in self.workers) >= self.limits.max_tables:
                text = _("The server has as many tables as it allows.")
                raise TableError("too_many_tables", text)
            # why here too: each worker counts only its own tables
            self.lobby.within_table_limits(conn, player)
            alive = [worker for worker in self.workers if not worker.dead]
            if self.remote is not None:  # why: a share with no worker linked would not answer
                alive = [worker for worker in alive if worker.ready.is_set()]
            if not alive:
                raise TableError("refused", _(REFUSED))
            worker = min(alive, key=lambda worker: (worker.load(), worker.index))
            worker.creates_sent += 1
        elif message.code is not None:
            found = self._by_code(message.code)
            if found is None:
                raise TableError("no_table", _("No table has that invite code."))
            worker = found
        else:
            found = self.owner(message.table)
            if found is None:
                text = _("There is no such table; list the tables to see them.")
                raise TableError("no_table", text)
            worker = found
        self.arrive(conn, player, worker, encode(message), listing=listing)

    def arrive(
        self,
        conn: Connection,
        player: PlayerRecord,
        worker: WorkerHandle,
        request: bytes,
        last_seq: int | None = None,
        account: bool = False,
        listing: bool = False,
    ) -> None:
        """``conn`` is at ``worker`` from now on, with ``request`` (:class:`Arrive`)."""
        if worker.dead:
            raise TableError("refused", _(REFUSED))
        conn_id = self._ids.get(conn)
        if conn_id is None:
            conn_id = self._ids[conn] = next(self._next_id)
            self._by_id[conn_id] = conn
        self.at[conn] = worker
        if not request:
            # why at once: a player back to the seat they hold is playing, as with one process,
            # where the hello (which tells their friends) seats them (the worker's word follows)
            self.placed[conn] = True
        worker.send(_arrival(conn_id, conn, player, request, last_seq, account, listing))

    def _by_code(self, typed: str) -> WorkerHandle | None:
        code = invite_code(typed)
        for worker in self.workers:
            if code in worker.codes or typed in worker.codes:
                return worker
        return None

    def owner(self, table_id: str | None) -> WorkerHandle | None:
        """The worker a table id names (None: no id this server makes)."""
        if table_id is None or len(table_id) != 8:
            return None
        try:
            value = int(table_id, 16)
        except ValueError:
            return None
        return self.workers[value % len(self.workers)]

    def _disconnected(self, conn: Connection) -> None:
        self.placed.pop(conn, None)  # why first: its friends hear it is away, not playing
        self._where.pop(conn, None)
        self._heard.pop(conn, None)
        super()._disconnected(conn)
        worker = self.at.pop(conn, None)
        conn_id = self._ids.pop(conn, None)
        if conn_id is not None:
            self._by_id.pop(conn_id, None)
            if worker is not None:
                worker.send(Gone(conn_id))

    async def lobby_updates(self) -> None:
        await self.lobby.updates(_InLobby(self))


def _arrival(
    conn_id: int,
    conn: Connection,
    player: PlayerRecord,
    request: bytes,
    last_seq: int | None,
    account: bool = False,
    listing: bool = False,
    quiet: bool = False,
) -> Arrive:
    """The :class:`Arrive` that brings ``conn`` (``conn_id`` on the link) to a worker."""
    return Arrive(
        conn_id,
        player.id,
        player.name,
        player.token_hash,
        conn.language,
        player.mute,
        conn.address,
        request,
        last_seq,
        account,
        listing,
        quiet,
    )


_EVENT = b'{"type":"event","seq":'


def _event_seq(frame: bytes) -> int:
    """The number of the event ``frame`` tells (-1: not an event), read from its start."""
    if not frame.startswith(_EVENT):
        return -1
    end = frame.find(b",", len(_EVENT), len(_EVENT) + 24)
    try:
        return int(frame[len(_EVENT) : end])
    except ValueError:
        return -1


def _kind(raw: str | bytes) -> str | None:
    """The ``type`` of a client message, read without decoding the rest (None: unreadable)."""
    try:
        return _kind_decoder.decode(raw).type
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None


class _Kind(msgspec.Struct):
    type: str | None = None


_kind_decoder = msgspec.json.Decoder(_Kind)


def make_front_app(front: Front, sounds: str | None = None) -> web.Application:
    """The front's application: the server's, with the workers started before it serves and
    stopped after."""
    app = make_app(front, sounds)

    async def workers(app: web.Application) -> AsyncIterator[None]:
        try:
            await front.start_workers()
            yield
        finally:
            await front.stop_workers()

    # why first: the workers serve the tables before the lobby lists them, and stop last
    app.cleanup_ctx.insert(0, workers)
    return app


# --- a worker --------------------------------------------------------------------------------


class WorkerLobby(Lobby):
    """A worker's lobby: the table list a connection back in the lobby gets is the front's."""

    def send_tables(self, conn: Connection) -> None:
        pass  # why: Back(lobby=True) asks the front for it, which lists every worker's tables


class WorkerServer(Server):
    lobby_class = WorkerLobby


class Seat(Connection):
    """A client's connection as a worker holds it: its frames go into the link to the front."""

    def __init__(self, worker: Worker, conn_id: int, limits: Limits) -> None:
        self.id = conn_id
        self._worker = worker
        self._room: Room | None = None
        self.gone = False  # the front said the connection ended
        super().__init__(cast(Any, None), limits)

    @property
    def room(self) -> Room | None:
        return self._room

    @room.setter
    def room(self, room: Room | None) -> None:
        was, self._room = self._room, room
        if room is None and was is not None and not self.gone:
            self._worker.back(self)
        elif room is not None and was is None:
            self._worker.placed(self)

    def allow(self) -> bool:
        return True  # why: the front counted this message against the connection's rate

    def send_raw(self, data: bytes) -> None:
        if not self.closed:
            self._worker.frame(self.id, data)

    def send_listing(self, data: bytes) -> None:
        self.send_raw(data)

    def close(self, code: int = 1000, reason: bytes = b"") -> None:
        if not self.closed:
            self.closed = True
            self._worker.control(Close(self.id, "closed", ""))

    def close_saying(self, message: msgspec.Struct) -> None:
        if not self.closed:
            self.closed = True
            if isinstance(message, Error):
                self._worker.control(Close(self.id, message.code, message.text))
            else:
                self._worker.frame(self.id, encode(message))
                self._worker.control(Close(self.id, "closed", ""))


class Worker:
    """A worker's side of its link: the front's operations handed to its server, and what its
    server sends, batched once a turn of the event loop."""

    def __init__(self, server: Server, writer: asyncio.StreamWriter, limits: Limits) -> None:
        self.server = server
        self.writer = writer
        self.limits = limits
        self.conns: dict[int, Seat] = {}
        self.creates = 0
        self.stopped = asyncio.Event()
        # the turn's frames and the connection of each, in the order sent (see Frames)
        self._conn_ids: list[int] = []
        self._frames: list[bytes] = []
        self._last: bytes | None = None  # the turn's latest frame
        self._controls: list[ToFront] = []
        self._placed: list[Seat] = []
        self._due = False
        self.handled = 0  # operations from the front handled
        self._said = 0  # of which the front was told (Done)

    def kick(self) -> None:
        """Flush at the end of this turn, if nothing else asked for it."""
        self._soon()

    def _soon(self) -> None:
        if not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self.flush)

    def frame(self, conn_id: int, data: bytes) -> None:
        """``data`` for the connection ``conn_id``; the same frame (the same bytes object, as
        the fan-out makes one for each class of viewer) sent again to the next connection goes
        into the link as ``b""``."""
        # why only the frame just before: the fan-out sends a class's frame to its
        # connections in a row; a dictionary of frames cost more per frame than it saved
        if data is self._last:
            self._frames.append(b"")
        else:
            self._last = data
            self._frames.append(data)
        self._conn_ids.append(conn_id)
        if not self._due:
            self._soon()

    def placed(self, conn: Seat) -> None:
        """``conn`` sits or watches at a table here now (told the front at the turn's end,
        when its seat is known)."""
        self._placed.append(conn)
        self._soon()

    def control(self, op: ToFront) -> None:
        self._controls.append(op)
        self._soon()

    def back(self, conn: Seat, lobby: bool = False) -> None:
        """``conn`` is at no table here any more: the front has it back, in its lobby
        (``lobby``: with the table list)."""
        if self.conns.get(conn.id) is conn:
            del self.conns[conn.id]
            player = conn.player
            if player is not None and player.conn is conn:
                player.conn = None
                # why: one who left is forgotten here in time, as a dropped one is (bounded)
                self.server.lobby._forget_if_unseated(player)
            seated = player is not None and player.table_id is not None
            self.control(Back(conn.id, None if player is None else player.id, seated, lobby))

    def flush(self) -> None:
        self._due = False
        conn_ids, frames = self._conn_ids, self._frames
        self._conn_ids, self._frames, self._last = [], [], None
        controls, self._controls = self._controls, []
        placed, self._placed = self._placed, []
        for conn in placed:
            room = conn.room
            if room is not None and self.conns.get(conn.id) is conn:
                controls.append(Placed(conn.id, conn.seat is not None, room.id, room.code))
        ops: list[ToFront] = []
        # why saved first: no frame leaves before the moves it tells of are on disk
        saved = self.server._save()
        if frames and not saved:
            told: set[int] = set()
            for conn_id in conn_ids:
                if conn_id not in told:
                    told.add(conn_id)
                    ops.append(self._unsaved(conn_id))
        elif frames:
            ops.append(Frames(conn_ids, frames))
        ops += controls
        if self.server.lobby.dirty:
            ops.append(self.summary())
        if self.handled != self._said and saved:
            # why only once saved: the front sends again what a dead worker did not keep
            ops.append(Done(self.handled))
            self._said = self.handled
        if ops and not self.writer.is_closing():
            self.writer.write(_framed(ops))

    def _unsaved(self, conn_id: int) -> Close:
        conn = self.conns.get(conn_id)
        with speaking(conn.language if conn is not None else "en"):
            return Close(conn_id, "cannot_save", _(CANNOT_SAVE))

    def summary(self) -> Summary:
        lobby = self.server.lobby
        lobby.dirty = False
        codes = [room.code for room in lobby.rooms.values() if room.code is not None]
        creators: dict[str, int] = {}
        addresses: dict[str, int] = {}
        for room in lobby.open_tables():
            creator = room.table.creator_id
            creators[creator] = creators.get(creator, 0) + 1
            if room.address is not None:
                addresses[room.address] = addresses.get(room.address, 0) + 1
        listed = lobby.tables().tables
        return Summary(len(lobby.rooms), self.creates, listed, codes, creators, addresses)

    async def summaries(self) -> None:
        """The table list again when it changed and no batch has carried it."""
        while True:
            await asyncio.sleep(SUMMARY_EVERY)
            if self.server.lobby.dirty:
                self._soon()

    def handle(self, op: ToWorker) -> None:
        if isinstance(op, Message):
            self._message(op)
        elif isinstance(op, Arrive):
            self._arrive(op)
        elif isinstance(op, Gone):
            conn = self.conns.pop(op.conn, None)
            if conn is not None:
                conn.gone = True  # why first: no Back for a connection the front forgot
                self.server.lobby.disconnected(conn)
                conn.closed = True
        else:
            self.stopped.set()

    def _message(self, op: Message) -> None:
        conn = self.conns.get(op.conn)
        if conn is None or conn.room is None:
            # why: it left this worker's table meanwhile; the front answers it (a join of a
            # table on another worker, or a sentence saying it is at no table)
            self.control(Bounce(op.conn, op.raw))
            return
        self._handle(conn, op.raw)

    def _handle(self, conn: Seat, raw: bytes) -> None:
        """What :meth:`Server.receive` does, but the front's part: its rate and size."""
        server = self.server
        server.messages += 1
        if server.stopping or conn.closed:
            return
        with speaking(conn.language):
            try:
                message = decode_client(raw)
            except ProtocolError as error:
                conn.send(Error("bad_message", str(error)))
                return
            server._handle(conn, message)

    def _arrive(self, op: Arrive) -> None:
        lobby = self.server.lobby
        conn = Seat(self, op.conn, self.limits)
        conn.language = op.language
        conn.address = op.address
        record = lobby.players.get(op.player)
        if record is None:
            record = lobby.players[op.player] = PlayerRecord(op.player, op.name, op.token_hash)
        else:
            record.name, record.token_hash = op.name, op.token_hash
        record.mute = op.mute
        record.conn = conn
        conn.player = record
        self.conns[op.conn] = conn
        if not op.request:
            self._sit_again(conn, record, op)
            return
        request = decode_client(op.request)
        if isinstance(request, CreateTable):
            self.creates += 1
        if isinstance(request, Hello):  # a spectator back with a token, to the table watched
            with speaking(conn.language):
                self.server.lobby._watch_again(conn, record, request, seated_frame=not op.quiet)
        else:
            self._handle(conn, op.request)
        if conn.room is None:  # why: refused (a sentence is on its way); back to the lobby
            self.back(conn, lobby=op.listing)
        elif conn.seat is not None:
            self.control(Sits([record.id]))

    def _sit_again(self, conn: Seat, record: PlayerRecord, op: Arrive) -> None:
        """A player back with a token takes the seat they hold here; if they hold none any
        more, they are sent back to the lobby, with the table list."""
        lobby = self.server.lobby
        with speaking(conn.language):
            found = lobby.seat_of(record)
            if found is None:
                self.back(conn, lobby=True)
                return
            room, seat = found
            try:
                lobby.sit_again(
                    conn, record, room, seat, op.last_seq, op.account, seated_frame=not op.quiet
                )
            except Exception:  # why: as any message; the log has it, the player a sentence
                log.exception("A seat could not be taken again")
                text = _("The server could not do that; it has been logged.")
                conn.send(Error("internal", text))


def _open_worker_store(where: str) -> Any:
    if where.startswith(("postgresql://", "postgres://")):
        from fivecrowns.net.server.pgstore import PgStore

        return PgStore(where)
    from fivecrowns.net.server.store import SqliteStore

    return SqliteStore(Path(where))


async def _work(fd: int) -> None:
    from fivecrowns.net.server.collector import QuietCollector

    sock = socket.socket(fileno=fd)
    reader, writer = await asyncio.open_unix_connection(sock=sock, limit=2**20)
    configured = await _read_batch(reader)
    if configured is None:
        raise LinkError("the front ended before it said what to serve")
    config: WorkerConfig = pickle.loads(configured)  # why safe: only our parent holds the link
    store = _open_worker_store(config.store)
    server = WorkerServer(
        store,
        config.limits,
        history=None if config.history is None else Path(config.history),
        seed=config.seed,
    )
    server.lobby.share = (config.index, config.count)
    worker = Worker(server, writer, config.limits)
    server.recover()
    server.start_bots()
    server.lobby.dirty = True
    worker.control(Sits(list(server.lobby.seated_players())))
    worker.flush()  # why: the first summary says this worker is ready
    sweeps = asyncio.create_task(server.sweeps())
    summaries = asyncio.create_task(worker.summaries())
    collector = QuietCollector.from_environment()
    collector.start()
    collecting = asyncio.create_task(collector.run())

    async def read() -> None:
        pending = bytearray()
        for _chunk in range(BATCHES):
            try:  # why whatever has come, not a batch at a time: one wake for all of it
                chunk = await reader.read(READ_MOST)
            except ConnectionError:
                break
            if not chunk:
                break
            pending += chunk
            bodies = _take_batches(pending)
            for body in bodies:
                ops = _to_worker.decode(body)
                for op in ops:
                    worker.handle(op)
                worker.handled += len(ops)
                if worker.stopped.is_set():
                    return
            if bodies:
                # why now, not a turn of the loop later (kick): the answer, and the word that
                # a batch that changed nothing was handled, leave without one more turn
                worker.flush()

    try:
        await read()
    finally:
        for task in (sweeps, summaries, collecting):
            task.cancel()
        collector.stop()
        await server.stop()
        for room in server.rooms.values():
            server.pacing.halt(room)
        with contextlib.suppress(Exception):
            worker.flush()
            await writer.drain()
        server.close_workers()  # why: the history's thread writes every finished game first
        store.close()


def worker_main(argv: list[str]) -> int:
    """A worker process: ``python -m fivecrowns.net.server.workers FD INDEX``."""
    logging.basicConfig(level=logging.WARNING, format="worker: %(levelname)s %(message)s")
    # why: Ctrl+C in the terminal reaches the whole group; the front stops its workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        asyncio.run(_work(int(argv[0])))
    except LinkError as error:
        print(f"worker {os.getpid()}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
