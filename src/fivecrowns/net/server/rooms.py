"""The game server's rooms (one table each, with who is connected to which seat), the
players it knows, and the fan-out: who hears what when something happens at a table.

:class:`Fanout` is one of the server's two small interfaces (with
:class:`~fivecrowns.net.server.store.Store`): :class:`LocalFanout` reaches connections in
this process; a later one can reach those of other server processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from fivecrowns.core.moves import DrewFromStock, LastTurnStarted, TurnStarted
from fivecrowns.i18n import current_language, speaking
from fivecrowns.net.protocol import EventFrame, Snapshot, encode
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Bucket, Limits
from fivecrowns.net.server.snapshots import SnapshotFrames, SnapshotMemory
from fivecrowns.table import Entry, Table

__all__ = [
    "EventMemory",
    "Fanout",
    "LocalFanout",
    "PlayerRecord",
    "Room",
    "Rooms",
    "attach",
    "detach",
    "muted_chat",
    "send_everyone_a_snapshot",
    "send_snapshot",
    "send_snapshots",
    "table_chat",
]


@dataclass(slots=True)
class PlayerRecord:
    id: str
    name: str
    token_hash: str
    conn: Connection | None = None
    table_id: str | None = None
    # why: a spectator whose connection drops is put back at the table they watched
    watching: str | None = None
    stored: bool = False  # kept in the store (they took a seat): a restart knows them
    mute: str = "nobody"  # whose chat reaches them without words: spectators', everyone's
    # why: an account's seat taken from another device, which knows no last_seq, hears the
    # events after these once (the table, and the newest event its last connection was sent)
    heard: tuple[str, int] | None = None


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
    address: str | None = None  # where its creator connected from (None after a restart)
    # why per table: many connections at one table must not flood its players' speech
    chat: Bucket = field(default_factory=lambda: table_chat(Limits()))
    guests: bool = True  # False: only players logged in to an account sit here
    rated: bool = False  # its account holders' games move their ratings (net/server/ratings.py)
    # why: a move changes few parts of the snapshots; the others are not encoded again
    snapshots: SnapshotMemory = field(default_factory=SnapshotMemory)
    # why: most turns' events read as an earlier turn's did (see EventMemory)
    events: EventMemory = field(default_factory=lambda: EventMemory())

    def all_conns(self) -> Iterable[Connection]:
        for conns in self.conns.values():
            yield from conns

    def spectators(self) -> int:
        return len(self.conns.get(None, ()))

    def watchers(self) -> list[str]:
        """Who is watching, by name, each once (a spectator may watch from two tabs)."""
        watching = self.conns.get(None)
        if not watching:  # why: most tables have nobody watching, and every move asks
            return []
        names = {conn.player.name for conn in watching if conn.player is not None}
        return sorted(names, key=str.casefold)

    def snapshot_frame(self, seat: int | None, watchers: list[str] | None = None) -> bytes:
        """``seat``'s snapshot (``watchers``: :meth:`watchers`, when already at hand)."""
        if watchers is None:
            watchers = self.watchers()
        snapshot = self.table.shared_snapshot(seat)
        return encode(Snapshot(table=self.id, watchers=watchers, **snapshot))


def table_chat(limits: Limits) -> Bucket:
    """A table's chat lines: ``limits.table_chat_rate`` a second, everyone there together."""
    return Bucket(limits.table_chat_rate, limits.table_chat_burst)


class Rooms(dict[str, Room]):
    """The tables this server holds, by id, and the private ones by invite code too."""

    def __init__(self) -> None:
        super().__init__()
        self.by_code: dict[str, Room] = {}

    def add(self, room: Room) -> None:
        self[room.id] = room
        if room.code is not None:
            self.by_code[room.code] = room

    def remove(self, room: Room) -> None:
        self.pop(room.id, None)
        if room.code is not None:
            self.by_code.pop(room.code, None)

    def forget_if_done(self, room: Room) -> None:
        """A finished table with nobody left in it is dropped from memory."""
        if room.table.is_over and not any(room.all_conns()):
            self.remove(room)


def attach(conn: Connection, room: Room, seat: int | None) -> None:
    """``conn`` is now at ``room``, in ``seat`` (``None``: watching)."""
    conn.room = room
    conn.seat = seat
    room.conns.setdefault(seat, set()).add(conn)


def detach(conn: Connection) -> None:
    """``conn`` is at no table any more (back in the lobby, or gone)."""
    if conn.room is not None:
        conns = conn.room.conns.get(conn.seat)
        if conns is not None:
            conns.discard(conn)
    conn.room = None
    conn.seat = None
    conn.behind = None  # why: its page's news of this table holds no table it sits at later


def muted_chat(conn: Connection, kind: str, data: dict[str, Any]) -> bool:
    """The event is a chat line ``conn``'s player hears without words (``mute_chat``)."""
    player = conn.player
    if kind != "chat" or player is None or player.mute == "nobody":
        return False
    return player.mute == "everyone" or data.get("seat") is None


def send_snapshot(conn: Connection, room: Room) -> None:
    conn.send_raw(room.snapshot_frame(conn.seat))


class Fanout(Protocol):
    """Sends a table's new entries to everyone there, each as their seat may see them."""

    def publish(self, room: Room, entries: list[Entry]) -> None: ...


