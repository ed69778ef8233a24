"""Your seat survives a closed tab, and a dropped connection is tried again as long as the
terminal tries, with one spoken line: a real ``fivecrowns serve`` and Debian's Chromium.

Pages of one browser context share localStorage, as the tabs of one browser profile do.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.client.retry import RECONNECT
from server_support import Serve, ServerProcess
from web_support import WebPlayer, ask_last_moves, page_url

pytestmark = [pytest.mark.real]

DROPPED = "The connection dropped; trying again for up to 5 minutes."


@pytest.fixture(name="context")
def context_fixture(browser: Any) -> Iterator[Any]:
    """One browser profile: its pages share localStorage."""
    context = browser.new_context()
    yield context
    context.close()


def _seated_mid_game(page: Any, url: str) -> WebPlayer:
    """Ann at a 2-seat table with a computer player, a few moves into the game."""
    ann = WebPlayer(page, page_url(url))
    ann.create_and_start("Ann", 2, ["easy"])
    for _move in range(3):
        ann.wait_turn()
        ann.play_one(go_out=False)
    ann.wait_turn()
    return ann


def test_a_closed_tab_s_seat_is_taken_back_by_a_new_page(
    context: Any, server: ServerProcess
) -> None:
    page = context.new_page()
    ann = _seated_mid_game(page, server.url)
    table = page.evaluate("() => window.fivecrowns.table")
    hand = sorted(page.evaluate("() => window.fivecrowns.snapshot.view.hand"))
    page.close()
    again = context.new_page()
    try:
        back = WebPlayer(again, page_url(server.url))
        # no name typed, no button pressed: the page opens in Ann's seat
        again.wait_for_selector("#table:not([hidden])", timeout=10_000)
        state = back.wait_turn()
        assert again.evaluate("() => [window.fivecrowns.table, window.fivecrowns.seat]") == [
            table,
            0,
        ]
        assert sorted(again.evaluate("() => window.fivecrowns.snapshot.view.hand")) == hand
        assert again.locator("#hand [role=option]").count() == len(hand)
        assert state["legal"], "the seat's moves, not a spectator's"
        # L: this page heard nothing from before it came, and says so (not "Nothing has
        # happened since your last turn.": the computer moved since)
        assert ask_last_moves(again) == "Nothing has happened since this page came to the table."
        before = state["seq"]
        assert back.play_one(go_out=False)  # and the seat plays on
        assert back.state()["seq"] > before
        # a page opened again is paced (as for a screen reader): its news comes in order
        again.wait_for_function(
            "() => (window.__announcements || []).some(a => a.region === 'log'"
            " && !/^You (drew|took|discarded) /.test(a.text))",
            timeout=15_000,
        )
        said = [a["text"] for a in back.said() if a["region"] == "log"]
        # why without your own moves: they go ahead of the news still waiting (issue 25), so
        # under load "You discarded ..." can come before the news it follows
        own = ("You drew ", "You took ", "You discarded ")
        news = [text for text in said if not text.startswith(own)]
        assert news[0] == f"You sit in seat 1 at table {table}.", said[:3]
        # once your turn ended here, L tells the moves since, as on any page
        back.wait_turn()
        assert back.play_one(go_out=False)  # the discard after the draw above
        back.wait_turn()
        since = ask_last_moves(again)
        assert not since.startswith(("Since this page", "Nothing has happened")), since
        assert "discarded" in since or "went out" in since, since
        assert ann.errors == [] and back.errors == []
        # the token is never shown on the page
        token = again.evaluate("() => window.fivecrowns.token")
        assert token and token not in again.content()
    finally:
        again.close()


def test_leaving_forgets_the_seat(context: Any, server: ServerProcess) -> None:
    page = context.new_page()
    try:
        _seated_mid_game(page, server.url)
        page.evaluate("() => window.fivecrowns.do('leave')")
        page.locator("#leave-yes").click()  # the confirmation (issue 25 item 3)
        page.wait_for_selector("#lobby:not([hidden])", timeout=10_000)
        assert page.evaluate("() => localStorage.getItem('fivecrowns-seats')") == "{}"
    finally:
        page.close()
    fresh = context.new_page()
    try:
        WebPlayer(fresh, page_url(server.url))
        fresh.wait_for_timeout(500)
        assert fresh.locator("#hello-form").is_visible()  # no seat to take back
    finally:
        fresh.close()


def test_the_page_retries_as_the_terminal_with_one_spoken_line(
    context: Any, serve: Serve, tmp_path: Path
) -> None:
    extra = ("--rate", "1000", "--grace", "600")
    first = serve(*extra, data=tmp_path)
    port = int(first.url.rsplit(":", 1)[1].split("/")[0])
    page = context.new_page()
    try:
        ann = _seated_mid_game(page, first.url)
        assert "Traceback" not in first.stop()
        # the server is away long enough for several tries (0.5 + 1 + 1.5 + 2 s of pauses)
        page.wait_for_function("() => window.fivecrowns.attempts >= 5", timeout=20_000)
        serve(*extra, data=tmp_path, port=port)
        page.wait_for_function("() => window.fivecrowns.attempts === 0", timeout=20_000)
        state = ann.wait_turn()
        assert state["legal"] and page.evaluate("() => window.fivecrowns.seat") == 0
        logged = [a["text"] for a in ann.said() if a["region"] == "log"]
        assert logged.count(DROPPED) == 1, logged[-8:]
        assert logged.count("Connected again.") == 1, logged[-8:]
        assert not [line for line in logged if "of 10" in line]
        deadline = time.monotonic() + 10
        before = state["seq"]
        assert ann.play_one(go_out=False)  # the seat plays on after the server came back
        while ann.state()["seq"] == before and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        assert ann.state()["seq"] > before
        policy = page.evaluate(
            """async () => { const { RECONNECT } = await import('/web/seats.js');
              return [RECONNECT.windowSeconds, RECONNECT.longestPause, RECONNECT.attempts,
                      [1, 2, 5, 10, 400].map(n => RECONNECT.pause(n))]; }"""
        )
        pauses = [RECONNECT.pause(n) for n in (1, 2, 5, 10, 400)]
        assert policy == [RECONNECT.window, RECONNECT.longest_pause, RECONNECT.attempts, pauses]
    finally:
        page.close()


def test_a_dropped_seat_is_marked_beside_its_name_until_it_is_back(
    browser: Any, serve: Serve, tmp_path: Path
) -> None:
    """Ben's tab closes mid-game: after the grace, Ann's page says beside his name that his
    connection dropped and a computer plays until he is back, as the terminal says it; his
    new tab takes the seat back and the words go."""
    server = serve("--rate", "1000", "--grace", "1", data=tmp_path)
    ann_context, ben_context = browser.new_context(), browser.new_context()
    try:
        page, other = ann_context.new_page(), ben_context.new_page()
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        table = ann.create_table(2, [""], keyboard=True)
        ben = WebPlayer(other, page_url(server.url))
        ben.connect("Ben")
        ben.join(table)
        ann.start(keyboard=True)
        page.wait_for_function(  # dealt
            "() => document.querySelectorAll('#hand [role=option]').length === 3", timeout=10_000
        )
        marked = "Ben (connection dropped; a computer player plays until they are back)"
        players = "() => document.getElementById('players').textContent"
        assert marked not in page.evaluate(players)
        other.close()  # his tab closes
        page.wait_for_function(f"() => ({players})().includes({marked!r})", timeout=15_000)
        back = ben_context.new_page()  # his browser opens the page again: the seat is his
        WebPlayer(back, page_url(server.url))
        back.wait_for_selector("#table:not([hidden])", timeout=10_000)
        page.wait_for_function(
            f"() => !({players})().includes('connection dropped') && ({players})().includes('Ben')",
            timeout=15_000,
        )
        assert ann.errors == []
    finally:
        ann_context.close()
        ben_context.close()
