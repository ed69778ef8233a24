"""The sighted table is live: after every change at the table, what a seat's page and a
spectator's page show (players, whose turn, piles, melds, card counts, the hand) is the
table's view at that moment, as the server's stored game has it.

A real ``fivecrowns serve`` (dealt from a fixed seed, its moves kept in SQLite) and Debian's
Chromium; a script put in each page before its own (tests/support/web_table.js) writes down
what the table shows right after the page handled each frame. The truth is the table
rebuilt from the server's stored inputs, one input at a time: each input is one change the
server sent out (a move, a chat line, a seat change), so each is a moment the page must
show.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.core.cards import Rank, parse_card, spoken_name
from fivecrowns.table import Table
from server_support import ServerProcess
from web_support import SEED, WebPlayer, page_url

pytestmark = [pytest.mark.real]

RECORDER = (Path(__file__).parents[1] / "support" / "web_table.js").read_text(encoding="utf-8")


@pytest.fixture(name="stored")
def stored_server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server that keeps its tables in SQLite (the truth is rebuilt from there)."""
    process = ServerProcess(
        tmp_path, "--bot-delay", "0", "--rate", "1000", "--seed", SEED, "--grace", "600"
    ).start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors


def truth_after_each_change(data: Path, table_id: str, seats: list[int | None]) -> dict[int, Any]:
    """{seq: {viewer: snapshot}} after each stored input that changed the log, for
    ``seats`` (None: a spectator), the table rebuilt from the server's SQLite store."""
    with sqlite3.connect(data / "tables.sqlite3") as db:
        count, creator_id, creator_name = db.execute(
            "SELECT seats, creator_id, creator_name FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        inputs = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT command FROM inputs WHERE table_id = ? ORDER BY idx", (table_id,)
            )
        ]
    table = Table.replay(count, creator_name, creator_id, inputs[:1])
    moments: dict[int, Any] = {}
    for command in inputs[1:]:
        before = table.seq
        table.apply_input(command)
        if table.seq != before and table.game is not None:
            moments[table.seq] = {seat: table.snapshot(seat) for seat in seats}
    return moments


def _number(pattern: str, text: str) -> int | None:
    found = re.search(pattern, text)
    return int(found.group(1)) if found else None


def differences(dom: dict[str, Any], snap: dict[str, Any], seat: int | None) -> list[str]:
    """What the page showed that is not the table's view ``snap`` (from ``seat``)."""
    view = snap["view"]
    wild = next(rank for rank in Rank if rank.token == view["wild_rank"])
    found: list[str] = []

    def same(what: str, shown: Any, wanted: Any) -> None:
        if shown != wanted:
            found.append(f"{what}: the page shows {shown!r}, the table has {wanted!r}")

    same("round", _number(r"^Round (\d+) of 11", dom["round"]), view["round"])
    same("players", len(dom["players"]), len(view["players"]))
    for index, (row, name) in enumerate(zip(dom["players"], view["players"], strict=False)):
        text = row["text"]
        wanted_name = f"{name} (you)" if index == seat else name
        same(f"player {index + 1}'s name", text.split(":")[0], wanted_name)
        same(f"{name}'s cards", _number(r": (\d+) cards?\.", text), view["hand_counts"][index])
        same(f"{name}'s total", _number(r"[Tt]otal (-?\d+)\.", text), view["totals"][index])
        playing = not view["game_over"] and view["current_player"] == index
        same(f"{name} playing now", (row["current"], "Playing now" in text), (playing, playing))
        same(f"{name} went out", "Went out" in text, view["went_out"] == index)
    same("stock", _number(r"^Stock: (\d+) cards?\.", dom["stock"]), view["stock_count"])
    top = view["top_discard"]
    if top is None:
        same("discard pile", dom["discard"], "Discard pile: empty.")
    else:
        same("discard count", _number(r"^Discard pile: (\d+) cards?", dom["discard"]), view["discard_count"])
        name = spoken_name(parse_card(top), wild)
        same("top discard", dom["discard"].endswith(f"the {name}."), True)
    melds = [
        {
            "who": "You" if player == seat else view["players"][player],
            "melds": [
                {
                    "label": f"{meld['kind']} of {len(meld['cards'])} card"
                    + ("s" if len(meld["cards"]) != 1 else ""),
                    "cards": [spoken_name(parse_card(token), wild) for token in meld["cards"]],
                }
                for meld in laid
            ],
        }
        for player, laid in enumerate(view["laid_down"])
        if laid
    ]
    same("melds", dom["melds"], melds)
    if not melds:
        same("no melds", dom["noMelds"], "None yet.")
    if seat is None:
        same("a spectator's hand", dom["hand"], None)
        same("a spectator's move buttons", dom["moveButtons"], 0)
    else:
        same("hand", sorted(dom["hand"] or []), sorted(view["hand"]))
        same("move buttons", dom["moveButtons"] > 0, True)
    return found