class EventMemory:
    """One table's frames of the events that read the same turn after turn, each kept without
    its ``seq``: whose turn it is ("Your turn.", "Ben's turn.", both classes of viewer) and,
    for everyone but the player, that they drew from the stock or began their last turn
    ("Ben drew from the stock."). Keyed by the event's kind, its player, whether the viewer is
    that player (:meth:`Table.frame_class`) and the language: all such a frame is made of,
    with the seats' names, so every table event (a seat changed) empties the memory.

    why: they are about two in five of the frames worded, each worded and encoded once per table,
    not once per turn (issue 29). why only these: a frame naming a card, or a round's scores,
    seldom comes twice, and looking it up cost more than it saved; these need no event
    hashed. tests/net/test_snapshot_frames.py checks every frame the fan-out sends in whole
    games against the frame made afresh, for every seat and a spectator, in two languages."""

    __slots__ = ("_frames",)

    def __init__(self) -> None:
        self._frames: dict[tuple[str, int, bool, str], bytes] = {}

    def forget(self) -> None:
        self._frames.clear()

    def frame(
        self, table: Table, entry: Entry, viewer: int | None, made_it: bool, language: str
    ) -> bytes | None:
        """``encode(EventFrame(**table.frame(entry, viewer)))`` (``language`` spoken now) if
        it is one of these events (``made_it``: its frame class), else None."""
        event = entry.event
        kind = type(event)
        if kind is TurnStarted:
            player = cast("TurnStarted", event).player
        elif made_it or (kind is not DrewFromStock and kind is not LastTurnStarted):
            return None
        else:  # why the player only: redacted, another's draw names no card
            player = cast("DrewFromStock | LastTurnStarted", event).player
        key = (entry.kind, player, made_it, language)
        frames = self._frames
        rest = frames.get(key)
        seq = b"%d" % entry.seq
        if rest is not None:
            return b"".join((_EVENT_HEAD, seq, rest))
        whole = encode(EventFrame(**table.frame(entry, viewer)))
        head = _EVENT_HEAD + seq
        if whole.startswith(head):  # why check: the layout is msgspec's (see _EVENT_HEAD)
            frames[key] = whole[len(head) :]
        return whole


def _event_head() -> bytes:
    """How every event frame begins, up to its seq's digits: read from an encoded frame, so it
    follows the protocol's EventFrame (EventMemory checks each frame it keeps begins so)."""
    before, seq, _rest = encode(EventFrame(seq=0, kind="", data={}, text="")).partition(b'"seq":')
    if not seq:
        raise RuntimeError("an event frame has no seq")
    return before + seq


_EVENT_HEAD = _event_head()


class LocalFanout:
    """Everyone is connected to this process."""

    def publish(self, room: Room, entries: list[Entry]) -> None:
        table = room.table
        viewers = [(viewer, conns) for viewer, conns in room.conns.items() if conns]
        # why: a frame in the language already spoken (the mover's, mostly everyone's) needs no
        # block of its own; entering one for each frame worded was about 1% of the server's CPU
        here = current_language()
        memory = room.events
        for entry in entries:
            if entry.event is None:
                memory.forget()  # why: a table event may have changed a seat, and its name
            chat = entry.kind == "chat"  # why: only a chat line can be muted (muted_chat)
            # why per class and language: most events read the same for every seat but the one
            # who made them, so each is worded and encoded once per (class, language) at the
            # table, not once per seat; every connection still gets exactly one frame per entry
            encoded: dict[tuple[Hashable, str, bool], bytes] = {}
            for viewer, conns in viewers:
                viewer_class = table.frame_class(entry, viewer)
                for conn in conns:
                    muted = chat and muted_chat(conn, entry.kind, entry.data)
                    language = conn.language
                    key = (viewer_class, language, muted)
                    frame = encoded.get(key)
                    if frame is None:
                        if language == here:
                            frame = _frame(memory, table, entry, viewer, viewer_class, muted, here)
                        else:
                            with speaking(language):
                                frame = _frame(
                                    memory, table, entry, viewer, viewer_class, muted, language
                                )
                        encoded[key] = frame
                    conn.send_raw(frame)


def _frame(
    memory: EventMemory,
    table: Table,
    entry: Entry,
    viewer: int | None,
    viewer_class: Hashable,
    muted: bool,
    language: str,
) -> bytes:
    """``entry``'s frame for ``viewer`` (of ``viewer_class``) in ``language``, spoken now."""
    if type(viewer_class) is bool:  # why only then: see EventMemory
        frame = memory.frame(table, entry, viewer, viewer_class, language)
        if frame is not None:
            return frame
    data = table.frame(entry, viewer)
    if muted:
        data["text"] = ""
    return encode(EventFrame(**data))


def send_snapshots(room: Room, entries: list[Entry]) -> None:
    """A fresh snapshot, after ``entries``, to everyone at the table, each of its own seat
    (a spectator's has no hand): after every move, chat or seat change, so a page that draws
    the table (players, turn, piles, melds, counts) is never behind what it heard.

    why everyone, not only the seat to play: the table must look the same to everyone right
    after each change (issue 25); a public view reaches every seat anyway, so it tells
    nothing new, and each seat still gets only its own hand."""
    if entries:
        send_everyone_a_snapshot(room)


def send_everyone_a_snapshot(room: Room) -> None:
    """Each seat's and spectator's own snapshot, to everyone at the table: after a change,
    or when a spectator came or went (every page shows who is watching)."""
    # why once: the watchers and the shared part are the same for every seat
    frames = SnapshotFrames(room.id, room.table, room.watchers(), room.snapshots)
    for seat, conns in room.conns.items():
        if conns:
            frame = frames.frame(seat)  # why once: all of a seat's connections
            for conn in conns:
                conn.send_raw(frame)
