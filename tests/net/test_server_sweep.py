"""Tables nobody is at any more are closed; a table a player is reconnecting to is not.

A table whose people have all left (empty seats and computer players only, waiting or
mid-game) and that nobody watches is closed after the reconnection grace: it leaves the
lobby's list, cannot be joined, and a restart does not bring it back; its moves stay in
the store. A table whose seated players only dropped waits for them much longer
(``Limits.away``). The real-process test uses a one-second grace; the others give the
server's sweep a clock of their own (:meth:`Server.sweep` takes the time).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from fivecrowns.net.server.app import Server, make_app
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.rooms import Room
from fivecrowns.table import SeatKind, Table
from fivecrowns.ui.lobby import table_words
from server_support import (
    FAST,
    LOOPBACK,
    Client,
    ServerProcess,
    play_until,
    replayed,
    wait_until,
)


async def _listed(client: Client) -> set[str]:
    """The tables listed now (the frames that came before the answer are read first)."""
    for _ in range(1000):  # why: a list sent earlier (after hello, or by itself) is old news
        try:
            await client.recv(timeout=0.05)
        except TimeoutError:
            break
    await client.send({"type": "list_tables"})
    listing = await client.until(lambda m: m["type"] == "tables")
    return {info["id"] for info in listing["tables"]}


async def _until_unlisted(client: Client, ids: set[str], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    for _ in range(1000):
        if not (await _listed(client)) & ids:
            return
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.25)
    raise AssertionError(f"still listed after {timeout} s: {ids}")


def _finished(data: Path, table_id: str) -> bool:
    with sqlite3.connect(data / "tables.sqlite3") as db:
        (finished,) = db.execute("SELECT finished FROM tables WHERE id = ?", (table_id,)).fetchone()
    return bool(finished)


def test_tables_everyone_left_are_closed_after_the_grace_and_stay_closed(data: Path) -> None:
    async def scenario() -> None:
        server = ServerProcess(data, *FAST, "--grace", "1").start()
        ann, ben, cat, dan = Client("Ann"), Client("Ben"), Client("Cat"), Client("Dan")
        try:
            for client in (ann, ben, cat, dan):
                await client.connect(server.url)
            # a game played for a while, then both people leave: computer players only
            await ann.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ben.send({"type": "join", "table": ann.table})
            await ben.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann, ben], lambda c: c.seq >= 30, 60)
            played = ann.table
            # a table still waiting, which its creator leaves: empty seats only
            await cat.send({"type": "create_table", "seats": 3})
            await cat.until(lambda m: m["type"] == "snapshot")
            waiting = cat.table
            assert played is not None and waiting is not None
            assert {played, waiting} <= await _listed(dan)
            for client in (ann, ben, cat):
                await client.send({"type": "leave"})
                await client.until(lambda m: m["type"] == "left")
                if client is ann:  # Ben still plays: the lobby says who plays in Ann's place
                    await dan.send({"type": "list_tables"})
                    listing = await dan.until(
                        lambda m: (
                            m["type"] == "tables"
                            and any(any(s["left"] for s in i["seats"]) for i in m["tables"])
                        )
                    )
                    info = next(i for i in listing["tables"] if i["id"] == played)
                    assert "Ann (left; a computer player plays in their place)" in table_words(info)
            await _until_unlisted(dan, {played, waiting})
            await dan.send({"type": "join", "table": waiting})
            refused = await dan.until(lambda m: m["type"] == "error")
            assert refused["code"] == "no_table"
            await dan.send({"type": "watch", "table": played})
            refused = await dan.until(lambda m: m["type"] == "error")
            assert refused["code"] == "no_table"
        finally:
            errors = server.stop()
            for client in (ann, ben, cat, dan):
                await client.close()
        assert "Traceback" not in errors, errors
        # the played game's moves stay in the store; neither table comes back after a restart
        assert _finished(data, played) and _finished(data, waiting)
        kept = replayed(data, played)
        assert kept.game is not None and kept.seq >= 30
        again = ServerProcess(data, *FAST, "--grace", "1").start()
        try:
            eve = Client("Eve")
            await eve.connect(again.url)
            assert not (await _listed(eve)) & {played, waiting}
            await eve.close()
        finally:
            errors = again.stop()
        assert "Traceback" not in errors, errors

    asyncio.run(scenario())


def test_a_table_its_players_are_reconnecting_to_stays_open(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # why in this process: the sweeps are run with the test's own clock (Server.sweep takes
    # it), many times and far past the grace at once, instead of waiting 4 s for the real ones
    # why a bot delay: at full speed the stand-in and the computer player would finish the
    # game within the wait, and a finished game is rightly no longer listed
    server = Server(limits=Limits(bot_delay=0.4, rate=1000.0, burst=2000, grace=1.0))

    async def scenario() -> None:
        runner = web.AppRunner(make_app(server), handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, 0)
        await site.start()
        url = f"ws://{LOOPBACK}:{runner.addresses[0][1]}/ws"
        try:
            ann, cat, dan = Client("Ann"), Client("Cat"), Client("Dan")
            for client in (ann, cat, dan):
                await client.connect(url)
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann], lambda c: c.seq >= 8, 60)
            await cat.send({"type": "create_table", "seats": 3})
            await cat.until(lambda m: m["type"] == "snapshot")
            playing, waiting = ann.table, cat.table
            assert playing is not None and waiting is not None
            # both connections drop: nobody is connected to either table now
            await ann.close()
            await cat.close()
            rooms = [server.rooms[playing], server.rooms[waiting]]
            await wait_until(lambda: not any(any(room.all_conns()) for room in rooms), 10)
            # many sweeps (every half second with this grace) and past the grace: the game
            # stays; the table that never started is closed (no game to come back to)
            now = time.monotonic()
            assert server.sweep(now) == []
            assert server.sweep(now + 0.5) == []
            assert server.sweep(now + 1.0) == [waiting]
            for step in range(3, 10):
                assert server.sweep(now + 0.5 * step) == []
            listed = await _listed(dan)
            assert playing in listed and waiting not in listed
            # Ann comes back with her token and sits where she sat
            back = Client(ann.name)
            back.token, back.seq = ann.token, ann.seq
            await back.connect(url)
            shot = await back.until(lambda m: m["type"] == "snapshot")
            assert shot["table"] == playing and shot["seat"] == 0
            assert back.errors == []
            await back.close()
            # Cat hears that her table closed, and is in the lobby
            again = Client(cat.name)
            again.token = cat.token
            await again.connect(url)
            await again.until(lambda m: m["type"] == "tables")
            assert [error["code"] for error in again.errors] == ["table_gone"]
            await again.close()
            await dan.close()
        finally:
            await runner.cleanup()

    with caplog.at_level(logging.ERROR):
        asyncio.run(scenario())
    errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert errors == [], errors


def _room(server: Server, table_id: str, table: Table) -> Room:
    room = Room(table_id, table, None, False)
    server.rooms[table_id] = room
    return room


def test_the_sweep_waits_the_grace_for_a_left_or_unstarted_table_and_longer_for_a_game() -> None:
    server = Server(limits=Limits(grace=30.0, away=1800.0))
    left = Table(2, creator_name="Ann", creator_id="p1")
    left.add_bot("easy")
    left.leave("p1")  # before the start: the seat empties; only a computer player is left
    assert [seat.kind for seat in left.seats] == [SeatKind.EMPTY, SeatKind.BOT]
    dropped = Table(2, creator_name="Ben", creator_id="p2")  # Ben only dropped: still seated
    dropped.add_bot("easy")
    dropped.start(1)
    # Cy only dropped too, but her game never started: nothing to come back to
    waiting = Table(2, creator_name="Cy", creator_id="p3")
    _room(server, "left", left)
    _room(server, "dropped", dropped)
    _room(server, "waiting", waiting)
    start = 1000.0
    assert server.sweep(start) == []  # nobody connected: noticed now, closed later
    assert server.sweep(start + 29.0) == []
    assert server.sweep(start + 30.0) == ["left", "waiting"]
    assert server.sweep(start + 1799.0) == []
    assert server.sweep(start + 1800.0) == ["dropped"]
    assert server.rooms == {}


def test_someone_at_the_table_resets_the_sweeps_clock() -> None:
    server = Server(limits=Limits(grace=30.0))
    table = Table(2, creator_name="Ann", creator_id="p1")
    table.leave("p1")
    room = _room(server, "t1", table)
    assert server.sweep(0.0) == []
    room.conns[None] = {object()}  # type: ignore[arg-type]  # a spectator watching
    assert server.sweep(40.0) == []
    room.conns[None] = set()  # the spectator left: the clock starts again
    assert server.sweep(41.0) == []
    assert server.sweep(70.0) == []
    assert server.sweep(71.0) == ["t1"]


def _frames(conn: Connection) -> list[dict[str, Any]]:
    frames = []
    for _ in range(len(conn.queue)):
        if not conn.queue:
            break
        raw = conn.take()
        if raw is not None:
            frames.append(json.loads(raw))
    return frames


def test_a_player_back_after_their_table_was_closed_hears_so_and_is_in_the_lobby() -> None:
    async def scenario() -> None:
        server = Server(limits=Limits(grace=30.0, away=1800.0))
        first = Connection(None, server.limits)  # type: ignore[arg-type]  # never written to
        server.receive(first, json.dumps({"type": "hello", "v": 1, "name": "Ann"}))
        server.receive(first, json.dumps({"type": "create_table", "seats": 3}))
        token = _frames(first)[0]["token"]
        server._disconnected(first)  # her connection dropped; she is still seated
        assert server.sweep(0.0) == []
        assert len(server.sweep(1800.0)) == 1
        again = Connection(None, server.limits)  # type: ignore[arg-type]
        hello = {"type": "hello", "v": 1, "name": "Ann", "token": token, "language": "es"}
        server.receive(again, json.dumps(hello))
        frames = _frames(again)
        assert [frame["type"] for frame in frames] == ["welcome", "error", "tables"]
        assert frames[1]["code"] == "table_gone"
        assert frames[1]["text"] == (
            "Tu mesa se cerró mientras nadie estaba conectado a ella; estas son las mesas abiertas."
        )
        assert frames[2]["tables"] == []
        assert again.room is None

    asyncio.run(scenario())
