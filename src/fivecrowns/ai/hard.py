"""The hard level: expected value over the cards it cannot see.

Terminology: the *unseen pool* is every card not in the bot's own hand and not
public in its view (discard pile, melds on the table, cards an opponent is known
to hold because it took them from the pile); a *blind draw* is a draw from the
stock, which, as far as the bot can know, is a random card of the unseen pool.

- Draw: it takes the top discard only when the best leftover after taking it
  is lower than the expected best leftover after a blind draw (wilds are
  always taken).
- Discard: among the cards whose removal costs least now, it keeps the hand
  whose expected leftover after the next blind draw is lowest (so it keeps
  cards with more ways to become melds), and it avoids feeding the next player
  (it remembers what each opponent took from and threw onto the pile). It
  keeps wilds.
- Going out: at once. Waiting can never lower its own score below 0 and only
  gives the others more turns to improve; the discard it goes out with is the
  card the next player is least likely to want, since that player's last turn
  may take it.
- Last turn: the draw compares the exact expectation, and it lays down the
  solver's best arrangement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from fivecrowns.ai import explain
from fivecrowns.ai.base import Bot, Decision, allowed_discards
from fivecrowns.ai.evaluate import (
    arrangement,
    arrangement_with_discard,
    leftover,
    leftover_with_discard,
)
from fivecrowns.ai.memory import Memory, read_memory
from fivecrowns.core.cards import Card, Rank, is_wild, points
from fivecrowns.core.melds.solver import Arrangement, going_out_discards
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, TakeDiscard
from fivecrowns.core.views import PlayerView
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = [
    "HardBot",
    "HardDiscard",
    "HardDraw",
    "blind_draw_value",
    "choose_hard_discard",
    "hard_discard",
    "hard_draw",
    "interest",
]

SHORTLIST = 4  # discards weighed by lookahead: the cheapest few by leftover now
SLACK = 12  # ...and only those within this many points of the cheapest
FEED_WEIGHT = 3.0  # points of lookahead a "the next player wants this" costs


class HardBot(Bot):
    """Expected value over unseen cards, with a memory of the discard pile."""

    name = "hard"

    def choose_draw(self, view: PlayerView) -> Decision:
        draw = hard_draw(view)
        top = view.top_discard
        wild = view.wild_rank
        if not draw.take:
            reason = None
            if draw.blind is not None and top is not None:
                reason = ngettext(
                    "a blind draw should leave about {count} point, {card} {take}",
                    "a blind draw should leave about {count} points, {card} {take}",
                    round(draw.blind),
                ).format(count=round(draw.blind), card=explain.the(top, wild), take=draw.after)
            return Decision(DrawFromStock(), explain.drew_from_stock(top, wild, reason))
        assert top is not None
        hand = list(view.hand)
        now = leftover(hand, wild)
        after = arrangement_with_discard([*hand, top], wild)
        return Decision(TakeDiscard(), explain.took_discard(top, wild, now, after))

    def choose_discard(self, view: PlayerView) -> Decision:
        choice = hard_discard(view)
        card, wild = choice.card, view.wild_rank
        if choice.out:
            rest = list(view.hand)
            rest.remove(card)
            best = arrangement(rest, wild)
            shown = Arrangement(wild, best.melds, best.leftover, card)
            return Decision(GoOut(card), explain.went_out(shown, wild))
        reason = _reason(list(view.hand), wild, choice)
        return Decision(Discard(card), explain.discarded(card, wild, reason))


class HardDraw(NamedTuple):
    """Hard's draw: ``take`` the top discard or not; ``after``: the fewest points left after
    taking it (``None`` with an empty pile); ``blind``: the expected points after a blind
    draw, when that is what decided against taking."""

    take: bool
    after: int | None = None
    blind: float | None = None


def hard_draw(view: PlayerView) -> HardDraw:
    """Whether hard takes the top discard, and why (the hint words the same figures)."""
    hand = list(view.hand)
    wild = view.wild_rank
    top = view.top_discard
    if top is None:
        return HardDraw(False)
    now = leftover(hand, wild)
    after = arrangement_with_discard([*hand, top], wild).leftover_points
    if is_wild(top, wild):
        return HardDraw(True, after)
    if after >= now:
        return HardDraw(False, after)
    if after == 0:
        return HardDraw(True, after)
    memory = read_memory(view)
    blind = blind_draw_value(hand, wild, memory.unseen)
    if after < blind:
        return HardDraw(True, after, blind)
    return HardDraw(False, after, blind)


class HardDiscard(NamedTuple):
    """Hard's discard after drawing: ``card``; ``out``: it goes out with it; ``why``: "plain"
    (it fits nothing), "fewest" (the rest leave the fewest points), "ways" (keeping ``other``
    gives more ways to make melds) or "feeds" (``other`` would help the next player)."""

    card: Card
    out: bool
    why: str = "plain"
    other: Card | None = None


def hard_discard(view: PlayerView) -> HardDiscard:
    """Hard's discard for ``view`` (the hint words the same choice, so it lives here once)."""
    hand = list(view.hand)
    wild = view.wild_rank
    memory = read_memory(view)
    allowed = allowed_discards(view)
    target = _next_player(view)
    outs = [card for card in going_out_discards(hand, wild) if card in allowed]
    if outs:
        card = min(outs, key=lambda c: (interest(c, wild, memory, target), -points(c, wild), c))
        return HardDiscard(card, True)
    return _discard_choice(hand, wild, allowed, memory, target)


def _next_player(view: PlayerView) -> int:
    """Who may take my discard next: the next last-turn player, or the player to my left."""
    if view.last_turns_left:
        return view.last_turns_left[0]
    return (view.player + 1) % len(view.players)


