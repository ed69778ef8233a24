"""Handshakes a client gave up on free their address's connection slot at once (issue 26,
item 3: the count per address must not leak on any path).

In process, so that the moment the client goes can be chosen: aiohttp gives a WebSocket whose
connection was lost before its reader existed no end of input, and the server used to wait in
it (holding the slot) until the hello deadline. CI on Python 3.12 met it by chance.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.web_response import StreamResponse

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.limits import Limits
from server_support import LOOPBACK, Client, running_in_process

GIVE_UPS = 25  # more than the address may hold at once


def _abandon_handshake(port: int, answered: threading.Event) -> bool:
    """Send a WebSocket upgrade and close the socket once the server has accepted it, without
    reading the answer; False if the server did not accept it (a 429)."""
    answered.clear()
    with socket.create_connection((LOOPBACK, port), timeout=5) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        return answered.wait(2)


def _lost_during_prepare(
    monkeypatch: pytest.MonkeyPatch, answered: threading.Event, lost: list[int]
) -> None:
    """Make every WebSocket handshake wait, after the answer's headers, until its client has
    gone (bounded): the window where the connection is lost before the reader exists."""
    original: Callable[[StreamResponse, Any], Awaitable[Any]] = StreamResponse.prepare

    async def prepare(self: StreamResponse, request: Any) -> Any:
        writer = await original(self, request)
        if isinstance(self, web.WebSocketResponse):
            answered.set()
            for _ in range(500):
                if request.transport is None:
                    lost.append(1)
                    break
                await asyncio.sleep(0.01)
        return writer

    monkeypatch.setattr(StreamResponse, "prepare", prepare)


def test_handshakes_given_up_free_their_slot_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lost: list[int] = []
    answered = threading.Event()
    _lost_during_prepare(monkeypatch, answered, lost)
    # why a long hello deadline: it used to be what finally freed such a slot
    server = Server(limits=Limits(max_per_address=5, hello_deadline=60.0))

    async def scenario() -> None:
        async with running_in_process(server) as url:
            port = int(url.rsplit(":", 1)[1].removesuffix("/ws"))
            for number in range(GIVE_UPS):
                accepted = await asyncio.to_thread(_abandon_handshake, port, answered)
                assert accepted, f"handshake {number} refused: {server.per_address}"
                for _ in range(100):  # its count goes with it (bounded: 2 s)
                    if len(lost) > number and not server.per_address:
                        break
                    await asyncio.sleep(0.02)
                assert len(lost) == number + 1  # the client went inside the window
                assert server.per_address == {}, f"handshake {number} still counts"
            ann = await Client("Ann").connect(url)
            assert ann.token
            await ann.close()

    asyncio.run(scenario())


def test_refused_upgrades_and_failing_handlers_free_their_slot() -> None:
    """A request to /ws that is no WebSocket upgrade, and a handler that raises, count for
    nothing afterwards."""
    server = Server(limits=Limits(max_per_address=2))

    async def broken(request: web.Request) -> web.StreamResponse:
        raise RuntimeError("broken on purpose")

    async def scenario() -> None:
        async with running_in_process(server) as url:
            http = url.replace("ws://", "http://")
            async with aiohttp.ClientSession() as session:
                for _ in range(GIVE_UPS):
                    async with session.get(http) as answer:  # no Upgrade header
                        assert answer.status == 400
            assert server.per_address == {}
            server._serve_ws = broken  # type: ignore[method-assign]
            async with aiohttp.ClientSession() as session:
                for _ in range(GIVE_UPS):
                    with pytest.raises(aiohttp.WSServerHandshakeError):
                        await session.ws_connect(url)
            assert server.per_address == {}

    asyncio.run(scenario())
