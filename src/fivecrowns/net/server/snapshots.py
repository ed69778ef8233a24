"""Every seat's snapshot after a change at a table, encoded with the part they share made once,
and the parts that did not change since the table's last snapshots not encoded again.

After each move every seat and spectator gets a snapshot: the same seats, public view, watchers
and settings, with only the seat's number, its own cards and its legal moves differing. Encoding
the whole of it for each seat (about 1 kB) was a large part of the server's CPU per move (issue
29), so :class:`SnapshotFrames` encodes the shared part once per fan-out and splices each seat's
own part in: byte for byte ``encode(Snapshot(...))`` of that seat's snapshot
(tests/net/test_snapshot_frames.py checks it for every seat at every step of whole games).

A move changes few of those parts: the seats, watchers and settings stay, and so do the hands of
everyone but the mover. A table's :class:`SnapshotMemory` keeps each part's bytes with what they
were made from, and a fan-out encodes again only a part whose source differs (compared by value,
so a part is never older than the table); a legal move's JSON is kept per move object (a move is
frozen, and the game hands out one object per card and kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from fivecrowns.core.cards import Card, card_tokens
from fivecrowns.core.codec import move_to_json
from fivecrowns.core.moves import Move
from fivecrowns.net.protocol import Snapshot, encode
from fivecrowns.table import Table

__all__ = ["MOVES_KEPT", "SnapshotFrames", "SnapshotMemory", "moves_json"]

_json = msgspec.json.Encoder()
_HAND = b',"hand":'
_OWN = ("seat", "view", "legal")  # the fields that differ from seat to seat, in this order
#: Legal moves whose JSON is kept at most (the game's own moves are about 120; a move made
#: afresh each time, if any, only refills the memory now and then).
MOVES_KEPT = 1024


def _layout() -> tuple[list[str], list[bytes]]:
    """The snapshot's fields in the order they are encoded, and the bytes around them: a
    snapshot is ``pieces[0] + field 0 + pieces[1] + ... + field n + pieces[n + 1]``, its
    fields each encoded alone. Read once from an encoding with a stand-in for every field
    (a struct is not checked when made), so the layout follows the protocol's Snapshot."""
    names = list(Snapshot.__struct_fields__)
    marks: dict[str, Any] = {name: f"\x00{name}\x00" for name in names}
    rest = encode(Snapshot(**marks))
    pieces = []
    for name in names:
        before, rest = rest.split(_json.encode(marks[name]))  # each once, in order
        pieces.append(before)
    pieces.append(rest)
    return names, pieces


def _groups() -> list[tuple[tuple[str, ...], tuple[bytes, ...]]]:
    """The shared fields between the seat's own ones (before the seat, between the seat and
    the view, between the view and the legal moves, after them), each group with the layout's
    pieces around its fields: a group's bytes are ``pieces[0] + field + pieces[1] + ...``."""
    names, pieces = _layout()
    groups: list[tuple[list[str], list[bytes]]] = [([], [])]
    for name, piece in zip(names, pieces, strict=False):
        groups[-1][1].append(piece)
        if name in _OWN:
            groups.append(([], []))
        else:
            groups[-1][0].append(name)
    groups[-1][1].append(pieces[-1])
    return [(tuple(fields), tuple(around)) for fields, around in groups]


_GROUPS = _groups()
if len(_GROUPS) != len(_OWN) + 1:  # why: SnapshotFrames splices them in this order
    raise RuntimeError("a snapshot's seat, view and legal moves are not in that order")
#: The shared fields in each group, as SnapshotMemory.shared takes them.
_SHARED = (("seq", "table"), ("started", "seats"), (), ("watchers", "spectator_chat"))
if tuple(fields for fields, _around in _GROUPS) != _SHARED:  # why: shared() names them
    raise RuntimeError("a snapshot's shared fields are not those SnapshotMemory.shared makes")
_HEAD = _GROUPS[0][1]
_SEAT_JSON = {seat: _json.encode(seat) for seat in (None, *range(16))}

#: Each legal move's JSON by the move's id; the move is kept with it, so the id is not reused
#: while it is here (see moves_json).
_MOVES: dict[int, tuple[Move, bytes]] = {}


def moves_json(moves: Sequence[Move]) -> bytes:
    """``moves`` as the JSON list ``encode`` makes of ``[move_to_json(m) for m in moves]``.

    why per move object: the game hands out one frozen move per card and kind, so each
    move's JSON is made once, not once for every mover's snapshot (issue 29)."""
    if not moves:
        return b"[]"
    kept = _MOVES
    parts = []
    for move in moves:
        known = kept.get(id(move))
        if known is None or known[0] is not move:
            if len(kept) >= MOVES_KEPT:
                kept.clear()
            known = kept[id(move)] = (move, _json.encode(move_to_json(move)))
        parts.append(known[1])
    return b"[" + b",".join(parts) + b"]"


