"""A connection replaced by a newer hello with the same token acts no more (issue 26, item 10:
racing such a hello against ``create_table`` seated one player at two tables)."""

from __future__ import annotations

import asyncio
import json

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.limits import Limits
from inprocess_support import QuietSocket, connect, frames


def test_messages_from_a_replaced_connection_are_ignored() -> None:
    async def scenario() -> None:
        server = Server(limits=Limits())
        old_socket, new_socket = QuietSocket(), QuietSocket()
        old = connect(server, old_socket)
        server.receive(old, json.dumps({"type": "hello", "v": 1, "name": "Ann"}))
        token = frames(old)[0]["token"]
        new = connect(server, new_socket)
        server.receive(new, json.dumps({"type": "hello", "v": 1, "name": "Ann", "token": token}))
        assert [frame["type"] for frame in frames(new)] == ["welcome", "tables"]
        assert [frame.get("code") for frame in frames(old)] == ["replaced"]
        # what the old connection sent before it heard it was replaced, arriving now
        server.receive(old, json.dumps({"type": "create_table", "seats": 3}))
        server.receive(old, json.dumps({"type": "chat", "text": "hello"}))
        assert server.rooms == {}
        assert old.room is None and not old.queue
        server.receive(new, json.dumps({"type": "create_table", "seats": 3}))
        assert len(server.rooms) == 1
        assert [frame["type"] for frame in frames(new)][:1] == ["seated"]
        for _ in range(100):  # the old socket's close runs (bounded: a second)
            if old_socket.closed:
                break
            await asyncio.sleep(0.01)
        assert old_socket.closed == 1 and new_socket.closed == 0

    asyncio.run(scenario())
