"""The table list the lobby gets once a second is made only when someone is in the lobby to
read it (issue 29, item 5: it was made every second at a busy server with nobody there)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fivecrowns.net.protocol import Tables
from fivecrowns.net.server.app import Server
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits


class _Socket:
    async def close(self, **_: Any) -> None:
        pass


def _types(conn: Connection) -> list[str]:
    types = []
    for _ in range(len(conn.queue)):
        raw = conn.take()
        if raw is not None:
            types.append(json.loads(raw)["type"])
    return types


def test_the_table_list_is_made_only_when_someone_is_in_the_lobby() -> None:
    async def scenario() -> None:
        server = Server(limits=Limits())
        made: list[int] = []
        tables = server.lobby.tables

        def counted() -> Tables:
            made.append(1)
            return tables()

        server.lobby.tables = counted  # type: ignore[method-assign]
        ann = Connection(_Socket(), server.limits)  # type: ignore[arg-type]
        server.connections.add(ann)
        server.receive(ann, json.dumps({"type": "hello", "v": 1, "name": "Ann"}))
        server.receive(ann, json.dumps({"type": "create_table", "seats": 3}))
        _types(ann)
        made.clear()
        updates = asyncio.ensure_future(server.lobby_updates())
        try:
            server.lobby.dirty = True  # something changed, but everyone is at a table
            await asyncio.sleep(2.5)
            assert made == []
            assert "tables" not in _types(ann)
            ben = Connection(_Socket(), server.limits)  # type: ignore[arg-type]
            server.connections.add(ben)
            server.receive(ben, json.dumps({"type": "hello", "v": 1, "name": "Ben"}))
            assert _types(ben) == ["welcome", "tables"]  # his own list on arriving
            made.clear()
            for _ in range(30):  # bounded: 3 s; the update still due reaches him
                await asyncio.sleep(0.1)
                if made:
                    break
            await asyncio.sleep(0)
            assert made == [1]
            assert _types(ben) == ["tables"]
            assert "tables" not in _types(ann)
        finally:
            updates.cancel()

    asyncio.run(scenario())
