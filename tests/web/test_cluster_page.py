"""The web page, unchanged, on two ``fivecrowns serve --bus`` processes behind one port: the
owner of the tables is killed with SIGKILL, the page connects again by itself (to the other
process, which took the tables over) and its seat plays on. Debian's Chromium, a real Redis."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cluster_support import Cluster
from fivecrowns.net.client.websocket import CONNECTED_AGAIN
from join_support import Player
from redis_server import RedisServer, redis_server
from server_support import RecordingLink
from web_support import SEED, WebPlayer, page_url

__all__ = ["redis_server"]  # why: the fixture, imported for pytest to find

pytestmark = [pytest.mark.real]

DROPPED = "The connection dropped; trying again for up to 5 minutes."


@pytest.fixture(name="cluster")
def cluster_fixture(tmp_path: Path, redis_server: RedisServer) -> Iterator[Cluster]:
    cluster = Cluster(tmp_path / "server", redis_server, "--seed", SEED, "--grace", "600")
    yield cluster
    errors = cluster.stop()
    assert "Traceback" not in errors, errors


def test_the_page_plays_on_after_the_owner_is_killed(browser: Any, cluster: Cluster) -> None:
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(cluster.url))
        ann.create_and_start("Ann", 2, ["easy"])
        for _move in range(3):
            ann.wait_turn()
            ann.play_one(go_out=False)
        ann.wait_turn()
        heard = page.evaluate("() => window.fivecrowns.seq")
        cluster.first.kill9()
        page.wait_for_function("() => window.fivecrowns.attempts >= 1", timeout=20_000)
        page.wait_for_function("() => window.fivecrowns.attempts === 0", timeout=30_000)
        state = ann.wait_turn()
        assert state["seq"] >= heard  # nothing it heard was lost
        assert page.evaluate("() => window.fivecrowns.seat") == 0
        before = state["seq"]
        deadline = time.monotonic() + 10
        assert ann.play_one(go_out=False)  # the seat plays on, on the other process
        while ann.state()["seq"] == before and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        assert ann.state()["seq"] > before
        logged = [a["text"] for a in ann.said() if a["region"] == "log"]
        assert logged.count(DROPPED) == 1, logged[-8:]
        assert logged.count("Connected again.") == 1, logged[-8:]
        assert ann.errors == []
        assert not cluster.first.alive() and cluster.second.alive()
    finally:
        page.close()


def _terminal_step(ben: Player) -> None:
    """One step of the terminal player, if any is due: Enter for the next round, or on its
    turn D, Home, Enter (draw, then throw the first card)."""
    ben.play.news()
    game = ben.play.game
    if game is None or game.client.is_over:
        return
    if game.next_round is not None:
        ben.keys("c-m")
    elif game.client.current_player == game.at_keyboard:
        ben.keys("d", "home", "c-m")


def test_a_whole_game_for_a_page_a_terminal_and_a_spectator_survives_kill_9(
    browser: Any, cluster: Cluster
) -> None:
    """Issue 29's done-when: two processes behind one address serve a whole game to a web
    page (Ann), the terminal client (Ben, ``join --keys``) and a spectator (Sam, the terminal
    client watching); the owner of the tables is killed in round 2 and the game is finished
    on the other process, every client connecting again by itself, unchanged."""
    page = browser.new_page()
    ben: Player | None = None
    sam: Player | None = None
    try:
        ann = WebPlayer(page, page_url(cluster.url))
        ann.connect("Ann")
        table = ann.create_table(3, ["", "easy"])
        ben = Player(cluster.url, "Ben", first=[{"type": "join", "table": table}])
        ben.wait(r"You sit in seat 2 at table")
        watcher = RecordingLink(cluster.url, "Sam")
        sam = Player(cluster.url, "Sam", link=watcher, first=[{"type": "watch", "table": table}])
        sam.wait(r"You are watching table")
        ann.start()
        killed = False
        deadline = time.monotonic() + 400
        for _step in range(100_000):
            assert time.monotonic() < deadline, "the game did not finish in time"
            if ann.state()["over"]:
                break
            if not killed and ann.state()["round"] >= 2:
                cluster.first.kill9()
                killed = True
            ann.play_one()
            _terminal_step(ben)
            sam.play.news()
            page.wait_for_timeout(5)
        assert killed and ann.state()["over"]
        ben.wait(r"Game over|wins the game", timeout=30)
        assert watcher.wait_for(lambda: any(f["kind"] == "game_over" for f in watcher.frames), 30)
        seqs = [int(frame["seq"]) for frame in watcher.frames]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # nothing missed or twice
        assert ben.said().count(CONNECTED_AGAIN) == 1
        assert sam.said().count(CONNECTED_AGAIN) == 1
        logged = [a["text"] for a in ann.said() if a["region"] == "log"]
        assert logged.count("Connected again.") == 1, logged[-8:]
        assert ann.errors == []
        assert not cluster.first.alive() and cluster.second.alive()
    finally:
        page.close()
        for player in (ben, sam):
            if player is not None:
                player.close()
