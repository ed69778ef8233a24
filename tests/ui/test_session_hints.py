"""Shift+H and G agree on the card thrown when going out (playtest item 14).

G throws the focused card when that card lets you go out (the player chose it), else the
advised one; the hint named the advised card even when the focus was on another card that
goes out, and G then threw the focused one ("Go out (G), discarding the 5 of diamonds",
then "... discarding the King of hearts").
"""

from __future__ import annotations

from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import going_out_discards
from fivecrowns.ui.session import Seat
from fivecrowns.words.answers import advised_discard
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
                advised = advised_discard(hand, wild, avoid=game.taken_discard).discard
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
