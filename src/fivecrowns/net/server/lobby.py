"""The game server's lobby: the players it knows, the list of open tables, invite codes, and
sitting down at, watching and leaving a table.

A player is known by a token from ``secrets``, kept only as its SHA-256 hash; a hello with
the token puts a returning player back in their seat (or at the table they watched). A
player is stored only once they take a seat or watch a table; one without a seat whose
connection ended is kept in memory a while (to be known again after a network blip), the
newest ``DROPPED_KEPT`` of them (why: a hello alone must cost nothing that lasts).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any

from fivecrowns.i18n import N_, ngettext, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import (
    PROTOCOL_VERSION,
    CreateTable,
    Error,
    Hello,
    Join,
    Left,
    Seated,
    TableInfo,
    Tables,
    Watch,
    Welcome,
    encode,
)
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.pacing import Pacing
from fivecrowns.net.server.resend import send_since
from fivecrowns.net.server.rooms import (
    PlayerRecord,
    Room,
    Rooms,
    attach,
    detach,
    send_everyone_a_snapshot,
    send_snapshot,
    table_chat,
)
from fivecrowns.net.server.store import Store, StoredPlayer, StoredTable
from fivecrowns.table import SeatKind, Table, TableError
from fivecrowns.words.text import name_refusal

__all__ = [
    "INVITE_ALPHABET",
    "LISTED_TABLES",
    "Lobby",
    "Recorder",
    "invite_code",
    "new_invite_code",
    "room_of",
]

log = logging.getLogger(__name__)

LISTED_TABLES = 50  # tables in one lobby listing
DROPPED_KEPT = 10_000  # players without a seat whose connection ended, kept in memory
WRONG_VERSION = N_("This server speaks protocol version {version}, not {asked}; update the game.")
TOO_MANY_SPECTATORS = N_("This table has as many spectators as it allows.")
TABLE_GONE = N_("The table you were watching has closed; here are the open tables.")
MEMBERS_ONLY = N_(
    "Only players logged in to an account may sit at this table; log in, or pick another table."
)
MEMBERS_ONLY_CREATE = N_(
    "Only a player logged in to an account may make a table for accounts only; log in first."
)
SEAT_GONE = N_("Your table was closed while nobody was connected to it; here are the open tables.")
SEAT_SET_ASIDE = N_(
    "Your table could not be brought back when the server restarted, so it is closed; here are "
    "the open tables."
)

#: Crockford's base32: digits and capitals without I, L, O and U, so that a code passed on by
#: voice has one case (screen readers do not say capitals) and no look-alike letters.
INVITE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
INVITE_LENGTH = 10  # 32**10 = 2**50 codes, and two groups of five are easy to say
# why: Crockford's decoding reads the look-alikes as the digits they pass for
_INVITE_LOOK_ALIKES = str.maketrans("OIL", "011")

#: What keeps each input a table accepts (``Table(record=...)``): the store, then a save.
Recorder = Callable[[int, dict[str, Any]], None]


class Lobby:
    """The players of this server and its tables, as the lobby sees them.

    ``recorder`` gives the input keeper of a new or recovered table; every change at a
    table goes through ``pacing`` (so the computer players are woken)."""

    def __init__(
        self,
        rooms: Rooms,
        store: Store,
        limits: Limits,
        pacing: Pacing,
        recorder: Callable[[Room], Recorder],
    ) -> None:
        self.rooms = rooms
        self.store = store
        self.limits = limits
        self.pacing = pacing
        self._recorder = recorder
        self.players: dict[str, PlayerRecord] = {}
        self.by_token: dict[str, PlayerRecord] = {}
        # why: a player brought back from the store finds their seat again (set at recover)
        self._seated_at: dict[str, str] = {}
        # why: a player seated at a table set aside at this start is told so when they come
        # back, not just shown the lobby (bounded: the seats of the tables set aside)
        self._set_aside_at: dict[str, str] = {}
        # why bounded: a player without a seat whose connection dropped is kept to be known
        # again (a spectator put back at their table), but a loop of hello and close must not
        # grow the server for ever
        self._dropped: OrderedDict[str, None] = OrderedDict()
        self.dropped_kept = DROPPED_KEPT
        self.dirty = False  # why: the table list changed since it was last sent
        # why hooks: friends (net/server/friends.py) hear of every hello, and refuse a seat to
        # one the creator banned or blocks, without the lobby knowing of friends
        self.welcomed: Callable[[PlayerRecord], None] = lambda player: None
        self.may_sit: Callable[[Room, PlayerRecord], None] = lambda room, player: None
        # which tables are this process's: those whose id, as a number, is share[0] modulo
        # share[1] (``serve --workers``: each worker makes and recovers its own, workers.py)
        self.share = (0, 1)

    def recover(self) -> None:
        """Bring back every unfinished table from the store; set aside any that cannot be
        rebuilt (logged in one line) and serve the others. Players are looked up when they
        come back (:meth:`hello`), so a store of many players starts as fast as an empty one.

        At most ``limits.max_tables`` tables come back, the newest: why: each costs a replay
        (about a millisecond) and memory before the server listens, and the server holds no
        more than that anyway; the others stay in the store as they are, for a start with a
        higher ``--max-tables``."""
        stored_tables, left_out = self.store.load(self.limits.max_tables)
        if self.share[1] > 1:
            stored_tables = [table for table in stored_tables if self._mine(table.id)]
        if left_out:
            log.warning(
                "Unfinished tables not brought back: %d (this server holds at most %d tables, "
                "--max-tables); they stay in the store",
                left_out,
                self.limits.max_tables,
            )
        for stored_table in stored_tables:
            room = Room(stored_table.id, None, stored_table.code, stored_table.private)  # type: ignore[arg-type]
            room.chat = table_chat(self.limits)
            room.guests = stored_table.guests
            room.rated = stored_table.rated
            try:
                if stored_table.damaged is not None:
                    raise ValueError(stored_table.damaged)
                room.table = Table.replay(
                    stored_table.seats,
                    stored_table.creator_name,
                    stored_table.creator_id,
                    stored_table.inputs,
                    record=self._recorder(room),
                )
            except Exception as error:  # why: one bad table must not keep the others away
                self._set_aside(stored_table.id, error)
                for player_id in _seated_players(stored_table):
                    self._set_aside_at[player_id] = stored_table.id
                continue
            self.rooms.add(room)
            for index, seat in enumerate(room.table.seats):
                if seat.kind is SeatKind.HUMAN and seat.player_id is not None:
                    self._seated_at[seat.player_id] = room.id
                    if not seat.standin:
                        self.pacing.start_grace(room, index)

    def _set_aside(self, table_id: str, error: Exception) -> None:
        why = " ".join(f"{type(error).__name__}: {error}".split())[:160]
        try:
            self.store.set_aside(table_id, why)
        except Exception as failed:  # why: still serve the others; the next start tries again
            log.warning(
                "Table %s skipped: it could not be rebuilt (%s), nor set aside (%s)",
                table_id,
                why,
                failed,
            )
            return
        log.warning("Table %s set aside: it could not be rebuilt (%s)", table_id, why)

    # --- hello: who is this --------------------------------------------------------------

    def hello(
        self, conn: Connection, message: Hello, account: tuple[str, str] | None = None
    ) -> None:
        """Welcome ``conn``: by its token, as ``account`` (its id and name, once its log-in
        is checked: the account's own player, with a new token), or as a new guest."""
        self._hello(conn, message, account)
        if conn.player is not None:
            self.welcomed(conn.player)

    def _hello(self, conn: Connection, message: Hello, account: tuple[str, str] | None) -> None:
        if conn.player is not None:
            raise TableError("already_hello", _("You have already said hello on this connection."))
        if message.v != PROTOCOL_VERSION:
            text = _(WRONG_VERSION).format(version=PROTOCOL_VERSION, asked=message.v)
            raise TableError("version", text)
        if account is not None:
            record, token = self._account_player(*account)
        elif message.token is not None:
            found = self.by_token.get(_hash(message.token)) or self._stored(_hash(message.token))
            if found is None:
                raise TableError(
                    "bad_token", _("That token is not known here; say hello without it.")
                )
            record, token = found, message.token
        else:
            name = " ".join(message.name.split())
            if not name:
                raise TableError("bad_name", _("Every player needs a name."))
            refusal = name_refusal(name)
            if refusal is not None:
                raise TableError("bad_name", refusal)
            token = secrets.token_urlsafe(24)
            record = PlayerRecord(secrets.token_hex(8), name, _hash(token))
            self.players[record.id] = record
            self.by_token[record.token_hash] = record
        if record.conn is not None and record.conn is not conn:
            old = record.conn
            _note_heard(record, old)
            detach(old)
            with speaking(old.language):
                replaced = _("You connected again from elsewhere; this one closes.")
            old.send(Error("replaced", replaced))
            old.close()
        record.conn = conn
        conn.player = record
        conn.language = message.language  # why here: a refused hello changes nothing
        conn.send(Welcome(PROTOCOL_VERSION, record.id, record.name, token))
        seated = self.seat_of(record)
        if seated is None:
            self._watch_again(conn, record, message)
            return
        room, seat = seated
        self.sit_again(conn, record, room, seat, message.last_seq, account is not None)

    def sit_again(
        self,
        conn: Connection,
        record: PlayerRecord,
        room: Room,
        seat: int,
        last_seq: int | None,
        account: bool,
        seated_frame: bool = True,
    ) -> None:
        """``record``, back with its token (or its account, on another device), takes its
        seat again on ``conn``: it hears what it missed, and its seat is handed back
        (``seated_frame`` False: a connection that never left, put back by the front of
        ``serve --workers`` after its worker started again, hears no ``seated``)."""
        record.watching = None
        heard, record.heard = record.heard, None
        if last_seq is None and account and heard is not None and heard[0] == room.id:
            last_seq = heard[1]  # why: another device took the seat; it hears what it missed
        attach(conn, room, seat)
        if seated_frame:
            conn.send(_seated(room, seat, record))
        _send_missed(conn, room, last_seq)
        send_snapshot(conn, room)
        self.pacing.end_grace(room, seat)
        if room.table.seats[seat].standin or room.table.seats[seat].away:
            self.pacing.change(room, lambda: room.table.hand_back(seat))

    def seat_of(self, record: PlayerRecord) -> tuple[Room, int] | None:
        """The table and seat ``record`` holds here (None: none; it is told if its table was
        closed or set aside meanwhile, ``record.table_id`` then forgotten)."""
        if record.table_id is None:  # why: after a restart the store's inputs know the seat
            record.table_id = self._seated_at.pop(record.id, None)
        room = self.rooms.get(record.table_id or "")
        seat = room.table.seat_of(record.id) if room is not None else None
        if room is not None and seat is not None:
            return room, seat
        conn = record.conn
        if conn is not None:
            if record.table_id is not None and room is None:
                conn.send(Error("table_gone", _(SEAT_GONE)))  # the sweep closed it meanwhile
            elif room is None and self._set_aside_at.pop(record.id, None) is not None:
                conn.send(Error("table_gone", _(SEAT_SET_ASIDE)))
        record.table_id = None
        return None

    def seated_players(self) -> list[str]:
        """The players the tables brought back at the start hold a seat at, not yet back."""
        return list(self._seated_at)

    def _stored(self, token_hash: str) -> PlayerRecord | None:
        """The player with this token hash as the store keeps them (one who took a seat before
        a restart), now known in memory again; ``None`` if the store has none."""
        stored = self.store.player(token_hash)
        if stored is None:
            return None
        record = PlayerRecord(stored.id, stored.name, stored.token_hash, stored=True)
        record.table_id = self._seated_at.pop(stored.id, None)
        self.players[record.id] = record
        self.by_token[record.token_hash] = record
        return record

    def _keep(self, player: PlayerRecord) -> None:
        """Store ``player``, who takes a seat or watches (once: a restart knows their token)."""
        if not player.stored:
            self.store.add_player(StoredPlayer(player.id, player.name, player.token_hash))
            player.stored = True

    def _forget_if_unseated(self, player: PlayerRecord) -> None:
        """A player with no connection and no seat is kept among the newest ``dropped_kept``
        such players; the oldest of them is forgotten (the store still knows a spectator)."""
        if player.conn is not None or player.table_id is not None:
            return
        self._dropped[player.id] = None
        self._dropped.move_to_end(player.id)
        for _oldest in range(len(self._dropped) - self.dropped_kept):
            oldest, _ = self._dropped.popitem(last=False)
            record = self.players.get(oldest)
            if record is not None and record.conn is None and record.table_id is None:
                self._forget(record)

    def _forget(self, player: PlayerRecord) -> None:
        self.players.pop(player.id, None)
        self.by_token.pop(player.token_hash, None)

    def _account_player(self, player_id: str, name: str) -> tuple[PlayerRecord, str]:
        """The player of an account (made the first time), with a new token: the tokens
        given before (another device's, a logged-out one's) no longer say hello as it."""
        token = secrets.token_urlsafe(24)
        record = self.players.get(player_id)
        if record is None:
            # why the seat: after a restart a seated player is known only by the store's inputs
            record = PlayerRecord(player_id, name, _hash(token), stored=True)
            record.table_id = self._seated_at.pop(player_id, None)
            self.players[player_id] = record
        else:
            self.forget_token(record)
            record.token_hash = _hash(token)
        self.by_token[record.token_hash] = record
        self.store.add_player(StoredPlayer(record.id, record.name, record.token_hash))
        return record, token

    def forget_token(self, record: PlayerRecord) -> None:
        """``record``'s token no longer says hello as it (a log-out)."""
        self.by_token.pop(record.token_hash, None)
        record.token_hash = "forgotten:" + secrets.token_hex(16)  # why: the column is unique
        self.store.add_player(StoredPlayer(record.id, record.name, record.token_hash))

    def _watch_again(
        self, conn: Connection, record: PlayerRecord, hello: Hello, seated_frame: bool = True
    ) -> None:
        """Put a returning spectator back at the table they watched, or in the lobby
        (``seated_frame``: as :meth:`sit_again`'s)."""
        watched = record.watching
        record.watching = None
        room = None if watched is None else self.rooms.get(watched)
        if watched is None and hello.watch is not None:
            # why the hello's word: after a restart only the client remembers what it watched;
            # a private table only with its invite code, as a first watch would need
            watched = hello.watch
            room = self.rooms.get(watched)
            if room is not None and room.private and not _same_code(hello.watch_code, room.code):
                room = None
        if watched is None:
            self.send_tables(conn)
            return
        if room is None or room.spectators() >= self.limits.max_spectators:
            if room is None:
                conn.send(Error("table_gone", _(TABLE_GONE)))
            else:
                conn.send(Error("too_many_spectators", _(TOO_MANY_SPECTATORS)))
            self.send_tables(conn)
            return
        record.watching = room.id
        attach(conn, room, None)
        if seated_frame:
            conn.send(_seated(room, None, record))
        _send_missed(conn, room, hello.last_seq)
        send_everyone_a_snapshot(room)  # why everyone: each page shows who is watching

    # --- the list of tables ------------------------------------------------------------------

    def send_tables(self, conn: Connection) -> None:
        """The table list, to one back in the lobby (a worker leaves it to the front)."""
        conn.send(self.tables())

    def tables(self) -> Tables:
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
                room.spectators(),
            )
            for room in rooms[:LISTED_TABLES]
        ]
        return Tables(infos)

    async def updates(self, connections: Collection[Connection]) -> None:
        """Send the table list to everyone in the lobby at most once a second, when it changed."""
        while True:
            await asyncio.sleep(1.0)
            if not self.dirty:
                continue
            in_lobby = [c for c in connections if c.player is not None and c.room is None]
            if not in_lobby:
                # why: nobody would read it; the list was made every second while games
                # ended at a busy server (issue 29). It stays due for the next one to come in
                # (who also gets a list of their own on arriving).
                continue
            self.dirty = False
            listing = encode(self.tables())
            for conn in in_lobby:
                conn.send_listing(listing)

    # --- to a table and away from it ---------------------------------------------------------

    def create(self, conn: Connection, player: PlayerRecord, message: CreateTable) -> None:
        _not_at_table(conn)
        if len(self.rooms) >= self.limits.max_tables:
            raise TableError("too_many_tables", _("The server has as many tables as it allows."))
        self.within_table_limits(conn, player)
        if len(message.bots) >= message.seats:
            raise TableError(
                "too_many_bots", _("Leave a seat for yourself: fewer computer players.")
            )
        for level in message.bots:
            Table(2, creator_name="x", creator_id="x").add_bot(level)  # the level check only
        table_id = self._new_id()
        code = new_invite_code() if message.private else None
        if not message.guests and not self.is_member(player.id):
            raise TableError("members_only", _(MEMBERS_ONLY_CREATE))
        self._keep(player)
        self.store.add_table(
            StoredTable(
                table_id,
                message.seats,
                player.id,
                player.name,
                code,
                message.private,
                guests=message.guests,
                rated=message.rated,
            )
        )
        room = Room(table_id, None, code, message.private)  # type: ignore[arg-type]
        room.address = conn.address
        room.chat = table_chat(self.limits)
        room.guests = message.guests
        room.rated = message.rated
        room.table = Table(
            message.seats,
            creator_name=player.name,
            creator_id=player.id,
            record=self._recorder(room),
        )
        for level in message.bots:
            room.table.add_bot(level)
        self.rooms.add(room)
        player.table_id = room.id
        attach(conn, room, 0)
        conn.send(_seated(room, 0, player))
        send_snapshot(conn, room)
        self.dirty = True

    def open_tables(self) -> list[Room]:
        """The tables not over that a person sits at (why only those: one everybody left
        closes after the grace anyway)."""
        return [
            room
            for room in self.rooms.values()
            if not room.table.is_over
            and any(seat.kind is SeatKind.HUMAN for seat in room.table.seats)
        ]

    def open_tables_of(self, player_id: str, address: str) -> tuple[int, int]:
        """The open tables (:meth:`open_tables`) ``player_id`` made, and those made from
        ``address``."""
        open_rooms = self.open_tables()
        mine = sum(room.table.creator_id == player_id for room in open_rooms)
        return mine, sum(room.address == address for room in open_rooms)

    def within_table_limits(self, conn: Connection, player: PlayerRecord) -> None:
        """Refuse a new table past the open tables (with a person seated) one player, or one
        address, may have."""
        limits = self.limits
        mine, here = self.open_tables_of(player.id, conn.address)
        if mine >= limits.max_tables_per_player:
            text = ngettext(
                "You already have {count} open table you made, as many as one player may; "
                "finish it or let it close first.",
                "You already have {count} open tables you made, as many as one player may; "
                "finish one or let it close first.",
                limits.max_tables_per_player,
            )
            raise TableError("too_many_tables", text.format(count=limits.max_tables_per_player))
        if limits.max_per_address == 0:  # why: behind a proxy every client has its address
            return
        if here >= limits.max_tables_per_address:
            text = ngettext(
                "Your address already has {count} open table, as many as one address may; "
                "try again when it has ended.",
                "Your address already has {count} open tables, as many as one address may; "
                "try again when one has ended.",
                limits.max_tables_per_address,
            )
            raise TableError("too_many_tables", text.format(count=limits.max_tables_per_address))

    def join(self, conn: Connection, player: PlayerRecord, message: Join) -> None:
        _not_at_table(conn)
        room = self._find(message.table, message.code)
        seat = room.table.seat_of(player.id)
        if seat is None and not room.guests and not self.is_member(player.id):
            raise TableError("members_only", _(MEMBERS_ONLY))
        if seat is None:
            self.may_sit(room, player)
            seat = self.pacing.change(
                room, lambda: room.table.sit(player.name, player.id, message.seat)
            )
        self._keep(player)
        player.table_id = room.id
        attach(conn, room, seat)
        conn.send(_seated(room, seat, player))
        send_snapshot(conn, room)
        self.dirty = True

    def watch(self, conn: Connection, message: Watch) -> None:
        _not_at_table(conn)
        room = self._find(message.table, message.code)
        if room.spectators() >= self.limits.max_spectators:
            raise TableError("too_many_spectators", _(TOO_MANY_SPECTATORS))
        attach(conn, room, None)
        assert conn.player is not None
        self._keep(conn.player)  # why: a restarted server puts a spectator back too
        conn.player.watching = room.id
        conn.send(_seated(room, None, conn.player))
        send_everyone_a_snapshot(room)  # why everyone: each page shows who is watching

    def leave(self, conn: Connection, player: PlayerRecord) -> None:
        room = room_of(conn)
        if conn.seat is not None:
            seat = conn.seat
            self.pacing.end_grace(room, seat)
            if room.table.seat_of(player.id) is not None:
                self.pacing.change(room, lambda: room.table.leave(player.id))
            player.table_id = None
            for other in list(room.conns.get(seat, ())):
                detach(other)
                other.send(Left())
        else:
            player.watching = None
            detach(conn)
            conn.send(Left())
            send_everyone_a_snapshot(room)
        self.dirty = True
        self.rooms.forget_if_done(room)

    def disconnected(self, conn: Connection) -> None:
        """``conn`` is gone: a computer stands in for its player after the grace."""
        player = conn.player
        room = conn.room
        seat = conn.seat
        if player is not None and player.conn is conn:
            _note_heard(player, conn)
        detach(conn)
        if player is not None and player.conn is conn:
            player.conn = None
            if room is not None and seat is not None and room.id in self.rooms:
                self.pacing.dropped(room, seat)
            self._forget_if_unseated(player)
        # why for spectators too: a finished table whose last spectator drops is forgotten
        if room is not None and room.id in self.rooms:
            if seat is None:
                send_everyone_a_snapshot(room)  # one fewer watching
            self.rooms.forget_if_done(room)

    def is_member(self, player_id: str) -> bool:
        """``player_id`` is the player of an account that may play (not a guest)."""
        account = self.store.accounts.account(player_id)
        return account is not None and account.status == "active"

    def _find(self, table_id: str | None, code: str | None) -> Room:
        if code is not None:
            # why both: a code as typed (any case, any separators), or one made before codes
            # were Crockford's (mixed case, kept by a server that was restarted since)
            room = self.rooms.by_code.get(invite_code(code)) or self.rooms.by_code.get(code)
            if room is None:
                raise TableError("no_table", _("No table has that invite code."))
            return room
        room = self.rooms.get(table_id or "")
        if room is None or room.private:
            raise TableError("no_table", _("There is no such table; list the tables to see them."))
        return room

    def _new_id(self) -> str:
        index, count = self.share
        for _attempt in range(100):
            # why a multiple of count plus index: the id names its worker (workers.py); with
            # one process this is secrets.token_hex(4), as before
            table_id = f"{secrets.randbelow(2**32 // count) * count + index:08x}"
            if table_id not in self.rooms:
                return table_id
        raise TableError("busy", _("Could not find a free table number; try again."))

    def _mine(self, table_id: str) -> bool:
        """The table ``table_id`` is this process's to serve (:attr:`share`)."""
        index, count = self.share
        try:
            return int(table_id, 16) % count == index
        except ValueError:  # why: an id from before ids were hex is the first worker's
            return index == 0


