"""The game server: a lobby of tables over WebSocket (aiohttp), the only authority.

Every message is handled whole, without awaiting, on the event loop: a table
never sees two commands at once, and a refused command changes nothing. The
server drives its tables (STYLE practice 15): it paces computer players, lets a
computer stand in for a human whose connection dropped (after a grace period)
and hands the seat back when they return with their token.

Two small interfaces keep the lobby independent of where things live:
:class:`~fivecrowns.net.server.store.Store` (tables, players, inputs) and
:class:`Fanout` (who gets which frame). See docs/protocol.md and docs/network.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web

from fivecrowns.core.cards import parse_card
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import last_turn_discard
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from fivecrowns.i18n import DEFAULT_LANGUAGE, N_, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Act,
    AddBot,
    Answer,
    Ask,
    Chat,
    ClientMessage,
    CreateTable,
    Error,
    EventFrame,
    Hello,
    Join,
    Leave,
    Left,
    ListTables,
    NewGame,
    ProtocolError,
    RemoveBot,
    Resume,
    Seated,
    SetLanguage,
    Snapshot,
    Start,
    TableInfo,
    Tables,
    Watch,
    Welcome,
    decode_client,
    encode,
)
from fivecrowns.net.server.store import MemoryStore, Store, StoredPlayer, StoredTable
from fivecrowns.net.server.web import accepted_language, add_web_routes
from fivecrowns.table import Entry, SeatKind, Table, TableError
from fivecrowns.table.info import answer

__all__ = ["Fanout", "Limits", "LocalFanout", "Server", "make_app"]

log = logging.getLogger(__name__)

LISTED_TABLES = 50  # tables in one lobby listing
TOO_MANY_SPECTATORS = N_("This table has as many spectators as it allows.")
TABLE_GONE = N_("The table you were watching has closed; here are the open tables.")
SEAT_GONE = N_("Your table was closed while nobody was connected to it; here are the open tables.")
NEW_GAME_NOT_CREATOR = N_(
    "Only {name}, who made this table, can start a new game here. To play again yourself, "
    "create a table in the lobby."
)
SWEEPS = 10_000_000  # passes of the sweep at most (years of a server's life at 5 s a pass)
SERVER_STOPPING = N_("The server is stopping. Its tables come back when it starts again.")
SERVER_STOPPING_MEMORY = N_(
    "The server is stopping. It keeps no tables, so the games on it end now."
)
#: The WebSocket close code and reason a stopping server closes every connection with
#: (1001, "going away", RFC 6455), after an ``error`` ``server_stopping`` with its sentence.
GOING_AWAY_REASON = b"server stopping"
STOP_WAIT = 2.0  # seconds a stopping server waits for the last frames and the close handshakes


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server allows; ``fivecrowns serve`` options change some of them."""

    max_message: int = MAX_MESSAGE_BYTES  # bytes in one client message; more is refused
    hard_max_message: int = 65536  # bigger frames close the connection (aiohttp's own limit)
    rate: float = 20.0  # messages per second per connection, on average
    burst: int = 40  # messages a connection may send at once
    max_connections: int = 2500
    max_tables: int = 1000
    max_spectators: int = 50  # per table
    outgoing_queue: int = 5000  # frames waiting for a slow client before it is dropped
    grace: float = 30.0  # seconds before a computer stands in for a dropped human
    # why longer than grace: a table whose seated players all dropped waits for them (their
    # clients keep trying for 5 minutes, a restarted one may come back later); a table whose
    # players all left is closed after the grace
    away: float = 1800.0  # seconds a table with no one connected keeps seats of dropped players
    bot_delay: float = 0.8  # seconds a computer player waits before each move


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One WebSocket: who it is, where it sits, its rate budget and its outgoing queue."""

    def __init__(
        self, ws: web.WebSocketResponse, limits: Limits, saved: Callable[[], bool] = bool
    ) -> None:
        self.ws = ws
        self._saved = saved  # commits the store's kept inputs; False if it could not
        self.player: PlayerRecord | None = None
        self.room: Room | None = None
        self.seat: int | None = None  # None while watching or in the lobby
        self.language = DEFAULT_LANGUAGE  # what its sentences are worded in (its hello's)
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(limits.outgoing_queue)
        self._tokens = float(limits.burst)
        self._stamp = time.monotonic()
        self._limits = limits
        self.closed = False
        self._closing: asyncio.Future[bool] | None = None
        self.writer: asyncio.Task[None] | None = None  # the write loop, while the socket lives

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages a second, ``burst`` at once."""
        now = time.monotonic()
        limits = self._limits
        self._tokens = min(limits.burst, self._tokens + (now - self._stamp) * limits.rate)
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def send(self, message: msgspec.Struct) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:  # why: a client that cannot keep up must not grow our memory
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            self._closing = asyncio.ensure_future(self.ws.close())

    async def write_loop(self) -> None:
        while True:
            data = await self.queue.get()
            if data is None:
                return
            # why here: no frame leaves before the moves it tells of are on disk (kill -9 safe);
            # the first writer to run commits everything kept since, in one transaction
            if not self._saved():
                self.close()  # why: never tell of a move that could not be saved
                return
            # why send_frame: the frame is already UTF-8 JSON; send_str would decode and re-encode
            await self.ws.send_frame(data, WSMsgType.TEXT)


