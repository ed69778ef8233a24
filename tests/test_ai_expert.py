"""The expert level: play-outs on determinisations of the cards it cannot see (issue 15)."""

from __future__ import annotations

import re

from ai_support import table, whole_game
from fivecrowns.ai import LEVELS, load_bot
from fivecrowns.ai.expert import SAMPLES, ExpertBot, play_out
from fivecrowns.ai.memory import read_memory
from fivecrowns.cards import Rank, parse_cards
from fivecrowns.game import Discard, DrawFromStock, Game, Phase, TakeDiscard


def test_expert_is_a_built_in_level_after_hard() -> None:
    assert LEVELS.index("expert") == LEVELS.index("hard") + 1
    assert isinstance(load_bot("expert", seed=3), ExpertBot)
    assert load_bot("expert").name == "expert"


def test_a_play_out_draws_throws_the_cheapest_and_weighs_both_turns() -> None:
    hand = parse_cards("5h 6h Kc 9sp")
    # First draw 7h: 5h 6h 7h meld, throw Kc, 9sp left (9). Second draw 8h: run grows, 0 left.
    value = play_out(hand, Rank.THREE, parse_cards("7h 8h"))
    assert value == 0.5 * 9 + 0.5 * 0


def test_determinisations_come_from_the_unseen_pool_only_and_repeat_for_the_same_view() -> None:
    game = Game(["A", "B", "C"], seed=8)
    view = game.view(game.current_player)
    bot = ExpertBot(seed=5)
    unseen = read_memory(view).unseen
    samples = bot._determinisations(view, unseen)
    assert len(samples) == SAMPLES
    for draws in samples:
        for card in draws:
            assert unseen[card] > 0
    assert samples == ExpertBot(seed=5)._determinisations(view, unseen)
    assert samples != ExpertBot(seed=6)._determinisations(view, unseen)


def test_expert_explains_a_blind_draw_by_its_play_outs_in_whole_games() -> None:
    seen = False
    for seed in (1, 2):
        game, log = whole_game(["expert", "hard", "medium"], seed)
        assert game.is_over
        for seat, decision in log:
            if seat == 0 and "looking two draws ahead" in decision.explanation:
                seen = True
                if isinstance(decision.move, DrawFromStock):
                    assert re.search(r"about \d+ points, the .+ about \d+\.$", decision.explanation)
                else:
                    assert isinstance(decision.move, Discard)
    assert seen, "expert never explained a move by looking ahead"


def test_expert_takes_a_discard_that_lets_it_go_out() -> None:
    game = table(["5h 6h Kc", "8c 9d 10sp"], turned_up="7h")
    assert game.phase is Phase.DRAW
    decision = load_bot("expert").decide(game.view(0))
    assert decision.move == TakeDiscard()
