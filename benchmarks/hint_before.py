"""The hint-follower of main before issue 27, kept only to measure "before" (benchmark-only).

    python benchmarks/bench_strength.py hint_before:MainHintBot hard --duplicate --games 1000

It plays exactly what main's Shift+H said at commit 97b44f5: a copy of that
``advised_discard`` (the discard that leaves the fewest points in your own hand now) and of
``hint_words``' choices, built on the solver alone, so it keeps measuring the old hint after
the game's hint changed. It is not part of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from fivecrowns.ai.base import Bot, Decision
from fivecrowns.core.cards import Card, Rank, is_wild
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import (
    Arrangement,
    best_arrangement,
    best_with_discard,
    going_out_discards,
)
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, TakeDiscard
from fivecrowns.core.views import PlayerView

__all__ = ["MainHintBot", "main_advised_discard"]


def main_advised_discard(
    hand: Sequence[Card], wild: Rank, avoid: Card | None = None
) -> Arrangement:
    """main's ``words.answers.advised_discard`` at 97b44f5, unchanged."""
    best = best_with_discard(hand, wild)
    outs = going_out_discards(hand, wild)
    if not outs:
        return best
    card = next(
        (c for c in outs if not is_wild(c, wild) and c != avoid),
        next((c for c in outs if c != avoid), outs[0]),
    )
    rest = list(hand)
    rest.remove(card)
    return replace(best_arrangement(rest, wild), discard=card)


def _taken_this_turn(view: PlayerView) -> Card | None:
    """The card this seat took from the pile this turn (main's hint got ``game.taken_discard``)."""
    if view.pile_history:
        last = view.pile_history[-1]
        if last.player == view.player and last.action == "took":
            return last.card
    return None


class MainHintBot(Bot):
    """Plays what main's hint said: take the top discard when main's hint said "Take"."""

    name = "hint_before"

    def choose_draw(self, view: PlayerView) -> Decision:
        hand, wild, top = list(view.hand), view.wild_rank, view.top_discard
        if top is None:
            return Decision(DrawFromStock(), "")
        now = best_arrangement(hand, wild)
        with_top = main_advised_discard([*hand, top], wild, avoid=top)
        if with_top.leftover_points < now.leftover_points and with_top.discard != top:
            return Decision(TakeDiscard(), "")
        return Decision(DrawFromStock(), "")

    def choose_discard(self, view: PlayerView) -> Decision:
        best = main_advised_discard(view.hand, view.wild_rank, avoid=_taken_this_turn(view))
        assert best.discard is not None
        if view.phase is Phase.DISCARD and best.all_melded:
            return Decision(GoOut(best.discard), "")
        return Decision(Discard(best.discard), "")

    def choose_lay_down(self, view: PlayerView) -> Decision:
        best = main_advised_discard(view.hand, view.wild_rank, avoid=_taken_this_turn(view))
        return Decision(LayDown(tuple(meld.cards for meld in best.melds)), "")

    def choose_last_discard(self, view: PlayerView) -> Decision:
        return self.choose_discard(view)
