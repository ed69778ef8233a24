"""Lists and menus of the join --keys lobby and of the command layer (playtest 2026-11-23,
items 8 and 13), driven without a server through a small stand-in for the link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.keymap import LOBBY_ACTIONS, Keymap
from fivecrowns.ui.lobby import Lobby
from fivecrowns.ui.session import Seat
from ui_support import table


class _Link:
    """What the lobby reads of its link in the lobby (no server)."""

    url = "ws://127.0.0.1:1/ws"
    code = None
    creator = True
    name = "Ann"

    def __init__(self) -> None:
        self.tables: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.last_snapshot: dict[str, Any] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def wait_for(self, done: Callable[[], bool], timeout: float) -> bool:
        return done()


def _lobby() -> tuple[Lobby, RecordingBackend, _Link]:
    backend = RecordingBackend()
    link = _Link()
    lobby = Lobby(link, Output(backend), Keymap(LOBBY_ACTIONS))  # type: ignore[arg-type]
    return lobby, backend, link


def test_a_list_opened_on_its_default_names_that_item_first() -> None:
    """Item 13: "... 6 items. 2 seats" then "4 seats, 3 of 6" named two items in a row."""
    lobby, backend, link = _lobby()
    lobby.press("c")
    assert backend.spoken[-1] == "Create a table: the number of seats. 6 items. 4 seats"
    lobby.press("c-m")
    lobby.press("down")
    lobby.press("c-m")  # 1 computer player: the level list opens on medium
    assert backend.spoken[-1] == (
        "The level of the computer players; at the table, B adds others. 5 items. Level medium"
    )
    lobby.press("c-m")
    lobby.press("c-m")
    assert link.sent == [{"type": "create_table", "seats": 4, "bots": ["medium"], "private": False}]


def test_a_letter_no_menu_item_starts_with_does_its_own_action() -> None:
    """Item 8: a menu opened before the turn has no draw item; D then draws, as keys.md
    says, instead of "No item starts with D."."""
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        t.press("escape")
        state = t.session.list_state
        assert state is not None
        # the menu as it was before the turn: no item starts with D
        state.items = [item for item in state.items if not item[0].startswith("D")]
        hand = len(t.session.hand())
        t.press("d")
        assert t.session.list_state is None
        assert t.spoken()[-1].startswith("You drew the "), t.spoken()[-1]
        assert len(t.session.hand()) == hand + 1
        # a letter an item starts with still moves to it, and a letter with neither says so
        t.press("escape", "s")
        state = t.session.list_state
        assert state is not None and state.items[state.selected][0].startswith("S")
        t.press("z")
        assert t.spoken()[-1] == "No item starts with Z."


def test_a_line_being_typed_is_echoed_key_by_key_in_speech_and_in_line_mode() -> None:
    """Item 11: typing "/", "hola", Backspace in line mode said and printed nothing, and the
    line sent was "hol" with no word of it. Each character is now said and printed, a
    symbol in words; Backspace says what it deleted."""
    lobby, backend, link = _lobby()
    printed: list[str] = []
    lobby.add_listener(printed.append)  # what line mode writes to the console
    sent: list[str] = []
    link.chat = sent.append  # type: ignore[attr-defined]
    lobby.at = ("71f0a1e1", 1)
    lobby.press("/")
    mark = len(printed)
    for key in ("h", "o", "l", "a", ",", " ", "c-h", "c-h", "c-h"):
        lobby.press(key)
    echoed = [
        "h",
        "o",
        "l",
        "a",
        "comma",
        "space",
        "space deleted.",
        "comma deleted.",
        "a deleted.",
    ]
    assert printed[mark:] == echoed
    assert backend.spoken[-len(echoed) :] == echoed
    lobby.press("c-m")
    assert sent == ["hol"]
    # the echo is not a message: the history (R, the message keys) keeps only sentences
    assert "comma" not in [entry.text for entry in lobby.output.history.entries()]
    # an invite code echoes the same way; Backspace on nothing says so
    lobby.at = None
    lobby.press("i")
    lobby.press("c-h")
    assert printed[-1] == "Nothing to delete."


def test_the_game_s_chat_line_is_echoed_too() -> None:
    """Item 11 at a network table: the game's chat line (ui/session.py) echoes the same way."""
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


def test_wording_one_item_help_items_and_computer_seats() -> None:
    """Item 16: "1 items"; help items ending ". , 2 of 38"; a seat list that ran computer
    players' words together ("Ann, Bot 2, computer, medium, Bot 3, ...")."""
    from fivecrowns.ui.lobby import table_words

    lobby, backend, _link = _lobby()
    lobby._open_list("menu", "Title", [("Only", None)])
    assert backend.spoken[-1] == "Title. 1 item. Only"
    lobby.list_state = None
    lobby.press("f1")
    lobby.press("down")
    said = backend.spoken[-1]
    assert ". ," not in said and said.endswith(".") and " 2 of " in said, said
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "name": "Bot 2", "level": "medium"},
        {"kind": "bot", "name": "Bot 3", "level": "easy"},
        {"kind": "empty"},
    ]
    assert table_words({"id": "71f0a1e1", "seats": seats, "started": False}) == (
        "Table 71f0a1e1, waiting to start: Ann, Bot 2 (computer, medium), "
        "Bot 3 (computer, easy) and an empty seat."
    )


def test_a_computer_player_sitting_down_is_said_without_a_easy() -> None:
    from fivecrowns.table import Table

    table = Table(3, creator_name="Ann", creator_id="p1")
    table.add_bot("easy")
    texts = [frame["text"] for frame in table.frames_since(0, None)]
    assert "Bot 2 joined in seat 2: a computer player of level easy." in texts, texts


def test_scores_and_counts_never_glue_a_number_to_a_name() -> None:
    """Item 16: "Computer 2 0, Computer 3 0", "Computer 2 3 (computer, medium)" and a capital
    "You" inside a sentence ("... Ben 3, You 3")."""
    from fivecrowns.words import answers

    names = ["Ben", "Bot 2", "You"]
    said = answers.scores_words(["Ben", "Bot 2", "you"], [5, 0, 1], [[5, 0, 1]])
    assert said == (
        "Scores, after 1 round: Bot 2, 0 points; you, 1 point; Ben, 5 points. "
        "Last round: Bot 2, 0 points; you, 1 point; Ben, 5 points."
    )
    counts = answers.counts_words(names, [3, 1, 3], 100, 0, [None, "medium", None])
    assert counts == (
        "Cards: Ben, 3 cards, went out; Bot 2 (computer, medium), 1 card; you, 3 cards. Stock 100."
    )
