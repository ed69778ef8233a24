"""Every computer-player decision carries a short sentence that says why."""

from __future__ import annotations

import re

import pytest

from ai_support import step, table, whole_game
from fivecrowns.core.cards import parse_card
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, TakeDiscard
from fivecrowns.core.views import player_view


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_taking_a_discard_that_completes_a_run_says_so(level: str) -> None:
    game = table(["5h 6h Kc", "8c 9d 10sp"], turned_up="7h")
    seed = 0
    if level == "easy":
        # why: easy misses useful discards on purpose; find a seed where it sees this one.
        seed = next(s for s in range(50) if _takes(game, s))
    decision = step(game, level, seed)
    assert decision.move == TakeDiscard()
    assert decision.explanation == "Took the 7 of hearts: it completes a run of 5, 6, 7 of hearts."


def _takes(game: object, seed: int) -> bool:
    from fivecrowns.ai import load_bot
    from fivecrowns.core.game import Game

    assert isinstance(game, Game)
    return load_bot("easy", seed=seed).decide(player_view(game, 0)).move == TakeDiscard()


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_going_out_names_the_melds_and_the_discard(level: str) -> None:
    game = table(["5h 6h Kc", "8c 9d 10sp"], turned_up="7h")
    step(game, level)
    decision = step(game, level)
    assert decision.move == GoOut(parse_card("Kc"))
    assert decision.explanation == (
        "Went out with a run of 5, 6, 7 of hearts; discarded the King of clubs."
    )


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_discard_that_fits_nothing_is_named_with_its_points(level: str) -> None:
    game = table(["5h 6h 4c", "8c 9d 10sp"], turned_up="Kd", stock_top="Kc")
    decision = step(game, level)
    assert decision.move == DrawFromStock()
    assert decision.explanation == "Drew from the stock: the King of diamonds does not help."
    decision = step(game, level)
    assert decision.move == Discard(parse_card("Kc"))
    assert decision.explanation == "Discarded the King of clubs: it fits nothing and is worth 13."


@pytest.mark.parametrize(
    ("turned_up", "sentence"),
    [("jk", "Took the joker: it is wild."), ("3c", "Took the 3 of clubs: 3s are wild.")],
)
def test_hard_always_takes_a_wild_and_says_it_is_wild(turned_up: str, sentence: str) -> None:
    game = table(["5h 9c Kc", "8c 9d 10sp"], turned_up=turned_up)
    decision = step(game, "hard")
    assert decision.move == TakeDiscard()
    assert decision.explanation == sentence


def test_the_last_turn_lays_down_the_best_melds_and_says_what_is_left() -> None:
    game = table(["5h 6h Kc", "8c 8d 9sp"], turned_up="7h", stock_top="8h")
    step(game, "medium")
    step(game, "medium")  # seat 1 went out; seat 2 has its last turn
    assert step(game, "medium").move == DrawFromStock()
    decision = step(game, "medium")
    assert isinstance(decision.move, LayDown)
    assert decision.explanation == "Laid down a book of 8s: every card is in a meld."
    decision = step(game, "medium")
    assert decision.move == Discard(parse_card("9sp"))
    assert decision.explanation == "Discarded the 9 of spades: it is my last card, so I score 0."


def test_laying_down_nothing_says_so() -> None:
    game = table(["5h 6h Kc", "4c 8d Qsp"], turned_up="7h", stock_top="10st")
    step(game, "medium")
    step(game, "medium")
    step(game, "medium")
    decision = step(game, "medium")
    assert decision.explanation == "Laid down nothing: I have no book or run."
    decision = step(game, "medium")
    assert decision.explanation == "Discarded the Queen of spades: it is worth 12, my most."


SENTENCE = re.compile(
    r"^(Took|Drew from the stock|Discarded|Went out|Laid down)[A-Za-z0-9 ,;:]*\.$"
)


@pytest.mark.parametrize(
    "levels", [("easy", "medium", "hard"), ("hard", "hard", "simple"), ("hard", "medium", "medium")]
)
def test_every_decision_in_whole_games_is_one_short_spoken_sentence(
    levels: tuple[str, ...],
) -> None:
    seen_blind_reason = False
    for seed in (1,):
        _, log = whole_game(levels, seed)
        for seat, decision in log:
            text = decision.explanation
            assert SENTENCE.match(text), f"{levels[seat]}: {text!r}"
            assert len(text) <= 200, text
            if levels[seat] == "hard" and "a blind draw should leave about" in text:
                seen_blind_reason = True
                assert re.search(r"about \d+ points, the .+ \d+\.$", text), text
    if "hard" in levels:
        assert seen_blind_reason, "hard never explained a blind draw by expected value"
