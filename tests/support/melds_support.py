"""The meld tests' helpers: hands to search (Hypothesis strategies, dealt and dense hands), the
compiled search required or skipped, and the check that two searches answer the same.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import strategies as st

from fivecrowns.core.cards import ALL_SUITS, JOKER, Card, Rank, new_deck
from fivecrowns.core.melds import reference as melds_reference
from fivecrowns.core.melds import solver as melds


@st.composite
def hands(draw: st.DrawFn, min_size: int = 3, max_size: int = 14) -> tuple[list[Card], Rank]:
    """A hand from the two-deck game (at most 2 of a card, 6 jokers), often dense."""
    wild_rank = Rank(draw(st.integers(3, 13)))
    size = draw(st.integers(min_size, max_size))
    wild_count = draw(st.integers(0, min(8, size)))
    if draw(st.booleans()):
        # Dense: a few neighbouring ranks in one or two suits: runs, duplicates and books pile up.
        low = draw(st.integers(3, 11))
        ranks = range(low, min(13, low + draw(st.integers(2, 5))) + 1)
        suits = draw(st.lists(st.sampled_from(ALL_SUITS), min_size=1, max_size=2, unique=True))
    else:
        ranks = range(3, 14)
        suits = list(ALL_SUITS)
    natural_pool = [
        Card(Rank(rank), suit) for rank in ranks if rank != wild_rank for suit in suits
    ] * 2
    wild_pool = [JOKER] * 6 + [Card(wild_rank, suit) for suit in ALL_SUITS] * 2
    natural_count = min(size - wild_count, len(natural_pool))
    picks = st.lists(
        st.integers(0, len(natural_pool) - 1),
        min_size=natural_count,
        max_size=natural_count,
        unique=True,
    )
    naturals = [natural_pool[index] for index in draw(picks)]
    wild_picks = st.lists(
        st.integers(0, len(wild_pool) - 1),
        min_size=size - natural_count,
        max_size=size - natural_count,
        unique=True,
    )
    wilds = [wild_pool[index] for index in draw(wild_picks)]
    return naturals + wilds, wild_rank


def require_compiled() -> None:
    """The compiled search must be there in CI (scripts/setup builds it); elsewhere a test of
    it skips with the reason when this install could not build it."""
    if melds._C is None:
        if IN_CI:
            pytest.fail("the compiled search (fivecrowns.core.melds._melds_c) was not built")
        pytest.skip("the compiled search was not built here (no C compiler at install)")


def assert_same(hand: list[Card], wild_rank: Rank) -> None:
    assert melds.best_arrangement(hand, wild_rank) == melds_reference.best_arrangement(
        hand, wild_rank
    )
    assert melds.least_leftover(hand, wild_rank) == melds_reference.least_leftover(hand, wild_rank)
    assert melds.going_out_discards(hand, wild_rank) == melds_reference.going_out_discards(
        hand, wild_rank
    )
    if hand:
        assert melds.best_with_discard(hand, wild_rank) == melds_reference.best_with_discard(
            hand, wild_rank
        )
        assert melds.least_leftover_with_discard(
            hand, wild_rank
        ) == melds_reference.least_leftover_with_discard(hand, wild_rank)


def dealt(rng: random.Random, size: int) -> tuple[list[Card], Rank]:
    """A hand dealt from the shuffled 116-card deck, as in play."""
    deck = new_deck(2)
    rng.shuffle(deck)
    return deck[:size], Rank(rng.randint(3, 13))


def dense(rng: random.Random) -> tuple[list[Card], Rank]:
    """Many cards of few ranks in few suits, with a few wilds: the symmetric states."""
    wild_rank = Rank(rng.randint(3, 13))
    ranks = rng.sample([rank for rank in range(3, 14) if rank != wild_rank], rng.randint(1, 3))
    suits = rng.sample(range(5), rng.randint(2, 5))
    pool = [
        card
        for card in new_deck(2)
        if card.rank is not None
        and int(card.rank) in ranks
        and card.suit is not None
        and card.suit.index in suits
    ]
    hand = rng.sample(pool, min(len(pool), rng.randint(6, 13)))
    hand += [JOKER] * rng.randint(0, 2)
    return hand, wild_rank


IN_CI = os.environ.get("CI") == "true"
