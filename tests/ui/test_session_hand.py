"""The hand keys (ui/session/hand.py): the number keys past the 9th card, and the focus that
stays on its card when a card is drawn.

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and the
output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

import re
from typing import Any

from fivecrowns.ai import load_bot
from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.views import player_view
from fivecrowns.ui.screen import render_table
from fivecrowns.ui.session import Seat
from ui_support import table


def game_at_round(round_number: int, seed: int = 3) -> Game:
    """A two-player game played by computer players up to your draw in ``round_number``."""
    game = Game(["You", "Ann"], seed=seed, first_dealer=1)
    bots = {0: load_bot("easy", seed=seed), 1: load_bot("easy", seed=seed + 1)}
    for _ in range(5000):
        if game.round == round_number and game.current_player == 0 and game.phase is Phase.DRAW:
            return game
        seat = game.current_player
        decision: Any = bots[seat].decide(player_view(game, seat))
        move = getattr(decision, "move", decision)
        game.apply(seat, move if game.can(seat, move) else game.legal_moves(seat)[0])
    raise AssertionError("the computer players did not reach the round")


def test_zero_and_a_number_twice_jump_to_cards_ten_to_fourteen() -> None:
    game = game_at_round(11)  # 13 cards; 14 after drawing
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, game=game) as t:
        t.press("d")
        hand = t.session.hand()
        wild = t.game.wild_rank
        assert len(hand) == 14

        def heard(place: int) -> str:
            return f"{spoken_name(hand[place - 1], wild)}, {place} of 14"

        for keys, place in [
            (["0"], 10), (["1"], 1), (["1"], 11), (["1"], 1), (["4", "4"], 14),
            (["3", "3"], 13), (["9"], 9), (["9"], 9), (["2", "2"], 12), (["0", "0"], 10),
        ]:  # fmt: skip
            t.press(*keys)
            assert t.spoken()[-1] == heard(place), keys
            assert t.session.focus() == place - 1
        screen = "".join(text for _, text in render_table(t.session.table()))
        assert " 10   11   12   13   14" in screen  # every card is numbered on the screen


def test_a_number_past_the_hand_is_a_sentence_and_changes_nothing() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=1) as t:
        t.press("2")
        before = t.session.focus()
        t.press("0")
        assert t.spoken()[-1] == "You have only 3 cards."
        assert t.backend.sounds[-1] == "invalid" and t.session.focus() == before
        t.press("2")  # card 2 again: no 12th card, so it stays on card 2
        assert t.spoken()[-1].endswith(", 2 of 3")


def test_draw_keeps_the_focus_and_says_where_the_card_went() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        t.press("home")
        first = t.session.hand()[0]
        t.press("d")
        said = t.spoken()[-1]
        drawn = re.match(r"You drew the (.+)\. It is card (\d+) of (\d+)\.", said)
        assert drawn, said
        hand = t.session.hand()
        assert hand[t.session.focus()] == first or hand[0] == first
        assert spoken_name(hand[int(drawn.group(2)) - 1], t.game.wild_rank) == drawn.group(1)
        t.press("enter")  # discards the card you were on, not the one you drew
        assert t.spoken()[-2 if t.game.current_player == 0 else 0]
        assert f"You discarded the {spoken_name(first, t.game.wild_rank)}." in t.spoken()
