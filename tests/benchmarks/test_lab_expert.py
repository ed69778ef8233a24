"""The lab player that was the expert level: play-outs on determinisations of the cards it
cannot see (issue 15). It left the game's levels (issue 27 item 4) and lives in
benchmarks/lab_expert.py; a save, a kept table or a typed ``--ai`` naming expert plays hard."""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

from ai_support import table
from fivecrowns.ai import LEVELS, load_bot
from fivecrowns.ai.hard import HardBot
from fivecrowns.ai.loader import load_level, retired_note
from fivecrowns.ai.medium import MediumBot
from fivecrowns.ai.memory import read_memory
from fivecrowns.core.cards import Rank, parse_cards
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.moves import Discard, DrawFromStock, TakeDiscard
from fivecrowns.core.views import player_view

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from lab_expert import ExpertBot, look_ahead


def test_expert_is_no_longer_offered_and_a_save_naming_it_plays_hard() -> None:
    assert "expert" not in LEVELS
    assert isinstance(load_bot("expert", seed=3), HardBot)
    assert isinstance(load_level("expert"), HardBot)
    assert retired_note("expert") == (
        "The expert level plays as hard now: measured over 1,000 duplicate deals it was no "
        "stronger."
    )
    assert load_bot("lab_expert:ExpertBot").name == "expert"


def test_the_look_ahead_is_exact_on_the_next_draw_and_plays_out_the_one_after() -> None:
    hand = parse_cards("5h 6h Kc 9sp")
    unseen = Counter(parse_cards("7h 7h 8h Qd"))
    near, far = look_ahead(hand, Rank.THREE, unseen, random.Random(1))
    # Next draw 7h (2 of the 4): 5h 6h 7h melds, Kc thrown, 9 left. 8h: no meld, Kc thrown,
    # 5 + 6 + 8 + 9 = 28 left. Qd: Kc thrown, 5 + 6 + 9 + 12 = 32. Each weighted by its count.
    assert near == (2 * 9 + 28 + 32) / 4
    assert 0 <= far <= near


def test_the_same_view_gives_the_same_guesses_and_another_seed_other_guesses() -> None:
    game = Game(["A", "B", "C"], seed=8)
    view = player_view(game, game.current_player)
    unseen = read_memory(view).unseen
    hand = list(view.hand)
    first = look_ahead(hand, view.wild_rank, unseen, ExpertBot(seed=5)._rng(view))
    again = look_ahead(hand, view.wild_rank, unseen, ExpertBot(seed=5)._rng(view))
    assert first == again
    others = {
        look_ahead(hand, view.wild_rank, unseen, ExpertBot(seed=s)._rng(view))[1] for s in range(6)
    }
    assert len(others) > 1  # the second draw is sampled
    assert (
        len(
            {
                look_ahead(hand, view.wild_rank, unseen, ExpertBot(seed=s)._rng(view))[0]
                for s in range(6)
            }
        )
        == 1
    )  # the next draw is exact


def test_expert_explains_a_blind_draw_by_its_play_outs_in_whole_games() -> None:
    seen = False
    for seed in (1, 2):
        bots = [ExpertBot(seed=seed * 10), HardBot(), MediumBot(seed=seed * 10 + 2)]
        game = Game(["Seat 1", "Seat 2", "Seat 3"], seed=seed)
        log = []
        for _move in range(5000):  # bounded: a game is a few hundred moves
            if game.is_over:
                break
            turn = game.current_player
            decision = bots[turn].decide(player_view(game, turn))
            game.apply(turn, decision.move)
            log.append((turn, decision))
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
    decision = ExpertBot().decide(player_view(game, 0))
    assert decision.move == TakeDiscard()
