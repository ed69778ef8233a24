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
import re
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


def test_a_reconnected_page_says_nothing_of_its_news_until_it_is_seated_again(
    browser: Any, server: ServerProcess
) -> None:
    """After a dropped socket the page still knows its old seat, but the server does not know
    the new socket's yet: a ``listening`` sent before ``seated`` was refused (``hello_first``
    or ``no_table``). Here the new socket's ``seated`` is held back while the page's queue
    changes: it says nothing until it is seated, then what its queue is now."""
    page = browser.new_page()
    sockets: list[list[tuple[str, str]]] = []  # per socket: ("sent" | "got", type), in order
    held: list[tuple[Any, str]] = []
    holding = [False]

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        log: list[tuple[str, str]] = []
        sockets.append(log)

        def from_page(message: Any) -> None:
            log.append(("sent", json.loads(str(message)).get("type", "")))
            upstream.send(message)

        def from_server(message: Any) -> None:
            kind = json.loads(str(message)).get("type", "")
            if holding[0] and (kind == "seated" or held):  # it and all after it, in order
                held.append((ws, str(message)))
                return
            log.append(("got", kind))
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws$"), route)
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.create_and_start("Ann", 2, ["easy"])
        ann.wait_turn()
        holding[0] = True
        page.evaluate("() => window.fivecrowns.ws.close()")  # the connection drops
        for _look in range(100):  # the page connects again within a few seconds
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the page did not connect again"
        # the page's news starts waiting (or stops) while its new seat is not yet known
        page.evaluate("() => { const l = window.fivecrowns.listening; l.set(!l.told); }")
        page.wait_for_timeout(700)  # more than the page's pacing of these messages
        assert ("sent", "listening") not in sockets[-1], sockets[-1]
        holding[0] = False
        for ws, message in held:
            sockets[-1].append(("got", json.loads(message).get("type", "")))
            ws.send(message)
        for _look in range(50):
            if ("sent", "listening") in sockets[-1]:
                break
            page.wait_for_timeout(100)
        new = sockets[-1]
        assert ("sent", "listening") in new, new  # told once seated: its queue's state now
        assert new.index(("sent", "listening")) > new.index(("got", "seated")), new
        assert ("got", "error") not in new, new
    finally:
        page.close()
