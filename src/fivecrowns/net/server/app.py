"""The game server: a lobby of tables over WebSocket (aiohttp), the only authority.

Every message is handled whole, without awaiting, on the event loop: a table
never sees two commands at once, and a refused command changes nothing. The
server drives its tables (STYLE practice 15): it paces computer players, lets a
computer stand in for a human whose connection dropped (after a grace period)
and hands the seat back when they return with their token.

Two small interfaces keep the lobby independent of where things live:
:class:`~fivecrowns.net.server.store.Store` (tables, players, inputs) and
:class:`~fivecrowns.net.server.rooms.Fanout` (who gets which frame). See docs/protocol.md
and docs/network.md.

The server's parts, each its own module: ``connection`` (one WebSocket, its queue and
writer), ``rooms`` (rooms, player records, the fan-out), ``lobby`` (hello, the table list,
invite codes, to a table and away), ``pacing`` (computer players, stand-ins, the sweep),
``resend`` (events sent again), ``accounts`` (sign-up, log-in, sessions, an account's name
its own), ``friends`` (friends, presence, private messages, blocks, kick and ban), ``store``
and ``web``; this module reads each client message and hands it to them,
and makes the aiohttp application.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import last_turn_discard
from fivecrowns.core.moves import GoOut, Move
from fivecrowns.i18n import N_, ngettext, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import (
    Act,
    AddBot,
    Answer,
    Ask,
    Chat,
    ClientMessage,
    CreateTable,
    DeleteAccount,
    Error,
    Hello,
    Join,
    Kick,
    Leave,
    Listening,
    ListTables,
    LogIn,
    LogOut,
    MoveError,
    MuteChat,
    NewGame,
    ProtocolError,
    ReadGame,
    ReadGames,
    ReadLeaderboard,
    ReadRecord,
    Refresh,
    RemoveBot,
    Resume,
    SetLanguage,
    SignUp,
    SpectatorChat,
    Start,
    Watch,
    decode_client,
    move_of,
)
from fivecrowns.net.server.accounts import AccountRules, Accounts
from fivecrowns.net.server.connection import GOING_AWAY_REASON, Connection, Writes, go_away
from fivecrowns.net.server.cycles import let_go_of_websockets
from fivecrowns.net.server.friends import FriendMessage, FriendsHere
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.lobby import Lobby, Recorder, room_of
from fivecrowns.net.server.origins import origin_allowed
from fivecrowns.net.server.pacing import Pacing
from fivecrowns.net.server.proxy import ProxyHeaders
from fivecrowns.net.server.quiet import Throttled
from fivecrowns.net.server.ratings import Ratings
from fivecrowns.net.server.resend import send_since
from fivecrowns.net.server.rooms import (
    Fanout,
    LocalFanout,
    PlayerRecord,
    Room,
    Rooms,
    send_snapshot,
    send_snapshots,
)
from fivecrowns.net.server.store import MemoryStore, Store, StoreError
from fivecrowns.net.server.web import accepted_language, add_web_routes
from fivecrowns.storage.history import HistoryWriter
from fivecrowns.table import Entry, Table, TableError
from fivecrowns.table.info import answer

# why Connection, PlayerRecord, Room: tests and benchmarks import them from here
__all__ = ["FULL_HEADERS", "Server", "full_response", "make_app"]

#: Said with a full server's 503, so a spare passing a player on tells "full" from the owner
#: changing over (also a 503) and refuses at once instead of waiting for a new owner.
FULL_HEADERS = {"X-Fivecrowns-Refusal": "full"}

log = logging.getLogger(__name__)

# why tuples made once: ``A | B`` in an isinstance builds a new union at every message, which
# cost about 2% of the server's CPU under full-speed tables (issue 29)
_GREETINGS = (Hello, SignUp, LogIn)
_ACCOUNT_MESSAGES = (Hello, SignUp, LogIn, Refresh, LogOut, DeleteAccount)
_CREATOR_COMMANDS = (AddBot, RemoveBot, Start, NewGame, SpectatorChat)

NEW_GAME_NOT_CREATOR = N_(
    "Only {name}, who made this table, can start a new game here. To play again yourself, "
    "create a table in the lobby."
)
#: What a player hears after ``mute_chat``, for each choice.
MUTED = {
    "nobody": N_("Chat is spoken again."),
    "spectators": N_("Spectators' chat is silent for you; players' chat is spoken."),
    "everyone": N_("Chat is silent for you; it still comes, without words."),
}
SERVER_STOPPING = N_("The server is stopping. Its tables come back when it starts again.")
SERVER_STOPPING_MEMORY = N_(
    "The server is stopping. It keeps no tables, so the games on it end now."
)


def full_response(request: web.Request) -> web.Response:
    """HTTP 503 with the sentence a full server says, and the header that tells it apart from
    a process changing over (cluster.py passes the owner's on as "full" too)."""
    with speaking(_accepted_language(request)):
        full = _("The server is full; try again later.")
    return web.Response(status=503, text=full + "\n", headers=FULL_HEADERS)


class Server:
    """One game server: its connections, and each client message handed to the lobby, to the
    table it is for, or to the pacing; every change at a table reaches everyone there."""

    lobby_class: type[Lobby] = Lobby  # why: the front of ``serve --workers`` lists theirs
    friends_class: type[FriendsHere] = FriendsHere  # why: and tells their presence

    def __init__(
        self,
        store: Store | None = None,
        limits: Limits | None = None,
        history: Path | None = None,
        fanout: Fanout | None = None,
        seed: int | None = None,
        accounts: AccountRules | None = None,
    ) -> None:
        self.store: Store = store or MemoryStore()
        self.limits = limits or Limits()
        self.history = history
        # why a worker thread: each finished game's record is fsynced (HistoryWriter)
        self.history_writer = None if history is None else HistoryWriter(history)
        self.fanout: Fanout = fanout or LocalFanout()
        # why: ``serve --seed`` deals the same games again (tests, reproducible tournaments)
        self.seed = seed
        self.rooms = Rooms()
        self.pacing = Pacing(self.rooms, self.limits, self._publish, self._close)
        self.lobby = self.lobby_class(
            self.rooms, self.store, self.limits, self.pacing, self._recorder
        )
        self.accounts = Accounts(
            self.store.accounts, self.lobby, accounts, history=self.history_writer
        )
        self.friends = self.friends_class(self.store, self.lobby)
        self.ratings = Ratings(self.store.ratings, self.store.accounts, self.lobby)
        self.connections: set[Connection] = set()
        self.per_address: dict[str, int] = {}  # open WebSockets (and upgrades) by address
        self._save_soon = False
        self.writes = Writes(self._save)  # every connection's frames, written once a loop turn
        self._save_trouble = Throttled(log)
        self.messages = 0
        self.moves = 0
        self.stopping = False
        self.keeps_tables = not isinstance(self.store, MemoryStore)

    # --- start and restart --------------------------------------------------------

    def recover(self) -> None:
        """Bring back every unfinished table from the store (:meth:`Lobby.recover`), and
        forget the bans of the finished ones."""
        self.lobby.recover()
        self.friends.friends.forget_finished_tables()

    def start_bots(self) -> None:
        self.pacing.start()

    async def start_workers(self, epoch: int = 0) -> None:
        """Start what serves the tables beside this process, once it owns them (at ``epoch``
        of the cluster's lease; 0: no cluster): nothing here (a front links its workers)."""

    async def stop_workers(self) -> None:
        """Stop what :meth:`start_workers` started: nothing here."""

    def close_workers(self) -> None:
        """Stop the threads and processes beside the event loop (password hashes, the history
        file), each once its work asked for is done; after the tables have stopped."""
        self.accounts.close()
        if self.history_writer is not None:
            self.history_writer.close()  # why: every finished game's record is written

    # --- the WebSocket endpoint ---------------------------------------------------

    async def handle_ws(self, request: web.Request) -> web.StreamResponse:
        if len(self.connections) >= self.limits.max_connections:
            return full_response(request)
        refusal = self.origin_refusal(request)
        if refusal is not None:
            return refusal
        address = request.remote or ""
        most = self.limits.max_per_address
        if most and self.per_address.get(address, 0) >= most:
            with speaking(_accepted_language(request)):
                text = ngettext(
                    "Your address already has {count} connection to this server, as many as "
                    "it allows; close it and try again.",
                    "Your address already has {count} connections to this server, as many as "
                    "it allows; close one and try again.",
                    most,
                ).format(count=most)
            return web.Response(status=429, text=text + "\n")
        self.per_address[address] = self.per_address.get(address, 0) + 1
        try:
            return await self._serve_ws(request)
        finally:
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]

    def origin_refusal(self, request: web.Request) -> web.Response | None:
        """HTTP 403 with a sentence for a page this server does not let in (None: let in);
        also what a process passing connections on to another checks (serve --bus)."""
        origin = request.headers.get("Origin")
        if origin_allowed(origin, request.headers.get("Host"), self.limits.allowed_origins):
            return None
        log.info("Refused a WebSocket from the page at %r", (origin or "")[:100])
        with speaking(_accepted_language(request)):
            text = _(
                "Pages from {origin} may not connect to this server; only its own page and "
                "those its operator allows may."
            ).format(origin=origin)
        return web.Response(status=403, text=text + "\n")

    async def _serve_ws(self, request: web.Request) -> web.StreamResponse:
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
        if request.transport is None:
            # why: the client went while the answer was written, before aiohttp made the
            # WebSocket's reader; that reader never hears of the end, so reading it would hold
            # this address's slot until the hello deadline (CI on Python 3.12 met it)
            return ws
        conn = Connection(ws, self.limits, self._save, request.transport, self.writes)
        conn.address = request.remote or ""
        if self.stopping:  # why: a connection made while stopping would get no goodbye
            await ws.close(code=WSCloseCode.GOING_AWAY, message=GOING_AWAY_REASON)
            return ws
        self.connections.add(conn)
        writer = conn.writer = asyncio.create_task(conn.write_loop())
        language = _accepted_language(request)
        deadline = asyncio.get_running_loop().call_later(
            self.limits.hello_deadline, self._no_hello, conn, language
        )
        try:
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    self.receive(conn, message.data)
                else:
                    break
        finally:
            deadline.cancel()
            self.connections.discard(conn)
            self._disconnected(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1.0)
            writer.cancel()
        return ws

    def _no_hello(self, conn: Connection, language: str) -> None:
        """A connection that has not said hello in time is told so and closed (why: an idle
        socket holds a connection slot and a file for nothing)."""
        if conn.player is not None or conn.closed:
            return
        if self.accounts.logging_in(conn):  # why: its hash may wait; give it the time again
            loop = asyncio.get_running_loop()
            loop.call_later(self.limits.hello_deadline, self._no_hello, conn, language)
            return
        seconds = max(1, round(self.limits.hello_deadline))
        with speaking(language):
            text = ngettext(
                "This connection said no hello within {seconds} second of opening, so it "
                "closes. Connect again and say hello first.",
                "This connection said no hello within {seconds} seconds of opening, so it "
                "closes. Connect again and say hello first.",
                seconds,
            ).format(seconds=seconds)
        conn.close_saying(Error("hello_timeout", text))

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        """Handle one client message whole; anything wrong is an ``error`` and changes nothing.

        Every sentence made meanwhile (errors, answers, missed events) is worded in the
        connection's language; a first hello's own errors in the language it names."""
        self.messages += 1
        if self.stopping:  # why: the store is being closed; a move now could not be kept
            return
        if conn.closed:
            # why: a connection replaced by a newer hello with its token (or being dropped)
            # may still have messages on their way; acting on them seated one player at two
            # tables
            return
        # why one block for decoding and handling: entering one is part of the glue around
        # every move (issue 29); only a first hello's own language needs a block of its own
        with speaking(conn.language):
            message = self._decode(conn, raw)
            if message is None:
                return
            if isinstance(message, _GREETINGS) and conn.player is None:
                with speaking(message.language):
                    self._handle(conn, message)
            else:
                self._handle(conn, message)

    def _handle(self, conn: Connection, message: ClientMessage) -> None:
        """Act on ``message``; a refusal or a failure is an ``error`` in the language spoken."""
        try:
            self._dispatch(conn, message)
            self.friends.moved(conn.player)  # why: a seat, a watch or a leave moves one
        except TableError as error:
            conn.send(Error(error.code, str(error)))
        except FiveCrownsError as error:
            conn.send(Error("refused", str(error)))
        except Exception:  # why: one bad command must not end the server; the log has it
            log.exception("A message could not be handled")
            conn.send(Error("internal", _("The server could not do that; it has been logged.")))

    def _decode(self, conn: Connection, raw: str | bytes) -> ClientMessage | None:
        """The message in ``raw``, or ``None`` after an ``error`` saying what is wrong."""
        # why the rate first: a message too big costs its share of the rate like any other,
        # so a flood of them is answered rate_limited, not each with its own too_big
        if not conn.allow():
            conn.send(Error("rate_limited", _("Too many messages at once; slow down.")))
            return None
        if len(raw) > self.limits.max_message:
            text = _("A message has at most {count} bytes.").format(count=self.limits.max_message)
            conn.send(Error("too_big", text))
            return None
        try:
            return decode_client(raw)
        except ProtocolError as error:
            conn.send(Error("bad_message", str(error)))
            return None

    def _dispatch(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, _ACCOUNT_MESSAGES):
            self._account_message(conn, message)
            return
        if conn.player is None:
            raise TableError("hello_first", _("Say hello first, with your name."))
        player = conn.player
        if isinstance(message, Act):  # why first: nearly every message is a move (issue 29)
            self._act(conn, player, message)
        elif isinstance(message, ListTables):
            conn.send(self.lobby.tables())
        elif isinstance(message, CreateTable):
            self.lobby.create(conn, player, message)
        elif isinstance(message, Join):
            self.lobby.join(conn, player, message)
        elif isinstance(message, Watch):
            self.lobby.watch(conn, message)
        elif isinstance(message, Leave):
            self.lobby.leave(conn, player)
        elif isinstance(message, _CREATOR_COMMANDS):
            self._creator_command(conn, player, message)
        elif isinstance(message, Chat):
            room = room_of(conn)
            _chat_allowed(conn, room)
            self.pacing.change(room, lambda: room.table.chat(player.id, player.name, message.text))
        elif isinstance(message, Ask):
            room = room_of(conn)
            conn.send(Answer(message.what, answer(room.table, conn.seat, message.what)))
        elif isinstance(message, SetLanguage):
            conn.language = message.language  # the next sentence is worded in it
        elif isinstance(message, MuteChat):
            player.mute = message.who
            conn.send(Answer("mute_chat", _(MUTED[message.who])))
        elif isinstance(message, Resume):
            room = room_of(conn)
            send_since(conn, room, message.last_seq, refuse=True)
            send_snapshot(conn, room)
        elif isinstance(message, ReadRecord):
            self.ratings.record(conn, message)
        elif isinstance(message, ReadLeaderboard):
            self.ratings.leaderboard(conn, message)
        elif isinstance(message, ReadGames):
            self.ratings.games(conn, message)
        elif isinstance(message, ReadGame):
            self.ratings.game(conn, message)
        elif isinstance(message, Kick):
            self.friends.moved(self.friends.kick(conn, player, message))
        elif isinstance(message, Listening):  # a seated page's news is behind (issue 25)
            self.pacing.listeners.heard(conn, conn.room, message)
        else:
            self._friend_message(conn, message)

    def _friend_message(self, conn: Connection, message: FriendMessage) -> None:
        self.friends.handle(conn, message)

    def _account_message(
        self, conn: Connection, message: Hello | SignUp | LogIn | Refresh | LogOut | DeleteAccount
    ) -> None:
        accounts = self.accounts
        if isinstance(message, Hello):
            accounts.hello(conn, message)
        elif isinstance(message, SignUp):
            accounts.sign_up(conn, message)
        elif isinstance(message, LogIn):
            accounts.log_in(conn, message)
        elif isinstance(message, Refresh):
            accounts.refresh(conn, message)
        elif isinstance(message, LogOut):
            accounts.log_out(conn, message)
        else:
            accounts.delete(conn, message)

    # --- commands at a table ----------------------------------------------------------

    def _creator_command(
        self,
        conn: Connection,
        player: PlayerRecord,
        message: AddBot | RemoveBot | Start | NewGame | SpectatorChat,
    ) -> None:
        room = room_of(conn)
        table = room.table
        if conn.seat is None or table.creator_id != player.id:
            creator = self.lobby.players.get(table.creator_id)
            if isinstance(message, NewGame) and creator is not None:
                text = _(NEW_GAME_NOT_CREATOR).format(name=creator.name)
                raise TableError("not_creator", text)
            raise TableError("not_creator", _("Only the player who made the table can do that."))
        if isinstance(message, AddBot):
            self.pacing.change(room, lambda: table.add_bot(message.level, message.seat))
        elif isinstance(message, RemoveBot):
            self.pacing.change(room, lambda: table.remove_bot(message.seat))
        elif isinstance(message, SpectatorChat):
            self.pacing.change(room, lambda: table.allow_spectator_chat(message.allowed))
        elif isinstance(message, NewGame):
            self.pacing.change(room, lambda: table.new_game(self._new_seed()))
            self.store.finish_table(room.id, finished=False)  # why: a restart brings it back
            room.recorded = False
        else:
            self.pacing.change(room, lambda: table.start(self._new_seed()))
        self.lobby.dirty = True

    def _act(self, conn: Connection, player: PlayerRecord, message: Act) -> None:
        room = room_of(conn)
        try:
            asked = move_of(message)
        except MoveError as error:
            raise TableError(error.code, str(error)) from None
        move = _last_turn_go_out(room.table, player.id, asked)
        self.pacing.change(room, lambda: room.table.act(player.id, move, message.seq))
        self.moves += 1

    def _new_seed(self) -> int:
        if self.seed is None:
            return secrets.randbits(62)
        self.seed += 1
        return self.seed - 1

    # --- what happens at a table, who hears it, what is kept ------------------------------

    def _publish(self, room: Room, entries: list[Entry]) -> None:
        """Send a table's new entries to everyone there, then the snapshots due."""
        changes = []
        if room.table.is_over and not room.recorded:
            # why before the fan-out: a rating is kept before anyone hears the game is over
            changes = self.ratings.game_over(room)
        self.fanout.publish(room, entries)
        send_snapshots(room, entries)
        self.ratings.tell(changes)
        if room.table.is_over and not room.recorded:
            room.recorded = True
            self._record_history(room)

    def _record_history(self, room: Room) -> None:
        game = room.table.game
        assert game is not None
        self.store.finish_table(room.id)
        if self.history_writer is not None:
            # why not here: the record's fsync waits for the disk (HistoryWriter); a full
            # disk is logged there and must not stop the server
            self.history_writer.append(list(game.players), list(game.totals))
        self.lobby.dirty = True

    def _recorder(self, room: Room) -> Recorder:
        # why the id, not the room: the room holds its table, which holds this closure; a
        # closure holding the room made every table a reference cycle, freed only by the
        # cycle collector's full collections (the server's long tail, issue 29)
        table_id = room.id

        def record(index: int, command: dict[str, Any]) -> None:
            self.store.append_input(table_id, index, command)
            if not self._save_soon:  # why: also saved when no connection has a frame to send
                self._save_soon = True
                asyncio.get_running_loop().call_soon(self._save)

        return record

    def _save(self) -> bool:
        """Commit the store's kept inputs (every writer calls this before it sends)."""
        self._save_soon = False
        try:
            self.store.flush()
        except (OSError, sqlite3.Error, StoreError) as error:  # a full disk, a lost database
            # why one line a minute: a full disk fails every save, and a traceback for each
            # filled the log (on the same disk); the inputs stay kept, the next save tries again
            self._save_trouble.failed("The moves could not be saved", error)
            return False
        except Exception:  # why: anything else is a bug, worth its traceback
            log.exception("The moves could not be saved")
            return False
        self._save_trouble.recovered("The moves are saved again.")
        return True

    def _disconnected(self, conn: Connection) -> None:
        self.accounts.gone(conn)  # why: a log-in nobody waits for any more costs no hash
        self.lobby.disconnected(conn)
        if conn.player is not None and conn.player.conn is None:  # why: not one replaced
            self.friends.gone(conn.player)

    # --- closing tables, stopping ------------------------------------------------------------

    def sweep(self, now: float) -> list[str]:
        """Close the tables nobody is at any more; returns their ids (:meth:`Pacing.sweep`)."""
        return self.pacing.sweep(now)

    async def sweeps(self) -> None:
        await self.pacing.sweeps()

    def _close(self, room: Room) -> None:
        """Take a table out of the server; its stored moves stay, marked finished."""
        self.pacing.halt(room)
        self.rooms.remove(room)
        if not room.table.is_over:
            self.store.finish_table(room.id)
            log.info("Closed table %s: nobody was at it any more", room.id)
        # why after finish_table, and only logged: its bans (kept in storage until now) are
        # worth less than the table being marked finished, which a failure here must not stop
        try:
            self.friends.table_closed(room)
        except Exception as error:
            log.warning("The bans of table %s could not be forgotten: %s", room.id, error)
        self.lobby.dirty = True

    async def stop(self) -> None:
        """Stop at once (SIGTERM, Ctrl+C): no more moves, every move kept on disk, and every
        connection told why it ends (an ``error`` ``server_stopping``, then close code 1001).

        why here and not in aiohttp's shutdown: aiohttp waits for every open WebSocket to end
        by itself (up to its shutdown timeout), which took about 30 s; closing them first
        lets the server stop within a couple of seconds."""
        self.stopping = True
        self.pacing.stop()
        self._save()
        template = SERVER_STOPPING if self.keeps_tables else SERVER_STOPPING_MEMORY
        conns = list(self.connections)
        for conn in conns:
            with speaking(conn.language):
                conn.send_last(Error("server_stopping", _(template)))
        await go_away(conns)

    async def lobby_updates(self) -> None:
        """Send the table list to everyone in the lobby at most once a second, when it changed."""
        await self.lobby.updates(self.connections)


