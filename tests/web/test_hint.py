"""The web page's hint is the terminal's hint (issue 27 item 1), in English and Spanish.

A real Chromium against a real ``fivecrowns serve`` on 127.0.0.1, as tests/web/test_browser.py.
The page's Shift+H shows the server's answer; the test rebuilds the seat's view from the very
frames the page received, as the terminal client does (:func:`view_from_snapshot`), and words
the terminal's hint from it: both must be the same sentence.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from fivecrowns import i18n
from fivecrowns.core.moves import Event, RoundStarted
from fivecrowns.net.client.link import event_of, view_from_snapshot
from fivecrowns.words.hint import hint_sentence
from server_support import ServerProcess
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real]


def terminal_hint(frames: list[str], seat: int, language: str) -> str:
    """The terminal's Shift+H for ``seat`` from the frames a page received."""
    events: list[Event] = []
    snapshot: dict[str, Any] | None = None
    for text in frames:
        frame = json.loads(text)
        if frame.get("type") == "snapshot":
            snapshot = frame
        elif frame.get("type") == "event":
            event = event_of(frame)
            if event is not None:
                events.append(event)
    assert snapshot is not None
    start = max((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), default=0)
    view = view_from_snapshot(snapshot["view"], seat, events[start:])
    with i18n.speaking(language):
        return hint_sentence(view, None)


def page_hint(page: Any) -> str:
    count = page.evaluate("() => window.__announcements.length")
    page.keyboard.press("Shift+H")
    page.wait_for_function(f"() => window.__announcements.length > {count}", timeout=10_000)
    text: str = page.evaluate(f"() => window.__announcements[{count}].text")
    return text


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_page_s_hint_is_the_terminal_s_hint(
    browser: Any, server: ServerProcess, language: str
) -> None:
    context = browser.new_context(locale="es-ES" if language == "es" else "en-US")
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        web.create_and_start("Ana")
        compared = 0
        for _step in range(16):  # bounded: draw and discard phases of several turns
            web.wait_turn()
            page.locator("#hand").focus()
            said = page_hint(page)
            assert said == terminal_hint(web.frames, 0, language), said
            compared += 1
            web.play_one(go_out=False)
        assert compared == 16 and web.errors == []
    finally:
        context.close()
