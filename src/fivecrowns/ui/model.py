"""What the full screen shows: a plain snapshot the command layer builds after each change.

Every field here is also speakable with one key (W, P, S, C, H, N and the arrows),
so the screen never shows something a blind player cannot hear.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fivecrowns.core.cards import Card, Rank

__all__ = ["ListScreen", "SeatLine", "TableModel"]


@dataclass(frozen=True)
class SeatLine:
    name: str
    cards: int
    total: int
    round_points: int | None
    is_turn: bool
    is_you: bool
    note: str = ""


@dataclass(frozen=True)
class ListScreen:
    """The action menu, the help list, or a confirmation: a title and items, one selected."""

    title: str
    items: tuple[str, ...]
    selected: int


@dataclass(frozen=True)
class TableModel:
    round_number: int
    wild_rank: Rank
    seats: tuple[SeatLine, ...]
    top_discard: Card | None
    stock: int
    hand: tuple[Card, ...]
    focus: int
    sort_order: str
    status: str
    message: str
    you: str
    privacy: str | None = None
    overlay: ListScreen | None = None
    melds: tuple[str, ...] = field(default_factory=tuple)
    #: The last few messages before ``message``, oldest first (this seat's own history).
    recent: tuple[str, ...] = field(default_factory=tuple)
    melds_key: str = "M"  # the key that says the melds, when they do not fit the screen
    watching: bool = False  # a spectator: no hand to show
