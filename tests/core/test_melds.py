"""Meld validation and the solver: rule clauses from RULES.md and worked examples."""

from __future__ import annotations

import pytest

import oracle
from fivecrowns.core.cards import Card, Rank, parse_cards
from fivecrowns.core.errors import FiveCrownsError, MeldError
from fivecrowns.core.melds.solver import (
    Arrangement,
    MeldKind,
    best_arrangement,
    best_with_discard,
    check_meld,
    going_out_discards,
    is_meld,
    least_leftover,
)

KINGS = Rank.KING
TENS = Rank.TEN


def tokens(text: str) -> list[str]:
    return [card.token for card in parse_cards(text)]


# --- RULES.md "Melds" ----------------------------------------------------------


def test_rules_melds_book_is_three_or_more_of_one_rank_any_suits_duplicates_allowed() -> None:
    assert check_meld(parse_cards("8c 8c 8sp"), KINGS).kind is MeldKind.BOOK
    assert is_meld(parse_cards("8st 8h 8c 8sp 8d 8d"), KINGS)
    assert not is_meld(parse_cards("8c 8sp"), KINGS)


def test_rules_melds_run_is_three_or_more_of_one_suit_in_order() -> None:
    meld = check_meld(parse_cards("Qsp 9sp Jsp 10sp"), KINGS)
    assert meld.kind is MeldKind.RUN
    assert [card.token for card in meld.cards] == tokens("9sp 10sp Jsp Qsp")
    assert not is_meld(parse_cards("9sp 10sp Jh"), KINGS)
    assert not is_meld(parse_cards("9sp 10sp Qsp"), KINGS)


def test_rules_melds_runs_do_not_wrap() -> None:
    assert not is_meld(parse_cards("Qh Kh 3h"), TENS)
    assert not is_meld(parse_cards("Kh 3h 4h"), TENS)
    assert is_meld(parse_cards("Jh Qh Kh"), TENS)


def test_rules_melds_a_run_cannot_hold_two_cards_of_one_rank() -> None:
    with pytest.raises(MeldError, match=r"^A run cannot hold two 7s\.$"):
        check_meld(parse_cards("6h 7h 7h 8h"), KINGS)
    assert issubclass(MeldError, FiveCrownsError)


def test_rules_melds_wilds_stand_for_any_card_side_by_side_and_all_wild() -> None:
    # Kings wild: jokers and Kings fill any places, several side by side.
    assert is_meld(parse_cards("5h jk jk 8h"), KINGS)
    assert is_meld(parse_cards("5h Kc Ksp"), KINGS)
    assert is_meld(parse_cards("jk Kd jk"), KINGS)
    assert is_meld(parse_cards("3d jk jk jk jk"), KINGS)
    # Wilds cannot stretch a run past King or below 3.
    assert not is_meld(parse_cards("Qh jk Jh 3h"), TENS)


def test_rules_melds_a_card_of_the_wild_rank_may_stand_as_itself() -> None:
    # Round 5: 7s are wild; the 7 of hearts is the 7 in 6-7-8 of hearts.
    meld = check_meld(parse_cards("6h 7h 8h"), Rank.SEVEN)
    assert meld.describe(Rank.SEVEN) == "a run of 6, 7, 8 of hearts"


def test_check_meld_reasons_are_spoken_sentences() -> None:
    with pytest.raises(MeldError, match="at least 3 cards; this has 2"):
        check_meld(parse_cards("8c 8sp"), KINGS)
    with pytest.raises(MeldError, match="neither a book nor a run"):
        check_meld(parse_cards("8c 9sp 10sp"), KINGS)
    with pytest.raises(MeldError, match="5 to 9 needs 5 cards, and there are only 4"):
        check_meld(parse_cards("5h 6h jk 9h"), KINGS)


def test_describe_names_what_each_wild_stands_for() -> None:
    assert (
        check_meld(parse_cards("5h jk 7h"), KINGS).describe(KINGS)
        == "a run of 5, 6, 7 of hearts using a joker for the 6"
    )
    assert (
        check_meld(parse_cards("Qd jk Kd"), TENS).describe(TENS)
        == "a run of Jack, Queen, King of diamonds using a joker for the Jack"
    )
    assert check_meld(parse_cards("8c 8c jk"), KINGS).describe(KINGS) == (
        "a book of 8s using a joker"
    )
    assert check_meld(parse_cards("jk Kd jk"), KINGS).describe(KINGS) == (
        "a meld of 3 wilds: the King of diamonds and 2 jokers"
    )


# --- the solver -----------------------------------------------------------------


def test_best_arrangement_speaks_melds_and_leftover() -> None:
    found = best_arrangement(parse_cards("8c 8c 8sp 5h jk 7h Kd"), TENS)
    assert found.leftover_points == 13
    assert found.describe() == (
        "a run of 5, 6, 7 of hearts using a joker for the 6; a book of 8s; "
        "left over: King of diamonds, 13 points"
    )
    assert not found.all_melded


def test_rules_going_out_mandatory_discard_is_not_counted_and_is_not_free() -> None:
    hand = parse_cards("3st 4st 5st")
    assert least_leftover(hand, KINGS) == 0
    found = best_with_discard(hand, KINGS)
    assert found.leftover_points == 7
    assert found.discard is not None and found.discard.token == "5st"
    assert going_out_discards(hand, KINGS) == ()


