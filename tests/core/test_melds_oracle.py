"""The solver against the brute-force oracle (tests/support/oracle.py), on random and dense hands.

Hypothesis profiles (applied to these tests only, not loaded globally):
``oracle-ci`` when CI=true runs 1000 examples for each oracle property: best
arrangement, best with the discard, going-out discards, and single-meld
validation (3000 hands and 1000 card groups checked against the oracle), and
300 for the input-order property; ``oracle-dev`` otherwise runs 200 each and
100. The oracle knows nothing of the
solver's lemmas (melds of 3 to 5 cards, fewest wilds per meld, spare wilds
joining any meld, the discard folded into the search), so agreement here is
what proves them.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from fivecrowns.core.cards import ALL_SUITS, JOKER, Card, Rank
from fivecrowns.core.errors import MeldError
from fivecrowns.core.melds.solver import (
    Arrangement,
    best_arrangement,
    best_with_discard,
    check_meld,
    going_out_discards,
    is_meld,
    least_leftover,
)
from melds_support import hands

settings.register_profile(
    "oracle-ci",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "oracle-dev",
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
IN_CI = os.environ.get("CI") == "true"
PROFILE = settings.get_profile("oracle-ci" if IN_CI else "oracle-dev")
ORDER_PROFILE = settings(PROFILE, max_examples=300 if IN_CI else 100)


def to_oracle(card: Card) -> oracle.OCard:
    if card.rank is None or card.suit is None:
        return oracle.JOKER
    return (int(card.rank), card.suit.index)


def check_arrangement(found: Arrangement, hand: list[Card], wild_rank: Rank) -> None:
    """Shared invariants: real cards, valid melds by the oracle's own rule, honest points."""
    placed = [card for meld in found.melds for card in meld.cards] + list(found.leftover)
    if found.discard is not None:
        placed.append(found.discard)
    assert Counter(placed) == Counter(hand)
    for meld in found.melds:
        assert oracle.valid_meld([to_oracle(card) for card in meld.cards], int(wild_rank))
        assert check_meld(meld.cards, wild_rank) == meld
    assert found.leftover_points == sum(
        oracle.penalty(to_oracle(card), int(wild_rank)) for card in found.leftover
    )
    assert found.all_melded == (not found.leftover)
    assert set(found.describe()) <= SPEAKABLE


@PROFILE
@given(hands())
def test_best_arrangement_agrees_with_the_oracle(case: tuple[list[Card], Rank]) -> None:
    hand, wild_rank = case
    expected = oracle.least_leftover([to_oracle(card) for card in hand], int(wild_rank))
    found = best_arrangement(hand, wild_rank)
    check_arrangement(found, hand, wild_rank)
    assert found.discard is None
    assert found.leftover_points == expected
    assert least_leftover(hand, wild_rank) == expected
    oracle.clear()


@PROFILE
@given(hands())
def test_best_with_discard_agrees_with_the_oracle(case: tuple[list[Card], Rank]) -> None:
    hand, wild_rank = case
    expected = oracle.least_leftover_with_discard(
        [to_oracle(card) for card in hand], int(wild_rank)
    )
    found = best_with_discard(hand, wild_rank)
    check_arrangement(found, hand, wild_rank)
    assert found.discard is not None
    assert found.leftover_points == expected
    oracle.clear()


@PROFILE
@given(hands())
def test_going_out_discards_agree_with_the_oracle(case: tuple[list[Card], Rank]) -> None:
    hand, wild_rank = case
    expected = oracle.going_out_discards([to_oracle(card) for card in hand], int(wild_rank))
    found = going_out_discards(hand, wild_rank)
    assert {to_oracle(card) for card in found} == expected
    assert list(found) == sorted(set(found))
    assert (best_with_discard(hand, wild_rank).all_melded) == bool(found)
    oracle.clear()


@ORDER_PROFILE
@given(hands(), st.randoms(use_true_random=False), st.booleans())
def test_same_hand_in_any_order_gives_the_identical_arrangement(
    case: tuple[list[Card], Rank], rng: object, discard: bool
) -> None:
    hand, wild_rank = case
    shuffled = list(hand)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    solve = best_with_discard if discard else best_arrangement
    assert solve(shuffled, wild_rank) == solve(hand, wild_rank)
    assert solve(list(reversed(hand)), wild_rank).describe() == solve(hand, wild_rank).describe()


@st.composite
def small_groups(draw: st.DrawFn) -> tuple[list[Card], Rank]:
    """0 to 8 cards, mostly near one another so that books and runs are likely."""
    wild_rank = Rank(draw(st.integers(3, 13)))
    low = draw(st.integers(3, 13))
    ranks = st.integers(max(3, low - 2), min(13, low + 4)).map(Rank)
    suits = st.sampled_from(draw(st.permutations(ALL_SUITS))[: draw(st.integers(1, 3))])
    card = st.one_of(st.builds(Card, ranks, suits), st.just(JOKER))
    return draw(st.lists(card, max_size=8)), wild_rank


SPEAKABLE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,;:.")


@PROFILE
@given(small_groups())
def test_check_meld_agrees_with_the_oracle_rule(case: tuple[list[Card], Rank]) -> None:
    cards, wild_rank = case
    expected = oracle.valid_meld([to_oracle(card) for card in cards], int(wild_rank))
    assert is_meld(cards, wild_rank) == expected
    if expected:
        meld = check_meld(cards, wild_rank)
        assert Counter(meld.cards) == Counter(cards)
        assert check_meld(meld.cards, wild_rank) == meld
        assert set(meld.describe(wild_rank)) <= SPEAKABLE
    else:
        with pytest.raises(MeldError) as raised:
            check_meld(cards, wild_rank)
        reason = str(raised.value)
        assert reason[0].isupper() and reason.endswith(".")
        assert set(reason) <= SPEAKABLE
