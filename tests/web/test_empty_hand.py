"""Your hand emptied while it has focus (you went out): focus moves first, to a list of its own
named "Your hand is empty.", then the cards leave (web/emptyhand.js). Before, the hand kept
its cards a few seconds for the screen reader (focus.js) and the page said "Your hand, 0
cards." while Orca in Chromium said "List with 4 items." (Chromium ignores aria-setsize 0).
Real Chromium, its own accessibility tree; Orca hearing it is test_orca.py's."""

from __future__ import annotations

from typing import Any

import pytest

from server_support import ServerProcess
from web_support import (
    LAYOUT,
    SIZES,
    UNCOVERED,
    WebPlayer,
    ax_nodes,
    axe_violations,
    page_url,
)

pytestmark = [pytest.mark.real]

# the hand as the server sends it after going out (none) and at the next deal (the cards
# kept here), without playing a whole round to get there
SET_HAND = """(count) => { const app = window.fivecrowns;
  window.__dealt ??= app.snapshot.view.hand;
  const view = {...app.snapshot.view, hand: window.__dealt.slice(0, count)};
  app.snapshot = {...app.snapshot, view}; app.renderHand(); }"""
STATE = """() => { const box = document.getElementById('hand');
  const empty = document.getElementById('hand-empty');
  return {focused: document.activeElement.id, label: box.getAttribute('aria-label'),
          cards: box.querySelectorAll('[role=option]').length,
          tabindex: box.getAttribute('tabindex'),
          active: box.getAttribute('aria-activedescendant'),
          empty: !empty ? 'none' : empty.hidden ? 'hidden'
            : empty.classList.contains('retiring') ? 'retiring' : 'shown'}; }"""


def focused_node(page: Any) -> dict[str, Any]:
    """What a screen reader is told has focus (Chromium's own tree, over CDP): its role, name
    and the roles of its children, as Orca counts a list's items from them."""
    nodes = ax_nodes(page)
    by_id = {node["nodeId"]: node for node in nodes}
    focused = [
        node
        for node in nodes
        if not node.get("ignored")
        and node["role"]["value"] != "RootWebArea"  # the page itself counts as focused too
        and any(
            prop["name"] == "focused" and prop["value"]["value"]
            for prop in node.get("properties", [])
        )
    ]
    assert len(focused) == 1, focused
    node = focused[0]
    children = [by_id[child] for child in node.get("childIds", []) if child in by_id]
    return {
        "role": node["role"]["value"],
        "name": node.get("name", {}).get("value"),
        "children": [child["role"]["value"] for child in children if not child.get("ignored")],
    }


