"""Every seat's snapshot after a change at a table, encoded with the part they share made once.

After each move every seat and spectator gets a snapshot: the same seats, public view, watchers
and settings, with only the seat's number, its own cards and its legal moves differing. Encoding
the whole of it for each seat (about 1 kB) was a large part of the server's CPU per move (issue
29), so :class:`SnapshotFrames` encodes the shared part once per fan-out and splices each seat's
own part in: byte for byte ``encode(Snapshot(...))`` of that seat's snapshot
(tests/net/test_snapshot_frames.py checks it for every seat at every step of whole games).
"""

from __future__ import annotations

from typing import Any

import msgspec

from fivecrowns.net.protocol import Snapshot, encode
from fivecrowns.table import Table

__all__ = ["SnapshotFrames"]

_json = msgspec.json.Encoder()
_HAND = b',"hand":'
_OWN = ("seat", "view", "legal")  # the fields that differ from seat to seat, in this order


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


_NAMES, _PIECES = _layout()
if [name for name in _NAMES if name in _OWN] != list(_OWN):  # why: __init__ splices them so
    raise RuntimeError("a snapshot's seat, view and legal moves are not in that order")


class SnapshotFrames:
    """The snapshots of one table as it is now, one per seat (``None``: a spectator's): made
    for one fan-out and then dropped, so a frame is never older than the table."""

    def __init__(self, room_id: str, table: Table, watchers: list[str]) -> None:
        self._table = table
        shared: dict[str, Any] = {
            **table.shared_snapshot(None),
            "table": room_id,
            "watchers": watchers,
        }
        self._view = b"null" if shared["view"] is None else _json.encode(shared["view"])
        # why: a seat's hand goes in last, before the view's closing brace (see frame)
        self._view_open = None if shared["view"] is None else self._view[:-1]
        # why each field alone: encoding the shared snapshot whole with stand-ins and cutting
        # it up again cost a third of each fan-out's snapshots (issue 29)
        parts: list[list[bytes]] = [[]]
        for name, piece in zip(_NAMES, _PIECES, strict=False):
            parts[-1].append(piece)
            if name in _OWN:
                parts.append([])
            else:
                parts[-1].append(_json.encode(shared[name]))
        parts[-1].append(_PIECES[-1])
        head, middle, between, tail = (b"".join(part) for part in parts)
        self._pieces = (head, middle, between, tail)

    def frame(self, seat: int | None) -> bytes:
        """``seat``'s snapshot frame."""
        hand, legal = self._table.own_parts(seat)
        head, middle, between, tail = self._pieces
        seat_json, legal_json = _json.encode(seat), _json.encode(legal)
        view_open = self._view_open
        if hand is None or view_open is None:
            return b"".join((head, seat_json, middle, self._view, between, legal_json, tail))
        # why last: shared_snapshot adds the hand last
        hand_json = _json.encode(hand)
        return b"".join(
            (head, seat_json, middle, view_open, _HAND, hand_json, b"}", between, legal_json, tail)
        )
