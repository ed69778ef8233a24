"""The medium level: greedy with the exact solver.

It takes the top discard when that lowers its best leftover points, otherwise
draws from the stock; it goes out whenever it can; otherwise it discards the
card whose removal leaves the fewest leftover points. In a last turn it lays
down the best arrangement.
"""

from __future__ import annotations

from fivecrowns.ai import explain
from fivecrowns.ai.base import Bot, Decision, allowed_discards
from fivecrowns.ai.evaluate import arrangement, arrangement_with_discard, leftover
from fivecrowns.core.cards import Card, Rank, is_wild, points
from fivecrowns.core.melds.solver import Arrangement, going_out_discards
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, TakeDiscard
from fivecrowns.core.views import PlayerView
from fivecrowns.i18n import ngettext

__all__ = ["MediumBot", "discard_reason", "greedy_discard"]


class MediumBot(Bot):
    """Greedy: the lowest leftover now, and out as soon as possible."""

    name = "medium"

    def choose_draw(self, view: PlayerView) -> Decision:
        hand = list(view.hand)
        wild = view.wild_rank
        top = view.top_discard
        if top is not None:
            now = leftover(hand, wild)
            after = arrangement_with_discard([*hand, top], wild)
            if after.leftover_points < now and after.discard != top:
                return Decision(TakeDiscard(), explain.took_discard(top, wild, now, after))
        return Decision(DrawFromStock(), explain.drew_from_stock(top, wild))

    def choose_discard(self, view: PlayerView) -> Decision:
        hand = list(view.hand)
        wild = view.wild_rank
        allowed = set(allowed_discards(view))
        outs = [card for card in going_out_discards(hand, wild) if card in allowed]
        if outs:
            # why: going out scores 0 whatever is thrown; a wild thrown here is a gift to the
            # next player's last turn, so throw the highest card that is not wild.
            card = max(outs, key=lambda c: (not is_wild(c, wild), points(c, wild), c))
            return Decision(GoOut(card), explain.went_out(_out_arrangement(hand, card, wild), wild))
        card = greedy_discard(view)
        return Decision(Discard(card), discard_reason(hand, card, wild))


def _out_arrangement(hand: list[Card], discard: Card, wild: Rank) -> Arrangement:
    rest = list(hand)
    rest.remove(discard)
    best = arrangement(rest, wild)
    return Arrangement(wild, best.melds, best.leftover, discard)


def greedy_discard(view: PlayerView) -> Card:
    """The allowed card whose removal leaves the fewest leftover points (ties: the higher card)."""
    hand = list(view.hand)
    wild = view.wild_rank
    choice = arrangement_with_discard(hand, wild).discard
    allowed = allowed_discards(view)
    if choice is not None and choice in allowed:
        return choice
    return min(allowed, key=lambda card: (_without(hand, card, wild), -points(card, wild), card))


def _without(hand: list[Card], card: Card, wild: Rank) -> int:
    rest = list(hand)
    rest.remove(card)
    return leftover(rest, wild)


def discard_reason(hand: list[Card], card: Card, wild: Rank) -> str:
    """ "Discarded X: it fits nothing and is worth 13." or what breaking a meld costs."""
    before = leftover(hand, wild)
    after = _without(hand, card, wild)
    if after == before - points(card, wild):
        return explain.discarded(card, wild)
    reason = ngettext(
        "keeping the rest leaves {count} point, the fewest",
        "keeping the rest leaves {count} points, the fewest",
        after,
    ).format(count=after)
    return explain.discarded(card, wild, reason)