def test_an_emptied_hand_gives_focus_to_its_empty_list_first_and_back_at_the_deal(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.dealt("Ann")
        page.evaluate("() => { window.fivecrowns.timing.hiding.afterMs = 3000; }")
        page.locator("#hand").focus()
        page.evaluate(SET_HAND, 0)  # you went out
        state = page.evaluate(STATE)
        # focus left the hand before its cards went, to a list that says the hand is empty;
        # the hand's cards retire, and Tab cannot reach a list that still counts them
        assert state == {
            "focused": "hand-empty",
            "label": "Your hand, 0 cards",
            "cards": 3,
            "tabindex": "-1",
            "active": None,
            "empty": "shown",
        }
        # what the screen reader is told: no count of cards, and a child object (Orca 43
        # says nothing at all for a list box with none), an option no one can pick (a list
        # box holds options only)
        assert focused_node(page) == {
            "role": "listbox",
            "name": "Your hand is empty.",
            "children": ["option"],
        }
        option = page.evaluate(
            "() => { const o = document.querySelector('#hand-empty [role=option]');"
            " return [o.textContent, o.ariaDisabled, o.ariaSelected]; }"
        )
        assert option == ["Your hand is empty.", "true", "false"]
        # its keys are the hand's: an arrow says the hand is empty, a letter is the page's
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => window.__announcements.some(a => a.region === 'answer'"
            " && a.text === 'Your hand is empty.')",
            timeout=5_000,
        )
        # the cards have gone: the hand, empty, is a Tab stop again
        page.wait_for_function(
            "() => !document.querySelector('#hand [role=option]')", timeout=10_000
        )
        assert page.evaluate(STATE)["tabindex"] == "0"
        # an arrow's answer being said (1.5 s here) when the next deal comes: focus goes back
        # to the hand once it was said (a screen reader cuts what it says when focus moves)
        page.evaluate("() => { window.fivecrowns.timing.pace.minimum = 1.5; }")
        page.keyboard.press("ArrowLeft")
        page.evaluate(SET_HAND, 3)  # the next deal
        state = page.evaluate(STATE)
        # no card picked yet: a screen reader may follow a list's pick without its focus
        assert (state["focused"], state["active"]) == ("hand-empty", None), state
        assert page.evaluate("() => !document.querySelector('#hand [aria-selected=true]')")
        page.wait_for_function("() => document.activeElement.id === 'hand'", timeout=5_000)
        state = page.evaluate(STATE)  # focus back on the hand, on a card
        assert (state["focused"], state["cards"], state["active"], state["tabindex"]) == (
            "hand",
            3,
            "card-0",
            "0",
        )
        assert state["empty"] == "retiring"  # out of sight, still there for the screen reader
        page.wait_for_function("() => document.getElementById('hand-empty').hidden")
        assert ann.errors == []
    finally:
        page.close()


def test_a_hand_emptied_while_focus_is_elsewhere_leaves_focus_there(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.dealt("Ann")
        page.evaluate("() => { window.fivecrowns.timing.hiding.afterMs = 3000; }")
        page.locator("[data-action=round]").focus()
        page.evaluate(SET_HAND, 0)
        state = page.evaluate(STATE)
        assert (state["focused"], state["empty"], state["tabindex"]) == ("", "hidden", "-1")
        assert page.evaluate("() => document.activeElement.dataset.action") == "round"
        page.evaluate(SET_HAND, 3)
        state = page.evaluate(STATE)
        assert (state["focused"], state["empty"], state["tabindex"]) == ("", "hidden", "0")
        assert ann.errors == []
    finally:
        page.close()


def test_a_key_while_focus_waits_on_the_empty_list_brings_it_back_to_the_dealt_hand(
    browser: Any, server: ServerProcess
) -> None:
    """Focus waits on the empty hand's list after a deal until the answer to the last key was
    said; a key pressed meanwhile has cut that answer already, so focus goes back to the hand
    at once and the key is answered there (before, an arrow moved an unpicked card unheard,
    focus left on the empty list)."""
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.dealt("Ann")
        page.locator("#hand").focus()
        page.evaluate(SET_HAND, 0)  # you went out
        page.evaluate("() => { window.fivecrowns.timing.pace.minimum = 60; }")
        page.keyboard.press("ArrowLeft")  # "Your hand is empty.", said for a long time here
        page.evaluate(SET_HAND, 3)  # the next deal, while that answer is still being said
        assert page.evaluate(STATE)["focused"] == "hand-empty"
        page.keyboard.press("ArrowRight")
        state = page.evaluate(STATE)
        # a screen reader says the card that focus and the pick are on (the list's own way)
        assert (state["focused"], state["active"]) == ("hand", "card-1"), state
        assert page.evaluate("() => document.getElementById('card-1').ariaSelected") == "true"
        assert ann.errors == []
    finally:
        page.close()


# every focus move, in order: the focused element's id and, for a list box, its name
FOCUS_LOG = """() => { window.__focusLog = [];
  document.addEventListener('focusin', (e) => window.__focusLog.push(
    [e.target.id, e.target.getAttribute('aria-label')]), true); }"""


def test_start_gives_focus_at_once_to_a_list_waiting_for_the_deal_then_to_the_hand(
    browser: Any, server: ServerProcess
) -> None:
    """Heard with Orca (web6): on the Start button a screen reader is in browse mode, and a key
    pressed before it followed focus to the dealt hand was its own ("c", next combo box, went
    to the retiring lobby; Right moved its caret, and Firefox took focus from the hand). So
    Start moves focus at once, before the server's answer, to a list box (focus mode)."""
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        ann.create_table(2, ["medium"])
        page.wait_for_selector("#start-button:not([hidden])", timeout=10_000)
        page.evaluate(FOCUS_LOG)
        page.evaluate("() => { window.fivecrowns.timing.hiding.afterMs = 3000; }")
        page.locator("#start-button").focus()
        # the page's own record of focus when its Start handler has run (before the answer)
        page.evaluate(
            "() => document.getElementById('start-button').addEventListener('click', () =>"
            " { window.__afterStart = [document.activeElement.id,"
            " document.getElementById('hand-empty').getAttribute('aria-label'),"
            " document.getElementById('hand-empty').textContent.trim()]; })"
        )
        page.keyboard.press("Enter")
        assert page.evaluate("() => window.__afterStart") == [
            "hand-empty",
            "Your hand: waiting for the deal.",
            "Your hand: waiting for the deal.",
        ]
        page.wait_for_function("() => document.activeElement.id === 'hand'", timeout=10_000)
        log = page.evaluate("() => window.__focusLog")
        # (the hand's name is brought up to date in the same moment, after its focus)
        assert [entry[0] for entry in log[:2]] == ["hand-empty", "hand"], log
        assert log[0][1] == "Your hand: waiting for the deal."
        # the Start button left focus: it retires (kept for a screen reader behind), and of
        # its panel only the way to it stays in the screen reader's reach
        state = page.evaluate(
            "() => ({hidden: document.getElementById('waiting').hidden,"
            " retiring: document.getElementById('waiting').classList.contains('retiring'),"
            " text: document.getElementById('waiting-text').getAttribute('aria-hidden')})"
        )
        assert state == {"hidden": False, "retiring": True, "text": "true"}, state
        assert ann.errors == []
    finally:
        page.close()


def test_a_refused_start_gives_focus_back_to_the_start_button(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        ann.create_table(2, [""])  # seat 2 waits for a person: the server refuses to start
        page.wait_for_selector("#start-button:not([hidden])", timeout=10_000)
        page.locator("#start-button").focus()
        page.evaluate(FOCUS_LOG)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.activeElement.id === 'start-button' && window.__focusLog.length >= 2",
            timeout=10_000,
        )
        # focus waited for the deal, and came back to Start when the server refused it
        log = page.evaluate("() => window.__focusLog.map(entry => entry[0])")
        assert log == ["hand-empty", "start-button"], log
        page.wait_for_function(
            "() => window.__announcements.some(a => a.region === 'answer')", timeout=5_000
        )
        assert page.evaluate("() => document.getElementById('hand-empty').hidden") is True
    finally:
        page.close()


def test_the_empty_hand_is_in_sight_and_clear_at_each_size_and_in_forced_colours(
    browser: Any, server: ServerProcess
) -> None:
    """Issue 25 item 6 for the empty hand's own list: on screen and uncovered at 1280x900, on
    a phone and at 200% zoom, and nothing for axe, in forced colours too."""
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.dealt("Ann")
        page.evaluate("() => { window.fivecrowns.timing.hiding.afterMs = 60_000; }")
        page.locator("#hand").focus()
        page.evaluate(SET_HAND, 0)  # you went out
        assert page.evaluate(STATE)["empty"] == "shown"
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(50)
            # looking at the hand, as test_table's layout check: wholly in sight, not under
            # the messages' panel, nothing overlapping
            page.evaluate(
                "() => document.getElementById('hand-empty').scrollIntoView({block: 'center'})"
            )
            assert page.evaluate(UNCOVERED, ["#hand-empty"]) == [], size
            assert page.evaluate(LAYOUT) == [], size
            assert axe_violations(page) == [], size
            page.emulate_media(forced_colors="active")
            assert axe_violations(page) == [], (size, "forced colours")
            page.emulate_media(forced_colors="none")
        assert ann.errors == []
    finally:
        page.emulate_media(forced_colors="none")
        page.close()
