"""Rule clauses: one test per section of RULES.md, named after it."""

from __future__ import annotations

from collections import Counter

import pytest

from fivecrowns.core.cards import JOKER, Card, Rank, Suit, new_deck, parse_cards, points
from fivecrowns.core.errors import FiveCrownsError, IllegalMoveError, MeldError
from fivecrowns.core.game import Game, GameOptions, Phase
from fivecrowns.core.melds.solver import MeldKind, check_meld
from fivecrowns.core.moves import (
    Discard,
    Discarded,
    DrawFromStock,
    DrewFromStock,
    GoOut,
    LaidDown,
    LastTurnStarted,
    LayDown,
    RoundScored,
    RoundStarted,
    StockReshuffled,
    TakeDiscard,
    TookDiscard,
    TurnStarted,
    WentOut,
)
from gamehelpers import bot_move, card, check_invariants, events_of, stacked_game


def _play_out(game: Game) -> None:
    while not game.is_over:
        game.apply(game.current_player, bot_move(game))


def test_rules_the_deck_116_cards_with_duplicates_and_deck_options() -> None:
    game = Game(["Ann", "Ben"], seed=1)
    everything = game.all_cards()
    assert sum(everything.values()) == 116
    assert everything == Counter(new_deck(2))
    assert everything[JOKER] == 6
    assert all(everything[c] == 2 for c in everything if not c.is_joker)
    assert len({c.suit for c in everything if c.suit}) == 5
    assert len({c.rank for c in everything if c.rank}) == 11

    one = Game(["Ann", "Ben", "Cy"], seed=1, options=GameOptions(decks=1))
    assert sum(one.all_cards().values()) == 58
    with pytest.raises(FiveCrownsError, match="One deck is enough only for 2 or 3 players, not 4"):
        Game(["Ann", "Ben", "Cy", "Dee"], options=GameOptions(decks=1))
    big = Game([f"P{i}" for i in range(10)], seed=2, options=GameOptions(decks=3))
    assert sum(big.all_cards().values()) == 174

    # Two identical cards: discarding one leaves the other.
    game = stacked_game(["7h 7h 9c", "4d 5d Qc"], stock_top="Kst")
    game.apply(0, DrawFromStock())
    game.apply(0, Discard(card("7h")))
    assert game.hand(0).count(card("7h")) == 1
    assert game.top_discard == card("7h")


def test_rules_players_rounds_deal() -> None:
    for count in (1, 15):
        with pytest.raises(FiveCrownsError, match="A game needs 2 to 7 players"):
            Game([f"P{i}" for i in range(count)])
    with pytest.raises(FiveCrownsError, match="9 players need at least 3 decks"):
        Game([f"P{i}" for i in range(9)])

    # Dealt one at a time, starting left of the dealer; the next card is turned up.
    order = new_deck(2)
    game = Game(["Ann", "Ben", "Cy"], first_dealer=1, deck_orders=[order])
    assert game.hand(2) == (order[0], order[3], order[6])
    assert game.hand(0) == (order[1], order[4], order[7])
    assert game.hand(1) == (order[2], order[5], order[8])
    assert game.discard_pile == [order[9]]
    assert game.stock[-1] == order[10]  # the top of the stock
    assert len(game.stock) == 116 - 9 - 1
    assert game.current_player == 2  # play starts left of the dealer

    # The first dealer comes from the seed, and the same seed gives the same dealer.
    dealers = {Game(["Ann", "Ben", "Cy"], seed=seed).first_dealer for seed in range(20)}
    assert dealers == {0, 1, 2}
    assert Game(["A", "B", "C"], seed=5).first_dealer == Game(["A", "B", "C"], seed=5).first_dealer

    # Eleven rounds; r + 2 cards; that rank wild; the deal passes left.
    game = Game(["Ann", "Ben", "Cy"], seed=11, first_dealer=2)
    _play_out(game)
    starts = [e for e in game.events if isinstance(e, RoundStarted)]
    assert [e.round for e in starts] == list(range(1, 12))
    assert [e.hand_size for e in starts] == [r + 2 for r in range(1, 12)]
    assert [e.wild_rank for e in starts] == [Rank(r + 2) for r in range(1, 12)]
    assert starts[-1].wild_rank is Rank.KING
    assert [e.dealer for e in starts] == [(2 + r) % 3 for r in range(11)]
    assert [e.first_player for e in starts] == [(e.dealer + 1) % 3 for e in starts]
    assert len(game.round_scores) == 11


