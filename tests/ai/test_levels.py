"""The three levels: what each promises, checked on chosen hands and whole games."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai_support import step, table, whole_game
from fivecrowns.ai import load_bot
from fivecrowns.ai.hard import blind_draw_value, interest
from fivecrowns.ai.memory import Memory, read_memory
from fivecrowns.core.cards import Card, Rank, card_from_code, is_wild, parse_card, parse_cards
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import best_with_discard
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, TakeDiscard
from fivecrowns.core.views import player_view


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "simple"])
def test_every_level_plays_whole_games_to_the_end(level: str) -> None:
    game, log = whole_game([level, "medium", "easy"], seed=4)
    assert game.is_over and len(game.round_scores) == 11
    assert sum(1 for seat, _ in log if seat == 0) > 11 * 2


def test_easy_replays_the_same_way_from_the_same_seed_and_differs_between_seeds() -> None:
    first = [d.move for _, d in whole_game(["easy", "easy"], seed=6)[1]]
    again = [d.move for _, d in whole_game(["easy", "easy"], seed=6)[1]]
    assert first == again
    game = Game(["A", "B"], seed=11)
    view = player_view(game, game.current_player)
    # Its answer depends on its own seed and the view only.
    answers = {load_bot("easy", seed=s).decide(view).move for s in range(40)}
    assert answers == {DrawFromStock(), TakeDiscard()} or len(answers) == 1


def test_easy_makes_mistakes_that_medium_does_not() -> None:
    """Easy often departs from the greedy move, but it is no random player."""
    game = Game(["A", "B", "C"], seed=21)
    medium = load_bot("medium")
    same = different = 0
    while not game.is_over:
        seat = game.current_player
        view = player_view(game, seat)
        easy_move = load_bot("easy", seed=seat).decide(view).move
        medium_move = medium.decide(view).move
        if view.phase in (Phase.DRAW, Phase.DISCARD):
            same += easy_move == medium_move
            different += easy_move != medium_move
        game.apply(seat, easy_move)
    assert 0.1 * (same + different) < different < 0.75 * (same + different)


def test_easy_sometimes_misses_a_useful_discard_on_the_pile() -> None:
    game = table(["5h 6h Kc", "8c 9d 10sp"], turned_up="7h")
    moves = Counter(load_bot("easy", seed=s).decide(player_view(game, 0)).move for s in range(100))
    assert 20 <= moves[TakeDiscard()] <= 90
    assert moves[DrawFromStock()] >= 10


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_going_out_without_giving_the_next_player_a_wild(level: str) -> None:
    game = table(["5h 5c jk", "8c 9d 10sp"], turned_up="Kd", stock_top="5d")
    assert step(game, level).move == DrawFromStock()
    decision = step(game, level)
    assert isinstance(decision.move, GoOut)
    assert not is_wild(decision.move.discard, Rank.THREE)


def test_hard_goes_out_without_giving_the_next_player_a_wild() -> None:
    game = table(["5h 5c jk", "8c 9d 10sp"], turned_up="Kd", stock_top="5d")
    assert step(game, "hard").move == DrawFromStock()
    decision = step(game, "hard")
    assert isinstance(decision.move, GoOut)
    assert not is_wild(decision.move.discard, Rank.THREE)
    assert decision.explanation.startswith("Went out with a book of 5s; discarded the 5 of ")


def test_hard_keeps_wilds_whenever_it_discards_in_whole_games() -> None:
    for seed in (3, 8):
        game = Game(["A", "B", "C", "D"], seed=seed)
        bots = [load_bot("hard")] + [load_bot("medium")] * 3
        while not game.is_over:
            seat = game.current_player
            view = player_view(game, seat)
            move = bots[seat].decide(view).move
            if seat == 0 and view.phase is Phase.DISCARD:
                card = move.card if isinstance(move, Discard) else None
                card = move.discard if isinstance(move, GoOut) else card
                assert card is not None
                naturals = [c for c in view.hand if not is_wild(c, view.wild_rank)]
                if naturals:
                    assert not is_wild(card, view.wild_rank), (view.hand, card)
            game.apply(seat, move)


def _exact_blind_value(hand: list[Card], wild: Rank, unseen: Counter[Card]) -> float:
    total = sum(unseen.values())
    return (
        sum(
            count * best_with_discard([*hand, card], wild).leftover_points
            for card, count in unseen.items()
        )
        / total
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 9), st.sampled_from(list(Rank)))
def test_blind_draw_value_never_flatters_a_blind_draw(seed: int, size: int, wild: Rank) -> None:
    """The shortcut for cards that cannot join a meld is never below the exact expectation."""
    rng = random.Random(seed)
    deck = [card_from_code(code) for code in range(56)] * 2
    rng.shuffle(deck)
    hand, rest = deck[:size], deck[size : size + 25]
    unseen = Counter(rest)
    exact = _exact_blind_value(hand, wild, unseen)
    assert blind_draw_value(hand, wild, unseen) >= exact - 1e-9


def test_blind_draw_value_is_exact_for_a_hand_without_wilds() -> None:
    hand = parse_cards("5h 6h 9c Kd Qsp")
    unseen = Counter(parse_cards("7h 4h 9d 9sp Ksp 3c 10st jk 8c Jst"))
    exact = _exact_blind_value(hand, Rank.FOUR, unseen)
    assert blind_draw_value(hand, Rank.FOUR, unseen) == pytest.approx(exact)


def test_memory_remembers_what_each_opponent_took_and_threw() -> None:
    game = table(["5h 6h Kc", "8c 8d 10sp", "4st 9c Qd"], turned_up="Jd", stock_top="3d 8h")
    king, ten = parse_card("Kc"), parse_card("10sp")
    game.apply(0, DrawFromStock())
    game.apply(0, Discard(king))
    game.apply(1, TakeDiscard())  # seat 2 takes the King of clubs...
    game.apply(1, Discard(ten))  # ...and throws the 10 of spades
    view = player_view(game, 2)
    memory = read_memory(view)
    assert memory.threw[0][king] == 1
    assert memory.took[1][king] == 1 and memory.threw[1][ten] == 1
    assert memory.known[1][king] == 1
    assert memory.pile == [parse_card("Jd"), ten]
    # Seat 3 cannot see 110 cards: 116 less its hand (3), the pile (2) and the King seat 2 took.
    assert memory.unseen_total() == 110
    assert memory.unseen[king] == 1  # the other King of clubs is still unseen
    assert memory.unseen[ten] == 1 and memory.unseen[parse_card("4st")] == 1


def test_interest_rises_for_what_a_player_collects_and_falls_for_what_it_throws() -> None:
    memory = Memory(
        took=[Counter(), Counter(parse_cards("8h 8c"))],
        threw=[Counter(), Counter(parse_cards("Kd Ksp"))],
        known=[Counter(), Counter()],
    )
    wild = Rank.FIVE
    plain = interest(parse_card("4st"), wild, memory, 1)
    assert interest(parse_card("8d"), wild, memory, 1) > plain
    assert interest(parse_card("9h"), wild, memory, 1) > plain
    assert interest(parse_card("Kc"), wild, memory, 1) < plain
    assert interest(parse_card("5c"), wild, memory, 1) == 1.0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 14), st.sampled_from(list(Rank)))
def test_the_number_only_solver_call_agrees_with_the_full_arrangement(
    seed: int, size: int, wild: Rank
) -> None:
    """hard asks only for the number; it must be the full solver's leftover exactly."""
    from fivecrowns.core.melds.solver import least_leftover_with_discard

    rng = random.Random(seed)
    deck = [card_from_code(code) for code in range(56)] * 2
    hand = rng.sample(deck, size)
    expected = best_with_discard(hand, wild).leftover_points
    assert least_leftover_with_discard(hand, wild) == expected
