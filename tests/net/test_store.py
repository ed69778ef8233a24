"""The server's SQLite store: inputs kept until flush() commits them in one transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.store import SqliteStore, StoredTable


def _stored_inputs(path: Path) -> list[str]:
    with sqlite3.connect(path) as other:  # another connection sees only what was committed
        return [row[0] for row in other.execute("SELECT command FROM inputs ORDER BY idx")]


def test_inputs_are_committed_by_flush_in_order_and_a_flush_of_nothing_is_harmless(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    store = SqliteStore(path)
    store.add_table(StoredTable("t1", 4, "p1", "Ann", None, False))
    store.flush()
    for index in range(3):
        store.append_input("t1", index, {"op": "chat", "n": index})
    assert _stored_inputs(path) == []
    store.flush()
    assert _stored_inputs(path) == [f'{{"op":"chat","n":{n}}}' for n in range(3)]
    store.append_input("t1", 3, {"op": "chat", "n": 3})
    store.close()  # closing flushes what is kept
    again = SqliteStore(path)
    (table,), left_out = again.load()
    assert [command["n"] for command in table.inputs] == [0, 1, 2, 3]
    assert left_out == 0
    again.close()


def test_load_gives_the_newest_unfinished_tables_oldest_first_and_how_many_it_left(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "tables.sqlite3")
    for number in range(5):
        store.add_table(StoredTable(f"t{number}", 2, "p1", "Ann", None, False))
    store.finish_table("t3")
    store.set_aside("t1", "a test")
    every, left_out = store.load()
    assert ([table.id for table in every], left_out) == (["t0", "t2", "t4"], 0)
    newest, left_out = store.load(2)
    assert ([table.id for table in newest], left_out) == (["t2", "t4"], 1)
    none, left_out = store.load(0)
    assert (none, left_out) == ([], 3)
    store.close()


class _FailingDb:
    """Passes everything to the real connection but fails the insert of inputs once."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.fail = True

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        if self.fail:
            self.fail = False
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_a_failed_flush_keeps_the_inputs_for_the_next_one(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    store = SqliteStore(path)
    store.add_table(StoredTable("t1", 4, "p1", "Ann", None, False))
    real = store._db
    store._db = _FailingDb(real)  # type: ignore[assignment]
    store.append_input("t1", 0, {"op": "start", "seed": 1})
    with pytest.raises(sqlite3.OperationalError):
        store.flush()
    assert not real.in_transaction  # rolled back
    assert _stored_inputs(path) == []
    store.flush()
    assert _stored_inputs(path) == ['{"op":"start","seed":1}']
    store._db = real
    store.close()


def test_the_server_tells_of_no_move_it_could_not_save(tmp_path: Path) -> None:
    """A commit that fails closes the connections instead of sending the move's events."""
    import asyncio

    from aiohttp import web

    from fivecrowns.net.server.app import Server, make_app
    from fivecrowns.net.server.limits import Limits
    from server_support import LOOPBACK, Client

    async def scenario() -> None:
        store = SqliteStore(tmp_path / "tables.sqlite3")
        server = Server(store, Limits(bot_delay=0.0))
        runner = web.AppRunner(make_app(server), handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, LOOPBACK, 0).start()
        url = f"ws://{LOOPBACK}:{runner.addresses[0][1]}/ws"
        ann, ben = Client("Ann"), Client("Ben")
        try:
            for client in (ann, ben):
                await client.connect(url)
            await ann.send({"type": "create_table", "seats": 2})
            await ann.until(lambda m: m["type"] == "seated")
            await ben.send({"type": "join", "table": ann.table})
            await ben.until(lambda m: m["type"] == "seated")
            await ann.send({"type": "start"})
            for client in (ann, ben):
                await client.until(lambda m: m["type"] == "snapshot" and m["started"])
            mover = ann if ann.my_turn() else ben
            seq = mover.seq

            def broken() -> None:
                raise sqlite3.OperationalError("disk I/O error")

            store.flush = broken  # type: ignore[method-assign]
            await mover.send({"type": "act", "action": "draw_stock", "args": {}, "seq": seq})
            with pytest.raises(ConnectionError):
                await mover.until(lambda m: False, 10)
            assert mover.seq == seq  # no event of the unsaved draw reached the mover
        finally:
            for client in (ann, ben):
                await client.close()
            del store.flush  # type: ignore[method-assign]
            await runner.cleanup()

    asyncio.run(scenario())
