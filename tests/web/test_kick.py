"""The web page's creator removes a player before the start, and bans them (issue 28 item 4):
a real Chromium and a real ``fivecrowns serve`` on 127.0.0.1, with Ben at a `fivecrowns join`
terminal. By keyboard alone; the group passes axe."""

from __future__ import annotations

from typing import Any

import pytest

from join_support import TypedClient
from server_support import ServerProcess
from web_support import WebPlayer, axe_violations, page_url

pytestmark = [pytest.mark.real]


def _focused(page: Any) -> str:
    """The focused element's accessible words: its label, else its text."""
    script = "() => { const e = document.activeElement; return e.ariaLabel || e.textContent; }"
    return str(page.evaluate(script))


def test_the_creator_removes_then_bans_a_player_by_keyboard(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    ben = TypedClient(server.url, "Ben")
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        table = ann.create_table(3, [""], keyboard=True)
        assert page.locator("#kick-controls").is_hidden()  # nobody else sits here yet
        ben.until(lambda line: line.startswith("No open tables") or line.startswith("Table "))
        ben.type(f"join {table}")
        ben.until(lambda line: line.startswith("You sit in seat 2"))
        remove = page.get_by_role("button", name="Remove Ben from seat 2", exact=True)
        remove.wait_for(timeout=10_000)
        assert page.locator("#kick-heading").inner_text() == "Players at your table"
        assert axe_violations(page) == [], "the creator's Remove buttons"
        remove.focus()
        page.keyboard.press("Enter")
        ben.until(lambda line: line == "Ann, who made the table, removed you from it.")
        page.locator("#kick-controls").wait_for(state="hidden", timeout=10_000)
        assert _focused(page) == "Add a computer player"  # focus leaves the vanished button
        ben.type(f"join {table}")
        ben.until(lambda line: line.startswith("You sit in seat 2"))
        ban = page.get_by_role(
            "button", name="Remove Ben from seat 2, and let them not sit here again"
        )
        ban.wait_for(timeout=10_000)
        ban.focus()
        page.keyboard.press("Enter")
        ben.until(lambda line: line == "You left the table.")
        ben.type(f"join {table}")
        ben.until(lambda line: line == "You cannot sit at this table; pick another.")
        assert ann.errors == []
    finally:
        ben.type("q")
        ben.proc.communicate(timeout=30)
        page.close()
