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
from redis_server import RedisServer, redis_server
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
