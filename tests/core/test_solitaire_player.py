"""Solitaire strategies: the distance and outs they rely on, their choices, the auto mode."""

from __future__ import annotations

import itertools
import json
import random
import re
import shlex
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecrowns.cli import main
from fivecrowns.core.cards import (
    JOKER,
    Card,
    Rank,
    card_from_code,
    is_wild,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from fivecrowns.core.melds.solver import least_leftover
from fivecrowns.core.solitaire import rules as solitaire
from fivecrowns.core.solitaire.player import (
    BestStrategy,
    GreedyStrategy,
    Play,
    auto_play,
    distance,
    load_strategy,
    outs,
    play_game,
    wilson_interval,
)
from fivecrowns.core.solitaire.rules import Phase, Solitaire
from solitaire_support import all_closed_but, junk, melded, missing, open_hand


def brute_distance(cards: Sequence[Card], wild_rank: Rank) -> int:
    """The definition: the fewest naturals to swap for ideal cards (jokers) to meld all."""
    naturals = [card for card in cards if not is_wild(card, wild_rank)]
    wilds = [card for card in cards if is_wild(card, wild_rank)]
    for swaps in range(len(naturals) + 1):
        for gone in itertools.combinations(range(len(naturals)), swaps):
            kept = [card for i, card in enumerate(naturals) if i not in gone]
            if least_leftover([*kept, *wilds, *[JOKER] * swaps], wild_rank) == 0:
                return swaps
    raise AssertionError("unreachable: swapping every natural always melds")


def _random_hands(count: int, sizes: range, seed: int) -> list[tuple[list[Card], Rank]]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        deck = shuffled_deck(rng)
        size = rng.choice(sizes)
        hands.append((deck[: size + 6], Rank(size)))
    return hands


def test_distance_matches_its_definition_on_random_hands() -> None:
    for cards, wild_rank in _random_hands(150, range(3, 9), seed=11):
        hand = cards[: int(wild_rank)]
        assert distance(hand, wild_rank) == brute_distance(hand, wild_rank), hand


def test_distance_is_zero_exactly_when_the_solver_melds_every_card() -> None:
    for cards, wild_rank in _random_hands(200, range(3, 14), seed=12):
        hand = cards[: int(wild_rank)]
        assert (distance(hand, wild_rank) == 0) == (least_leftover(hand, wild_rank) == 0)
    assert distance(melded(13), Rank.KING) == 0


def test_outs_count_the_stock_cards_that_bring_a_hand_one_turn_closer() -> None:
    for cards, wild_rank in _random_hands(60, range(3, 10), seed=13):
        size = int(wild_rank)
        hand, stock = cards[:size], cards[size:]
        now = distance(hand, wild_rank)
        expected = 0
        for card in stock:
            more = [*hand, card]
            after = min(distance(more[:i] + more[i + 1 :], wild_rank) for i in range(len(more)))
            expected += after < now
        assert outs(hand, wild_rank, stock) == expected, (hand, stock)


def test_a_joker_is_an_out_for_every_open_hand_and_nothing_is_an_out_for_a_closed_one() -> None:
    stock = parse_cards("jk 5d")
    assert outs(open_hand(9), Rank.NINE, stock) >= 1
    assert outs(melded(9), Rank.NINE, stock) == 0


def _view_with(turned: Card, *open_numbers: int) -> Solitaire:
    stock = [turned, *parse_cards("3d 3d")]
    return Solitaire.from_hands(all_closed_but(*open_numbers), stock)


@pytest.mark.parametrize("strategy", [GreedyStrategy(), BestStrategy()], ids=["greedy", "best"])
def test_both_strategies_close_a_hand_the_turned_card_completes(strategy: GreedyStrategy) -> None:
    game = _view_with(missing(8), 8, 9, 12)  # a 3: only the hand of 8 has a book of 3s
    assert strategy.plan(game.view()) == Play(8, junk(8))


def test_greedy_puts_the_card_where_the_leftover_drops_most() -> None:
    game = _view_with(parse_card("4d"), 11, 12)
    play = GreedyStrategy().plan(game.view())
    before = {n: least_leftover(open_hand(n), Rank(n)) for n in (11, 12)}
    hand = list(game.hand(play.hand).cards)
    hand.append(parse_card("4d"))
    hand.remove(play.discard)
    after = least_leftover(hand, Rank(play.hand))
    for n in (11, 12):
        other = [*open_hand(n), parse_card("4d")]
        best_here = min(
            least_leftover(other[:i] + other[i + 1 :], Rank(n)) for i in range(len(other))
        )
        assert before[play.hand] - after >= before[n] - best_here


def test_best_gives_a_card_two_hands_want_to_the_hand_with_fewer_other_outs() -> None:
    # hands 4 and 5 both miss a 3 (books of 3s): a joker in the stock helps both,
    # but the hand of 4 also has 4s wild in the stock, so the 3 goes to the hand of 5
    hands = all_closed_but(4, 5)
    stock = [parse_card("3d"), parse_card("4c"), parse_card("4h"), parse_card("9d")]
    game = Solitaire.from_hands(hands, stock)
    assert missing(4).rank == missing(5).rank == Rank.THREE
    assert BestStrategy().plan(game.view()).hand == 5


def test_strategies_play_whole_games_the_same_way_every_time() -> None:
    for name in ("greedy", "best"):
        first = play_game(Solitaire.deal(seed=21), load_strategy(name))
        second = play_game(Solitaire.deal(seed=21), load_strategy(name))
        assert first.phase.is_over and first.to_json() == second.to_json()
        assert first.events == second.events


def test_an_unknown_strategy_is_refused_by_name() -> None:
    with pytest.raises(
        ValueError, match="There is no strategy 'clever': choose one of greedy, best"
    ):
        load_strategy("clever")


def test_auto_play_counts_wins_and_points_of_each_deal() -> None:
    report = auto_play(4, seed=30, strategy=GreedyStrategy())
    games = [play_game(Solitaire.deal(seed), GreedyStrategy()) for seed in range(30, 34)]
    assert report.wins == sum(game.phase is Phase.WON for game in games)
    assert report.points_left == sum(game.points_left() for game in games)
    assert report.to_json() == {
        "games": 4,
        "wins": report.wins,
        "win_rate": report.wins / 4,
        "mean_points_left": report.points_left / 4,
    }


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and 0.1 < high < 0.2
    low, high = wilson_interval(5500, 10000)
    assert 0.540 < low < 0.55 < high < 0.560
    assert high - low < 0.02


def test_cli_auto_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solitaire", "--auto", "--games", "3", "--seed", "5", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    expected = auto_play(3, seed=5, strategy=BestStrategy()).to_json()
    assert data == expected and set(data) == {"games", "wins", "win_rate", "mean_points_left"}


def test_cli_auto_sentence_names_the_strategy_and_the_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solitaire", "--auto", "--games", "2", "--strategy", "greedy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Won ") and "with the greedy strategy" in out
    assert "95% confidence" in out and "Seeds 1 to 2." in out


def test_cli_bad_game_count_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solitaire", "--auto", "--games", "0"]) == 2
    assert capsys.readouterr().err.strip() == "--games must be at least 1, not 0."


DOC = (Path(__file__).parents[2] / "docs" / "solitaire.md").read_text(encoding="utf-8")


def test_the_commands_in_docs_solitaire_print_what_the_page_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    blocks = re.findall(r"```\n(.*?)\n```", DOC, flags=re.DOTALL)
    pairs = [
        (command, blocks[i + 1])
        for i, command in enumerate(blocks[:-1])
        if command.startswith("fivecrowns solitaire --auto")
    ]
    assert len(pairs) == 2
    for command, shown in pairs:
        assert main(shlex.split(command)[1:]) == 0
        assert capsys.readouterr().out.strip() == shown.strip()


def test_docs_solitaire_table_lists_every_phase_move_and_event() -> None:
    for phase in solitaire.Phase:
        assert f"| {phase.name} " in DOC, phase
    for name in ("PutCard(hand)", "DiscardCard(card)"):
        assert f"`{name}`" in DOC
    for event in solitaire.Event.__args__:  # type: ignore[attr-defined]
        assert f"`{event.__name__}`" in DOC, event


_CARD = st.integers(min_value=0, max_value=55).map(card_from_code)


@settings(max_examples=80, deadline=None)
@given(
    size=st.integers(min_value=3, max_value=13),
    cards=st.lists(_CARD, min_size=14, max_size=14),
    extra=_CARD,
)
def test_one_turn_brings_a_hand_at_most_one_card_closer(
    size: int, cards: list[Card], extra: Card
) -> None:
    wild = Rank(size)
    hand = cards[:size]
    now = distance(hand, wild)
    naturals = sum(1 for card in hand if not is_wild(card, wild))
    assert 0 <= now <= naturals
    assert (now == 0) == (least_leftover(hand, wild) == 0)
    more = [*hand, extra]
    for index in range(len(more)):
        after = distance(more[:index] + more[index + 1 :], wild)
        assert after >= now - 1
    if now > 0 and is_wild(extra, wild):
        # a wild always helps: it replaces a card the hand was going to lose
        assert min(distance(more[:i] + more[i + 1 :], wild) for i in range(len(more))) == now - 1
