"""The web page behind ``fivecrowns serve --workers 2``, unchanged: two pages play at tables
of two workers through the front, each hears only its own hand, and a reloaded page is back
in its seat (net/server/workers.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_support import ServerProcess, no_leaks
from web_support import SEED, WebPlayer, page_url


@pytest.fixture(name="front")
def front_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path / "server",
        *("--bot-delay", "0", "--rate", "200", "--seed", SEED, "--grace", "600"),
        *("--workers", "2"),
    ).start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors


def _play(web: WebPlayer, steps: int) -> None:
    for _ in range(steps):
        web.wait_turn()
        web.play_one(go_out=False)


def test_two_pages_play_at_two_workers_and_a_reloaded_page_is_back_in_its_seat(
    browser: Any, front: ServerProcess
) -> None:
    ann_page, ben_page = browser.new_page(), browser.new_page()
    try:
        ann = WebPlayer(ann_page, page_url(front.url))
        ben = WebPlayer(ben_page, page_url(front.url))
        ann_table = ann.create_and_start("Ann", 2, ("easy",))
        ben_table = ben.create_and_start("Ben", 2, ("easy",))
        assert int(ann_table, 16) % 2 != int(ben_table, 16) % 2  # one at each worker
        for _round in range(3):
            _play(ann, 2)
            _play(ben, 2)
        ann.wait_turn()
        hand = ann_page.locator("#hand [role=option]").all_inner_texts()
        seq = ann.state()["seq"]
        ann_page.reload()
        ann_page.wait_for_selector("html[data-ready=true]", timeout=10_000)
        ann_page.wait_for_selector("#table:not([hidden])", timeout=10_000)
        ann.wait_turn()
        assert ann_page.evaluate("() => window.fivecrowns.table") == ann_table
        assert ann_page.locator("#hand [role=option]").all_inner_texts() == hand
        assert ann.state()["seq"] >= seq
        _play(ann, 2)
        for web in (ann, ben):
            assert web.errors == []
            frames = [json.loads(frame) for frame in web.frames]
            assert [f for f in frames if f.get("type") == "snapshot" and f.get("view")]
            no_leaks(0, frames)  # each page's seat is 1 (index 0): only its own hand
            assert not [f for f in frames if f.get("type") == "error"], frames
    finally:
        ann_page.close()
        ben_page.close()
