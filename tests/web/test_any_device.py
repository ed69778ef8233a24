"""Your seat from any device (issue 28, item 2), end to end at a real `fivecrowns serve`:
logged in, Ann moves mid-game from a terminal (`fivecrowns join --log-in`) to the web page
(Debian's Chromium), then back to a new terminal. Each time the seat is hers at once (no
computer player), the old device is told once that it was replaced and stops reconnecting,
nothing is told twice, and no frame the page gets holds another seat's cards."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from join_support import TypedClient
from server_support import ServerProcess, no_leaks
from web_account_support import PASSWORD, account_form
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real]

REPLACED_TERMINAL = "You connected again from elsewhere; this one closes."
REPLACED_PAGE = "This seat is now open in another window or tab. Reload this page to play here."


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path / "server", "--bot-delay", "0", "--rate", "1000", "--grace", "600"
    ).start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors


def _finish(client: TypedClient) -> tuple[int, list[str]]:
    out, _err = client.proc.communicate(timeout=30)
    return client.proc.returncode, [*client.transcript, *out.splitlines()]


def _between(lines: list[str], first: str, last: str) -> list[str]:
    """The lines after the first that starts with ``first`` and before the next that starts
    with ``last``."""
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith(last))
    return lines[start + 1 : end]


def _frames(web: WebPlayer) -> list[dict[str, Any]]:
    return [json.loads(frame) for frame in web.frames]


def test_the_seat_moves_from_a_terminal_to_the_page_and_back(
    browser: Any, server: ServerProcess
) -> None:
    terminal = TypedClient(server.url, "Ann", "--sign-up")
    terminal.type(PASSWORD)
    terminal.until(lambda line: line.startswith("Logged in as Ann."))
    terminal.type("create 2 easy")
    terminal.until(lambda line: line.startswith("You sit in seat 1"))
    terminal.type("start")
    terminal.until(lambda line: line.startswith("You can:"))
    terminal.type("d")
    terminal.until(lambda line: line.startswith("You drew"))
    # terminal -> web page: the page logs in and is at once in the seat, at Ann's turn
    context = browser.new_context()
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        account_form(page, "Ann", PASSWORD, "log-in-button")
        page.wait_for_selector("#table:not([hidden])", timeout=15_000)
        web.wait_turn()
        snapshot = page.evaluate("() => window.fivecrowns.snapshot")
        assert snapshot["seat"] == 0 and not snapshot["seats"][0]["standin"]
        assert snapshot["legal"] and "draw_stock" not in [m["move"] for m in snapshot["legal"]]
        # the old terminal is told once, and ends: it does not take the seat back
        terminal.until(lambda line: line == REPLACED_TERMINAL)
        status, lines = _finish(terminal)
        assert status == 0, lines
        assert lines.count(REPLACED_TERMINAL) == 1
        after = lines[lines.index(REPLACED_TERMINAL) + 1 :]
        assert not any("connection dropped" in line for line in after), after
        # nothing was told twice: the page heard no event before its snapshot (the terminal
        # had heard them all), and every event it heard came once, in order
        frames = _frames(web)
        first_snapshot = next(i for i, f in enumerate(frames) if f["type"] == "snapshot")
        assert not [f for f in frames[:first_snapshot] if f["type"] == "event"]
        seqs = [f["seq"] for f in frames if f["type"] == "event"]
        assert seqs == sorted(set(seqs))
        # the page plays on: a discard, the computer's turn, Ann's turn again
        web.play_one(go_out=False)
        web.wait_turn()
        heard_by_page = page.evaluate("() => window.fivecrowns.seq")
        sockets = len(web.sockets)
        # web page -> a new terminal, by log-in: the page is told once and stops
        back = TypedClient(server.url, "Ann", "--log-in")
        back.type(PASSWORD)
        back.until(lambda line: line.startswith("You sit in seat 1"))
        back.until(lambda line: line.startswith("You can:"))
        page.wait_for_function(
            "text => document.getElementById('connection').textContent === text",
            arg=REPLACED_PAGE,
            timeout=15_000,
        )
        deadline = time.monotonic() + 3  # why: a reconnection would start within this
        while time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert len(web.sockets) == sockets and web.live_sockets() == 0
        said = [a["text"] for a in web.said()]
        assert said.count(REPLACED_PAGE) == 1
        back.type("d")
        back.until(lambda line: line.startswith("You drew"))
        back.type("q")
        status, lines = _finish(back)
        # the new terminal heard no event the page had heard: between its seat and its hand
        # it said nothing (the snapshot told the hand), and the game went on from there
        assert _between(lines, "You sit in seat 1", "Your hand:") == [], lines
        assert heard_by_page > 0
        assert PASSWORD not in "\n".join(lines)
        no_leaks(0, [f for f in _frames(web) if f["type"] in ("event", "snapshot")])
        assert web.errors == []
    finally:
        context.close()
