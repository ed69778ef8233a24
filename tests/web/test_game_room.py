"""Issue 28's done-when, end to end against a real `fivecrowns serve` process: a new player
signs up in the web page (Debian's Chromium), becomes friends (from the page's Friends
section) with a player who logged in at a terminal client (`fivecrowns join --log-in`, its own
process), and plays a rated game with that friend and a computer player;
mid-game she moves to another device (a second browser, logged in there) without losing the
seat, and the old page is told it was replaced; then both read the new rating and the game's
record, round by round, each on their own client.

A whole game of 11 rounds is played (the server has no option that shortens a game): about
two to four minutes on a quiet machine."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from join_support import TypedClient
from server_support import ServerProcess, no_leaks
from web_account_support import PASSWORD, account_form, logged_in
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real, pytest.mark.slow]

REPLACED_PAGE = "This seat is now open in another window or tab. Reload this page to play here."
GAME_SECONDS = 600.0  # a bound, far above the two to four minutes a game takes


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path / "server", "--bot-delay", "0", "--rate", "1000", "--grace", "600"
    ).start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors


class Terminal:
    """Tom at `fivecrowns join`: he answers each "You can" line (draw, then throw his first
    card), and keeps every line he heard."""

    def __init__(self, client: TypedClient) -> None:
        self.client = client
        self.cursor = 0  # how far in the transcript ``until`` has looked

    def step(self, wait: float = 0.0) -> None:
        """Take the lines there are (waiting up to ``wait`` for the first); answer a turn."""
        line = self.client.next_line(wait)
        for _count in range(200):  # why bounded: a burst is a few dozen lines
            if line is None:
                return
            if line.startswith("You can: d, draw"):
                self.client.type("d")
            elif line.startswith("You can:"):
                self.client.type("x 1")
            line = self.client.next_line(0.0)

    def until(self, stop: Any, seconds: float = 30.0) -> str:
        """The first line ``stop`` is true of that no earlier ``until`` passed over, waiting up
        to ``seconds``. Why from the transcript: ``_play`` takes lines as they come, and a line
        it took while playing on (the new rating, at game over) must still be found here."""
        transcript = self.client.transcript
        deadline = time.monotonic() + seconds
        for _count in range(100_000):
            for index in range(self.cursor, len(transcript)):
                if stop(transcript[index]):
                    self.cursor = index + 1
                    return str(transcript[index])
            self.cursor = len(transcript)
            if time.monotonic() >= deadline:
                break
            self.step(wait=0.2)
        raise AssertionError(f"not heard in {seconds} s: {transcript[-8:]}")


def _play(web: WebPlayer, tom: Terminal, done: Any, seconds: float) -> None:
    """Both people play their turns (the computer player plays its own) until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, (
            web.state(),
            web.said()[-4:],
            tom.client.transcript[-6:],
        )
        moved = web.play_one()
        tom.step()
        if not moved:
            web.page.wait_for_timeout(20)


def _heard(page: Any, text: str) -> None:
    page.wait_for_function(
        "text => (window.__announcements || []).some(a => a.text === text)",
        arg=text,
        timeout=15_000,
    )


def _frames(web: WebPlayer) -> list[dict[str, Any]]:
    return [json.loads(frame) for frame in web.frames]


def _out(page: Any) -> list[str]:
    lines: list[str] = page.locator("#ratings-out li").all_inner_texts()
    return lines


def _press(page: Any, selector: str) -> None:
    page.locator(selector).focus()
    page.keyboard.press("Enter")


