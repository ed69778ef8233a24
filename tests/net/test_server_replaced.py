"""A connection replaced by a newer hello with the same token acts no more (issue 26, item 10:
racing such a hello against ``create_table`` seated one player at two tables)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits


class _Socket:
    """Stands in for the WebSocket of a connection that is never written to."""

    closed = 0

    async def close(self, **_: Any) -> None:
        self.closed += 1


def _frames(conn: Connection) -> list[dict[str, Any]]:
    frames = []
    for _ in range(len(conn.queue)):
        raw = conn.take()
        if raw is not None:
            frames.append(json.loads(raw))
    return frames


def test_messages_from_a_replaced_connection_are_ignored() -> None:
    async def scenario() -> None:
        server = Server(limits=Limits())
        old_socket, new_socket = _Socket(), _Socket()
        old = Connection(old_socket, server.limits)  # type: ignore[arg-type]
        server.receive(old, json.dumps({"type": "hello", "v": 1, "name": "Ann"}))
        token = _frames(old)[0]["token"]
        new = Connection(new_socket, server.limits)  # type: ignore[arg-type]
        server.receive(new, json.dumps({"type": "hello", "v": 1, "name": "Ann", "token": token}))
        assert [frame["type"] for frame in _frames(new)] == ["welcome", "tables"]
        assert [frame.get("code") for frame in _frames(old)] == ["replaced"]
        # what the old connection sent before it heard it was replaced, arriving now
        server.receive(old, json.dumps({"type": "create_table", "seats": 3}))
        server.receive(old, json.dumps({"type": "chat", "text": "hello"}))
        assert server.rooms == {}
        assert old.room is None and not old.queue
        server.receive(new, json.dumps({"type": "create_table", "seats": 3}))
        assert len(server.rooms) == 1
        assert [frame["type"] for frame in _frames(new)][:1] == ["seated"]
        for _ in range(100):  # the old socket's close runs (bounded: a second)
            if old_socket.closed:
                break
            await asyncio.sleep(0.01)
        assert old_socket.closed == 1 and new_socket.closed == 0

    asyncio.run(scenario())
