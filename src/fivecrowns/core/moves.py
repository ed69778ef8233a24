"""The moves a player makes and the events they cause: small frozen records.

A move (:class:`DrawFromStock`, :class:`TakeDiscard`, :class:`Discard`, :class:`GoOut`,
:class:`LayDown`) goes to :meth:`fivecrowns.core.game.Game.apply`, which returns the events
it caused. :func:`redact` gives an event as one seat may see it. docs/design.md lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from fivecrowns.core.cards import (
    Card,
    Rank,
)
from fivecrowns.core.melds.solver import (
    Meld,
)

__all__ = [
    "EVENT_TYPES",
    "Discard",
    "Discarded",
    "DrawFromStock",
    "DrewFromStock",
    "Event",
    "GameOver",
    "GoOut",
    "LaidDown",
    "LastTurnStarted",
    "LayDown",
    "Move",
    "PlayerResult",
    "RoundScored",
    "RoundStarted",
    "StockReshuffled",
    "TakeDiscard",
    "TookDiscard",
    "TurnStarted",
    "WentOut",
    "redact",
]


# --- moves ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawFromStock:
    """Draw the top card of the stock."""

    kind: ClassVar[str] = "draw_stock"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile."""

    kind: ClassVar[str] = "take_discard"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card, ending the turn."""

    card: Card
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class GoOut:
    """Lay every card but one in melds (the solver's best arrangement) and discard the last."""

    discard: Card
    kind: ClassVar[str] = "go_out"


@dataclass(frozen=True, slots=True)
class LayDown:
    """In a last turn, lay down these melds; ``None`` lays down the best arrangement.

    The best arrangement keeps the card the solver would discard; ``()`` lays
    down nothing. Each meld is a tuple of cards (a :class:`Meld` is accepted).
    """

    melds: tuple[tuple[Card, ...], ...] | None = None
    kind: ClassVar[str] = "lay_down"

    def __post_init__(self) -> None:
        if self.melds is not None:
            normal = tuple(
                tuple(meld.cards) if isinstance(meld, Meld) else tuple(meld) for meld in self.melds
            )
            object.__setattr__(self, "melds", normal)


Move = DrawFromStock | TakeDiscard | Discard | GoOut | LayDown


# --- events --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's end of round: melds laid down, cards left over, points scored."""

    melds: tuple[Meld, ...]
    leftover: tuple[Card, ...]
    score: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    wild_rank: Rank
    dealer: int
    hand_size: int
    first_player: int
    turned_up: Card  # the top of the stock, turned to start the discard pile
    kind: ClassVar[str] = "round_started"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int
    kind: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class DrewFromStock:
    """``card`` is ``None`` in every view but the drawing player's."""

    player: int
    card: Card | None
    kind: ClassVar[str] = "drew_from_stock"


@dataclass(frozen=True, slots=True)
class TookDiscard:
    player: int
    card: Card
    kind: ClassVar[str] = "took_discard"


@dataclass(frozen=True, slots=True)
class Discarded:
    player: int
    card: Card
    kind: ClassVar[str] = "discarded"


@dataclass(frozen=True, slots=True)
class WentOut:
    player: int
    melds: tuple[Meld, ...]
    discard: Card
    kind: ClassVar[str] = "went_out"


@dataclass(frozen=True, slots=True)
class LastTurnStarted:
    player: int
    kind: ClassVar[str] = "last_turn_started"


@dataclass(frozen=True, slots=True)
class LaidDown:
    """Melds laid down in a last turn; ``leftover`` (the cards kept, discard
    included) is ``None`` in other players' views until the round is scored."""

    player: int
    melds: tuple[Meld, ...]
    leftover: tuple[Card, ...] | None
    kind: ClassVar[str] = "laid_down"


@dataclass(frozen=True, slots=True)
class StockReshuffled:
    """The stock ran out: the discard pile but its top became the stock.

    ``added_decks`` is 1 when that was not enough and a new shuffled deck was added.
    """

    player: int
    cards: int
    added_decks: int
    kind: ClassVar[str] = "stock_reshuffled"


@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    went_out: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    results: tuple[PlayerResult, ...]
    kind: ClassVar[str] = "round_scored"


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    kind: ClassVar[str] = "game_over"


Event = (
    RoundStarted
    | TurnStarted
    | DrewFromStock
    | TookDiscard
    | Discarded
    | WentOut
    | LastTurnStarted
    | LaidDown
    | StockReshuffled
    | RoundScored
    | GameOver
)
#: Each event class by its ``kind``, for :func:`fivecrowns.core.codec.event_from_json`.
EVENT_TYPES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        RoundStarted,
        TurnStarted,
        DrewFromStock,
        TookDiscard,
        Discarded,
        WentOut,
        LastTurnStarted,
        LaidDown,
        StockReshuffled,
        RoundScored,
        GameOver,
    )
}


def redact(event: Event, viewer: int | None) -> Event:
    """The event as ``viewer`` may see it (``None``: a spectator who sees no hand)."""
    if isinstance(event, DrewFromStock) and event.player != viewer and event.card is not None:
        return DrewFromStock(event.player, None)
    if isinstance(event, LaidDown) and event.player != viewer and event.leftover is not None:
        return LaidDown(event.player, event.melds, None)
    return event