@dataclass(slots=True)
class PlayerRecord:
    id: str
    name: str
    token_hash: str
    conn: Connection | None = None
    table_id: str | None = None
    # why: a spectator whose connection drops is put back at the table they watched
    watching: str | None = None


@dataclass(slots=True)
class Room:
    id: str
    table: Table
    code: str | None
    private: bool
    conns: dict[int | None, set[Connection]] = field(default_factory=dict)
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    recorded: bool = False
    deserted_since: float | None = None  # when the sweep first found nobody connected here

    def all_conns(self) -> Iterable[Connection]:
        for conns in self.conns.values():
            yield from conns


class Fanout(Protocol):
    """Sends a table's new entries to everyone there, each as their seat may see them."""

    def publish(self, room: Room, entries: list[Entry]) -> None: ...


class LocalFanout:
    """Everyone is connected to this process."""

    def publish(self, room: Room, entries: list[Entry]) -> None:
        table = room.table
        viewers = [(viewer, conns) for viewer, conns in room.conns.items() if conns]
        for entry in entries:
            # why per class and language: most events read the same for every seat but the one
            # who made them, so each is worded and encoded once per (class, language) at the
            # table, not once per seat; every connection still gets exactly one frame per entry
            encoded: dict[tuple[Hashable, str], bytes] = {}
            for viewer, conns in viewers:
                viewer_class = table.frame_class(entry, viewer)
                for conn in conns:
                    key = (viewer_class, conn.language)
                    frame = encoded.get(key)
                    if frame is None:
                        with speaking(conn.language):
                            frame = encode(EventFrame(**table.frame(entry, viewer)))
                        encoded[key] = frame
                    conn.send_raw(frame)


