"""The page's newer parts seen true at 1280x900, on a phone and at 200% zoom (issue 25 item 6):
the chat field and its newest line in sight and uncovered while you type, with the messages'
newest line in sight too; the Leave question and the Keys dialog wholly on screen, their
buttons uncovered; axe with nothing to say about any of it, in forced colours too.

A real Chromium against a real ``fivecrowns serve`` on 127.0.0.1 (tests/web/test_table.py checks
the table itself at the same sizes).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from server_support import ServerProcess
from web_support import LAYOUT, SIZES, UNCOVERED, WebPlayer, axe_violations, page_url

pytestmark = [pytest.mark.real]

NEWEST_LINE = """() => {
  const log = document.getElementById("log");
  const lines = log.querySelectorAll('p');
  const newest = lines[lines.length - 1];
  if (!newest) return 'the log is empty';
  const r = newest.getBoundingClientRect(), box = log.getBoundingClientRect();
  if (r.bottom > box.bottom + 1 || r.bottom < box.top + 8) return 'the newest line scrolled away';
  if (box.top < 0 || box.bottom > innerHeight + 1) return 'the log is out of sight';
  return '';
}"""


def test_chat_and_dialogs_in_sight_at_each_size_and_in_forced_colours(
    browser: Any, server: ServerProcess
) -> None:
    page, other = browser.new_page(), browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        ann.create_table(2, [""], private=True, keyboard=True)
        page.wait_for_function(
            "() => /invite code is/.test(document.getElementById('log').textContent)"
        )
        text = page.locator("#log").inner_text()
        found = re.search(r"the invite code is ([0-9A-Z]{5}-[0-9A-Z]{5})", text)
        assert found, text
        ben = WebPlayer(other, page_url(server.url))
        ben.connect("Ben")
        other.locator("#code").fill(found.group(1))
        other.locator("#watch-code").focus()
        other.keyboard.press("Enter")
        other.wait_for_selector("#table:not([hidden])", timeout=10_000)
        other.locator("#table-heading").focus()
        other.keyboard.press("/")
        other.keyboard.type("hello all, a line long enough to wrap on a phone's narrow screen")
        other.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.querySelectorAll('#chat-lines li').length === 1"
            " && /Ben/.test(document.getElementById('watchers').textContent)",
            timeout=10_000,
        )
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(50)
            # typing a line: the field and the line said before it in sight, the messages too
            page.locator("#table-heading").focus()
            page.keyboard.press("/")
            assert page.evaluate("() => document.activeElement.id") == "chat", size
            page.wait_for_timeout(100)
            covered = page.evaluate(UNCOVERED, ["#chat", "#chat-lines li:last-child"])
            assert covered == [], (size, "chat")
            assert page.evaluate(NEWEST_LINE) == "", (size, "chat")
            assert page.evaluate(LAYOUT) == [], (size, "chat")
            page.keyboard.press("Escape")
            # the Leave question: all of it on screen, above the messages' panel
            page.locator("[data-action=leave]").focus()
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.getElementById('leave-dialog').open")
            covered = page.evaluate(
                UNCOVERED, ["#leave-dialog", "#leave-text", "#leave-no", "#leave-yes"]
            )
            assert covered == [], (size, "leave")
            if size == "phone":
                assert axe_violations(page) == [], (size, "leave")
                page.emulate_media(forced_colors="active")
                assert axe_violations(page) == [], (size, "leave, forced colours")
                page.emulate_media(forced_colors="none")
            page.keyboard.press("Escape")
            # the Keys dialog: its heading and Close on screen (its list scrolls inside it)
            page.keyboard.press("F1")
            page.wait_for_function("() => document.getElementById('help').open")
            covered = page.evaluate(UNCOVERED, ["#help-heading", "#help-close"])
            assert covered == [], (size, "keys")
            page.keyboard.press("Escape")
        assert ann.errors == [] and ben.errors == []
    finally:
        page.emulate_media(forced_colors="none")
        page.close()
        other.close()