def test_rules_going_out_all_but_one_card_melded() -> None:
    hand = parse_cards("3st 4st 5st 6st Qd")
    found = best_with_discard(hand, KINGS)
    assert found.all_melded
    assert found.discard is not None and found.discard.token == "Qd"
    assert [card.token for card in going_out_discards(hand, KINGS)] == ["Qd"]
    assert [card.token for card in going_out_discards(parse_cards("3st 4st 5st 6st"), KINGS)] == [
        "3st",
        "6st",
    ]


def test_rules_scoring_leftover_points_of_wilds_and_jokers() -> None:
    assert least_leftover(parse_cards("jk"), KINGS) == 50
    assert least_leftover(parse_cards("Kh"), KINGS) == 20
    assert least_leftover(parse_cards("Jh Qd"), KINGS) == 23
    # Two wilds and a natural always meld.
    assert least_leftover(parse_cards("jk Kh 9c"), KINGS) == 0


def test_unused_wilds_cost_only_when_no_meld_exists() -> None:
    # One meld plus one spare wild: the wild joins the meld.
    assert least_leftover(parse_cards("3st 4st 5st jk"), KINGS) == 0
    # After drawing: the two wilds meld with the 9, the Queen is discarded, the 4 is left.
    found = best_with_discard(parse_cards("jk Kh 4h 9c Qd"), KINGS)
    assert found.leftover_points == 4
    assert found.discard is not None and found.discard.token == "Qd"
    found = best_with_discard(parse_cards("jk Kh"), KINGS)
    assert found.discard is not None and found.discard.is_joker
    assert found.leftover_points == 20


def test_arrangement_to_json_has_the_solve_keys() -> None:
    found = best_with_discard(parse_cards("3st 4st 5st 6st Qd"), KINGS)
    assert isinstance(found, Arrangement)
    assert found.to_json() == {
        "cards": tokens("3st 4st 5st 6st Qd"),
        "wild": "K",
        "leftover_points": 0,
        "melds": [tokens("3st 4st 5st 6st")],
        "leftover": [],
        "discard": "Qd",
        "can_go_out": True,
    }


def test_same_hand_in_any_order_gives_the_same_arrangement() -> None:
    hand = parse_cards("8c 8c 8sp 5h jk 7h Kd 9c 10c Jc Kh 3d 3d")
    expected = best_with_discard(hand, KINGS)
    for shift in range(len(hand)):
        turned = hand[shift:] + hand[:shift]
        assert best_with_discard(turned, KINGS) == expected
        assert best_with_discard(list(reversed(turned)), KINGS) == expected


# --- the solver's lemmas, on the hands most likely to break them -------------------

EDGE_HANDS = [
    # A run of 11 (no room to grow) plus spare wilds: the spares must still find a meld.
    ("3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh jk", Rank.JACK),
    ("3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh jk jk", Rank.JACK),
    # Long books and long runs, which the solver splits into melds of 3 to 5.
    ("8st 8st 8h 8h 8c 8c 8sp 8sp 8d 8d jk", KINGS),
    ("3c 4c 5c 6c 7c 8c 9c 10c", KINGS),
    ("3c 4c 5c 6c 7c 8c 9c 10c Jc 3c 4c 5c 6c", KINGS),
    # Only wilds, few and many.
    ("jk Kh", KINGS),
    ("jk jk jk jk jk jk Kh Kh", KINGS),
    # Wild rank standing as itself, and duplicates of it.
    ("6h 7h 7h 8h 9c", Rank.SEVEN),
    # Runs near the ends: wilds may not go past King or below 3.
    ("Qd Kd jk 3d 4d", TENS),
    ("3sp jk 4sp Jc Qc", TENS),
    # Many duplicates: two decks.
    ("5st 5st 6st 6st 7st 7st 5h 5h 6h 6h 7h 7h 9d 9d", KINGS),
]


def plain(cards: list[Card] | tuple[Card, ...]) -> list[tuple[int, int]]:
    """The oracle's own card form: (rank, suit index), (0, 0) for a joker."""
    return [
        (0, 0) if c.rank is None or c.suit is None else (int(c.rank), c.suit.index) for c in cards
    ]


@pytest.mark.parametrize(("text", "wild_rank"), EDGE_HANDS)
def test_solver_agrees_with_the_oracle_on_edge_hands(text: str, wild_rank: Rank) -> None:
    hand = parse_cards(text)
    wild = int(wild_rank)
    for found, expected in (
        (best_arrangement(hand, wild_rank), oracle.least_leftover(plain(hand), wild)),
        (best_with_discard(hand, wild_rank), oracle.least_leftover_with_discard(plain(hand), wild)),
    ):
        assert found.leftover_points == expected, found.describe()
        assert sorted(found.cards) == sorted(hand)
        assert all(oracle.valid_meld(plain(meld.cards), wild) for meld in found.melds)
    oracle.clear()


def test_rules_the_deck_identical_cards_are_never_assumed_unique() -> None:
    hand = parse_cards("8c 8c 8c 8h 9c 10c")
    found = best_arrangement(hand, KINGS)
    assert found.leftover_points == 0
    assert sorted(found.cards) == sorted(hand)


def test_rules_scoring_spare_wilds_cost_their_points_only_without_any_meld() -> None:
    assert least_leftover(parse_cards("jk Kh"), KINGS) == 70
    found = best_with_discard(parse_cards("jk Kh"), KINGS)
    assert found.discard is not None and found.discard.is_joker
    assert [card.token for card in found.leftover] == ["Kh"]
    assert least_leftover(parse_cards("jk jk jk jk jk jk Kh Kh"), KINGS) == 0
