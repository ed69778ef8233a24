"""The hint (Shift+H), an information key (ui/session/info.py): what it advises agrees with
the hand key, with G and with the menu's words, before and after taking, in the last turn
and after the game.

Shift+H and G agree on the card thrown when going out (playtest item 14): G throws the
focused card when that card lets you go out (the player chose it), else the advised one;
the hint named the advised card even when the focus was on another card that goes out, and
G then threw the focused one ("Go out (G), discarding the 5 of diamonds", then "...
discarding the King of hearts").
"""

from __future__ import annotations

import re

from ai_support import table as deal
from ai_support import whole_game
from fivecrowns.ai.advice import advise
from fivecrowns.core.cards import JOKER, parse_card, spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import going_out_discards
from fivecrowns.core.views import player_view
from fivecrowns.ui.session import Seat
from ui_support import focus_on, play_turn, table


def test_the_hint_names_the_card_g_throws_when_the_focused_card_goes_out() -> None:
    checked = 0
    for seed in range(40):  # bounded: a hand that goes out with two different discards
        with table([Seat("Ann"), Seat("Ben", "easy")], seed=seed) as t:
            for _turn in range(300):
                game = t.game
                if game.is_over or checked:
                    break
                if t.session.next_round is not None:
                    t.press("enter")
                    continue
                hand = t.session.hand()
                wild = game.wild_rank
                outs = going_out_discards(hand, wild) if game.phase is Phase.DISCARD else []
                advised = advise(player_view(game, 0)).card if outs else None
                others = [card for card in outs if card != advised]
                if not others:
                    play_turn(t)
                    continue
                focus_on(t, hand.index(others[0]))
                t.press("H")
                hint = t.spoken()[-1]
                name = spoken_name(others[0], wild)
                assert hint == f"Go out (G), discarding the {name}.", hint
                mark = len(t.spoken())
                t.press("g")
                said = " ".join(t.said_since(mark))
                assert f"discarding the {name}" in said, said
                checked += 1
        if checked:
            break
    assert checked, "no hand in these games could go out with two different discards"


ONE_HUMAN = [Seat("You"), Seat("Ann", "medium")]


def test_hand_and_hint_agree_on_going_out_and_keep_the_joker() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk")
    with table(ONE_HUMAN, seed=0, game=game) as t:
        t.press("d")  # the joker: 6, 7, 8 of stars and a joker; any one card can go
        assert JOKER in t.game.hand(0)
        t.press("h")
        assert t.spoken()[-1].startswith("4 cards, sorted by rank. Melds: ")
        assert t.spoken()[-1].endswith(
            "That is the fewest points now, without the 6 of stars. Shift+H says what to discard."
        )
        t.press("o", "h")
        assert t.spoken()[-1].startswith("4 cards, sorted by suit. Melds: ")
        t.press("o")
        t.press("H")
        assert t.spoken()[-1] == "Go out (G), discarding the 6 of stars."


def test_after_the_game_hint_says_it_is_over_and_n_starts_a_new_game() -> None:
    game, _ = whole_game(["easy", "easy"], seed=4)
    assert game.is_over
    with table([Seat("You"), Seat("Ann", "easy")], seed=4, game=game) as t:
        t.press("H")
        assert t.spoken()[-1] == (
            "The game is over. Press N for a new game, S for scores, Q or Ctrl+C to leave."
        )
        mark = len(t.spoken())
        t.press("n")
        said = t.said_since(mark)
        assert said[0].startswith("New game: You and Ann (easy). ")
        assert said[1].startswith("Round 1 of 11.")
        assert not t.game.is_over and t.game.round == 1
        assert t.game.current_player == 0  # the computer player moved; now it is yours
        moves = len(t.game.moves)
        t.press("d")
        assert len(t.game.moves) == moves + 1


def test_hint_names_one_discard_before_and_after_taking_and_keeps_the_wild() -> None:
    game = deal(["7st 9st 10st", "4h 9c Kd"], turned_up="8st")
    with table([Seat("You"), Seat("Ann", "medium")], seed=0, game=game) as t:
        t.press("H")
        before = t.spoken()[-1]
        match = re.match(r"Take the 8 of stars \(T\): then discard the (.+?) and go out", before)
        assert match, before
        assert "wild" not in match.group(1)
        t.press("t")
        # the 8 of stars does not go out, so G throws the hint's card, not the focused one
        focus_on(t, t.session.hand().index(parse_card("8st")))
        t.press("H")
        assert t.spoken()[-1] == f"Go out (G), discarding the {match.group(1)}."
        mark = len(t.spoken())
        t.press("g")
        assert f"discarding the {match.group(1)}" in " ".join(t.said_since(mark))


def test_last_turn_hint_uses_the_menus_words() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk 10h")
    with table([Seat("Ann", "medium"), Seat("You")], seed=0, game=game) as t:
        assert t.game.phase is Phase.LAST_DRAW  # Ann went out with the joker
        t.press("d", "H")
        hint = t.spoken()[-1]
        assert re.fullmatch(r"Lay down and discard the .+, leaving \d+ points\.", hint), hint
        t.press("escape")
        assert any(hint.rstrip(".") in label for label, _ in t.session.list_state.items)
