"""A simple legal computer player, greedy with the exact solver.

It takes the top discard when that lowers its best leftover points, otherwise
draws from the stock; it goes out whenever it can; otherwise it discards the
card that leaves the fewest leftover points. In a last turn it lays down the
best arrangement. It reads only its :class:`~fivecrowns.core.views.PlayerView`.

>>> from fivecrowns.core.game import Game
>>> from fivecrowns.core.views import player_view
>>> game = Game(["Ann", "Ben"], seed=1)
>>> bot = SimplePlayer()
>>> while not game.is_over:
...     seat = game.current_player
...     _ = game.apply(seat, bot.choose_move(player_view(game, seat)))
>>> len(game.round_scores)
11
"""

from __future__ import annotations

from fivecrowns.ai import explain
from fivecrowns.ai.base import Decision
from fivecrowns.core.cards import Card, Rank
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import (
    Arrangement,
    best_with_discard,
    going_out_discards,
    least_leftover,
)
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from fivecrowns.core.views import PlayerView

__all__ = ["SimplePlayer"]


class SimplePlayer:
    """Greedy: lowest leftover now, go out as soon as possible."""

    name = "simple"

    def __init__(self) -> None:
        # why: the hand evaluated when deciding to take the discard is the hand
        # that must then discard; remembering the last answer halves solver calls.
        self._last: tuple[tuple[Card, ...], Rank, Arrangement] | None = None

    def decide(self, view: PlayerView) -> Decision:
        """The bot interface (docs/bots.md): the move of :meth:`choose_move`, plainly described."""
        move = self.choose_move(view)
        return Decision(move, explain.plain_move(move, view.top_discard))

    def choose_move(self, view: PlayerView) -> Move:
        hand = list(view.hand)
        wild = view.wild_rank
        if view.phase in (Phase.DRAW, Phase.LAST_DRAW):
            top = view.top_discard
            if top is not None:
                with_top = self._best_with_discard([*hand, top], wild).leftover_points
                if with_top < least_leftover(hand, wild):
                    return TakeDiscard()
            return DrawFromStock()
        if view.phase is Phase.DISCARD:
            best = self._best_with_discard(hand, wild)
            forbidden = view.forbidden_discard
            if best.leftover_points == 0 and best.discard is not None:
                if best.discard != forbidden or hand.count(best.discard) > 1:
                    return GoOut(best.discard)
                allowed = [card for card in going_out_discards(hand, wild) if card != forbidden]
                if allowed:
                    return GoOut(allowed[0])
            return Discard(_best_discard(view, best))
        if view.phase is Phase.LAST_LAY_DOWN:
            return LayDown()
        return Discard(_best_discard(view, self._best_with_discard(hand, wild)))

    def _best_with_discard(self, hand: list[Card], wild: Rank) -> Arrangement:
        key = tuple(sorted(hand))
        if self._last is not None and self._last[0] == key and self._last[1] == wild:
            return self._last[2]
        best = best_with_discard(hand, wild)
        self._last = (key, wild, best)
        return best


def _best_discard(view: PlayerView, best: Arrangement) -> Card:
    """The card whose discard leaves the fewest leftover points (never a forbidden one)."""
    hand = list(view.hand)
    choice = best.discard
    forbidden = view.forbidden_discard
    if choice is not None and not (choice == forbidden and hand.count(choice) == 1):
        return choice
    candidates = [card for card in sorted(set(hand)) if card != forbidden] or hand
    return min(candidates, key=lambda card: (_leftover_without(hand, card, view), card))


def _leftover_without(hand: list[Card], card: Card, view: PlayerView) -> int:
    rest = list(hand)
    rest.remove(card)
    return least_leftover(rest, view.wild_rank)
