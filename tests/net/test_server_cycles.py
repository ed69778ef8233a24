"""A closed WebSocket's server objects are freed by reference counting, not by the cycle
collector (issue 28, the log-in flood: aiohttp left each closed connection in reference cycles,
the server's collector froze them, and the full collection a flood's thousands of them brought
due held every table's moves for about 100 ms).

In process, with a real aiohttp server on loopback: the garbage a full collection finds after
the connections closed is listed (``gc.DEBUG_SAVEALL``) and aiohttp's server objects counted.
"""

from __future__ import annotations

import asyncio
import gc
import json
from collections import Counter

import aiohttp

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.limits import Limits
from server_support import running_in_process

CONNECTIONS = 12
# the server's side of a WebSocket: its connection, request, response and route match
SERVER_TYPES = ("RequestHandler", "Request", "WebSocketResponse", "UrlMappingMatchInfo")


async def _answered_then_closed(session: aiohttp.ClientSession, url: str) -> None:
    async with session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"type": "no such message", "v": 1}))
        await asyncio.wait_for(ws.receive(), 10.0)  # the server's error: data went both ways


async def _reset(session: aiohttp.ClientSession, url: str) -> None:
    """A client gone at once, without a closing frame, while the server still writes to it."""
    ws = await session.ws_connect(url)
    await ws.send_str(json.dumps({"type": "no such message", "v": 1}))
    connection = ws._response.connection
    assert connection is not None and connection.transport is not None
    connection.transport.abort()
    await ws.close()


def _server_garbage(kind: str) -> Counter[str]:
    """aiohttp's server objects a full collection finds after ``CONNECTIONS`` WebSockets of
    ``kind`` opened and closed, by type."""

    async def scenario() -> None:
        server = Server(limits=Limits(max_per_address=CONNECTIONS + 5, hello_deadline=60.0))
        async with running_in_process(server) as url:
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as session:
                await _answered_then_closed(session, url)  # aiohttp's first-use objects
                await asyncio.sleep(0.2)
                gc.collect()
                gc.set_debug(gc.DEBUG_SAVEALL)  # why: what the collection frees is kept to count
                closing = _reset if kind == "reset" else _answered_then_closed
                for _connection in range(CONNECTIONS):
                    await closing(session, url)
                for _wait in range(50):  # every handler has ended on the server's side
                    if not server.connections:
                        break
                    await asyncio.sleep(0.1)
                await asyncio.sleep(0.3)
                gc.collect()

    gc.collect()
    try:
        asyncio.run(scenario())
        found = Counter(
            type(thing).__name__
            for thing in gc.garbage
            if type(thing).__module__.startswith("aiohttp.web")
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def test_websockets_closed_by_their_clients_leave_no_cycles() -> None:
    found = _server_garbage("closed")
    # without the fix: each of the 12 connections' handler, request, response and match
    assert sum(found[name] for name in SERVER_TYPES) <= 2, found


def test_websockets_reset_by_their_clients_leave_no_cycles() -> None:
    # why apart: the reset is kept as the response's exception, whose traceback holds it
    found = _server_garbage("reset")
    assert sum(found[name] for name in SERVER_TYPES) <= 2, found
