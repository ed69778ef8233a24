"""The page tells the server when its news starts and stops waiting (issue 25, web/listening.js):
a real ``fivecrowns serve`` and Debian's Chromium.

A seated player's page whose news queue fills says ``{"type": "listening", "behind": true}``
once, and ``false`` once it is empty again: edges only, never a message per sentence. A
spectator's page says nothing, however much news it has queued; and so does a page whose news
goes out at once (nothing ever waits).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from server_support import ServerProcess
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real]

# a screen reader's pace the test can wait for: 0.25 s a sentence, so the deal's news (the
# game starts, the round and its wild cards, the hand...) waits a second or two in the queue
SLOW = """() => Object.assign(window.fivecrowns.timing.pace,
  {lead: 0.25, perWord: 0, minimum: 0.25, slackMs: 0, repeatWindowMs: 700, afterKeyMs: 0})"""
# every time the page's news queue started or stopped waiting, as the page saw it
EDGES = """() => { window.__edges = []; const l = window.fivecrowns.listening; if (!l) return;
  const set = l.set.bind(l); l.set = (behind) => { window.__edges.push(behind); set(behind); }; }"""
DRAINED = "() => window.fivecrowns.news.queue.length === 0"


def listening(page: Any) -> list[dict[str, Any]]:
    """Every ``listening`` message the page sent, in order (kept as the page sends them)."""
    sent: list[dict[str, Any]] = []

    def socket(ws: Any) -> None:
        def frame(payload: Any) -> None:
            data = json.loads(str(payload))
            if data.get("type") == "listening":
                sent.append(data)

        ws.on("framesent", frame)

    page.on("websocket", socket)
    return sent


def test_a_seated_page_says_when_its_news_starts_and_stops_waiting_and_a_spectator_does_not(
    browser: Any, server: ServerProcess
) -> None:
    player, watcher = browser.new_page(), browser.new_page()
    try:
        ann_sent, eve_sent = listening(player), listening(watcher)
        ann = WebPlayer(player, page_url(server.url))
        eve = WebPlayer(watcher, page_url(server.url))
        for page in (player, watcher):
            page.evaluate(SLOW)
            page.evaluate(EDGES)
        ann.connect("Ann")
        table = ann.create_table(2, ["easy"])
        eve.connect("Eve")
        watcher.get_by_role("button", name=f"Watch table {table}").click()
        watcher.wait_for_selector("#table:not([hidden])", timeout=10_000)
        player.wait_for_function(DRAINED, timeout=20_000)
        ann.start()
        # the deal's news fills both queues; once Ann's is empty again, her page said so
        player.wait_for_function("() => window.__announcements.length > 4", timeout=20_000)
        for page in (player, watcher):
            page.wait_for_function(DRAINED, timeout=30_000)
        player.wait_for_timeout(700)  # a last edge, paced (listening.js), is on its way
        said = [message["behind"] for message in ann_sent]
        assert said, "the seated page never said its news was behind"
        assert said[0] is True and said[-1] is False, said
        # edges only: each message the opposite of the one before
        assert all(earlier != later for earlier, later in itertools.pairwise(said)), said
        sentences = len(player.evaluate("() => window.__announcements"))
        assert len(said) < sentences, (said, sentences)  # never a message per sentence
        assert all(set(message) == {"type", "behind"} for message in ann_sent), ann_sent
        # the spectator's queue filled and emptied as hers did, and its page said nothing
        assert True in watcher.evaluate("() => window.__edges"), "Eve's news never waited"
        assert eve_sent == [], eve_sent
        assert not ann.errors and not eve.errors, (ann.errors, eve.errors)
        # and nothing in the page answered a refusal of it
        assert not [f for f in ann.frames if '"code": "listening_' in f], ann.frames
    finally:
        player.close()
        watcher.close()


def test_a_page_whose_news_goes_out_at_once_says_nothing(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        sent = listening(page)
        ann = WebPlayer(page, page_url(server.url))  # unpaced: every sentence goes out at once
        ann.create_and_start("Ann", 2, ["easy"])
        for _move in range(4):
            ann.wait_turn()
            ann.play_one(go_out=False)
        page.wait_for_timeout(500)
        assert len(page.evaluate("() => window.__announcements")) > 4
        assert sent == [], sent
    finally:
        page.close()
