"""The expert level: determinised Monte Carlo over the cards it cannot see, two draws ahead.

Terminology (as in :mod:`fivecrowns.ai.hard`): the *unseen pool* is every card
not in the bot's hand and not public in its view; a *determinisation* is one
guess of the next cards it will draw, sampled from the unseen pool without
replacement (as far as the view can tell, every unseen card is equally likely
to be next in the stock). A *play-out* plays the bot's own next two turns on
one determinisation: draw the guessed card, throw the card whose loss costs
least (the exact solver), and counts the best leftover points after each draw.

- Draw: it takes the top discard when, over the same determinisations, the
  hand after taking it ends its play-outs with fewer points than the hand after
  a blind draw (wilds are always taken, and a discard that lets it go out).
- Discard: among the cheapest discards (as hard), it keeps the hand whose
  play-outs end lowest, and it avoids feeding the next player as hard does.
- Going out, and the last turn after someone went out: as hard (at once; exact
  expectation on the last draw).

It reads only its view: the determinisations come from the unseen pool, and the
random generator is seeded from its seed and what the view shows, so the same
view always gives the same decision.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from fivecrowns.ai import explain
from fivecrowns.ai.base import Decision, allowed_discards
from fivecrowns.ai.evaluate import arrangement_with_discard, leftover, leftover_with_discard
from fivecrowns.ai.hard import FEED_WEIGHT, SHORTLIST, SLACK, HardBot, _next_player, interest
from fivecrowns.ai.memory import read_memory
from fivecrowns.cards import Card, Rank, is_wild, points
from fivecrowns.game import Discard, DrawFromStock, Phase, TakeDiscard
from fivecrowns.views import PlayerView

__all__ = ["ExpertBot", "play_out"]

SAMPLES = 24  # determinisations per decision (the same ones for every choice compared)
NEAR_WEIGHT = 0.5  # weight of the leftover after the next draw; the rest after the one after


def play_out(hand: Sequence[Card], wild: Rank, draws: Sequence[Card]) -> float:
    """The bot's next turns on one determinisation: draw, throw the cheapest, score.

    Weighted: ``NEAR_WEIGHT`` of the best leftover after the first draw (the
    round may end then) and the rest after the second.
    """
    cards = list(hand)
    total = 0.0
    weights = (NEAR_WEIGHT, 1 - NEAR_WEIGHT)
    for weight, card in zip(weights, draws, strict=False):
        cards.append(card)
        if weight == weights[-1]:
            total += weight * leftover_with_discard(cards, wild)
            break
        best = arrangement_with_discard(cards, wild)
        total += weight * best.leftover_points
        assert best.discard is not None
        cards.remove(best.discard)
    return total


class ExpertBot(HardBot):
    """Hard's going out and last turns; draws and discards by play-outs on determinisations."""

    name = "expert"

    def _determinisations(self, view: PlayerView, unseen: Counter[Card]) -> list[list[Card]]:
        pool = sorted(unseen.elements())
        if len(pool) < 2:
            return []
        codes = " ".join(card.token for card in sorted(view.hand))
        # why: a string seed is hashed with SHA-512, the same in every process (no hash seed).
        rng = random.Random(f"{self.seed}/{view.round}/{len(view.events)}/{codes}")
        return [rng.sample(pool, 2) for _ in range(SAMPLES)]

    def _mean(self, hand: Sequence[Card], wild: Rank, samples: list[list[Card]]) -> float:
        return sum(play_out(hand, wild, draws) for draws in samples) / len(samples)

    def choose_draw(self, view: PlayerView) -> Decision:
        top = view.top_discard
        wild = view.wild_rank
        if view.phase is Phase.LAST_DRAW or top is None or is_wild(top, wild):
            return super().choose_draw(view)
        hand = list(view.hand)
        now = leftover(hand, wild)
        after = arrangement_with_discard([*hand, top], wild)
        if after.leftover_points >= now:
            return Decision(DrawFromStock(), explain.drew_from_stock(top, wild))
        if after.leftover_points == 0:
            return Decision(TakeDiscard(), explain.took_discard(top, wild, now, after))
        memory = read_memory(view)
        samples = self._determinisations(view, memory.unseen)
        if not samples:
            return super().choose_draw(view)
        assert after.discard is not None
        kept = list(after.cards)
        kept.remove(after.discard)
        # Taking: the turn's own draw is the top discard, then one guessed draw next turn.
        take = sum(
            after.leftover_points * NEAR_WEIGHT
            + (1 - NEAR_WEIGHT) * leftover_with_discard([*kept, draws[0]], wild)
            for draws in samples
        ) / len(samples)
        blind = self._mean(hand, wild, samples)
        if take < blind:
            return Decision(TakeDiscard(), explain.took_discard(top, wild, now, after))
        reason = (
            f"looking two draws ahead, the stock should leave about {round(blind)} points, "
            f"{explain.the(top, wild)} about {round(take)}"
        )
        return Decision(DrawFromStock(), explain.drew_from_stock(top, wild, reason))

    def choose_discard(self, view: PlayerView) -> Decision:
        if view.phase is not Phase.DISCARD:
            return super().choose_discard(view)
        hand = list(view.hand)
        wild = view.wild_rank
        allowed = allowed_discards(view)
        hard = super().choose_discard(view)
        if not isinstance(hard.move, Discard):
            return hard  # going out: hard's choice of the card the next player wants least
        memory = read_memory(view)
        samples = self._determinisations(view, memory.unseen)
        natural = [card for card in allowed if not is_wild(card, wild)] or allowed
        costs = {card: _without(hand, card, wild) for card in natural}
        cheapest = min(costs.values())
        ranked = sorted(natural, key=lambda c: (costs[c], -points(c, wild), c))
        shortlist = [c for c in ranked if costs[c] <= cheapest + SLACK][:SHORTLIST]
        if len(shortlist) == 1 or not samples:
            return hard
        target = _next_player(view)
        scores: dict[Card, float] = {}
        for card in shortlist:
            rest = list(hand)
            rest.remove(card)
            scores[card] = self._mean(rest, wild, samples) + FEED_WEIGHT * interest(
                card, wild, memory, target
            )
        card = min(shortlist, key=lambda c: (scores[c], costs[c], c))
        if card == hard.move.card:
            return hard
        greedy = ranked[0]
        if card == greedy:
            reason = f"keeping the rest leaves {costs[card]} points, and the most ways ahead"
        else:
            reason = (
                f"looking two draws ahead, keeping {explain.the(greedy, wild)} gives more ways "
                "to make melds"
            )
        return Decision(Discard(card), explain.discarded(card, wild, reason))


def _without(hand: Sequence[Card], card: Card, wild: Rank) -> int:
    rest = list(hand)
    rest.remove(card)
    return leftover(rest, wild)