def _last_turn_go_out(table: Table, player_id: str, move: Move) -> Move:
    """``go_out`` in the mover's last turn plays what the terminal's G does there."""
    # why: nobody can go out after someone has; the terminal's G then lays down the best melds
    # and throws the card that leaves the fewest points, and a web player's G must do the same
    if not isinstance(move, GoOut):  # why first: the seat's look-up is a loop, and rare here
        return move
    game, seat = table.game, table.seat_of(player_id)
    if game is None or seat != game.current_player:
        return move
    return last_turn_discard(game.phase, game.hand(seat), game.wild_rank) or move


def _chat_allowed(conn: Connection, room: Room) -> None:
    """A sentence, and no chat line, when this connection or its table chats too fast."""
    if not conn.chat.take():
        raise TableError("chat_rate", _("You are chatting too fast; wait a moment."))
    if not room.chat.take():
        text = _("This table's chat is busy; wait a moment, then say it again.")
        raise TableError("chat_busy", text)


def _accepted_language(request: web.Request) -> str:
    """The first language of the request's Accept-Language the game speaks (English if none)."""
    return accepted_language(request.headers.get("Accept-Language", ""))


def make_app(server: Server, sounds: str | None = None) -> web.Application:
    """The server's application; ``sounds`` is the sound pack the web page plays."""
    app = web.Application(middlewares=[let_go_of_websockets])  # why: cycles.py
    if server.limits.trusted_proxies:
        app.middlewares.append(ProxyHeaders(server.limits.trusted_proxies).middleware)
    add_web_routes(app, sounds)  # the web client at / (docs/web.md)
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
            server.pacing.halt(room)
        server.close_workers()
        server.store.close()

    async def stopping(app: web.Application) -> None:
        await server.stop()

    app.on_shutdown.append(stopping)
    app.cleanup_ctx.append(background)
    return app
