"""A lab player, once the ``expert`` level: looks two draws ahead over the cards it cannot see.

    python benchmarks/bench_strength.py lab_expert:ExpertBot hard --games 1000 --duplicate

It left the game's levels (issue 27): over 1,000 duplicate deals it scored 1.0% fewer
points than ``hard``, but the 95% interval (-0.1% to 2.0%) includes no gain, and the
replacement series put them 0.1 points a game apart (docs/bots.md). A save or a table that
names ``expert`` plays ``hard``.

Terminology (as in :mod:`fivecrowns.ai.hard`): the *unseen pool* is every card
not in the bot's hand and not public in its view; a *blind draw* is, as far as
the view can tell, a random card of the unseen pool. A *play-out* plays the
bot's own next turns on one guess (a *determinisation*) of the cards it will
draw: draw the card, throw the card whose loss costs least (the exact solver),
and count the best leftover points.

- The look-ahead of a hand: for every unseen kind of card as its next draw
  (weighted by how many are unseen, as hard's exact expectation), a play-out
  with one more draw sampled from the rest of the pool (determinised Monte
  Carlo, one determinisation per kind). Its score weighs the leftover after
  the next draw and after the one after equally (the round may end first).
- Draw: it takes the top discard when the hand after taking it scores lower
  than the hand before a blind draw (wilds are always taken, and a discard that
  lets it go out; a card that does not lower its leftover now is left).
- Discard: among hard's shortlist of cheapest discards, it keeps the hand with
  the lowest look-ahead score, and it avoids feeding the next player as hard.
- Going out, and the last turn after someone went out: as hard.

It reads only its view: the guesses come from the unseen pool, and its random
generator is seeded from its seed and what the view shows (the same generator
for every choice it compares), so the same view always gives the same move.
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
from fivecrowns.core.cards import Card, Rank, is_wild, points
from fivecrowns.core.game import Phase
from fivecrowns.core.moves import Discard, DrawFromStock, TakeDiscard
from fivecrowns.core.views import PlayerView
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = ["ExpertBot", "look_ahead"]

NEAR_WEIGHT = 0.5  # weight of the leftover after the next draw; the rest after the one after


def look_ahead(
    hand: Sequence[Card], wild: Rank, unseen: Counter[Card], rng: random.Random
) -> tuple[float, float]:
    """Expected best leftover of ``hand`` after its next draw, and after the one after.

    The next draw is every unseen kind of card in turn, weighted by how many are
    unseen (exact, as hard's blind draw). For each, the play-out throws the card
    whose loss costs least, then draws one card sampled from the rest of the
    unseen pool (one determinisation per kind: stratified sampling).
    """
    pool = list(unseen.elements())
    total = len(pool)
    if total < 2:
        value = float(leftover(hand, wild))
        return value, value
    near = far = 0.0
    for card, count in sorted(unseen.items()):
        if count <= 0:
            continue
        best = arrangement_with_discard([*hand, card], wild)
        near += count * best.leftover_points
        kept = [*hand, card]
        assert best.discard is not None
        kept.remove(best.discard)
        second = pool[rng.randrange(total)]
        while second == card and count == 1:
            second = pool[rng.randrange(total)]
        far += count * leftover_with_discard([*kept, second], wild)
    return near / total, far / total


def _score(near: float, far: float) -> float:
    return NEAR_WEIGHT * near + (1 - NEAR_WEIGHT) * far


class ExpertBot(HardBot):
    """Hard's going out and last turns; draws and discards by looking two draws ahead."""

    name = "expert"

    def _rng(self, view: PlayerView) -> random.Random:
        codes = " ".join(card.token for card in sorted(view.hand))
        # why: a string seed is hashed with SHA-512, the same in every process (no hash seed).
        return random.Random(f"{self.seed}/{view.round}/{len(view.events)}/{codes}")

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
        assert after.discard is not None
        kept = list(after.cards)
        kept.remove(after.discard)
        # Taking: this turn's draw is the top discard; the next turn's is a blind draw.
        take_next, _later = look_ahead(kept, wild, memory.unseen, self._rng(view))
        take = _score(after.leftover_points, take_next)
        blind = _score(*look_ahead(hand, wild, memory.unseen, self._rng(view)))
        if take < blind:
            return Decision(TakeDiscard(), explain.took_discard(top, wild, now, after))
        reason = ngettext(
            "looking two draws ahead, the stock should leave about {count} point, "
            "{card} about {take}",
            "looking two draws ahead, the stock should leave about {count} points, "
            "{card} about {take}",
            round(blind),
        ).format(count=round(blind), card=explain.the(top, wild), take=round(take))
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
        natural = [card for card in allowed if not is_wild(card, wild)] or allowed
        costs = {card: _without(hand, card, wild) for card in natural}
        cheapest = min(costs.values())
        ranked = sorted(natural, key=lambda c: (costs[c], -points(c, wild), c))
        shortlist = [c for c in ranked if costs[c] <= cheapest + SLACK][:SHORTLIST]
        if len(shortlist) == 1 or memory.unseen_total() < 2:
            return hard
        target = _next_player(view)
        scores: dict[Card, float] = {}
        for card in shortlist:
            rest = list(hand)
            rest.remove(card)
            # why: the same seed for every candidate (common random numbers) keeps the
            # comparison between them fair; only their hands differ.
            near, far = look_ahead(rest, wild, memory.unseen, self._rng(view))
            scores[card] = _score(near, far) + FEED_WEIGHT * interest(card, wild, memory, target)
        card = min(shortlist, key=lambda c: (scores[c], costs[c], c))
        if card == hard.move.card:
            return hard
        greedy = ranked[0]
        if card == greedy:
            reason = ngettext(
                "keeping the rest leaves {count} point, and the most ways ahead",
                "keeping the rest leaves {count} points, and the most ways ahead",
                costs[card],
            ).format(count=costs[card])
        else:
            reason = _(
                "looking two draws ahead, keeping {card} gives more ways to make melds"
            ).format(card=explain.the(greedy, wild))
        return Decision(Discard(card), explain.discarded(card, wild, reason))


def _without(hand: Sequence[Card], card: Card, wild: Rank) -> int:
    rest = list(hand)
    rest.remove(card)
    return leftover(rest, wild)
