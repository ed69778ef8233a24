"""The easy level: legal and plausible, with a beginner's mistakes.

It plays like the medium level most of the time, but it sometimes misses a
useful discard on the pile, sometimes throws away a low card and keeps a high
one that does not help, now and then takes a card just because it looks
close to its others, and sometimes misses a chance to go out. Its randomness is
seeded from the bot's seed and the view, so the same game replays the same way
and two views that look the same to it get the same answer.
"""

from __future__ import annotations

import random

from fivecrowns.ai import explain
from fivecrowns.ai.base import Bot, Decision, allowed_discards
from fivecrowns.ai.evaluate import arrangement, arrangement_with_discard, leftover
from fivecrowns.ai.medium import discard_reason, greedy_discard
from fivecrowns.core.cards import Card, Rank, is_wild, points
from fivecrowns.core.melds.solver import Arrangement, going_out_discards
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, TakeDiscard
from fivecrowns.core.views import PlayerView
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = ["EasyBot"]

# How often each beginner's slip happens (chosen so that a beginner can win).
TAKE_WILD = 0.85
TAKE_MELD = 0.5  # takes a discard that completes a meld only this often
TAKE_LOWER = 0.25  # takes a discard that only swaps a high card for a low one
TAKE_CLOSE = 0.12  # takes a card that merely looks close to its others
KEEP_HIGH = 0.5  # throws its lowest loose card instead of its highest
RANDOM_DISCARD = 0.08  # throws any card that is not wild
SEE_GOING_OUT = 0.8


class EasyBot(Bot):
    """A beginner: reasonable moves, with seeded human-like mistakes."""

    name = "easy"

    def _rng(self, view: PlayerView) -> random.Random:
        # why: a string seed is hashed with SHA-512, stable across processes (unlike hash()).
        key = (
            f"easy:{self.seed}:{view.round}:{view.phase.value}:{len(view.events)}:"
            f"{' '.join(card.token for card in sorted(view.hand))}"
        )
        return random.Random(key)

    def choose_draw(self, view: PlayerView) -> Decision:
        rng = self._rng(view)
        hand = list(view.hand)
        wild = view.wild_rank
        top = view.top_discard
        if top is None:
            return Decision(DrawFromStock(), explain.drew_from_stock(top, wild))
        now = leftover(hand, wild)
        after = arrangement_with_discard([*hand, top], wild)
        helps = after.leftover_points < now
        melded = explain.completes_meld(top, after) is not None
        if is_wild(top, wild):
            chance = TAKE_WILD
        elif helps and melded:
            chance = TAKE_MELD
        elif helps:
            chance = TAKE_LOWER
        else:
            chance = TAKE_CLOSE if _looks_close(top, hand) else 0.0
        if rng.random() < chance:
            if helps or is_wild(top, wild):
                return Decision(TakeDiscard(), explain.took_discard(top, wild, now, after))
            return Decision(
                TakeDiscard(),
                _("Took {card}: it looks close to my other cards.").format(
                    card=explain.the(top, wild)
                ),
            )
        if helps:
            return Decision(
                DrawFromStock(),
                explain.drew_from_stock(top, wild, _("I hope for something better")),
            )
        return Decision(DrawFromStock(), explain.drew_from_stock(top, wild))

    def choose_discard(self, view: PlayerView) -> Decision:
        rng = self._rng(view)
        hand = list(view.hand)
        wild = view.wild_rank
        allowed = allowed_discards(view)
        outs = [card for card in going_out_discards(hand, wild) if card in allowed]
        if outs and rng.random() < SEE_GOING_OUT:
            card = max(outs, key=lambda c: (points(c, wild), c))
            rest = list(hand)
            rest.remove(card)
            best = arrangement(rest, wild)
            shown = Arrangement(wild, best.melds, best.leftover, card)
            return Decision(GoOut(card), explain.went_out(shown, wild))
        roll = rng.random()
        natural = [card for card in allowed if not is_wild(card, wild)]
        if natural and roll < RANDOM_DISCARD:
            card = rng.choice(natural)
            return Decision(
                Discard(card), explain.discarded(card, wild, _("I do not think I need it"))
            )
        loose = _loose_cards(hand, wild, allowed)
        if len(loose) > 1 and roll < RANDOM_DISCARD + KEEP_HIGH:
            card = min(loose, key=lambda c: (points(c, wild), c))
            return Decision(
                Discard(card),
                explain.discarded(
                    card,
                    wild,
                    ngettext(
                        "it fits nothing; it is only worth {count}",
                        "it fits nothing; it is only worth {count}",
                        points(card, wild),
                    ).format(count=points(card, wild)),
                ),
            )
        card = greedy_discard(view)
        return Decision(Discard(card), discard_reason(hand, card, wild))


def _looks_close(card: Card, hand: list[Card]) -> bool:
    """Same rank as a held card, or same suit within two ranks."""
    if card.rank is None:
        return True
    for other in hand:
        if other.rank is None:
            continue
        if other.rank == card.rank:
            return True
        if other.suit == card.suit and abs(int(other.rank) - int(card.rank)) <= 2:
            return True
    return False


def _loose_cards(hand: list[Card], wild: Rank, allowed: list[Card]) -> list[Card]:
    """Allowed natural cards left over in the best arrangement of the hand after a discard."""
    best: Arrangement = arrangement_with_discard(hand, wild)
    leftovers = [*best.leftover, *([best.discard] if best.discard is not None else [])]
    return sorted({card for card in leftovers if card in allowed and not is_wild(card, wild)})
