"""Cards, the deck, notation and point values (RULES.md "The deck", "Scoring")."""

from __future__ import annotations

from collections import Counter

import pytest

from fivecrowns.core.cards import (
    JOKER,
    Card,
    Rank,
    Suit,
    card_from_code,
    format_cards,
    is_wild,
    new_deck,
    parse_card,
    parse_cards,
    points,
    spoken_name,
    wild_rank_for_round,
)
from fivecrowns.core.errors import CardParseError, FiveCrownsError


def test_rules_the_deck_has_116_cards_two_of_each_suited_card_and_six_jokers() -> None:
    deck = new_deck()
    assert len(deck) == 116
    counts = Counter(deck)
    assert counts[JOKER] == 6
    assert len(counts) == 56
    assert all(count == 2 for card, count in counts.items() if card != JOKER)
    assert {card.suit for card in deck if card.suit} == set(Suit)
    assert {card.rank for card in deck if card.rank} == set(Rank)


def test_rules_one_deck_option_has_58_cards() -> None:
    deck = new_deck(1)
    assert len(deck) == 58
    assert deck.count(JOKER) == 3
    assert len(new_deck(3)) == 174


def test_rules_wild_rank_equals_cards_dealt() -> None:
    assert [wild_rank_for_round(r) for r in range(1, 12)] == list(Rank)
    assert wild_rank_for_round(9) is Rank.JACK
    with pytest.raises(ValueError):
        wild_rank_for_round(12)


def test_rules_scoring_point_values() -> None:
    wild = Rank.FIVE
    assert points(parse_card("3h"), wild) == 3
    assert points(parse_card("10d"), wild) == 10
    assert points(parse_card("Jc"), wild) == 11
    assert points(parse_card("Qst"), wild) == 12
    assert points(parse_card("Ksp"), wild) == 13
    assert points(parse_card("5c"), wild) == 20
    assert points(JOKER, wild) == 50
    assert is_wild(JOKER, wild) and is_wild(parse_card("5h"), wild)
    assert not is_wild(parse_card("6h"), wild)


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("10H", "10h"),
        ("qsp", "Qsp"),
        ("JK", "jk"),
        ("7 of hearts", "7h"),
        ("Queen of Stars", "Qst"),
        ("seven of diamonds", "7d"),
        ("joker", "jk"),
        ("3st", "3st"),
        ("kc", "Kc"),
    ],
)
def test_notation_accepts_short_and_long_forms(text: str, token: str) -> None:
    assert parse_card(text).token == token


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("11h", "11 is not a rank"),
        ("7x", "x is not a suit"),
        ("7s", "st (stars) or sp (spades)"),
        ("", "empty"),
        ("q", "no suit"),
        ("13 of hearts", "13 is not a rank"),
        ("7 of cups", "cups is not a suit"),
        ("bad", "not in rank-then-suit form"),
        ("queen", "no suit"),
        ("hearts", "no rank"),
        ("2h", "2 is not a rank"),
    ],
)
def test_bad_token_names_the_token_and_lists_valid_forms(text: str, fragment: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_card(text)
    message = str(caught.value)
    assert f"'{text}'" in message
    assert fragment in message
    assert "ranks are 3 to 10, J, Q, K" in message
    assert isinstance(caught.value, FiveCrownsError)


def test_canonical_output_round_trips() -> None:
    cards = parse_cards("10H qsp JK, 7 of hearts")
    assert format_cards(cards) == "10h Qsp jk 7h"
    for code in range(56):
        card = card_from_code(code)
        assert parse_card(card.token) == card
        assert parse_card(card.spoken) == card
        assert card.code == code


def test_spoken_names() -> None:
    assert parse_card("7h").spoken == "7 of hearts"
    assert parse_card("Qst").spoken == "Queen of stars"
    assert JOKER.spoken == "joker"
    assert spoken_name(parse_card("5c"), Rank.FIVE) == "wild 5 of clubs"
    assert spoken_name(parse_card("5c"), Rank.SIX) == "5 of clubs"
    assert spoken_name(JOKER, Rank.FIVE) == "joker"


def test_cards_sort_by_rank_then_suit_with_jokers_last() -> None:
    cards = parse_cards("jk Kd 3sp 3st 10h")
    assert format_cards(sorted(cards)) == "3st 3sp 10h Kd jk"
    with pytest.raises(ValueError):
        Card(Rank.THREE, None)


def test_card_tokens_are_each_cards_token_in_order() -> None:
    from fivecrowns.core.cards import card_tokens, new_deck

    deck = new_deck(2)
    assert card_tokens(deck) == [card.token for card in deck]
    assert card_tokens(reversed(deck)) == [card.token for card in reversed(deck)]
    assert card_tokens(()) == []
