"""The strongest level's move for a seat, as plain data: what the hint says and plays.

:func:`advise` asks the same functions :class:`~fivecrowns.ai.hard.HardBot` decides with
(:func:`~fivecrowns.ai.hard.hard_draw`, :func:`~fivecrowns.ai.hard.hard_discard`), so the
hint (:mod:`fivecrowns.words.hint`) and a player who always follows it
(:class:`HintBot`, the ``hint`` player of ``simulate``) play exactly what ``hard`` plays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fivecrowns.ai.base import Bot, Decision
from fivecrowns.ai.evaluate import arrangement_with_discard
from fivecrowns.ai.hard import HardBot, hard_discard, hard_draw
from fivecrowns.core.cards import Card
from fivecrowns.core.game import Phase
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, TakeDiscard
from fivecrowns.core.views import PileAction, PlayerView

__all__ = ["STRONGEST", "Advice", "HintBot", "advise"]

#: The level the hint follows: the strongest one the game offers (measured, see docs/bots.md).
STRONGEST = "hard"


@dataclass(frozen=True, slots=True)
class Advice:
    """The strongest level's move now, with the figures behind it.

    Drawing: ``takes`` (the top discard, else a blind draw); ``card`` is the card it then
    throws after taking (``None`` drawing blind), ``then_goes_out`` says it goes out with it;
    ``blind``: the expected points after a blind draw when that decided, ``after``: the
    fewest points after taking the top discard. Discarding: ``card`` and ``goes_out``, and
    ``why``/``other`` as :class:`~fivecrowns.ai.hard.HardDiscard` gives them.
    """

    takes: bool = False
    card: Card | None = None
    goes_out: bool = False
    then_goes_out: bool = False
    blind: float | None = None
    after: int | None = None
    why: str = "plain"
    other: Card | None = None


def advise(view: PlayerView) -> Advice:
    """What :data:`STRONGEST` plays for ``view`` (it must be this seat's turn)."""
    wild = view.wild_rank
    if view.phase in (Phase.DRAW, Phase.LAST_DRAW):
        draw = hard_draw(view)
        top = view.top_discard
        if not draw.take or top is None:
            return Advice(blind=draw.blind, after=draw.after)
        if view.phase is Phase.LAST_DRAW:
            # why: in a last turn hard lays down the solver's best and throws what is left
            best = arrangement_with_discard([*view.hand, top], wild)
            return Advice(takes=True, card=best.discard, after=draw.after)
        then = hard_discard(_after_taking(view, top))
        return Advice(takes=True, card=then.card, then_goes_out=then.out, after=draw.after)
    if view.phase is Phase.DISCARD:
        choice = hard_discard(view)
        return Advice(card=choice.card, goes_out=choice.out, why=choice.why, other=choice.other)
    move = HardBot().decide(view).move
    if isinstance(move, Discard):
        return Advice(card=move.card)
    return Advice()


def _after_taking(view: PlayerView, top: Card) -> PlayerView:
    """``view`` as it will be once this seat took ``top`` (it may not throw it straight back)."""
    from fivecrowns.core.moves import TookDiscard

    counts = list(view.hand_counts)
    counts[view.player] += 1
    return replace(
        view,
        hand=(*view.hand, top),
        phase=Phase.DISCARD,
        top_discard=None,
        hand_counts=tuple(counts),
        pile_history=(*view.pile_history, PileAction(view.player, "took", top)),
        events=(*view.events, TookDiscard(view.player, top)),
        forbidden_discard=top,  # why: a hint to throw straight back what you take is no hint
    )


class HintBot(Bot):
    """Plays exactly what the hint says (``simulate --ai hint``): a measure of the hint."""

    name = "hint"

    def choose_draw(self, view: PlayerView) -> Decision:
        advice = advise(view)
        return Decision(TakeDiscard() if advice.takes else DrawFromStock(), "")

    def choose_discard(self, view: PlayerView) -> Decision:
        advice = advise(view)
        assert advice.card is not None
        move = GoOut(advice.card) if advice.goes_out else Discard(advice.card)
        return Decision(move, "")

    def choose_last_discard(self, view: PlayerView) -> Decision:
        advice = advise(view)
        assert advice.card is not None
        return Decision(Discard(advice.card), "")
