"""Five Crowns Solitaire, rule by rule (RULES.md "Five Crowns Solitaire"), plus random games."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from fivecrowns.core.cards import JOKER, Card, Rank, new_deck, parse_card
from fivecrowns.core.errors import IllegalMoveError
from fivecrowns.core.melds.solver import least_leftover
from fivecrowns.core.solitaire.rules import (
    DEALT_CARDS,
    HAND_NUMBERS,
    CardDiscarded,
    CardPut,
    CardTurned,
    DiscardCard,
    GameLost,
    GameWon,
    HandClosed,
    Phase,
    PutCard,
    Solitaire,
)
from solitaire_support import all_closed_but, junk, melded, missing, open_hand


def test_rules_deal_eleven_hands_of_3_to_13_and_a_stock_of_28() -> None:
    game = Solitaire.deal(seed=4)
    assert [len(hand.cards) for hand in game.hands] == list(range(3, 14))
    assert [hand.wild_rank for hand in game.hands] == [Rank(n) for n in range(3, 14)]
    assert DEALT_CARDS == 88
    # the first card of the stock is turned at once
    assert game.turned is not None and game.stock_count == 116 - 88 - 1
    everything = [card for hand in game.hands for card in hand.cards]
    assert Counter([*everything, *game.stock, game.turned]) == Counter(new_deck())


def test_the_same_seed_deals_the_same_game() -> None:
    first, second = Solitaire.deal(seed=9), Solitaire.deal(seed=9)
    assert first.to_json() == second.to_json()
    assert Solitaire.deal(seed=10).to_json() != first.to_json()


def test_rules_put_the_turned_card_into_a_hand_then_discard_from_that_hand() -> None:
    game = Solitaire.from_hands(all_closed_but(5, 9), [missing(9), missing(5)])
    assert game.phase is Phase.PUT and game.turned == missing(9)
    events = game.apply(PutCard(5))
    assert events == (CardPut(5, missing(9)),)
    assert game.phase is Phase.DISCARD and len(game.hand(5).cards) == 6
    # a card from another hand cannot be discarded: cards never move between hands
    with pytest.raises(IllegalMoveError, match="The hand of 5 has no 10 of hearts"):
        game.apply(DiscardCard(parse_card("10h")))
    events = game.apply(DiscardCard(missing(9)))
    assert events[0] == CardDiscarded(5, missing(9))
    assert game.discards == [missing(9)]  # out of play
    assert not game.hand(5).is_closed and game.hand(5).cards == tuple(open_hand(5))


def test_rules_a_hand_that_can_go_out_after_the_discard_is_closed() -> None:
    game = Solitaire.from_hands(all_closed_but(7, 8), [missing(7), parse_card("Kd")])
    game.apply(PutCard(7))
    events = game.apply(DiscardCard(junk(7)))
    closed = [event for event in events if isinstance(event, HandClosed)]
    assert len(closed) == 1 and closed[0].hand == 7 and not closed[0].at_deal
    assert closed[0].arrangement.all_melded
    assert game.hand(7).is_closed and game.hand(7).leftover_points() == 0
    assert isinstance(events[-1], CardTurned) and game.phase is Phase.PUT


def test_rules_a_closed_hand_takes_no_more_cards() -> None:
    game = Solitaire.from_hands(all_closed_but(4), [parse_card("9d")])
    before = game.to_json()
    assert not game.can_put(PutCard(6))
    with pytest.raises(
        IllegalMoveError, match=re.escape("The hand of 6 is closed. Put the 9 of diamonds")
    ):
        game.apply(PutCard(6))
    assert game.to_json() == before


def test_edge_a_hand_dealt_fully_melded_is_closed_at_once() -> None:
    game = Solitaire.from_hands(all_closed_but(3), [missing(3)])
    dealt_closed = [event for event in game.events if isinstance(event, HandClosed)]
    assert [event.hand for event in dealt_closed] == [n for n in HAND_NUMBERS if n != 3]
    assert all(event.at_deal for event in dealt_closed)
    # the closing happens before the first card is turned
    assert isinstance(game.events[len(dealt_closed)], CardTurned)
    assert [hand.number for hand in game.open_hands] == [3]


def test_edge_every_hand_dealt_melded_wins_before_any_card_is_turned() -> None:
    game = Solitaire.from_hands({n: melded(n) for n in HAND_NUMBERS}, [parse_card("5d")])
    assert game.phase is Phase.WON and game.turned is None and game.events[-1] == GameWon(0)


def test_rules_closing_all_eleven_before_the_stock_runs_out_wins() -> None:
    stock = [missing(12), parse_card("Kd"), parse_card("3d")]
    game = Solitaire.from_hands(all_closed_but(12), stock)
    game.apply(PutCard(12))
    events = game.apply(DiscardCard(junk(12)))
    assert game.phase is Phase.WON and events[-1] == GameWon(1)
    assert game.stock_count == 2 and game.points_left() == 0
    with pytest.raises(IllegalMoveError, match="The game is over: you won"):
        game.apply(PutCard(12))


def test_edge_closing_the_last_hand_with_the_last_card_still_wins() -> None:
    game = Solitaire.from_hands(all_closed_but(6), [missing(6)])
    assert game.stock_count == 0  # the only card is turned
    game.apply(PutCard(6))
    game.apply(DiscardCard(junk(6)))
    assert game.phase is Phase.WON


def test_rules_the_stock_running_out_with_open_hands_loses_and_scores_points_left() -> None:
    game = Solitaire.from_hands(all_closed_but(4, 10), [parse_card("Kd"), missing(4)])
    game.apply(PutCard(10))
    game.apply(DiscardCard(parse_card("Kd")))
    game.apply(PutCard(4))
    events = game.apply(DiscardCard(junk(4)))
    assert game.hand(4).is_closed
    expected = least_leftover(open_hand(10), Rank.TEN)
    assert expected > 0
    assert game.phase is Phase.LOST and events[-1] == GameLost((10,), expected)
    assert game.points_left() == expected
    with pytest.raises(IllegalMoveError, match="the stock ran out"):
        game.apply(DiscardCard(junk(4)))


def test_the_turned_card_may_be_discarded_again() -> None:
    game = Solitaire.from_hands(all_closed_but(9, 11), [parse_card("Qd"), parse_card("5c")])
    before = game.hand(9).cards
    game.apply(PutCard(9))
    game.apply(DiscardCard(parse_card("Qd")))
    assert game.hand(9).cards == before and game.phase is Phase.PUT


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (DiscardCard(junk(9)), "Put the 9 of hearts into an open hand first."),
        (PutCard(2), "There is no hand of 2: hands are 3 to 13."),
        (PutCard(14), "There is no hand of 14: hands are 3 to 13."),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(move: PutCard | DiscardCard, reason: str) -> None:
    game = Solitaire.from_hands(all_closed_but(9), [parse_card("9h"), parse_card("3c")])
    before = game.to_json()
    assert not game.can(move)
    with pytest.raises(IllegalMoveError) as raised:
        game.apply(move)
    assert str(raised.value) == reason
    assert game.to_json() == before


def test_a_put_during_the_discard_names_the_hand_to_discard_from() -> None:
    game = Solitaire.from_hands(all_closed_but(9, 13), [parse_card("9h"), parse_card("3c")])
    game.apply(PutCard(13))
    with pytest.raises(
        IllegalMoveError, match=re.escape("Discard a card from the hand of 13 first.")
    ):
        game.apply(PutCard(9))


def test_legal_moves_list_the_open_hands_then_the_distinct_discards() -> None:
    game = Solitaire.from_hands(all_closed_but(3, 8), [JOKER, parse_card("3c")])
    assert game.legal_moves() == (PutCard(3), PutCard(8))
    game.apply(PutCard(3))
    assert set(game.legal_moves()) == {DiscardCard(card) for card in [*open_hand(3), JOKER]}


def _check_invariants(game: Solitaire, dealt: Counter[Card]) -> None:
    cards = [card for hand in game.hands for card in hand.cards]
    cards += [*game.stock, *game.discards]
    if game.turned is not None:
        cards.append(game.turned)
    assert Counter(cards) == dealt  # nothing appears or vanishes
    for hand in game.hands:
        extra = 1 if game.phase is Phase.DISCARD and game.target == hand.number else 0
        assert len(hand.cards) == hand.number + extra
        if hand.is_closed:
            assert least_leftover(hand.cards, hand.wild_rank) == 0
    assert (game.phase is Phase.PUT) == (game.turned is not None)
    assert game.turns == len(game.discards) + (1 if game.turned or game.target else 0)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_run_to_the_end_keeping_every_card(seed: int) -> None:
    rng = random.Random(seed)
    game = Solitaire.deal(seed=seed)
    dealt = Counter(new_deck())
    _check_invariants(game, dealt)
    while not game.phase.is_over:
        move = rng.choice(game.legal_moves())
        game.apply(move)
        _check_invariants(game, dealt)
    assert game.turns <= 28
    if game.phase is Phase.LOST:
        assert game.stock_count == 0 and game.open_hands
        assert isinstance(game.events[-1], GameLost)
        assert game.events[-1].points_left == game.points_left() > 0
    else:
        assert not game.open_hands
    assert game.legal_moves() == ()
