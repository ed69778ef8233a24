"""The review key (Shift+R, and the menu) in local play: the table words the review of your
last round as the server words it for a network seat (fivecrowns.table.info.review)."""

from __future__ import annotations

from ai_support import table as deal
from fivecrowns.core.cards import parse_card
from fivecrowns.table.info import review
from fivecrowns.ui.session import Seat
from ui_support import focus_on, play_turn, table

THREW_THE_WILD = (
    "About 28 points at stake in round 1, in 1 choice the strongest computer player would have "
    "made otherwise. Turn 1: you threw the wild 3 of hearts and kept 28 points; you could have "
    "gone out throwing the King of clubs."
)


def test_shift_r_and_the_menu_review_the_last_round() -> None:
    game = deal(["3h 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="Kc")
    with table([Seat("You"), Seat("Ann", "medium")], seed=0, game=game) as t:
        t.press("R")
        assert t.spoken()[-1] == "No round has ended yet."
        t.press("d")
        focus_on(t, t.session.hand().index(parse_card("3h")))
        t.press("enter")  # the wild thrown: the King of clubs would have gone out
        for _ in range(40):  # bounded: the round ends within a few turns
            if t.session.next_round is not None:
                break
            play_turn(t)
        assert t.session.next_round is not None, "round 1 ended"
        t.press("R")
        assert t.spoken()[-1] == THREW_THE_WILD == review(t.game, 0)
        t.press("escape")
        labels = [label for label, _ in t.session.list_state.items]
        item = next(i for i, label in enumerate(labels) if label.startswith("Review of the"))
        assert labels[item] == "Review of the last round: Shift+R"
        t.press("home", *["down"] * item, "enter")
        assert t.spoken()[-1] == THREW_THE_WILD


def test_at_full_verbosity_the_review_is_the_whole_list() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=21, verbosity="full") as t:
        for _ in range(400):  # bounded: a few rounds of keys, each turn by the solver
            if t.game.round > 3:
                break
            play_turn(t)
        t.press("R")
        assert t.spoken()[-1] == review(t.game, 0, full=True)
        assert "more choice" not in t.spoken()[-1]
