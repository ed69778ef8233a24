"""The test client's waits end on time, even while the server's pings keep the connection alive."""

from __future__ import annotations

import asyncio
import time

import pytest
from aiohttp import web

from server_support import LOOPBACK, Client


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
