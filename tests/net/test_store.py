"""The server's stores, SQLite and PostgreSQL: inputs kept until flush() commits them in one
transaction. The contract tests run on both (PostgreSQL started by tests/support/pg_support.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.store import SqliteStore, Store, StoredTable
from pg_support import pg_url_fixture, postgres_fixture  # noqa: F401  (the fixtures)


def _stored_inputs(path: Path) -> list[str]:
    with sqlite3.connect(path) as other:  # another connection sees only what was committed
        return [row[0] for row in other.execute("SELECT command FROM inputs ORDER BY idx")]


class _Kind:
    """One kind of store: how to open it (again, on the same data), and its committed inputs
    as another connection sees them."""

    def __init__(self, open_store: Callable[[], Store], committed: Callable[[], list[str]]):
        self.open = open_store
        self.committed = committed


@pytest.fixture(name="kind", params=["sqlite", "postgresql"])
def kind_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> _Kind:
    if request.param == "sqlite":
        path = tmp_path / "tables.sqlite3"
        return _Kind(lambda: SqliteStore(path), lambda: _stored_inputs(path))
    import psycopg

    from fivecrowns.net.server.pgstore import PgStore

    url = request.getfixturevalue("pg_url")

    def committed() -> list[str]:
        with psycopg.connect(url) as other:
            rows = other.execute("SELECT command FROM inputs ORDER BY idx").fetchall()
            return [row[0] for row in rows]

    return _Kind(lambda: PgStore(url), committed)


def test_inputs_are_committed_by_flush_in_order_and_a_flush_of_nothing_is_harmless(
    kind: _Kind,
) -> None:
    store = kind.open()
    store.add_table(StoredTable("t1", 4, "p1", "Ann", None, False))
    store.flush()
    for index in range(3):
        store.append_input("t1", index, {"op": "chat", "n": index})
    assert kind.committed() == []
    store.flush()
    assert kind.committed() == [f'{{"op":"chat","n":{n}}}' for n in range(3)]
    store.append_input("t1", 3, {"op": "chat", "n": 3})
    store.close()  # closing flushes what is kept
    again = kind.open()
    (table,), left_out = again.load()
    assert [command["n"] for command in table.inputs] == [0, 1, 2, 3]
    assert left_out == 0
    again.close()


def test_load_gives_the_newest_unfinished_tables_oldest_first_and_how_many_it_left(
    kind: _Kind,
) -> None:
    store = kind.open()
    # why not in order of their names: the tables come back in the order they were made
    for number in (5, 0, 3, 2, 4, 1):
        store.add_table(StoredTable(f"t{number}", 2, "p1", "Ann", "C0DE", number == 4))
    store.finish_table("t3")
    store.finish_table("t5")
    store.finish_table("t5", finished=False)  # a new game at the table
    store.set_aside("t1", "a test")
    store.set_aside("t1", "again")  # setting aside twice is harmless
    every, left_out = store.load()
    assert ([table.id for table in every], left_out) == (["t5", "t0", "t2", "t4"], 0)
    assert [(t.seats, t.code, t.private, t.guests) for t in every[2:]] == [
        (2, "C0DE", False, True),
        (2, "C0DE", True, True),
    ]
    newest, left_out = store.load(2)
    assert ([table.id for table in newest], left_out) == (["t2", "t4"], 2)
    none, left_out = store.load(0)
    assert (none, left_out) == ([], 4)
    store.close()


def test_players_are_found_by_token_hash_and_a_second_seat_updates_them(kind: _Kind) -> None:
    from fivecrowns.net.server.store import StoredPlayer

    store = kind.open()
    store.add_player(StoredPlayer("p1", "Ann", "hash1"))
    store.add_player(StoredPlayer("p2", "Ben", "hash2"))
    store.add_player(StoredPlayer("p1", "Annie", "hash3"))
    store.close()
    again = kind.open()
    assert again.player("hash3") == StoredPlayer("p1", "Annie", "hash3")
    assert again.player("hash2") == StoredPlayer("p2", "Ben", "hash2")
    assert again.player("hash1") is None
    again.close()


def test_an_unreadable_input_sets_only_its_table_aside(kind: _Kind) -> None:
    store = kind.open()
    for name in ("t1", "t2"):
        store.add_table(StoredTable(name, 2, "p1", "Ann", None, False))
    store.append_input("t1", 0, {"op": "start", "seed": 1})
    store.append_input("t2", 0, {"op": "start", "seed": 2})
    store.flush()
    store.close()
    if isinstance(store, SqliteStore):
        with sqlite3.connect(store.path) as db:
            db.execute("UPDATE inputs SET command = '[1]' WHERE table_id = 't1'")
    else:
        import psycopg

        with psycopg.connect(store._url) as db:  # type: ignore[attr-defined]
            db.execute("UPDATE inputs SET command = '[1]' WHERE table_id = 't1'")
    again = kind.open()
    (one, two), _ = again.load()
    assert (one.id, one.inputs, one.damaged) == (
        "t1",
        [],
        "an input is unreadable: list, not an object",
    )
    assert (two.id, two.inputs, two.damaged) == ("t2", [{"op": "start", "seed": 2}], None)
    again.close()


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
