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

# Stand-ins for a seat's own values in the shared snapshot's encoding, split out again; a
# real value can hold none of them (a NUL in a name is refused), and if one ever did, the
# count of pieces would be wrong and every seat's snapshot is encoded whole (see __init__)
_SEAT = "\x00seat\x00"
_VIEW = "\x00view\x00"
_LEGAL = "\x00legal\x00"
_json = msgspec.json.Encoder()
_HAND = b',"hand":'


class SnapshotFrames:
    """The snapshots of one table as it is now, one per seat (``None``: a spectator's): made
    for one fan-out and then dropped, so a frame is never older than the table."""

    def __init__(self, room_id: str, table: Table, watchers: list[str]) -> None:
        self._room_id = room_id
        self._table = table
        self._watchers = watchers
        shared = table.shared_snapshot(None)
        self._view = b"null" if shared["view"] is None else _json.encode(shared["view"])
        marked: dict[str, Any] = {**shared, "seat": _SEAT, "view": _VIEW, "legal": _LEGAL}
        template = encode(Snapshot(table=room_id, watchers=watchers, **marked))
        self._pieces: tuple[bytes, bytes, bytes, bytes] | None = None
        head, *rest = template.split(_json.encode(_SEAT))
        if len(rest) == 1:
            middle, *rest = rest[0].split(_json.encode(_VIEW))
            if len(rest) == 1:
                between, *rest = rest[0].split(_json.encode(_LEGAL))
                if len(rest) == 1:
                    self._pieces = (head, middle, between, rest[0])

    def frame(self, seat: int | None) -> bytes:
        """``seat``'s snapshot frame."""
        pieces = self._pieces
        if pieces is None:  # a stand-in in a real value: encode it whole
            snapshot = self._table.shared_snapshot(seat)
            return encode(Snapshot(table=self._room_id, watchers=self._watchers, **snapshot))
        hand, legal = self._table.own_parts(seat)
        view = self._view
        if hand is not None and view != b"null":  # why last: shared_snapshot adds it last
            view = b"".join((view[:-1], _HAND, _json.encode(hand), b"}"))
        head, middle, between, tail = pieces
        return b"".join(
            (head, _json.encode(seat), middle, view, between, _json.encode(legal), tail)
        )
