"""Chat (ui/session/chat.py): the slash key opens a line at a network table, echoed key by
key; in local play it says chat is for network tables.
"""

from __future__ import annotations

from fivecrowns.ui.session import (
    Seat,
)
from ui_support import table


def test_the_game_s_chat_line_is_echoed_too() -> None:
    """Item 11 at a network table: the game's chat line (ui/session/chat.py) echoes the same way."""
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        sent: list[str] = []
        t.session.link.chat = sent.append  # type: ignore[attr-defined]  # a network link's
        printed: list[str] = []
        t.session.add_listener(printed.append)
        t.press("/")
        mark = len(printed)
        t.press("h", "i", "?", "\x7f")  # \x7f: the Backspace key as a terminal sends it
        assert printed[mark:] == ["h", "i", "question mark", "question mark deleted."]
        t.press("enter")
        assert sent == ["hi"]


def test_the_chat_key_in_local_play_says_it_is_for_network_tables() -> None:
    from ui_support import table

    with table([Seat("Ann"), Seat("Ben", "easy")], seed=4) as t:
        t.press("/")
        assert t.spoken()[-1] == "Chat is for network tables: everyone here shares this keyboard."
        assert t.session.chat_line is None
