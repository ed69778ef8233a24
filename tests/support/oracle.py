"""A brute-force oracle for the solver, written from RULES.md and nothing else.

It does not import :mod:`fivecrowns.core.melds.solver`. It tries every partition of the
physical cards into melds and leftovers: the first card (naturals before
wilds) is either left over or in a meld with some subset of the other cards
that could share a meld with it (its rank, or its suit, or wild). There is no
limit on meld size and no lemma about wilds; the only shortcut is memoisation
on the sorted multiset of cards left, which does not change the answer.

Cards here are plain tuples ``(rank, suit)`` with ``rank`` 3..13 and ``suit``
0..4, and ``(0, 0)`` for a joker, so that the oracle shares no code with the
package beyond the test's conversion of tokens.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

OCard = tuple[int, int]
JOKER: OCard = (0, 0)


def wild(card: OCard, wild_rank: int) -> bool:
    return card[0] == 0 or card[0] == wild_rank


def penalty(card: OCard, wild_rank: int) -> int:
    if card[0] == 0:
        return 50
    if card[0] == wild_rank:
        return 20
    return card[0]


def valid_meld(cards: Sequence[OCard], wild_rank: int) -> bool:
    """RULES.md "Melds", read literally."""
    if len(cards) < 3:
        return False
    naturals = [card for card in cards if not wild(card, wild_rank)]
    if not naturals:
        return True  # "a meld may be made only of wilds"
    if len({rank for rank, _ in naturals}) == 1:
        return True  # a book: one rank, any suits, duplicates allowed
    if len({suit for _, suit in naturals}) != 1:
        return False
    ranks = [rank for rank, _ in naturals]
    if len(set(ranks)) != len(ranks):
        return False  # a run cannot contain two cards of the same rank
    # A run: some window of len(cards) consecutive ranks inside 3..King holds every natural.
    length = len(cards)
    return any(
        all(start <= rank < start + length for rank in ranks) for start in range(3, 14 - length + 1)
    )


def _submultisets(items: Sequence[OCard]) -> Iterable[tuple[OCard, ...]]:
    counts = sorted(Counter(items).items())
    ranges = [range(count + 1) for _, count in counts]
    for choice in itertools.product(*ranges):
        yield tuple(
            card for (card, _), taken in zip(counts, choice, strict=True) for _ in range(taken)
        )


def _remove(cards: tuple[OCard, ...], taken: Iterable[OCard]) -> tuple[OCard, ...]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def _key(card: OCard, wild_rank: int) -> tuple[int, OCard]:
    return (1 if wild(card, wild_rank) else 0, card)


@functools.cache
def _best(cards: tuple[OCard, ...], wild_rank: int) -> tuple[int, tuple[tuple[OCard, ...], ...]]:
    """(least leftover points, melds) for a multiset sorted naturals-first."""
    if not cards:
        return 0, ()
    first, rest = cards[0], cards[1:]
    sub_points, sub_melds = _best(rest, wild_rank)
    best_points, best_melds = penalty(first, wild_rank) + sub_points, sub_melds
    if wild(first, wild_rank):
        partners = list(rest)  # only wilds are left: any of them
    else:
        partners = [
            card
            for card in rest
            if wild(card, wild_rank) or card[0] == first[0] or card[1] == first[1]
        ]
    for group in _submultisets(partners):
        if len(group) < 2:
            continue
        meld = (first, *group)
        if not valid_meld(meld, wild_rank):
            continue
        points_after, melds_after = _best(_remove(rest, group), wild_rank)
        if points_after < best_points:
            best_points, best_melds = points_after, ((meld, *melds_after))
            if best_points == 0:
                break
    return best_points, best_melds


def least_leftover(cards: Iterable[OCard], wild_rank: int) -> int:
    ordered = tuple(sorted(cards, key=lambda card: _key(card, wild_rank)))
    return _best(ordered, wild_rank)[0]


def least_leftover_with_discard(cards: Iterable[OCard], wild_rank: int) -> int:
    """A hand after drawing: the best over every card that could be discarded."""
    hand = list(cards)
    return min(least_leftover(_remove(tuple(hand), [card]), wild_rank) for card in set(hand))


def going_out_discards(cards: Iterable[OCard], wild_rank: int) -> set[OCard]:
    hand = tuple(cards)
    return {card for card in set(hand) if least_leftover(_remove(hand, [card]), wild_rank) == 0}


def clear() -> None:
    _best.cache_clear()