def check_every_moment(page: Any, moments: dict[int, Any], seat: int | None, since: int) -> int:
    """Each change after ``since`` was shown by the page, right after it came, as it is."""
    seen: list[dict[str, Any]] = page.evaluate("() => window.__tableSeen")
    shown = {entry["seq"]: entry["dom"] for entry in seen if entry["type"] == "snapshot"}
    checked = 0
    for seq, snaps in sorted(moments.items()):
        if seq <= since:
            continue
        assert seq in shown, f"the page never drew the table after event {seq} ({seat=})"
        problems = differences(shown[seq], snaps[seat], seat)
        assert problems == [], (seq, seat, problems)
        checked += 1
    return checked


def test_a_seat_and_a_spectator_see_the_table_as_it_is_after_every_event(
    browser: Any, stored: ServerProcess, tmp_path: Path
) -> None:
    """Ann plays a whole game by keyboard against two computer players while Eve watches;
    after every change the table shows in both pages is the table's view then."""
    ann_page = browser.new_page(viewport={"width": 1280, "height": 900})
    eve_page = browser.new_page(viewport={"width": 390, "height": 844})
    for page in (ann_page, eve_page):
        page.add_init_script(RECORDER)
    try:
        ann = WebPlayer(ann_page, page_url(stored.url))
        ann.connect("Ann")
        ann_page.locator("#seats").select_option("3")
        ann_page.locator("#seat-2").select_option("easy")
        ann_page.locator("#seat-3").select_option("simple")
        ann_page.locator("#create-form button[type=submit]").click()
        ann_page.wait_for_selector("#table:not([hidden])", timeout=10_000)
        table = ann_page.evaluate("() => window.fivecrowns.table")
        eve = WebPlayer(eve_page, page_url(stored.url))
        eve.connect("Eve")
        eve_page.get_by_role("button", name=f"Watch table {table}").click()
        eve_page.wait_for_selector("#table:not([hidden])", timeout=10_000)
        ann_page.wait_for_function(
            "() => window.fivecrowns.snapshot?.seats.every(s => s.kind !== 'empty')",
            timeout=10_000,
        )
        ann_page.locator("#start-button").click()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not ann.state()["over"]:
            if not ann.play_one():
                ann_page.wait_for_timeout(10)
        assert ann.state()["over"], ann.said()[-5:]
        final = ann.state()["seq"]
        eve_page.wait_for_function(f"() => window.fivecrowns.seq >= {final}", timeout=10_000)
        moments = truth_after_each_change(tmp_path, table, [0, None])
        assert max(moments) == final and len(moments) > 200, len(moments)
        assert check_every_moment(ann_page, moments, 0, 0) == len(moments)
        assert check_every_moment(eve_page, moments, None, 0) == len(moments)
        assert ann.errors == [] and eve.errors == []
        assert SEED not in eve_page.content()
    finally:
        ann_page.close()
        eve_page.close()