class Server:
    def __init__(
        self,
        store: Store | None = None,
        limits: Limits | None = None,
        history: Path | None = None,
        fanout: Fanout | None = None,
        seed: int | None = None,
    ) -> None:
        self.store: Store = store or MemoryStore()
        self.limits = limits or Limits()
        self.history = history
        self.fanout: Fanout = fanout or LocalFanout()
        # why: ``serve --seed`` deals the same games again (tests, reproducible tournaments)
        self.seed = seed
        self.players: dict[str, PlayerRecord] = {}
        self.by_token: dict[str, PlayerRecord] = {}
        self.rooms: dict[str, Room] = {}
        self.by_code: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.lobby_dirty = False
        self._save_soon = False
        self.messages = 0
        self.moves = 0
        self.stopping = False
        self.keeps_tables = not isinstance(self.store, MemoryStore)

    # --- start and restart --------------------------------------------------------

    def recover(self) -> None:
        """Bring back every player and unfinished table from the store."""
        players, tables = self.store.load()
        for stored in players:
            record = PlayerRecord(stored.id, stored.name, stored.token_hash)
            self.players[stored.id] = record
            self.by_token[stored.token_hash] = record
        for stored_table in tables:
            room = Room(stored_table.id, None, stored_table.code, stored_table.private)  # type: ignore[arg-type]
            room.table = Table.replay(
                stored_table.seats,
                stored_table.creator_name,
                stored_table.creator_id,
                stored_table.inputs,
                record=self._recorder(room),
            )
            self._add_room(room)
            for seat in room.table.seats:
                if seat.kind is SeatKind.HUMAN and seat.player_id in self.players:
                    self.players[seat.player_id].table_id = room.id
            for index, seat in enumerate(room.table.seats):
                if seat.kind is SeatKind.HUMAN and not seat.standin:
                    self._start_grace(room, index)

    def start_bots(self) -> None:
        for room in self.rooms.values():
            self._kick_bots(room)

    # --- the WebSocket endpoint ---------------------------------------------------

    async def handle_ws(self, request: web.Request) -> web.StreamResponse:
        if len(self.connections) >= self.limits.max_connections:
            with speaking(_accepted_language(request)):
                full = _("The server is full; try again later.")
            return web.Response(status=503, text=full + "\n")
        ws = web.WebSocketResponse(
            max_msg_size=self.limits.hard_max_message, heartbeat=20.0, compress=False
        )
        try:
            await ws.prepare(request)
        except ConnectionResetError:
            # why: the client gave up during the handshake (a page that closed a socket still
            # connecting); nobody reads the answer, and aiohttp finishes a plain response
            # quietly where a half-made WebSocket one raises (aiohttp issue 4587)
            return web.Response()
        conn = Connection(ws, self.limits, self._save)
        if self.stopping:  # why: a connection made while stopping would get no goodbye
            await ws.close(code=WSCloseCode.GOING_AWAY, message=GOING_AWAY_REASON)
            return ws
        self.connections.add(conn)
        writer = conn.writer = asyncio.create_task(conn.write_loop())
        try:
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    self.receive(conn, message.data)
                else:
                    break
        finally:
            self.connections.discard(conn)
            self._disconnected(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1.0)
            writer.cancel()
        return ws

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        """Handle one client message whole; anything wrong is an ``error`` and changes nothing.

        Every sentence made meanwhile (errors, answers, missed events) is worded in the
        connection's language; a first hello's own errors in the language it names."""
        self.messages += 1
        if self.stopping:  # why: the store is being closed; a move now could not be kept
            return
        with speaking(conn.language):
            message = self._decode(conn, raw)
        if message is None:
            return
        language = conn.language
        if isinstance(message, Hello) and conn.player is None:
            language = message.language
        with speaking(language):
            try:
                self._dispatch(conn, message)
            except TableError as error:
                conn.send(Error(error.code, str(error)))
            except FiveCrownsError as error:
                conn.send(Error("refused", str(error)))
            except Exception:  # why: one bad command must not end the server; the log has it
                log.exception("A message could not be handled")
                conn.send(Error("internal", _("The server could not do that; it has been logged.")))

    def _decode(self, conn: Connection, raw: str | bytes) -> ClientMessage | None:
        """The message in ``raw``, or ``None`` after an ``error`` saying what is wrong."""
        if len(raw) > self.limits.max_message:
            text = _("A message has at most {count} bytes.").format(count=self.limits.max_message)
            conn.send(Error("too_big", text))
            return None
        if not conn.allow():
            conn.send(Error("rate_limited", _("Too many messages at once; slow down.")))
            return None
        try:
            return decode_client(raw)
        except ProtocolError as error:
            conn.send(Error("bad_message", str(error)))
            return None

    def _dispatch(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, Hello):
            self._hello(conn, message)
            return
        if conn.player is None:
            raise TableError("hello_first", _("Say hello first, with your name."))
        player = conn.player
        if isinstance(message, ListTables):
            conn.send(self._tables())
        elif isinstance(message, CreateTable):
            self._create(conn, player, message)
        elif isinstance(message, Join):
            self._join(conn, player, message)
        elif isinstance(message, Watch):
            self._watch(conn, message)
        elif isinstance(message, Leave):
            self._leave(conn, player)
        elif isinstance(message, AddBot | RemoveBot | Start | NewGame):
            self._creator_command(conn, player, message)
        elif isinstance(message, Act):
            self._act(conn, player, message)
        elif isinstance(message, Chat):
            room = self._room_of(conn)
            self._change(room, lambda: room.table.chat(player.id, player.name, message.text))
        elif isinstance(message, Ask):
            room = self._room_of(conn)
            conn.send(Answer(message.what, answer(room.table, conn.seat, message.what)))
        elif isinstance(message, SetLanguage):
            conn.language = message.language  # the next sentence is worded in it
        elif isinstance(message, Resume):
            room = self._room_of(conn)
            for frame in room.table.frames_since(message.last_seq, conn.seat):
                conn.send(EventFrame(**frame))
            self._send_snapshot(conn, room)

    # --- lobby ----------------------------------------------------------------------

    def _hello(self, conn: Connection, message: Hello) -> None:
        if conn.player is not None:
            raise TableError("already_hello", _("You have already said hello on this connection."))
        if message.v != PROTOCOL_VERSION:
            text = _(
                "This server speaks protocol version {version}, not {asked}; update the game."
            ).format(version=PROTOCOL_VERSION, asked=message.v)
            raise TableError("version", text)
        if message.token is not None:
            record = self.by_token.get(_hash(message.token))
            if record is None:
                raise TableError(
                    "bad_token", _("That token is not known here; say hello without it.")
                )
            token = message.token
            if record.conn is not None and record.conn is not conn:
                old = record.conn
                self._detach(old)
                with speaking(old.language):
                    replaced = _("You connected again from elsewhere; this one closes.")
                old.send(Error("replaced", replaced))
                old.close()
        else:
            name = " ".join(message.name.split())
            if not name:
                raise TableError("bad_name", _("Every player needs a name."))
            token = secrets.token_urlsafe(24)
            record = PlayerRecord(secrets.token_hex(8), name, _hash(token))
            self.store.add_player(StoredPlayer(record.id, record.name, record.token_hash))
            self.players[record.id] = record
            self.by_token[record.token_hash] = record
        record.conn = conn
        conn.player = record
        conn.language = message.language  # why here: a refused hello changes nothing
        conn.send(Welcome(PROTOCOL_VERSION, record.id, record.name, token))
        room = self.rooms.get(record.table_id or "")
        seat = room.table.seat_of(record.id) if room is not None else None
        if room is None or seat is None:
            if record.table_id is not None and room is None:
                conn.send(Error("table_gone", _(SEAT_GONE)))  # the sweep closed it meanwhile
            record.table_id = None
            self._watch_again(conn, record, message)
            return
        record.watching = None
        self._attach(conn, room, seat)
        conn.send(self._seated(room, seat, record))
        self._send_missed(conn, room, seat, message.last_seq)
        self._send_snapshot(conn, room)
        timer = room.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if room.table.seats[seat].standin:
            self._change(room, lambda: room.table.hand_back(seat))

    def _watch_again(self, conn: Connection, record: PlayerRecord, hello: Hello) -> None:
        """Put a returning spectator back at the table they watched, or in the lobby."""
        watched = record.watching
        record.watching = None
        room = None if watched is None else self.rooms.get(watched)
        if watched is None and hello.watch is not None:
            # why the hello's word: after a restart only the client remembers what it watched;
            # a private table only with its invite code, as a first watch would need
            watched = hello.watch
            room = self.rooms.get(watched)
            if room is not None and room.private and hello.watch_code != room.code:
                room = None
        if watched is None:
            conn.send(self._tables())
            return
        if room is None or len(room.conns.get(None, ())) >= self.limits.max_spectators:
            if room is None:
                conn.send(Error("table_gone", _(TABLE_GONE)))
            else:
                conn.send(Error("too_many_spectators", _(TOO_MANY_SPECTATORS)))
            conn.send(self._tables())
            return
        record.watching = room.id
        self._attach(conn, room, None)
        conn.send(self._seated(room, None, record))
        self._send_missed(conn, room, None, hello.last_seq)
        self._send_snapshot(conn, room)

    def _send_missed(
        self, conn: Connection, room: Room, seat: int | None, last_seq: int | None
    ) -> None:
        """The events after ``last_seq``, as ``seat`` may see them (a returning connection)."""
        if last_seq is not None and last_seq <= room.table.seq:
            for frame in room.table.frames_since(last_seq, seat):
                conn.send(EventFrame(**frame))

    def _tables(self) -> Tables:
        """The open public tables, those still waiting for players first, at most
        ``LISTED_TABLES`` of them (why: a longer list helps nobody and costs every lobby)."""
        rooms = [r for r in self.rooms.values() if not r.private and not r.table.is_over]
        rooms.sort(key=lambda room: room.table.started)
        infos = [
            TableInfo(
                room.id,
                [seat.to_json() for seat in room.table.seats],
                room.table.game.round if room.table.game else 0,
                room.table.started,
                room.table.is_over,
                len(room.conns.get(None, ())),
            )
            for room in rooms[:LISTED_TABLES]
        ]
        return Tables(infos)

    def _create(self, conn: Connection, player: PlayerRecord, message: CreateTable) -> None:
        self._not_at_table(conn)
        if len(self.rooms) >= self.limits.max_tables:
            raise TableError("too_many_tables", _("The server has as many tables as it allows."))
        if len(message.bots) >= message.seats:
            raise TableError(
                "too_many_bots", _("Leave a seat for yourself: fewer computer players.")
            )
        for level in message.bots:
            Table(2, creator_name="x", creator_id="x").add_bot(level)  # the level check only
        table_id = self._new_id()
        code = secrets.token_urlsafe(6) if message.private else None
        self.store.add_table(
            StoredTable(table_id, message.seats, player.id, player.name, code, message.private)
        )
        room = Room(table_id, None, code, message.private)  # type: ignore[arg-type]
        room.table = Table(
            message.seats,
            creator_name=player.name,
            creator_id=player.id,
            record=self._recorder(room),
        )
        for level in message.bots:
            room.table.add_bot(level)
        self._add_room(room)
        player.table_id = room.id
        self._attach(conn, room, 0)
        conn.send(self._seated(room, 0, player))
        self._send_snapshot(conn, room)
        self.lobby_dirty = True

    def _join(self, conn: Connection, player: PlayerRecord, message: Join) -> None:
        self._not_at_table(conn)
        room = self._find(message.table, message.code)
        seat = room.table.seat_of(player.id)
        if seat is None:
            seat_box: list[int] = []
            self._change(
                room, lambda: seat_box.append(room.table.sit(player.name, player.id, message.seat))
            )
            seat = seat_box[0]
        player.table_id = room.id
        self._attach(conn, room, seat)
        conn.send(self._seated(room, seat, player))
        self._send_snapshot(conn, room)
        self.lobby_dirty = True

    def _watch(self, conn: Connection, message: Watch) -> None:
        self._not_at_table(conn)
        room = self._find(message.table, message.code)
        if len(room.conns.get(None, ())) >= self.limits.max_spectators:
            raise TableError("too_many_spectators", _(TOO_MANY_SPECTATORS))
        self._attach(conn, room, None)
        assert conn.player is not None
        conn.player.watching = room.id
        conn.send(self._seated(room, None, conn.player))
        self._send_snapshot(conn, room)

    def _leave(self, conn: Connection, player: PlayerRecord) -> None:
        room = self._room_of(conn)
        if conn.seat is not None:
            seat = conn.seat
            timer = room.timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            if room.table.seat_of(player.id) is not None:
                self._change(room, lambda: room.table.leave(player.id))
            player.table_id = None
            for other in list(room.conns.get(seat, ())):
                self._detach(other)
                other.send(Left())
        else:
            player.watching = None
            self._detach(conn)
            conn.send(Left())
        self.lobby_dirty = True
        self._forget_if_done(room)

    def _creator_command(
        self, conn: Connection, player: PlayerRecord, message: AddBot | RemoveBot | Start | NewGame
    ) -> None:
        room = self._room_of(conn)
        table = room.table
        if conn.seat is None or table.creator_id != player.id:
            creator = self.players.get(table.creator_id)
            if isinstance(message, NewGame) and creator is not None:
                text = _(NEW_GAME_NOT_CREATOR).format(name=creator.name)
                raise TableError("not_creator", text)
            raise TableError("not_creator", _("Only the player who made the table can do that."))
        if isinstance(message, AddBot):
            self._change(room, lambda: table.add_bot(message.level, message.seat))
        elif isinstance(message, RemoveBot):
            self._change(room, lambda: table.remove_bot(message.seat))
        elif isinstance(message, NewGame):
            self._change(room, lambda: table.new_game(self._new_seed()))
            self.store.finish_table(room.id, finished=False)  # why: a restart brings it back
            room.recorded = False
        else:
            self._change(room, lambda: table.start(self._new_seed()))
        self.lobby_dirty = True

    def _act(self, conn: Connection, player: PlayerRecord, message: Act) -> None:
        room = self._room_of(conn)
        move = _last_turn_go_out(room.table, player.id, _move(message))
        self._change(room, lambda: room.table.act(player.id, move, message.seq))
        self.moves += 1

    # --- changes and who hears them ----------------------------------------------------

    def _change(self, room: Room, command: Any) -> list[Entry]:
        """Run one table command; send its new entries to everyone there; pace the bots."""
        before = room.table.seq
        command()
        entries = room.table.log[before:]
        if entries:
            self._publish(room, entries)
        return entries

    def _publish(self, room: Room, entries: list[Entry], kick: bool = True) -> None:
        table = room.table
        self.fanout.publish(room, entries)
        game_moved = any(entry.event is not None for entry in entries)
        new_round = any(entry.kind == "round_started" for entry in entries)
        # why after game over too: the last scores and "game over" must be in a snapshot,
        # so a client need not ask for one with resume
        ended = any(entry.kind == "game_over" for entry in entries)
        game = table.game
        current = game.current_player if game is not None and not game.is_over else None
        for seat, conns in room.conns.items():
            # why: a snapshot when the seats change, at a new deal, and to the seat now to play
            turn = seat is not None and seat == current
            if conns and (not game_moved or new_round or ended or turn):
                frame = self._snapshot_frame(room, seat)  # why once: all of a seat's connections
                for conn in conns:
                    conn.send_raw(frame)
        if table.is_over and not room.recorded:
            room.recorded = True
            self._record_history(room)
        if kick:
            self._kick_bots(room)

    def _send_snapshot(self, conn: Connection, room: Room) -> None:
        conn.send_raw(self._snapshot_frame(room, conn.seat))

    def _snapshot_frame(self, room: Room, seat: int | None) -> bytes:
        return encode(Snapshot(table=room.id, **room.table.snapshot(seat)))

    def _kick_bots(self, room: Room) -> None:
        if room.table.bot_due() is None:
            return
        task = room.bot_task
        if task is not None and not task.done():
            return
        room.bot_task = asyncio.ensure_future(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        # why bounded: a game has at most a few thousand moves; the loop ends when no bot is due
        for _step in range(100_000):
            if room.table.bot_due() is None or room.id not in self.rooms:
                return
            await asyncio.sleep(self.limits.bot_delay)
            turn = room.table.bot_turn()
            if turn is None:
                continue
            # why a thread: a hard or expert bot thinks for up to ~40 ms, which on the event
            # loop would hold up every other table; the view it reads is a frozen snapshot, and
            # the GIL's switch interval (5 ms) keeps the loop answering meanwhile
            decided = await asyncio.to_thread(turn.decide)
            if room.id not in self.rooms:
                return
            before = room.table.seq
            try:
                room.table.play_bot(turn, decided)
            except Exception:  # why: log it and stop this table's bots, never the server
                log.exception("A computer player could not move at table %s", room.id)
                return
            entries = room.table.log[before:]
            if entries:
                self._publish(room, entries, kick=False)

    def _record_history(self, room: Room) -> None:
        game = room.table.game
        assert game is not None
        self.store.finish_table(room.id)
        if self.history is not None:
            from fivecrowns.storage.history import append_history

            with contextlib.suppress(OSError):  # why: a full disk must not stop the server
                append_history(list(game.players), list(game.totals), self.history)
        self.lobby_dirty = True

    # --- dropped connections and stand-ins ------------------------------------------------

    def _disconnected(self, conn: Connection) -> None:
        player = conn.player
        room = conn.room
        seat = conn.seat
        self._detach(conn)
        if player is not None and player.conn is conn:
            player.conn = None
            if room is not None and seat is not None and room.id in self.rooms:
                self._start_grace(room, seat)
        # why for spectators too: a finished table whose last spectator drops is forgotten
        if room is not None and room.id in self.rooms:
            self._forget_if_done(room)

    def _start_grace(self, room: Room, seat: int) -> None:
        if room.table.is_over or not room.table.started or self.stopping:
            return
        old = room.timers.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_event_loop()
        room.timers[seat] = loop.call_later(self.limits.grace, self._stand_in, room, seat)

    def _stand_in(self, room: Room, seat: int) -> None:
        room.timers.pop(seat, None)
        if room.conns.get(seat) or room.id not in self.rooms:
            return
        self._change(room, lambda: room.table.stand_in(seat))

    # --- small helpers -----------------------------------------------------------------------

    def _recorder(self, room: Room) -> Any:
        def record(index: int, command: dict[str, Any]) -> None:
            self.store.append_input(room.id, index, command)
            if not self._save_soon:  # why: also saved when no connection has a frame to send
                self._save_soon = True
                asyncio.get_running_loop().call_soon(self._save)

        return record

    def _save(self) -> bool:
        """Commit the store's kept inputs (every writer calls this before it sends)."""
        self._save_soon = False
        try:
            self.store.flush()
        except Exception:  # why: log it; the inputs stay kept and the next save tries again
            log.exception("The moves could not be saved")
            return False
        return True

    def _add_room(self, room: Room) -> None:
        self.rooms[room.id] = room
        if room.code is not None:
            self.by_code[room.code] = room

    def sweep(self, now: float) -> list[str]:
        """Close the tables nobody is at any more; returns their ids.

        A table with no connection (no player, no spectator) is closed once it has been so
        for the grace (``limits.grace``) if none of its seats holds a person (everyone left:
        empty seats and computer players only), or for ``limits.away`` if some seated player
        only dropped (they may be reconnecting). A finished table with nobody there is
        forgotten at once. A closed table's moves stay in the store, marked finished (a
        restart does not bring it back); a finished game is already in the history.
        Bounded: one pass looks at each table once (at most ``limits.max_tables``)."""
        closed: list[str] = []
        for room in list(self.rooms.values()):
            if any(room.all_conns()):
                room.deserted_since = None
                continue
            table = room.table
            if table.is_over:
                self._close(room)
                closed.append(room.id)
                continue
            if room.deserted_since is None:
                room.deserted_since = now
                continue
            seated = any(seat.kind is SeatKind.HUMAN for seat in table.seats)
            wait = self.limits.away if seated else self.limits.grace
            if now - room.deserted_since >= wait:
                self._close(room)
                closed.append(room.id)
        return closed

    def _close(self, room: Room) -> None:
        """Take a table out of the server; its stored moves stay, marked finished."""
        for timer in room.timers.values():
            timer.cancel()
        room.timers.clear()
        if room.bot_task is not None:
            room.bot_task.cancel()
        self.rooms.pop(room.id, None)
        if room.code is not None:
            self.by_code.pop(room.code, None)
        if not room.table.is_over:
            self.store.finish_table(room.id)
            log.info("Closed table %s: nobody was at it any more", room.id)
        self.lobby_dirty = True

    async def sweeps(self) -> None:
        """Sweep the tables every few seconds (sooner with a short grace, as tests use)."""
        every = min(5.0, max(0.2, self.limits.grace / 2))
        for _pass in range(SWEEPS):
            await asyncio.sleep(every)
            try:
                self.sweep(time.monotonic())
            except Exception:  # why: a store error must not end the sweeping; the log has it
                log.exception("The tables could not be swept")

    def _forget_if_done(self, room: Room) -> None:
        """A finished table with nobody left in it is dropped from memory."""
        if room.table.is_over and not any(room.all_conns()):
            self.rooms.pop(room.id, None)
            if room.code is not None:
                self.by_code.pop(room.code, None)

    def _new_seed(self) -> int:
        if self.seed is None:
            return secrets.randbits(62)
        self.seed += 1
        return self.seed - 1

    def _new_id(self) -> str:
        for _attempt in range(100):
            table_id = secrets.token_hex(4)
            if table_id not in self.rooms:
                return table_id
        raise TableError("busy", _("Could not find a free table number; try again."))

    def _find(self, table_id: str | None, code: str | None) -> Room:
        if code is not None:
            room = self.by_code.get(code)
            if room is None:
                raise TableError("no_table", _("No table has that invite code."))
            return room
        room = self.rooms.get(table_id or "")
        if room is None or room.private:
            raise TableError("no_table", _("There is no such table; list the tables to see them."))
        return room

    def _room_of(self, conn: Connection) -> Room:
        if conn.room is None:
            raise TableError(
                "no_table", _("You are not at a table: create, join or watch one first.")
            )
        return conn.room

    def _not_at_table(self, conn: Connection) -> None:
        if conn.room is not None:
            raise TableError("at_table", _("You are already at a table; leave it first."))

    def _attach(self, conn: Connection, room: Room, seat: int | None) -> None:
        conn.room = room
        conn.seat = seat
        room.conns.setdefault(seat, set()).add(conn)

    def _detach(self, conn: Connection) -> None:
        if conn.room is not None:
            conns = conn.room.conns.get(conn.seat)
            if conns is not None:
                conns.discard(conn)
        conn.room = None
        conn.seat = None

    def _seated(self, room: Room, seat: int | None, player: PlayerRecord) -> Seated:
        return Seated(room.id, seat, room.code, room.table.creator_id == player.id)

    async def stop(self) -> None:
        """Stop at once (SIGTERM, Ctrl+C): no more moves, every move kept on disk, and every
        connection told why it ends (an ``error`` ``server_stopping``, then close code 1001).

        why here and not in aiohttp's shutdown: aiohttp waits for every open WebSocket to end
        by itself (up to its shutdown timeout), which took about 30 s; closing them first
        lets the server stop within a couple of seconds."""
        self.stopping = True
        for room in self.rooms.values():
            for timer in room.timers.values():
                timer.cancel()
            room.timers.clear()
            if room.bot_task is not None:
                room.bot_task.cancel()
        self._save()
        template = SERVER_STOPPING if self.keeps_tables else SERVER_STOPPING_MEMORY
        conns = list(self.connections)
        for conn in conns:
            with speaking(conn.language):
                conn.send(Error("server_stopping", _(template)))
            conn.closed = True  # why: nothing more is queued; the write loop ends after these
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
        writers = [conn.writer for conn in conns if conn.writer is not None]
        if writers:
            await asyncio.wait(writers, timeout=STOP_WAIT)

        async def goodbye(conn: Connection) -> None:
            with contextlib.suppress(Exception):  # why: a socket already gone needs no goodbye
                await conn.ws.close(code=WSCloseCode.GOING_AWAY, message=GOING_AWAY_REASON)

        closing = [asyncio.ensure_future(goodbye(conn)) for conn in conns]
        if closing:
            _done, late = await asyncio.wait(closing, timeout=STOP_WAIT)
            for task in late:  # why: a client that never answers the close must not hold us
                task.cancel()

    async def lobby_updates(self) -> None:
        """Send the table list to everyone in the lobby at most once a second, when it changed."""
        while True:
            await asyncio.sleep(1.0)
            if not self.lobby_dirty:
                continue
            self.lobby_dirty = False
            listing = encode(self._tables())
            for conn in self.connections:
                if conn.player is not None and conn.room is None:
                    conn.send_raw(listing)


def _last_turn_go_out(table: Table, player_id: str, move: Move) -> Move:
    """``go_out`` in the mover's last turn plays what the terminal's G does there."""
    # why: nobody can go out after someone has; the terminal's G then lays down the best melds
    # and throws the card that leaves the fewest points, and a web player's G must do the same
    game, seat = table.game, table.seat_of(player_id)
    if not isinstance(move, GoOut) or game is None or seat != game.current_player:
        return move
    return last_turn_discard(game.phase, game.hand(seat), game.wild_rank) or move


def _move(message: Act) -> Move:
    """The move an ``act`` asks for; a bad card token is a sentence, not a crash."""
    args = message.args
    try:
        if message.action == "draw_stock":
            return DrawFromStock()
        if message.action == "take_discard":
            return TakeDiscard()
        if message.action in ("discard", "go_out"):
            if args.card is None:
                # TRANSLATORS: {action} is the protocol's word (discard, go_out), not translated
                text = _("{action} needs a card, as in 7h.").format(action=message.action)
                raise TableError("bad_args", text)
            card = parse_card(args.card)
            return Discard(card) if message.action == "discard" else GoOut(card)
        if args.melds is None:
            return LayDown()
        return LayDown(tuple(tuple(parse_card(token) for token in meld) for meld in args.melds))
    except ValueError as error:
        raise TableError("bad_card", str(error)) from None


def _accepted_language(request: web.Request) -> str:
    """The first language of the request's Accept-Language the game speaks (English if none)."""
    return accepted_language(request.headers.get("Accept-Language", ""))


def make_app(server: Server) -> web.Application:
    app = web.Application()
    add_web_routes(app)  # the web client at / (docs/web.md)
    app.router.add_get("/ws", server.handle_ws)

    async def background(app: web.Application) -> Any:
        server.recover()
        server.start_bots()
        lobby = asyncio.create_task(server.lobby_updates())
        sweeps = asyncio.create_task(server.sweeps())
        yield
        lobby.cancel()
        sweeps.cancel()
        for room in server.rooms.values():
            for timer in room.timers.values():
                timer.cancel()
            if room.bot_task is not None:
                room.bot_task.cancel()
        server.store.close()

    async def stopping(app: web.Application) -> None:
        await server.stop()

    app.on_shutdown.append(stopping)
    app.cleanup_ctx.append(background)
    return app
