"""Malformed messages from a server reach neither client as a traceback.

A small fake server on loopback (tests/support/server_support.py's ``fake_server``) sends a
``join --keys`` client and the line client frames that do not fit the protocol: not
JSON, the wrong shape, a missing field, a card that is no card, an event whose data is
not the event's, a snapshot whose view cannot be read, an unknown type. Each is said in
one sentence and left out; the good messages around them still work.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import web

from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.join_keys import NetworkPlay
from fivecrowns.ui.join_line import LineClient
from fivecrowns.ui.settings import Settings
from server_support import fake_server

WELCOME = {"type": "welcome", "v": 1, "player": "p", "name": "Ann", "token": "t"}
SEATED = {"type": "seated", "table": "t1", "seat": 0, "code": None, "creator": True}
VIEW: dict[str, Any] = {
    "players": ["Ann", "Ben"],
    "round": 1,
    "wild_rank": "3",
    "dealer": 1,
    "current_player": 0,
    "phase": "draw",
    "hand_counts": [3, 3],
    "top_discard": "7h",
    "discard_count": 1,
    "stock_count": 50,
    "round_scores": [],
    "totals": [0, 0],
    "went_out": None,
    "last_turns_left": [],
    "laid_down": [[], []],
    "game_over": False,
    "winners": [],
    "hand": ["4h", "5h", "6h"],
}
SEATS = [{"kind": "human", "name": "Ann", "level": None, "standin": False}] * 2


def _snapshot(view: dict[str, Any] | None, legal: list[Any] | None = None) -> str:
    return json.dumps(
        {
            "type": "snapshot",
            "seq": 0,
            "table": "t1",
            "seat": 0,
            "started": False,
            "seats": SEATS,
            "view": view,
            "legal": legal or [],
        }
    )


MALFORMED = [
    "not json",
    "[1]",
    '{"type": "event"}',
    '{"type": "seated"}',
    '{"type": "gossip", "text": "hello"}',
    '{"type": "welcome", "v": "one", "player": 1, "name": null, "token": 2}',
    '{"type": "tables", "tables": [{"id": "x", "seats": [{"kind": "dragon"}], "round": 0, '
    '"started": false, "over": false, "spectators": 0}]}',
    json.dumps({"type": "event", "seq": 1, "kind": "drew_from_stock", "data": {"who": 1},
                "text": "?"}),
    json.dumps({"type": "event", "seq": 1, "kind": "discarded",
                "data": {"player": 0, "card": "zz"}, "text": "?"}),
    _snapshot({**VIEW, "round": "x"}),
    _snapshot({**VIEW, "hand": ["4h", "99q"]}),
    _snapshot({key: value for key, value in VIEW.items() if key != "totals"}),
    _snapshot(VIEW, legal=[{"move": "fly"}]),
]  # fmt: skip
CHAT = {"type": "event", "seq": 1, "kind": "chat", "data": {"seat": 1, "name": "Ben",
        "text": "hi"}, "text": "Ben says: hi"}  # fmt: skip


async def _handler(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    await ws.receive()  # the hello
    await ws.send_str(json.dumps(WELCOME))
    await ws.send_str(json.dumps(SEATED))
    for raw in MALFORMED:
        await ws.send_str(raw)
    await ws.send_str(json.dumps(CHAT))  # a good message after the bad ones still arrives
    for _ in range(20):
        message = await ws.receive()
        if message.type is not web.WSMsgType.TEXT:
            break
    return ws


def test_the_keys_client_says_each_malformed_message_once_and_goes_on() -> None:
    with fake_server(_handler) as url:
        link = WebSocketLink(url, "Ann")
        link.connect()
        backend = RecordingBackend()
        play = NetworkPlay(link, Output(backend), Settings(delay=0.0))
        play.start()
        deadline = time.monotonic() + 10
        while not any("Ben says: hi" in line for line in backend.spoken):
            assert time.monotonic() < deadline, backend.spoken
            play.news()
            time.sleep(0.02)
        play.news()
        unreadable = [
            line
            for line in backend.spoken
            if line.startswith("The server sent a message this client cannot read, so it was")
        ]
        assert len(unreadable) == len(MALFORMED), backend.spoken
        assert all(line.endswith(").") for line in unreadable)
        assert link.last_snapshot is None  # no malformed snapshot was kept
        assert [frame["kind"] for frame in link.frames] == ["chat"]
        assert play.game is None and not any("Traceback" in line for line in backend.spoken)
        link.close()


def test_the_line_client_says_each_malformed_message_once_and_goes_on() -> None:
    said: list[str] = []

    async def main() -> int:
        client = LineClient(url, "Ann", say=said.append, tries=1)
        lines: asyncio.Queue[str | None] = asyncio.Queue()

        async def quit_when_told() -> None:
            for _ in range(500):
                if "Ben says: hi" in said:
                    break
                await asyncio.sleep(0.02)
            await lines.put("q")

        asyncio.get_running_loop().create_task(quit_when_told())
        return await asyncio.wait_for(client.run(lines, []), 20)

    with fake_server(_handler) as url:
        assert asyncio.run(main()) == 0
    unreadable = [line for line in said if line.startswith("The server sent a message")]
    assert len(unreadable) == len(MALFORMED), said
    assert "Ben says: hi" in said