def choose_hard_discard(
    hand: list[Card], wild: Rank, allowed: list[Card], memory: Memory, target: int
) -> tuple[Card, str | None]:
    """The discard and its reason (``None``: the default "fits nothing and is worth N")."""
    choice = _discard_choice(hand, wild, allowed, memory, target)
    return choice.card, _reason(hand, wild, choice)


def _reason(hand: list[Card], wild: Rank, choice: HardDiscard) -> str | None:
    """Hard's own clause, in its own (first-person) words, for its explanation."""
    if choice.why == "feeds" and choice.other is not None:
        return _collects(choice.other, explain.the(choice.other, wild))
    if choice.why == "ways" and choice.other is not None:
        return _("keeping {card} gives more ways to make melds").format(
            card=explain.the(choice.other, wild)
        )
    if choice.why == "fewest":
        cost = _without(hand, choice.card, wild)
        return ngettext(
            "keeping the rest leaves {count} point, the fewest",
            "keeping the rest leaves {count} points, the fewest",
            cost,
        ).format(count=cost)
    return None


def _discard_choice(
    hand: list[Card], wild: Rank, allowed: list[Card], memory: Memory, target: int
) -> HardDiscard:
    natural = [card for card in allowed if not is_wild(card, wild)] or allowed
    costs = {card: _without(hand, card, wild) for card in natural}
    cheapest = min(costs.values())
    ranked = sorted(natural, key=lambda c: (costs[c], -points(c, wild), c))
    shortlist = [c for c in ranked if costs[c] <= cheapest + SLACK][:SHORTLIST]
    if len(shortlist) == 1:
        card = shortlist[0]
        return HardDiscard(card, False, _plain_kind(hand, card, wild, costs[card]))
    scores: dict[Card, float] = {}
    for card in shortlist:
        rest = list(hand)
        rest.remove(card)
        scores[card] = blind_draw_value(rest, wild, memory.unseen) + FEED_WEIGHT * interest(
            card, wild, memory, target
        )
    card = min(shortlist, key=lambda c: (scores[c], costs[c], c))
    greedy = ranked[0]
    if card == greedy:
        return HardDiscard(card, False, _plain_kind(hand, card, wild, costs[card]))
    if interest(greedy, wild, memory, target) > interest(card, wild, memory, target) + 0.25:
        return HardDiscard(card, False, "feeds", greedy)
    return HardDiscard(card, False, "ways", greedy)


def _collects(card: Card, name: str) -> str:
    if card.rank is None or card.suit is None:
        return _("{card} would help the next player, who collects wilds").format(card=name)
    return _("{card} would help the next player, who collects {rank} or {suit}").format(
        card=name, rank=card.rank.plural, suit=card.suit.word
    )


def _plain_kind(hand: list[Card], card: Card, wild: Rank, cost: int) -> str:
    return "plain" if cost == leftover(hand, wild) - points(card, wild) else "fewest"


def _without(hand: Sequence[Card], card: Card, wild: Rank) -> int:
    rest = list(hand)
    rest.remove(card)
    return leftover(rest, wild)


def _relevant(card: Card, naturals: Sequence[Card], wilds: int, wild: Rank) -> bool:
    """Could ``card`` join a meld with the hand's cards? (Otherwise it only swaps points.)"""
    if is_wild(card, wild):
        return True
    assert card.rank is not None
    reach = 2 + min(2, max(0, wilds - 1))
    for other in naturals:
        assert other.rank is not None
        if other.rank == card.rank:
            return True
        if other.suit == card.suit and abs(int(other.rank) - int(card.rank)) <= reach:
            return True
    return False


def blind_draw_value(hand: Sequence[Card], wild: Rank, unseen: Counter[Card]) -> float:
    """Expected best leftover after drawing a random unseen card and discarding the best card.

    Cards that cannot join a meld with the hand only swap points with its
    worst loose card, so they are valued without asking the solver.
    """
    total = sum(unseen.values())
    if total == 0:
        return float(leftover(hand, wild))
    base_arrangement = arrangement(hand, wild)
    base = base_arrangement.leftover_points
    loose = [points(card, wild) for card in base_arrangement.leftover]
    worst = max(loose, default=0)
    naturals = [card for card in hand if not is_wild(card, wild)]
    wilds = len(hand) - len(naturals)
    acc = 0.0
    for card, count in unseen.items():
        if count <= 0:
            continue
        if _relevant(card, naturals, wilds, wild):
            value = leftover_with_discard([*hand, card], wild)
        else:
            value = min(base, base - worst + points(card, wild))
        acc += count * value
    return acc / total


def interest(card: Card, wild: Rank, memory: Memory, seat: int) -> float:
    """How much ``seat`` seems to want ``card``, 0 to 1, from what it took and threw."""
    if is_wild(card, wild):
        return 1.0
    assert card.rank is not None
    score = 0.3
    for taken, count in memory.took[seat].items():
        if taken.rank is None or is_wild(taken, wild):
            continue
        if taken.rank == card.rank:
            score += 0.35 * count
        elif taken.suit == card.suit and abs(int(taken.rank) - int(card.rank)) <= 2:
            score += 0.25 * count
    for thrown, count in memory.threw[seat].items():
        if thrown.rank is None:
            continue
        if thrown.rank == card.rank:
            score -= 0.2 * count
        elif thrown.suit == card.suit and abs(int(thrown.rank) - int(card.rank)) <= 1:
            score -= 0.1 * count
    return min(1.0, max(0.0, score))
