"""The table layer: one game, its seats and its event log, between the core and any transport.

See :mod:`fivecrowns.table.table`. Synchronous, no network (STYLE practice 15).
"""

from __future__ import annotations

from fivecrowns.table.table import (
    BOT_LEVELS,
    BotTurn,
    Entry,
    Seat,
    SeatKind,
    Table,
    TableError,
    view_to_json,
)

__all__ = [
    "BOT_LEVELS",
    "BotTurn",
    "Entry",
    "Seat",
    "SeatKind",
    "Table",
    "TableError",
    "view_to_json",
]