def test_rules_a_turn() -> None:
    game = stacked_game(["4h 9c Kd", "5c 6c 8d"], turned_up="Jst", stock_top="10sp Qd")
    assert game.phase is Phase.DRAW and game.current_player == 0
    events = game.apply(0, DrawFromStock())
    assert events == [DrewFromStock(0, card("10sp"))]
    assert game.phase is Phase.DISCARD
    events = game.apply(0, Discard(card("10sp")))
    assert events == [Discarded(0, card("10sp")), TurnStarted(1)]
    assert game.top_discard == card("10sp")
    # Only the top discard can be taken; the Jack of stars below it is out of reach.
    events = game.apply(1, TakeDiscard())
    assert events == [TookDiscard(1, card("10sp"))]
    assert game.top_discard == card("Jst")
    # Taking the top discard and discarding it again is legal.
    game.apply(1, Discard(card("10sp")))
    assert game.top_discard == card("10sp") and game.current_player == 0
    # Any card may be discarded, wilds included (3s are wild in round 1).
    game = stacked_game(["3h jk 9c", "5c 6c 8d"], stock_top="10sp")
    game.apply(0, DrawFromStock())
    game.apply(0, Discard(JOKER))
    assert game.top_discard == JOKER
    # The option that forbids discarding the card just taken.
    game = stacked_game(
        ["4h 9c Kd", "5c 6c 8d"], turned_up="Jst", options=GameOptions(forbid_return_discard=True)
    )
    game.apply(0, TakeDiscard())
    with pytest.raises(
        IllegalMoveError, match="You took the Jack of stars from the discard pile; discard another"
    ):
        game.apply(0, Discard(card("Jst")))
    assert Discard(card("Jst")) not in game.legal_moves(0)
    game.apply(0, Discard(card("Kd")))
    # Cards go on the table only when going out or in the last turns.
    with pytest.raises(IllegalMoveError, match="only in a last turn"):
        game.apply(1, LayDown())


def test_rules_melds_books_runs_and_wilds_when_going_out() -> None:
    def can_go_out(hand: str, drawn: str, discard: str) -> bool:
        game = stacked_game([hand, "4d 5d Qc"], stock_top=drawn)
        game.apply(0, DrawFromStock())
        return game.can_go_out(0, card(discard))

    assert can_go_out("8c 8c 8sp", "Kd", "Kd")  # a book may repeat a suit
    assert can_go_out("9sp 10sp Jsp", "Qsp", "Qsp")  # a run
    assert can_go_out("9sp 10sp Jsp", "Qsp", "9sp")  # 10, J, Q is a run too
    assert not can_go_out("Qd Kd 4d", "5h", "5h")  # runs do not wrap
    assert not can_go_out("7h 7h 8h", "Kc", "Kc")  # a run cannot hold two 7s
    assert not can_go_out("7h 8c 9h", "Kc", "Kc")  # a run is one suit
    assert can_go_out("jk 5h 7h", "Kc", "Kc")  # a wild stands for the 6
    assert can_go_out("jk jk 3c", "Kc", "Kc")  # all wilds (3s wild in round 1)
    assert can_go_out("jk 4h 3c", "Kc", "Kc")  # wilds side by side

    game = stacked_game(["8c 8c 8sp", "4d 5d Qc"], stock_top="Kd")
    game.apply(0, DrawFromStock())
    events = game.apply(0, GoOut(card("Kd")))
    went_out = events_of(events, WentOut)[0]
    assert isinstance(went_out, WentOut)
    assert [m.kind for m in went_out.melds] == [MeldKind.BOOK]
    # In a last turn a laid-down meld is checked by the same rules.
    game.apply(1, DrawFromStock())
    with pytest.raises(IllegalMoveError):
        game.apply(1, LayDown(((card("4d"), card("5d")),)))
    with pytest.raises(IllegalMoveError):
        game.apply(1, LayDown(((card("4d"), card("5d"), card("Qc")),)))


