"""Where the web page puts focus after each view change, what keys do with no focus in the
hand, and two tabs holding one seat (real Chromium against a real ``fivecrowns serve``)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server_support import ServerProcess
from web_support import (
    WebPlayer,
    page_url,
    record_speech,
)

pytestmark = [pytest.mark.real]

REPLACED = "This seat is now open in another window or tab. Reload this page to play here."


def focused(page: Any) -> str:
    """The id of the focused element ("BODY" when focus fell to the page)."""
    text: str = page.evaluate(
        "() => document.activeElement ? (document.activeElement.id || "
        "document.activeElement.tagName) : 'NONE'"
    )
    return text


def settles_on(page: Any, wanted: str) -> str:
    """The focused element's id once it is ``wanted`` or after a second (focus moves late)."""
    deadline = time.monotonic() + 1
    while focused(page) != wanted and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    return focused(page)


def press_on(page: Any, selector: str, key: str) -> None:
    page.locator(selector).focus()
    page.keyboard.press(key)


def test_focus_follows_every_view_change_and_space_on_the_page_discards_nothing(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        web.connect("Ann")
        # Connect: the form that held focus is gone, focus is on the lobby's heading
        assert settles_on(page, "lobby-heading") == "lobby-heading"
        web.create_table(2, ["medium"], keyboard=True)
        page.wait_for_selector("#start-button:not([hidden])", timeout=10_000)
        # seated at a table of your own: on Start, spoken, never the empty hand (issue 25)
        assert focused(page) == "start-button"
        web.start(keyboard=True)
        web.wait_turn()
        page.wait_for_timeout(100)  # why: the browser moves focus off a hidden element later
        assert focused(page) == "hand"  # Start pressed: the button is gone, the hand has focus
        if "draw_stock" not in web.state()["legal"]:
            page.keyboard.press("Home")
            page.keyboard.press("Enter")
            web.wait_turn()
        before = web.state()["seq"]
        page.keyboard.press("d")  # the page's own focus, no locator.focus()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and web.state()["seq"] == before:
            page.wait_for_timeout(10)
        web.wait_turn()
        assert "discard" in web.state()["legal"]
        assert focused(page) == "hand"  # after a move
        # focus on the page itself: Space, Enter and arrows do nothing to the hand
        page.evaluate("() => document.activeElement.blur()")
        assert focused(page) == "BODY"
        hand = page.locator("#hand [role=option]").all()
        cards = [option.get_attribute("data-token") for option in hand]
        selected = page.locator("#hand").get_attribute("aria-activedescendant")
        seq = web.state()["seq"]
        for key in (" ", "Enter", "ArrowRight", "End"):
            page.keyboard.press(key)
        page.locator("#log").focus()
        for key in (" ", "Enter"):
            page.keyboard.press(key)
        page.wait_for_timeout(300)
        after = [o.get_attribute("data-token") for o in page.locator("#hand [role=option]").all()]
        assert after == cards
        assert web.state()["seq"] == seq and "discard" in web.state()["legal"]
        assert page.locator("#hand").get_attribute("aria-activedescendant") == selected
        assert not [f for f in web.frames if '"discarded"' in f and '"player":0' in f]
        # the help dialog opened from the page: closing it leaves focus on the hand
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("F1")
        assert page.locator("#help").evaluate("d => d.open")
        assert focused(page) == "help-close"
        # why no showModal: closing a modal dialog puts the page back in the accessibility
        # tree, and Orca read the whole log again as new
        assert page.evaluate("() => document.getElementById('help').matches(':modal')") is False
        page.keyboard.press("Tab")  # Tab stays inside the dialog
        inside = "() => document.getElementById('help').contains(document.activeElement)"
        assert page.evaluate(inside)
        page.keyboard.press("Escape")
        assert not page.locator("#help").evaluate("d => d.open")
        assert settles_on(page, "hand") == "hand"
        # the hand's own keys still play: Enter discards the selected card
        page.keyboard.press("Enter")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and web.state()["seq"] == seq:
            page.wait_for_timeout(10)
        assert web.state()["seq"] > seq
        assert focused(page) == "hand"
        # Leave, confirmed (Stay has the focus; Tab to Leave): the lobby comes back with focus
        # on its heading
        press_on(page, "[data-action=leave]", "Enter")
        assert focused(page) == "leave-no"
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_selector("#lobby:not([hidden])", timeout=10_000)
        page.wait_for_timeout(100)
        assert focused(page) == "lobby-heading"
        assert web.errors == []
    finally:
        page.close()


def test_two_tabs_with_one_seat_do_not_fight(browser: Any, server: ServerProcess) -> None:
    first = browser.new_page()
    second = browser.new_page()
    try:
        ann = WebPlayer(first, page_url(server.url))
        opened = {"first": 0, "second": 0}
        first.on("websocket", lambda ws: opened.__setitem__("first", opened["first"] + 1))
        ann.connect("Ann")
        token = first.evaluate("() => sessionStorage.getItem('fivecrowns-token')")
        # the second tab holds the same seat (as a duplicated tab does)
        again = WebPlayer(second, page_url(server.url))
        second.on("websocket", lambda ws: opened.__setitem__("second", opened["second"] + 1))
        second.evaluate(
            "(token) => { sessionStorage.setItem('fivecrowns-token', token);"
            " sessionStorage.setItem('fivecrowns-name', 'Ann'); }",
            token,
        )
        second.reload()
        second.wait_for_selector("html[data-ready=true]", timeout=10_000)
        second.wait_for_selector("#lobby-body:not([hidden])", timeout=10_000)
        first.wait_for_function(
            f"() => document.getElementById('connection').textContent === {REPLACED!r}",
            timeout=10_000,
        )
        first.wait_for_timeout(2500)  # a reconnect would come after 0.5 s
        assert opened["first"] == 1  # the first page opened no new connection
        assert REPLACED in [a["text"] for a in ann.said() if a["region"] == "log"]
        assert first.locator("#connection").text_content() == REPLACED
        assert second.locator("#connection").text_content() == "Connected as Ann."
        assert not [f for f in again.frames if '"replaced"' in f]
        assert ann.errors == [] and again.errors == []
    finally:
        first.close()
        second.close()


def test_a_seat_given_back_after_a_drop_is_not_said_again_and_keeps_focus(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        opened: list[int] = []
        page.on("websocket", lambda ws: opened.append(1))
        web.connect("Ann")
        web.create_table(2, ["medium"], keyboard=True)
        page.wait_for_selector("#start-button:not([hidden])", timeout=10_000)
        log = page.locator("#log")
        said_before = log.text_content() or ""
        assert said_before.count("You sit in seat 1") == 1
        page.evaluate(
            "() => { const app = window.fivecrowns; const seated = app.seated.bind(app);"
            " window.__seated = 0;"
            " app.seated = (data) => { window.__seated += 1; seated(data); }; }"
        )
        page.locator("#start-button").focus()
        page.evaluate("() => window.fivecrowns.ws.close()")  # the connection drops
        page.wait_for_function("() => window.__seated === 1", timeout=10_000)
        page.wait_for_timeout(200)
        assert len(opened) == 2  # it did reconnect, and the server seated it again
        assert (log.text_content() or "").count("You sit in seat 1") == 1
        assert focused(page) == "start-button"  # focus stayed where the player was
        assert web.errors == []
    finally:
        page.close()


def test_the_built_in_voice_says_each_card_the_arrows_move_to(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        record_speech(page)
        web = WebPlayer(page, page_url(server.url))
        web.create_and_start("Ann", 2, ["medium"], keyboard=True)
        web.wait_turn()
        page.locator("#voice").check()
        page.locator("#hand").focus()
        page.keyboard.press("Home")
        page.evaluate("() => { window.__spoken = []; }")
        page.keyboard.press("ArrowRight")  # not at an edge: no live region, the voice alone
        second = page.locator("#card-1").get_attribute("aria-label")
        assert second and second.endswith(", 2 of 3")
        assert page.evaluate("() => window.__spoken") == [["cancel"], ["speak", second]]
        assert web.errors == []
    finally:
        page.close()
