"""The seats: who sits in each, and what each human seat at this keyboard keeps to itself.

A :class:`Seat` says who plays a seat (a human, a computer player, one standing in for a
player whose connection dropped); a :class:`SeatState` is one human seat's own messages,
focused card and sort order (in hot seat nobody else may page through them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from fivecrowns.ai.loader import level_name
from fivecrowns.core.cards import Card
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.seat_log import SeatLog
from fivecrowns.words.seats import LEFT_SEAT, STANDIN_SEAT

__all__ = ["COMPUTER_SEAT", "WATCHER", "Bot", "Seat", "SeatState", "sort_key", "start_words"]

#: The seat number of a spectator at a network table (no seat's number).
WATCHER = -1

#: A computer player in the list of players at the start: "Ann (medium)".
COMPUTER_SEAT = N_("{name} ({level})")


class Bot(Protocol):
    def decide(self, view: Any) -> Any: ...


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a human at this keyboard, or a computer player of ``level``.

    At a network table also: ``left``, the person ``name`` left and a computer player
    (``level``) plays in their place for good; ``standin``, their connection dropped and a
    computer plays for them until they are back.
    """

    name: str
    level: str | None = None  # None: a human
    left: bool = False
    standin: bool = False
    away: bool = False  # their connection dropped; no computer plays for them yet

    @property
    def human(self) -> bool:
        """A person plays this seat now (not a computer player, nor one standing in)."""
        return self.level is None and not self.standin

    @classmethod
    def from_json(cls, info: dict[str, Any]) -> Seat:
        """A seat of a protocol snapshot (``{kind, name, level, standin, left}``).

        >>> Seat.from_json({"kind": "bot", "name": "Ann", "level": "medium", "left": True})
        Seat(name='Ann', level='medium', left=True, standin=False, away=False)
        """
        level = info.get("level") if info.get("kind") == "bot" else None
        return cls(
            str(info.get("name") or ""),
            level,
            left=bool(info.get("left")),
            standin=bool(info.get("standin")),
            away=bool(info.get("away")),
        )


def start_words(seat: Seat) -> str:
    """A seat in the list of players at the start: "Ann", "Bot 2 (medium)", and at a network
    table the lobby's words for a player who left or whose connection dropped."""
    if seat.left:
        return _(LEFT_SEAT).format(name=seat.name)
    if seat.standin:
        return _(STANDIN_SEAT).format(name=seat.name)
    if seat.level is None:
        return seat.name
    return _(COMPUTER_SEAT).format(name=seat.name, level=level_name(seat.level))


@dataclass
class SeatState:
    log: SeatLog  # this seat's own messages: in hot seat nobody else can page through them
    focus: int = 0
    sort: str = "rank"


def sort_key(order: str) -> Callable[[Card], tuple[int, int]]:
    def by_rank(card: Card) -> tuple[int, int]:
        return (
            99 if card.rank is None else int(card.rank),
            9 if card.suit is None else card.suit.index,
        )

    def by_suit(card: Card) -> tuple[int, int]:
        return (
            9 if card.suit is None else card.suit.index,
            99 if card.rank is None else int(card.rank),
        )

    return by_suit if order == "suit" else by_rank