class SnapshotMemory:
    """One table's snapshot parts as last encoded, each with what it was made from: the shared
    groups of fields (seats, watchers, settings, the table's id) and each seat's hand. Kept by
    the table's room for as long as the table; a part is used only while its source is equal."""

    __slots__ = ("_groups", "_hands", "_table")

    def __init__(self) -> None:
        self._groups: list[tuple[tuple[Any, ...], bytes] | None] = [None] * len(_GROUPS)
        self._hands: dict[int, tuple[list[Card], bytes]] = {}
        self._table: tuple[str, bytes] | None = None  # the table's id and its JSON

    def shared(
        self,
        seq: int,
        table: str,
        started: bool,
        seats: list[dict[str, Any]],
        watchers: list[str],
        spectator_chat: bool,
    ) -> tuple[bytes, bytes, bytes, bytes]:
        """The bytes of the four shared groups: :meth:`group` of each with these values.

        why not group(): the seq changes with every move, so the first group is made at once
        (only the table's JSON kept), and the others are compared without a dict of the
        values and a tuple for each group, which were a good part of a fan-out's garbage."""
        known = self._table
        if known is None or known[0] != table:
            known = self._table = (table, _json.encode(table))
        head = b"".join((_HEAD[0], _json.encode(seq), _HEAD[1], known[1], _HEAD[2]))
        groups = self._groups
        middle = groups[1]
        # why "is" for the seats: the table keeps one list until a seat changes (seats_json)
        if middle is None or middle[0][1] is not seats or middle[0][0] is not started:
            middle_bytes = self.group(1, {"started": started, "seats": seats})
        else:
            middle_bytes = middle[1]
        tail = groups[3]
        if tail is None or tail[0][1] is not spectator_chat or tail[0][0] != watchers:
            values = {"watchers": watchers, "spectator_chat": spectator_chat}
            tail_bytes = self.group(3, values)
        else:
            tail_bytes = tail[1]
        between = groups[2]
        between_bytes = self.group(2, {}) if between is None else between[1]
        return head, middle_bytes, between_bytes, tail_bytes

    def group(self, index: int, values: dict[str, Any]) -> bytes:
        """The bytes of shared group ``index`` for these field values."""
        names, pieces = _GROUPS[index]
        key = tuple(map(values.__getitem__, names))
        known = self._groups[index]
        if known is not None and known[0] == key:
            return known[1]
        parts = [pieces[0]]
        for value, piece in zip(key, pieces[1:], strict=True):
            parts.append(_json.encode(value))
            parts.append(piece)
        data = b"".join(parts)
        self._groups[index] = (key, data)
        return data

    def hand(self, seat: int, cards: Sequence[Card]) -> bytes:
        """``seat``'s cards as the JSON list of their tokens."""
        known = self._hands.get(seat)
        # why compare the cards: only the mover's hand changes in a move (the others' are
        # the very same cards, so the comparison is one identity check per card); why a list
        # kept, not a tuple: comparing it with the game's list makes no copy for each seat
        if known is not None and known[0] == cards:
            return known[1]
        key = list(cards)
        data = _json.encode(card_tokens(key))
        self._hands[seat] = (key, data)
        return data


class SnapshotFrames:
    """The snapshots of one table as it is now, one per seat (``None``: a spectator's): made
    for one fan-out and then dropped, so a frame is never older than the table. ``memory``:
    the table's parts from its earlier snapshots (a fresh one: nothing kept)."""

    def __init__(
        self,
        room_id: str,
        table: Table,
        watchers: list[str],
        memory: SnapshotMemory | None = None,
    ) -> None:
        self._table = table
        self._memory = memory = memory or SnapshotMemory()
        # why not shared_snapshot(None): its parts are read here, without its dict around them
        self._pieces = memory.shared(
            table.seq,
            room_id,
            table.started,
            table.seats_json(),
            watchers,
            table.spectators_chat,
        )
        self._view = view = table.public_view_json()
        # why: a seat's hand goes in last, before the view's closing brace (see frame)
        self._view_open = None if view == b"null" else view[:-1]

    def frame(self, seat: int | None) -> bytes:
        """``seat``'s snapshot frame."""
        cards, moves = self._table.own_parts(seat)
        head, middle, between, tail = self._pieces
        seat_json = _SEAT_JSON.get(seat) or _json.encode(seat)
        legal_json = moves_json(moves)
        view_open = self._view_open
        if cards is None or view_open is None or seat is None:
            return b"".join((head, seat_json, middle, self._view, between, legal_json, tail))
        # why last: shared_snapshot adds the hand last
        hand_json = self._memory.hand(seat, cards)
        return b"".join(
            (head, seat_json, middle, view_open, _HAND, hand_json, b"}", between, legal_json, tail)
        )
