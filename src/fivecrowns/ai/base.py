"""The bot interface every computer player uses, built-in or plugged in.

A bot is an object with one method, ``decide(view) -> Decision``: it is given
only its own :class:`~fivecrowns.core.views.PlayerView` and returns the move to play
and a short sentence saying why. :class:`Bot` is a convenient base class that
hands each phase of a turn to its own method; see ``docs/bots.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from fivecrowns.ai import explain
from fivecrowns.ai.evaluate import arrangement_with_discard
from fivecrowns.core.cards import Card, points
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import Phase
from fivecrowns.core.moves import Discard, LayDown, Move
from fivecrowns.core.views import PlayerView
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = ["Bot", "BotError", "Decision", "Player", "allowed_discards"]


class BotError(FiveCrownsError):
    """A computer player failed: it raised, or answered an illegal move; the message says which."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A move and the sentence that explains it ("Took the 7 of hearts: ...")."""

    move: Move
    explanation: str


@runtime_checkable
class Player(Protocol):
    """Anything with ``decide(view) -> Decision`` can sit at the table."""

    def decide(self, view: PlayerView) -> Decision: ...


class Bot:
    """Base class: one method per phase of a turn.

    Override :meth:`choose_draw` (stock or discard) and :meth:`choose_discard`
    (discard or go out). :meth:`choose_lay_down` and :meth:`choose_last_discard`
    (the last turn, after someone went out) default to the solver's best
    arrangement, as RULES.md says computer players always use.
    """

    name: ClassVar[str] = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: PlayerView) -> Decision:
        """The move for ``view`` (it must be this player's turn) with its explanation."""
        if not view.my_turn:
            raise ValueError(f"It is not {view.name}'s turn, so there is nothing to decide.")
        phase = view.phase
        if phase in (Phase.DRAW, Phase.LAST_DRAW):
            return self.choose_draw(view)
        if phase is Phase.DISCARD:
            return self.choose_discard(view)
        if phase is Phase.LAST_LAY_DOWN:
            return self.choose_lay_down(view)
        return self.choose_last_discard(view)

    def choose_move(self, view: PlayerView) -> Move:
        """Just the move, for callers that do not need the sentence."""
        return self.decide(view).move

    def choose_draw(self, view: PlayerView) -> Decision:
        raise NotImplementedError

    def choose_discard(self, view: PlayerView) -> Decision:
        raise NotImplementedError

    def choose_lay_down(self, view: PlayerView) -> Decision:
        """Last turn: lay down the solver's best arrangement (keeping its discard)."""
        best = arrangement_with_discard(view.hand, view.wild_rank)
        melds = tuple(meld.cards for meld in best.melds)
        return Decision(LayDown(melds), explain.laid_down(best, view.wild_rank))

    def choose_last_discard(self, view: PlayerView) -> Decision:
        """Last turn, after laying down: throw the card worth most, which lowers the score most."""
        wild = view.wild_rank
        choices = allowed_discards(view)
        card = max(choices, key=lambda c: (points(c, wild), c))
        worth = points(card, wild)
        if len(view.hand) == 1:
            return Decision(
                Discard(card), explain.discarded(card, wild, _("it is my last card, so I score 0"))
            )
        return Decision(
            Discard(card),
            explain.discarded(
                card,
                wild,
                ngettext(
                    "it is worth {count}, my most", "it is worth {count}, my most", worth
                ).format(count=worth),
            ),
        )


def allowed_discards(view: PlayerView, cards: Sequence[Card] | None = None) -> list[Card]:
    """Distinct cards of ``cards`` (default the hand) that may be discarded now."""
    hand = list(view.hand)
    pool = sorted(set(hand if cards is None else cards))
    forbidden = view.forbidden_discard
    if forbidden is not None and hand.count(forbidden) == 1 and len(pool) > 1:
        pool = [card for card in pool if card != forbidden]
    return pool