def test_sign_up_play_rated_with_a_friend_move_device_and_read_the_record(
    browser: Any, server: ServerProcess
) -> None:
    started = time.monotonic()
    first = browser.new_context()
    second = browser.new_context()  # another device: nothing of the first one's is here
    try:
        # Nia is new: she signs up in the web page
        page = first.new_page()
        web = WebPlayer(page, page_url(server.url))
        account_form(page, "Nia", PASSWORD, "sign-up-button")
        logged_in(page, "Nia")
        # Tom logs in at a terminal (his account made beforehand, at a terminal too)
        maker = TypedClient(server.url, "Tom", "--sign-up")
        maker.type(PASSWORD)
        maker.until(lambda line: line.startswith("Logged in as Tom."))
        maker.type("q")
        maker.proc.communicate(timeout=30)
        client = TypedClient(server.url, "Tom", "--log-in")
        client.type(PASSWORD)
        client.until(lambda line: line.startswith("Logged in as Tom."))
        tom = Terminal(client)
        # they become friends: Tom asks from his terminal, Nia accepts in the page
        client.type("friend Nia")
        tom.until(lambda line: line.startswith("Asked Nia to be your friend"))
        accept = page.get_by_role("button", name="Accept Tom's friend request", exact=True)
        accept.wait_for(timeout=15_000)
        accept.focus()
        page.keyboard.press("Enter")
        tom.until(lambda line: line == "Nia is your friend now.")
        _heard(page, "Tom is in the lobby.")
        # a rated table of three: Nia, a seat for Tom, an easy computer player
        assert page.locator("#rated").is_checked()
        table = web.create_table(3, ["", "easy"])
        client.type(f"join {table}")
        tom.until(lambda line: line.startswith("You sit in seat 2"))
        web.start()
        # they play into round 2, to Nia's turn there
        _play(web, tom, lambda: web.state()["round"] >= 2 and web.my_turn(), GAME_SECONDS)
        # Nia moves to another device mid-game: logged in there, the seat is hers at once
        page2 = second.new_page()
        web2 = WebPlayer(page2, page_url(server.url))
        account_form(page2, "Nia", PASSWORD, "log-in-button")
        page2.wait_for_selector("#table:not([hidden])", timeout=15_000)
        web2.wait_turn()
        _heard(page2, "Tom is playing at a table.")  # the new device knows where friends are
        snapshot = page2.evaluate("() => window.fivecrowns.snapshot")
        assert snapshot["seat"] == 0 and not snapshot["seats"][0]["standin"]
        assert snapshot["view"]["round"] == 2
        # the old device is told once that it was replaced, and stops
        page.wait_for_function(
            "text => document.getElementById('connection').textContent === text",
            arg=REPLACED_PAGE,
            timeout=15_000,
        )
        assert [a["text"] for a in web.said()].count(REPLACED_PAGE) == 1
        assert web.live_sockets() == 0
        # the game goes on to its end from the new device
        _play(web2, tom, lambda: web2.state()["over"], GAME_SECONDS)
        # the new ratings: said to each at game over
        rating = tom.until(lambda line: line.startswith("Your rating is "))
        assert re.fullmatch(r"Your rating is [\d,]+ now, .+; [12]\w\w of 2\.", rating)
        page2.wait_for_function(
            "() => (window.__announcements || []).some(a => a.text.startsWith('Your rating is '))",
            timeout=15_000,
        )
        # the record on the terminal: Tom's, then the game round by round
        client.type("record")
        record = tom.until(lambda line: line.startswith("Rating "))
        assert re.fullmatch(r"Rating [\d,]+, [12]\w\w of 2\. Played 1, won [01]\.", record)
        client.type("games")
        tom.until(lambda line: line.startswith("Rated games of Tom, page 1 of 1: 1 game"))
        listed = tom.until(lambda line: line.startswith("Game "))
        number = listed.split()[1].rstrip(".")
        assert "Nia" in listed and "Tom" in listed and "Bot 3" in listed, listed
        client.type(f"game {number}")
        tom.until(lambda line: line.startswith("Round 1: Nia "))
        tom.until(lambda line: line.startswith("Round 11: Nia "))
        # ... and on the page: back in the lobby, her record, her games, the same game
        _press(page2, "[data-action=leave]")
        page2.locator("#leave-yes").click()
        page2.wait_for_selector("#lobby-body:not([hidden])", timeout=15_000)
        _press(page2, "#my-record")
        page2.wait_for_function(
            "() => document.querySelector('#ratings-out').innerText.startsWith('Rating ')",
            timeout=15_000,
        )
        (mine,) = _out(page2)
        assert re.fullmatch(r"Rating [\d,]+, [12]\w\w of 2\. Played 1, won [01]\.", mine), mine
        _press(page2, "#my-games")
        button = page2.locator("#ratings-out li button")
        button.wait_for(timeout=15_000)
        assert button.inner_text().startswith(f"Game {number}.")
        button.focus()
        page2.keyboard.press("Enter")
        page2.wait_for_function(
            "() => document.querySelector('#ratings-out').innerText.includes('Round 11: Nia ')",
            timeout=15_000,
        )
        lines = _out(page2)
        assert lines[1].startswith("Round 1: Nia ") and len(lines) == 12, lines
        # nothing hidden reached the page, on either device; no password anywhere
        no_leaks(0, [f for f in _frames(web) + _frames(web2) if f["type"] in ("event", "snapshot")])
        assert web.errors == [] and web2.errors == []
        assert PASSWORD not in "\n".join(client.transcript)
        client.type("q")
        client.proc.communicate(timeout=30)
    finally:
        first.close()
        second.close()
    print(f"the whole story took {time.monotonic() - started:.0f} s")
