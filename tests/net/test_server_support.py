"""The test client's waits end on time, even while the server's pings keep the connection
alive; the frame check finds what a viewer must not get."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from aiohttp import web

from fivecrowns.table import Table
from server_support import LOOPBACK, Client, check_frames


def test_a_wait_for_a_frame_ends_on_time_although_pings_keep_coming() -> None:
    async def scenario() -> float:
        async def silent(request: web.Request) -> web.WebSocketResponse:
            # pings every 0.1 s and never a frame: aiohttp's own receive timeout restarts each time
            ws = web.WebSocketResponse(heartbeat=0.2)
            await ws.prepare(request)
            async for _ in ws:
                pass
            return ws

        app = web.Application()
        app.router.add_get("/ws", silent)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, 0)
        await site.start()
        port = runner.addresses[0][1]
        client = Client("Ann")
        await client.connect(f"ws://{LOOPBACK}:{port}/ws", hello=False)
        start = time.monotonic()
        try:
            with pytest.raises(TimeoutError):
                await client.recv(timeout=1.0)
            return time.monotonic() - start
        finally:
            await client.close()
            await runner.cleanup()

    waited = asyncio.run(scenario())
    assert waited < 10.0  # without the bound it waits as long as the pings come: for ever


def test_the_frame_check_finds_a_snapshot_that_tells_too_much() -> None:
    """check_frames is not blind: another seat's snapshot, a spectator's with a hand, a
    snapshot of another moment and another seat's event are each found; the right ones pass."""
    table = Table(3, creator_name="Ann", creator_id="p1")
    table.add_bot("simple")
    table.add_bot("simple")
    table.start(seed=8167234455913)  # long: found in a frame only by a leak
    table.leave("p1")  # a computer player plays seat 0: the game runs by itself
    for _step in range(60):
        table.step_bot()

    def snapshot(seat: int | None) -> dict[str, Any]:
        return {"type": "snapshot", "table": "t", "watchers": ["Dee"], **table.snapshot(seat)}

    def raw(frame: dict[str, Any]) -> str:
        return json.dumps(frame)

    events = [raw({"type": "event", **frame}) for frame in table.frames_since(0, 0)]
    check_frames([*events, raw(snapshot(0))], table, 0)
    check_frames([raw(snapshot(None))], table, None)
    other = snapshot(1)
    other["seat"] = 0  # seat 1's hand, said to be seat 0's
    spectator = snapshot(None)
    spectator["view"]["hand"] = table.snapshot(0)["view"]["hand"]
    older = snapshot(0)
    older["view"]["stock_count"] += 1  # not the table at that moment
    theirs = [raw({"type": "event", **frame}) for frame in table.frames_since(0, 1)]
    more_than_a_name = snapshot(0)
    more_than_a_name["watchers"] = [{"name": "Dee", "address": "127.0.0.1"}]
    for frames, viewer in (
        ([raw(more_than_a_name)], 0),
        ([raw(other)], 0),
        ([raw(spectator)], None),
        ([raw(older)], 0),
        (theirs, 0),
    ):
        with pytest.raises(AssertionError):
            check_frames(frames, table, viewer)
