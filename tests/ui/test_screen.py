"""The full screen (ui/screen.py): the message line, the quit question shown once, 80 by 24
with 7 players.

Driven as in test_session.py; render_table gives the screen as prompt_toolkit draws it.
"""

from __future__ import annotations

import re

from fivecrowns.ui.screen import render_table
from fivecrowns.ui.session import Seat
from ui_support import play_turn, table

ONE_HUMAN = [Seat("You"), Seat("Ann", "medium")]


def test_message_review_is_shown_on_the_screens_message_line() -> None:
    with table(ONE_HUMAN, seed=5) as t:
        t.press("w")
        round_words = t.spoken()[-1]
        t.press("p")
        piles_words = t.spoken()[-1]
        assert t.session.table().message == piles_words
        t.press(",")
        count = len(t.session.messages())
        assert t.session.table().message == f"{round_words} {count - 1} of {count}."
        assert round_words in "".join(text for _, text in render_table(t.session.table()))
        t.press(">")
        assert t.session.table().message == f"{piles_words} {count} of {count}."


THREE = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]


def test_quit_question_is_shown_once_on_the_full_screen() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        t.press("q")
        screen = "".join(text for _, text in render_table(t.session.table()))
        assert screen.count("Quit? The game stays saved") == 1
        assert t.spoken()[-1].startswith("Quit? The game stays saved")
        t.press("n")
        screen = "".join(text for _, text in render_table(t.session.table()))
        assert "Quit?" not in screen and screen.count("Back to the game.") == 1


def test_screen_fits_80_by_24_with_7_players_and_keeps_recent_moves() -> None:
    seats = [Seat("You")] + [Seat(n, "medium") for n in ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")]
    with table(seats, seed=3) as t:
        for _ in range(3):
            play_turn(t)
        rows = "".join(text for _, text in render_table(t.session.table(), 80, 24)).split("\n")
        assert len(rows) <= 24 and all(len(row) < 80 for row in rows)
        assert any(row.startswith("Your hand, ") for row in rows)
        header = next(row for row in rows if "last round" in row)
        ann = next(row for row in rows if row[2:].startswith("Ann "))
        assert ann[: header.index("cards") + 5].endswith(str(len(t.game.hand(1))))
        moves = [row for row in rows if re.match(r"(Ann|Ben|Cy|Dee|Eve|Fay) (drew|took)", row)]
        assert moves, rows  # the others' moves stay on the screen
        if any(card.rank == t.game.wild_rank or card.rank is None for card in t.session.hand()):
            assert any(row.strip().startswith("wild") for row in rows)