def test_rules_going_out() -> None:
    game = stacked_game(["5h 6h 7h", "4d 9d Qc"], stock_top="Kc")
    with pytest.raises(IllegalMoveError, match="You must draw before you go out"):
        game.apply(0, GoOut(card("Kc")))
    game.apply(0, DrawFromStock())
    assert GoOut(card("Kc")) in game.legal_moves(0)
    with pytest.raises(IllegalMoveError, match="You cannot go out discarding the 5 of hearts"):
        game.apply(0, GoOut(card("5h")))
    # Going out is never forced.
    assert game.can_discard(0, card("Kc"))
    before = game.hand(0)
    events = game.apply(0, GoOut(card("Kc")))
    went_out = events[0]
    assert isinstance(went_out, WentOut) and went_out.player == 0
    melded = [c for meld in went_out.melds for c in meld.cards]
    assert sorted([*melded, went_out.discard]) == sorted(before)
    assert game.hand(0) == () and game.went_out == 0
    assert game.top_discard == card("Kc")
    assert events[1] == LastTurnStarted(1)

    # The discard may be a card that would fit a meld.
    game = stacked_game(["5h 6h 7h", "4d 9d Qc"], stock_top="8h")
    game.apply(0, DrawFromStock())
    assert game.can_go_out(0, card("8h")) and game.can_go_out(0, card("5h"))
    assert not game.can_go_out(0, card("6h"))
    # Not going out: the game goes on.
    game.apply(0, Discard(card("8h")))
    assert game.went_out is None and game.current_player == 1 and game.phase is Phase.DRAW


def test_rules_the_last_turns() -> None:
    game = stacked_game(
        ["5h 6h 7h", "8c 8d 9sp", "Jst Qst 4d"], turned_up="10c", stock_top="Kc 8sp Kst"
    )
    game.apply(0, DrawFromStock())
    events = game.apply(0, GoOut(card("Kc")))
    assert events[-1] == LastTurnStarted(1) and game.phase is Phase.LAST_DRAW
    with pytest.raises(IllegalMoveError, match="Ann has already gone out"):
        game.apply(1, GoOut(card("9sp")))
    game.apply(1, DrawFromStock())  # the 8 of spades
    assert game.phase is Phase.LAST_LAY_DOWN
    with pytest.raises(IllegalMoveError, match="Ann has already gone out"):
        game.apply(1, GoOut(card("9sp")))
    not_a_meld = tuple(parse_cards("8c 8d 8sp 9sp"))
    with pytest.raises(MeldError) as reason:
        check_meld(not_a_meld, Rank.THREE)
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(1, LayDown((not_a_meld,)))
    assert str(refused.value) == str(reason.value)
    events = game.apply(1, LayDown())  # the offered (best) arrangement
    laid = events[0]
    assert isinstance(laid, LaidDown) and laid.leftover == (card("9sp"),)
    assert sorted(laid.melds[0].cards) == sorted(parse_cards("8c 8d 8sp"))
    with pytest.raises(IllegalMoveError, match="You have already laid down this turn"):
        game.apply(1, LayDown(()))
    events = game.apply(1, Discard(card("9sp")))
    assert events[-1] == LastTurnStarted(2)
    assert game.went_out == 0  # Ben melded everything but is not "out"
    game.apply(2, DrawFromStock())  # the King of stars
    game.apply(2, LayDown(()))  # Cy chooses to lay down nothing
    events = game.apply(2, Discard(card("4d")))
    scored = events_of(events, RoundScored)[0]
    assert isinstance(scored, RoundScored)
    assert scored.went_out == 0
    assert scored.scores == (0, 0, 11 + 12 + 13)
    assert game.round == 2 and game.dealer == 0 and game.current_player == 1

    # Four players, the third goes out: last turns go 3, 0, 1, each exactly once.
    game = stacked_game(
        ["4d 9d Qc", "4c 9c Jc", "5h 6h 7h", "4st 9st Kd"], dealer=1, stock_top="Kc"
    )
    assert game.current_player == 2
    game.apply(2, DrawFromStock())
    game.apply(2, GoOut(card("Kc")))
    order = []
    while game.round == 1:
        order.append(game.current_player)
        game.apply(game.current_player, DrawFromStock())
        game.apply(game.current_player, Discard(game.hand(game.current_player)[0]))
    assert order == [3, 0, 1]

    # A last turn must keep a card to discard.
    game = stacked_game(["5h 6h 7h", "8c 8d 8h"], stock_top="Kc 8sp")
    game.apply(0, DrawFromStock())
    game.apply(0, GoOut(card("Kc")))
    game.apply(1, DrawFromStock())
    with pytest.raises(IllegalMoveError, match="You must keep one card to discard"):
        game.apply(1, LayDown((tuple(parse_cards("8c 8d 8h 8sp")),)))
    assert len(game.hand(1)) == 4 and game.phase is Phase.LAST_LAY_DOWN


