"""The WebSocket link (net/client/websocket.py) against a small fake server on loopback:
a message it cannot read is said and left out, and a snapshot older than the events it has
is asked for again.
"""

from __future__ import annotations

import time

from fivecrowns.net.client.websocket import WebSocketLink
from server_support import fake_server


def test_a_message_the_client_cannot_read_is_said_and_left_out() -> None:
    from aiohttp import web

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.receive()  # the hello
        for raw in ("not json", "[1]", '{"type": "event"}', '{"type": "seated"}'):
            await ws.send_str(raw)
        await ws.send_str('{"type": "welcome", "v": 1, "player": "p", "name": "Ann", "token": "t"}')
        await ws.receive()  # until the client closes
        return ws

    with fake_server(handler) as url:
        link = WebSocketLink(url, "Ann")
        link.connect()  # the listener went on past four unreadable messages to the welcome
        assert link.token == "t" and link.frames == [] and link.seat is None
        unreadable = [n for n in link.take_notices() if n.startswith("The server sent a message")]
        assert len(unreadable) == 4
        link.close()


def test_a_snapshot_older_than_the_events_is_asked_for_again() -> None:
    """A computer player moved between the ask and the answer: the link asks once more."""
    from aiohttp import web

    def event(seq: int) -> str:
        return (
            f'{{"type": "event", "seq": {seq}, "kind": "chat", '
            f'"data": {{"name": "Ben", "text": "hi"}}, "text": "Ben says hi."}}'
        )

    def snapshot(seq: int) -> str:
        return (
            f'{{"type": "snapshot", "seq": {seq}, "table": "t1", "seat": 0, "view": null, '
            f'"seats": [], "legal": [], "started": true}}'
        )

    resumes: list[int] = []

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.receive()  # the hello
        await ws.send_str('{"type": "welcome", "v": 1, "player": "p", "name": "Ann", "token": "t"}')
        await ws.send_str(event(1))
        for _ in range(10):
            message = await ws.receive()
            if message.type is not web.WSMsgType.TEXT:
                break
            resumes.append(1)
            if len(resumes) == 1:  # a computer player's move, then an answer older than it
                await ws.send_str(event(2))
                await ws.send_str(snapshot(1))
            else:
                await ws.send_str(snapshot(2))
        return ws

    with fake_server(handler) as url:
        link = WebSocketLink(url, "Ann")
        link.connect()
        assert link.wait_for(lambda: link.last_seq() == 1)
        began = time.monotonic()
        shot = link.snapshot(0)  # the old link waited for a fresh one that never came (10 s)
        assert shot["seq"] == 2 and len(resumes) == 2
        assert time.monotonic() - began < 5
        link.close()
