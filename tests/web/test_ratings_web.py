"""Ratings in the web page (issue 28, item 3), with a real `fivecrowns serve` and Debian's
Chromium: the lobby's Ratings panel reads the leaderboard, a player's record and games, and a
game round by round, by keyboard; the server's sentences are shown and said; a guest's own
record is a sentence; the create form's Rated box reaches the server."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from server_support import Client, ServerProcess, play_until
from web_support import WebPlayer, axe_violations, page_url

pytestmark = [pytest.mark.real]

PASSWORD = "correct horse battery"


async def _ann_plays_a_rated_game(url: str) -> None:
    ann = await Client("Ann").connect(url, hello=False)
    await ann.send({"type": "sign_up", "v": 1, "name": "Ann", "password": PASSWORD})
    await ann.until(lambda m: m["type"] == "welcome")
    await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
    await ann.until(lambda m: m["type"] == "snapshot")
    await ann.send({"type": "start"})
    await play_until([ann], lambda c: c.game_over())
    await ann.until(lambda m: m["type"] == "rating")
    await ann.close()


def _out(page: Any) -> list[str]:
    lines: list[str] = page.locator("#ratings-out li").all_inner_texts()
    return lines


def _press(page: Any, selector: str) -> None:
    page.locator(selector).focus()
    page.keyboard.press("Enter")


def test_the_ratings_panel_by_keyboard(browser: Any, server: ServerProcess) -> None:
    # why a thread: Playwright's own event loop runs in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _ann_plays_a_rated_game(server.url)).result(timeout=180)
    page = browser.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        web.connect("Webb")  # a guest
        _press(page, "#leaderboard-button")
        page.wait_for_function(
            "() => document.querySelector('#ratings-out').innerText.includes('1st: Ann')"
        )
        heading, first = _out(page)
        assert heading == "Leaderboard, page 1 of 1: 1 rated player."
        assert first.startswith("1st: Ann, rating ") and "Played 1, won " in first
        page.locator("#ratings-player").fill("ann")
        _press(page, "#player-record")
        page.wait_for_function(
            "() => document.querySelector('#ratings-out').innerText.includes('for Ann')"
        )
        (record,) = _out(page)
        assert record.startswith("Rating ") and ", 1st of 1. Played 1, won " in record
        assert any(said["text"] == record for said in web.said())
        _press(page, "#player-games")
        page.wait_for_selector("#ratings-out button", timeout=10_000)
        assert _out(page)[0] == "Rated games of Ann, page 1 of 1: 1 game, the newest first."
        _press(page, "#ratings-out button")  # the game, round by round
        page.wait_for_function(
            "() => document.querySelector('#ratings-out').innerText.includes('Round 11: Ann ')"
        )
        lines = _out(page)
        assert len(lines) == 12 and lines[1].startswith("Round 1: Ann ")
        _press(page, "#my-record")  # a guest has none: the server's sentence
        page.wait_for_function(
            "() => (window.__announcements || []).some(a => a.text.startsWith('Guests have'))"
        )
        assert axe_violations(page) == []
        # the Rated box goes with a new table (unticked: an unrated table)
        page.locator("#rated").uncheck()
        sent: list[dict[str, Any]] = []
        web.sockets[-1][0].on("framesent", lambda payload: sent.append(json.loads(payload)))
        web.create_table(2, ["easy"])
        made = [m for m in sent if m.get("type") == "create_table"]
        assert made and made[0]["rated"] is False
        assert web.errors == []
    finally:
        page.close()
