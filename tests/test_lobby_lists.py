"""Lists and menus of the join --keys lobby and of the command layer (playtest 2026-11-23,
items 8 and 13), driven without a server through a small stand-in for the link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fivecrowns.client.lobby import Lobby
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.keymap import LOBBY_ACTIONS, Keymap
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
