"""Words for what happened (words/announce.py): cards, lists and events as sentences."""

from __future__ import annotations

from fivecrowns.core.cards import Rank, parse_cards
from fivecrowns.words.announce import card_list


def test_a_joker_is_just_a_joker_when_no_rank_is_wild() -> None:
    cards = parse_cards("jk 5c")
    assert card_list(cards, None) == "joker and 5 of clubs"
    assert card_list(cards, Rank.FIVE) == "joker and wild 5 of clubs"
