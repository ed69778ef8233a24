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
from fivecrowns.net.server.limits import Limits
from inprocess_support import connect, play_a_game_of_two, send


@pytest.fixture(name="no_collector")
def no_collector_fixture() -> Iterator[None]:
    """The cycle collector off for the test (what was freed was freed by reference counts)."""
    gc.collect()  # why: leftovers of earlier tests must not run a collection meanwhile
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_finished_table_everyone_left_is_freed_without_the_cycle_collector(
    no_collector: None,
) -> None:
    async def scenario() -> tuple[weakref.ref[Any], weakref.ref[Any]]:
        server = Server(limits=Limits(bot_delay=0.0, rate=1e6, burst=1_000_000), seed=3)
        ann, ben = play_a_game_of_two(server)
        room = next(iter(server.rooms.values()))
        table, game = weakref.ref(room.table), weakref.ref(room.table.game)
        del room
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
        ann = connect(server)
        send(server, ann, {"type": "hello", "v": 1, "name": "Ann"})
        send(server, ann, {"type": "create_table", "seats": 3, "bots": ["easy"]})
        table = weakref.ref(next(iter(server.rooms.values())).table)
        send(server, ann, {"type": "leave"})
        assert server.sweep(0.0) == []
        assert len(server.sweep(60.0)) == 1
        assert not server.rooms
        await asyncio.sleep(0)
        return table

    assert asyncio.run(scenario())() is None