def test_rules_scoring() -> None:
    game = stacked_game(
        ["5h 6h 7h", "Kh 3c jk", "Jc Qd 9h"], turned_up="10c", stock_top="Kc 10h 4sp"
    )
    game.apply(0, DrawFromStock())
    game.apply(0, GoOut(card("Kc")))
    game.apply(1, DrawFromStock())
    game.apply(1, LayDown(()))
    game.apply(1, Discard(card("10h")))
    game.apply(2, DrawFromStock())
    events = game.apply(2, Discard(card("4sp")))  # lays down the best: nothing fits
    scored = events_of(events, RoundScored)[0]
    assert isinstance(scored, RoundScored)
    # King 13, a 3 (wild in round 1) 20, a joker 50; Jack 11, Queen 12, 9.
    assert scored.scores == (0, 13 + 20 + 50, 11 + 12 + 9)
    assert scored.totals == scored.scores
    assert scored.results[1].leftover == tuple(parse_cards("Kh 3c jk"))

    # Totals add up over the eleven rounds; the lowest total wins; ties share.
    game = Game(["Ann", "Ben", "Cy"], seed=4)
    _play_out(game)
    sums = [sum(column) for column in zip(*game.round_scores, strict=True)]
    assert sums == game.totals
    assert game.winners == tuple(s for s, t in enumerate(game.totals) if t == min(game.totals))
    game.totals = [40, 25, 25]
    assert game.winners == (1, 2)


def test_rules_stock_runs_out() -> None:
    game = Game(["Ann", "Ben"], seed=9)
    while game.stock:
        seat = game.current_player
        drawn = game.apply(seat, DrawFromStock())[0]
        assert isinstance(drawn, DrewFromStock) and drawn.card is not None
        game.apply(seat, Discard(drawn.card))
        check_invariants(game)
    top = game.top_discard
    buried = Counter(game.discard_pile[:-1])
    events = game.apply(game.current_player, DrawFromStock())
    assert events[0] == StockReshuffled(game.current_player, sum(buried.values()), 0)
    assert game.discard_pile == [top]
    drawn = events[1]
    assert isinstance(drawn, DrewFromStock) and drawn.card is not None
    assert Counter(game.stock) + Counter([drawn.card]) == buried
    check_invariants(game)
    # The reshuffle uses the game's seeded generator: the same game gives the same stock.
    again = Game(["Ann", "Ben"], seed=9)
    for player, move in game.moves:
        again.apply(player, move)
    assert again.stock == game.stock

    # Stock and discard pile cannot supply the draw: another shuffled deck is added.
    removed = Counter(game.stock) + Counter(game.discard_pile[:-1])
    game.stock.clear()
    del game.discard_pile[:-1]
    seat = game.current_player
    game.apply(seat, Discard(game.hand(seat)[0]))
    game.stock.clear()
    removed += Counter(game.discard_pile[:-1])
    del game.discard_pile[:-1]
    events = game.apply(game.current_player, DrawFromStock())
    assert events[0] == StockReshuffled(game.current_player, 58, 1)
    assert game.decks_in_play == 3
    assert game.all_cards() + removed == Counter(new_deck(3))


def test_rules_what_the_source_documents_disagree_on() -> None:
    # Rummy, not shedding: a turn draws and discards any card, matching the top discard or not.
    game = stacked_game(["4h 9c Kd", "5c 6c 8d"], turned_up="Jst", stock_top="10sp")
    game.apply(0, DrawFromStock())
    assert game.can_discard(0, card("4h"))  # neither a Jack nor a star
    game.apply(0, Discard(card("4h")))
    assert len(game.hand(0)) == 3  # nothing is refilled
    # Wilds are not at face value: the wild rank is 20 and a joker 50, in every round.
    for number in range(1, 12):
        wild = Rank(number + 2)
        assert points(Card(wild, Suit.HEARTS), wild) == 20
        assert points(JOKER, wild) == 50
    # A last-turn player lays down what they can, reaches 0, and is not the one who went out
    # (the full round is in test_rules_the_last_turns).
    game = stacked_game(["5h 6h 7h", "8c 8d 9sp"], stock_top="Kc 8sp")
    game.apply(0, DrawFromStock())
    game.apply(0, GoOut(card("Kc")))
    game.apply(1, DrawFromStock())
    with pytest.raises(IllegalMoveError, match="has already gone out"):
        game.apply(1, GoOut(card("9sp")))
    game.apply(1, LayDown())
    scored = events_of(game.apply(1, Discard(card("9sp"))), RoundScored)[0]
    assert isinstance(scored, RoundScored)
    assert scored.scores == (0, 0) and scored.went_out == 0
