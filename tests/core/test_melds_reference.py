"""The fast solver against the solver it replaced (:mod:`fivecrowns.core.melds.reference`).

Same hands, same answers: the identical arrangement (melds, the wilds in them,
leftover, discard, all in the same order) and the same numbers, on random and
dense hands of 1 to 15 cards with up to 8 wilds, through both of the fast solver's searches
(the compiled one, when this install built it, and the pure-Python one). The reference
itself is checked against the brute-force oracle in ``test_melds_oracle.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from fivecrowns.core.cards import JOKER, Card, Rank, Suit, parse_cards
from fivecrowns.core.melds import reference as melds_reference
from fivecrowns.core.melds import solver as melds
from melds_support import IN_CI, assert_same, dealt, dense, hands, require_compiled

PROFILE = settings(
    max_examples=1500 if IN_CI else 300,
    deadline=None,
    # why function_scoped_fixture: the fixture picks the search once for every example
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)


@pytest.fixture(params=["compiled", "python"])
def search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each comparison runs through the compiled search and through the pure-Python one."""
    if request.param == "python":
        monkeypatch.setattr(melds, "_C", None)
    else:
        require_compiled()
    return str(request.param)


def python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """For the tests of the pure-Python search's own tables."""
    monkeypatch.setattr(melds, "_C", None)


@PROFILE
@given(hands(min_size=1, max_size=15))
def test_fast_solver_gives_the_reference_answer(search: str, case: tuple[list[Card], Rank]) -> None:
    assert_same(*case)


def test_fast_solver_agrees_on_dealt_hands_of_every_size(search: str) -> None:
    rng = random.Random(15)
    for _ in range(150 if IN_CI else 40):
        for size in range(3, 15):
            assert_same(*dealt(rng, size))


def test_a_bounded_memo_that_is_cleared_mid_game_changes_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    python_search(monkeypatch)
    monkeypatch.setattr(melds, "_MEMO_LIMIT", 50)
    rng = random.Random(7)
    for _ in range(60):
        assert_same(*dealt(rng, rng.randint(3, 14)))
    assert len(melds._MEMO) < 50 + 2000  # cleared whenever a call starts above the limit
    melds.clear_caches()
    assert not melds._MEMO and not melds._OPTIONS


def test_the_worst_hand_of_issue_15_and_hands_outside_the_fast_form(search: str) -> None:
    worst = parse_cards("3h 6c 7st 7st 7h 7h 7c 7c 7sp 7sp 7d 7d 10c Ksp")
    melds.clear_caches()
    assert_same(worst, Rank.THREE)
    assert melds.best_with_discard(worst, Rank.THREE).leftover_points == 10
    # Four of one card (three decks or more) and 32 wilds: the reference solver answers.
    four = [*parse_cards("7h 7h 7h 7h"), JOKER]
    assert_same(four, Rank.KING)
    assert melds.least_leftover(four, Rank.KING) == 0
    many_wilds = [JOKER] * 32 + parse_cards("3h 5c")
    assert_same(many_wilds, Rank.KING)


def test_states_met_through_a_swapped_twin_rebuild_the_reference_arrangement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The memo holds each state's choice, except for a state whose value came from its
    twin under swapped suits: there the arrangement is found by searching again. Hands
    share the memo here (as in a game), so that path is taken, and must agree too."""
    python_search(monkeypatch)
    searched = []
    search_pick = melds._search_pick

    def counting(*args: int) -> tuple[int, tuple[melds._Option, ...]]:
        searched.append(args)
        return search_pick(*args)

    monkeypatch.setattr(melds, "_search_pick", counting)
    melds.clear_caches()
    rng = random.Random(41)
    for _ in range(400 if IN_CI else 150):
        assert_same(*dense(rng))
    assert searched  # the path this test is for was taken


def test_states_the_memo_keys_alike_have_equal_values_in_the_reference() -> None:
    """The fast solver's memo gives one key to states that differ only where the value cannot
    depend on it: "any meld made" when no wild is left or when 3 wilds would be spare even
    after a discard, and how many wilds are of the wild rank (rather than jokers) once a
    meld is made or in that second case. The reference search, which keys every
    state apart, must give such states the same value: checked here on every state it visits
    for random hands with many wilds and jokers."""
    rng = random.Random(23)
    checked = {"no wild left": 0, "meld made": 0, "3 spare": 0, "kinds matter before a meld": 0}
    for _ in range(120 if IN_CI else 40):
        hand, wild_rank = dealt(rng, rng.randint(3, 12))
        hand += [JOKER] * rng.randint(0, 2)
        hand += [Card(wild_rank, rng.choice(list(Suit))) for _ in range(rng.randint(0, 2))]
        counts, wilds = melds_reference._split(hand, wild_rank)
        jokers = sum(1 for card in wilds if card.is_joker)
        cheap = len(wilds) - jokers
        search = melds_reference._Search(counts, cheap, jokers)
        swapped = melds_reference._Search(counts, jokers, cheap)  # as many wilds, other kinds
        for owed in (0, 1):
            search.value(search.start, search.wilds, owed, 0)
        for key in list(search.memo):
            melded, owed, rest = key & 1, (key >> 1) & 1, key >> 2
            x, left = divmod(rest, search.wilds + 1)
            value = search.value(x, left, owed, melded)
            if left == 0:
                assert value == search.value(x, 0, owed, 1 - melded)
                checked["no wild left"] += 1
            if melded:
                assert value == swapped.value(x, left, owed, 1)
                checked["meld made"] += 1
            elif left - owed >= 3:
                assert value == search.value(x, left, owed, 1) == swapped.value(x, left, owed, 0)
                checked["3 spare"] += 1
            elif value != swapped.value(x, left, owed, 0):
                checked["kinds matter before a meld"] += 1  # so the key keeps them there
    assert min(checked["no wild left"], checked["meld made"], checked["3 spare"]) > 100, checked
    assert checked["kinds matter before a meld"], checked
