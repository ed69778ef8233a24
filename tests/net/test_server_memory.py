"""A table the server is done with is freed at once, by reference counting, without waiting for
CPython's cycle collector (issue 29, item 5: a finished table was a reference cycle, Room ->
Table -> the recorder's closure -> Room, so only a full collection freed it, and full
collections of a big heap made the server's long tail)."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits


class _Socket:
    async def close(self, **_: Any) -> None:
        pass


@pytest.fixture(name="no_collector")
def no_collector_fixture() -> Iterator[None]:
    """The cycle collector off for the test (what was freed was freed by reference counts)."""
    gc.collect()  # why: leftovers of earlier tests must not run a collection meanwhile
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _frames(conn: Connection) -> list[dict[str, Any]]:
    frames = []
    for _ in range(len(conn.queue)):
        raw = conn.take()
        if raw is not None:
            frames.append(json.loads(raw))
    return frames


def _send(server: Server, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
    server.receive(conn, json.dumps(message))
    frames = _frames(conn)
    assert not [frame for frame in frames if frame["type"] == "error"], frames
    return frames


def _move(legal: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Go out if it can, else draw from the stock, else the first legal discard."""
    for wanted in ("go_out", "draw_stock", "discard"):
        for move in legal:
            if move["move"] == wanted:
                args = {k: v for k, v in move.items() if k != "move"}
                return wanted, {"card": args["discard"]} if "discard" in args else args
    return legal[0]["move"], {}


def test_a_finished_table_everyone_left_is_freed_without_the_cycle_collector(
    no_collector: None,
) -> None:
    async def scenario() -> tuple[weakref.ref[Any], weakref.ref[Any]]:
        server = Server(limits=Limits(bot_delay=0.0, rate=1e6, burst=1_000_000), seed=3)
        ann, ben = (Connection(_Socket(), server.limits) for _ in range(2))  # type: ignore[arg-type]
        _send(server, ann, {"type": "hello", "v": 1, "name": "Ann"})
        _send(server, ben, {"type": "hello", "v": 1, "name": "Ben"})
        seated = _send(server, ann, {"type": "create_table", "seats": 2})
        _send(server, ben, {"type": "join", "table": seated[0]["table"]})
        _send(server, ann, {"type": "start"})
        room = next(iter(server.rooms.values()))
        table, game = weakref.ref(room.table), weakref.ref(room.table.game)
        del room
        last: dict[Connection, dict[str, Any]] = {}
        for _step in range(5000):  # bounded: a game of two has a few hundred moves
            if not server.rooms or next(iter(server.rooms.values())).table.is_over:
                break
            for conn in (ann, ben):
                for frame in _frames(conn):
                    assert frame["type"] != "error", frame
                    if frame["type"] == "snapshot":
                        last[conn] = frame
            mover = next(conn for conn in (ann, ben) if last.get(conn, {}).get("legal"))
            snapshot = last.pop(mover)
            action, args = _move(snapshot["legal"])
            act = {"type": "act", "action": action, "args": args, "seq": snapshot["seq"]}
            server.receive(mover, json.dumps(act))
        assert next(iter(server.rooms.values())).table.is_over
        await asyncio.sleep(0)  # the store's scheduled save runs
        for conn in (ann, ben):
            server.receive(conn, json.dumps({"type": "leave"}))
        assert not server.rooms  # forgotten: finished, and nobody is there
        await asyncio.sleep(0)
        return table, game

    table, game = asyncio.run(scenario())
    assert table() is None
    assert game() is None


def test_a_table_closed_by_the_sweep_is_freed_without_the_cycle_collector(
    no_collector: None,
) -> None:
    async def scenario() -> weakref.ref[Any]:
        server = Server(limits=Limits(grace=30.0, bot_delay=0.0))
        ann = Connection(_Socket(), server.limits)  # type: ignore[arg-type]
        _send(server, ann, {"type": "hello", "v": 1, "name": "Ann"})
        _send(server, ann, {"type": "create_table", "seats": 3, "bots": ["easy"]})
        table = weakref.ref(next(iter(server.rooms.values())).table)
        _send(server, ann, {"type": "leave"})
        assert server.sweep(0.0) == []
        assert len(server.sweep(60.0)) == 1
        assert not server.rooms
        await asyncio.sleep(0)
        return table

    assert asyncio.run(scenario())() is None