def room_of(conn: Connection) -> Room:
    """The table ``conn`` is at; a sentence saying so if it is at none."""
    if conn.room is None:
        raise TableError("no_table", _("You are not at a table: create, join or watch one first."))
    return conn.room


def _not_at_table(conn: Connection) -> None:
    if conn.room is not None:
        raise TableError("at_table", _("You are already at a table; leave it first."))


def _seated(room: Room, seat: int | None, player: PlayerRecord) -> Seated:
    return Seated(room.id, seat, room.code, room.table.creator_id == player.id, room.table.started)


def _note_heard(player: PlayerRecord, conn: Connection) -> None:
    """``conn``, ``player``'s connection at a seat, goes: it was sent every event so far."""
    if conn.room is not None and conn.seat is not None:
        player.heard = (conn.room.id, conn.room.table.seq)


def _send_missed(conn: Connection, room: Room, last_seq: int | None) -> None:
    """The events after ``last_seq``, as the connection's seat may see them (a returning
    connection; charged per event, :mod:`~fivecrowns.net.server.resend`)."""
    if last_seq is not None and last_seq <= room.table.seq:
        send_since(conn, room, last_seq, refuse=False)


def new_invite_code() -> str:
    """A private table's invite code: ten characters of :data:`INVITE_ALPHABET`, in two
    groups of five ("7KQ2M-XW9RD")."""
    chars = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def invite_code(typed: str) -> str:
    """``typed`` as a code: in any case, with or without separators (spaces, hyphens, dots),
    O read as 0 and I and L as 1.

    >>> invite_code(" 7kq2m xw9rd "), invite_code("7KQ2M.XW9RD"), invite_code("oil23-45678")
    ('7KQ2M-XW9RD', '7KQ2M-XW9RD', '01123-45678')
    """
    chars = "".join(char for char in typed.upper() if char.isascii() and char.isalnum())
    chars = chars.translate(_INVITE_LOOK_ALIKES)
    return f"{chars[:5]}-{chars[5:]}" if len(chars) == INVITE_LENGTH else chars


def _same_code(typed: str | None, code: str | None) -> bool:
    """``typed`` is the invite code ``code`` (as typed, or a code made before Crockford's)."""
    return typed is not None and code is not None and code in (typed, invite_code(typed))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _seated_players(stored: StoredTable) -> set[str]:
    """The players seated at a stored table, read from its inputs without replaying them (its
    creator, then who sat down and did not leave); the creator alone if they are unreadable."""
    seated = {stored.creator_id}
    for command in stored.inputs:
        player = command.get("player")
        if not isinstance(player, str):
            continue
        if command.get("op") == "sit":
            seated.add(player)
        elif command.get("op") == "leave":
            seated.discard(player)
    return seated
