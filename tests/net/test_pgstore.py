"""The PostgreSQL store on a real PostgreSQL (tests/support/pg_support.py): what SQLite cannot
show. Several writers on one database, the schema's versions, a lost connection, PgBouncer.

The contract both stores keep is tested on both in tests/net/test_store.py.
"""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from fivecrowns.net.server.pgstore import PgStore, TableTakenError
from fivecrowns.net.server.store import StoredTable, StoreError
from fivecrowns.storage.pgschema import STEPS, NewerSchemaError
from pg_support import PgBouncer, Postgres, pg_url_fixture, postgres_fixture  # noqa: F401


def _inputs(url: str) -> list[tuple[str, int, str]]:
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT table_id, idx, command FROM inputs ORDER BY table_id, idx")
        return [(t, i, c) for t, i, c in rows.fetchall()]


def test_the_table_and_index_key_refuses_a_second_writer_and_keeps_the_first(
    pg_url: str,
) -> None:
    owner, intruder = PgStore(pg_url), PgStore(pg_url)
    for name in ("t1", "t2"):
        owner.add_table(StoredTable(name, 2, "p1", "Ann", None, False))
    owner.append_input("t1", 0, {"op": "start", "seed": 1})
    owner.flush()
    # the intruder believes it owns t1 too, and writes t2's first input in the same flush
    intruder.append_input("t1", 0, {"op": "start", "seed": 666})
    intruder.append_input("t2", 0, {"op": "start", "seed": 2})
    with pytest.raises(TableTakenError) as refused:
        intruder.flush()
    assert refused.value.tables == ["t1"]
    assert _inputs(pg_url) == [("t1", 0, '{"op":"start","seed":1}')]  # nothing of that flush
    intruder.flush()  # t2's input was kept, and goes now; t1's was dropped
    assert _inputs(pg_url) == [
        ("t1", 0, '{"op":"start","seed":1}'),
        ("t2", 0, '{"op":"start","seed":2}'),
    ]
    owner.append_input("t1", 1, {"op": "chat", "n": 1})
    owner.flush()  # the owner writes on
    (one, two), _ = owner.load()
    assert one.inputs == [{"op": "start", "seed": 1}, {"op": "chat", "n": 1}]
    assert two.inputs == [{"op": "start", "seed": 2}]
    owner.close()
    intruder.close()


def test_a_newer_schema_is_refused_and_left_untouched(pg_url: str) -> None:
    newer = len(STEPS) + 1
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (%s)", (newer,))
        db.execute("CREATE TABLE future (x INTEGER)")
    with pytest.raises(NewerSchemaError) as refused:
        PgStore(pg_url)
    assert str(refused.value) == (
        f"The database {pg_url.replace('fivecrowns@', '')} was written by a newer version of "
        f"the game (its version {newer}, this game knows up to {len(STEPS)}); update the game "
        "to use it."
    )
    with psycopg.connect(pg_url) as db:
        tables = db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            " ORDER BY table_name"
        ).fetchall()
        assert tables == [("future",), ("schema_version",)]
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(newer,)]


def test_servers_starting_together_make_the_schema_once(pg_url: str) -> None:
    stores: list[PgStore] = []
    failures: list[BaseException] = []
    start = threading.Barrier(4, timeout=30)

    def open_one() -> None:
        try:
            start.wait()
            stores.append(PgStore(pg_url))
        except BaseException as error:  # why: a thread's failure must reach the test
            failures.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    assert len(stores) == 4
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(len(STEPS),)]
    for store in stores:
        store.close()


def test_a_lost_connection_fails_the_flush_keeps_the_inputs_and_the_next_flush_reconnects(
    pg_url: str,
) -> None:
    store = PgStore(pg_url)
    store.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    pid = store._connection().info.backend_pid
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    store.append_input("t1", 0, {"op": "start", "seed": 1})
    with pytest.raises(StoreError):
        store.flush()
    assert _inputs(pg_url) == []
    store.flush()
    assert store._connection().info.backend_pid != pid
    assert _inputs(pg_url) == [("t1", 0, '{"op":"start","seed":1}')]
    store.close()


def _plays_behind_pgbouncer(bouncer: PgBouncer, connect: Any, table_id: str) -> None:
    """Twelve flushes and loads, PgBouncer dropping its server connections between each
    (RECONNECT on its console), as a pool in transaction mode may hand out another one."""
    store = connect()
    store.add_table(StoredTable(table_id, 2, "p1", "Ann", None, False))
    for index in range(12):
        store.append_input(table_id, index, {"op": "chat", "n": index})
        store.flush()
        tables, _ = store.load()
        assert [len(t.inputs) for t in tables if t.id == table_id] == [index + 1]
        with psycopg.connect(bouncer.url("pgbouncer"), autocommit=True) as console:
            console.execute("RECONNECT")
    store.close()


def test_the_store_works_behind_pgbouncer_in_transaction_mode(postgres: Postgres) -> None:
    """psycopg's trap (as asyncpg's issue 945): a prepared statement lives on one server
    connection, and PgBouncer in transaction mode may give the next query another. psycopg
    prepares a query after its fifth use; the store turns that off."""
    url = postgres.database()
    bouncer = PgBouncer(postgres, url.rsplit("/", 1)[1]).start()
    try:
        _plays_behind_pgbouncer(bouncer, lambda: PgStore(bouncer.url()), "t1")

        class Preparing(PgStore):
            """The store with psycopg's default, to show the trap is real here."""

            def _connection(self) -> Any:
                db = super()._connection()
                db.prepare_threshold = 5
                return db

        with pytest.raises(psycopg.errors.InvalidSqlStatementName):
            _plays_behind_pgbouncer(bouncer, lambda: Preparing(bouncer.url()), "t2")
    finally:
        bouncer.stop()


def test_deleting_an_account_keeps_its_games_under_a_deleted_player(pg_url: str) -> None:
    """As tests/storage/test_accounts.py does for SQLite: the name, hash and chat go."""
    from fivecrowns.net.server.store import StoredPlayer
    from fivecrowns.storage.accounts import DELETED_NAME, Account

    store = PgStore(pg_url)
    store.accounts.add_account(Account("a1", "Ann", "ann", "$argon2id$x", "active", 1.0))
    store.add_player(StoredPlayer("a1", "Ann", "tokenhash"))
    store.add_player(StoredPlayer("p2", "Bob", "tokenhash2"))
    store.add_table(StoredTable("t1", 2, "a1", "Ann", None, False))
    store.append_input("t1", 0, {"op": "sit", "seat": 1, "name": "Bob", "player": "p2"})
    store.append_input("t1", 1, {"op": "chat", "player": "a1", "name": "Ann", "text": "secret"})
    store.flush()
    store.accounts.delete_account("a1")
    store.close()
    with psycopg.connect(pg_url) as db:
        text = "\n".join(
            str(row)
            for table in ("accounts", "players", "tables", "inputs")
            for row in db.execute(f"SELECT * FROM {table}").fetchall()
        )
    assert "secret" not in text and "$argon2id$x" not in text and "'tokenhash'" not in text
    assert "'Ann'" not in text
    again = PgStore(pg_url)
    (table,), _ = again.load()
    assert table.creator_name == DELETED_NAME
    assert table.inputs[1] == {"op": "chat", "player": "a1", "name": DELETED_NAME, "text": "-"}
    assert again.player("tokenhash2") == StoredPlayer("p2", "Bob", "tokenhash2")
    again.close()


def test_a_pg_dump_copy_restores_every_table_and_move(postgres: Postgres, tmp_path: Any) -> None:
    """docs/operations.md's backup: pg_dump while the server writes, pg_restore into a new
    database, and the store finds every table and move of the copy there."""
    import subprocess

    from pg_support import binary

    pg_dump, pg_restore = binary("pg_dump"), binary("pg_restore")
    assert pg_dump is not None and pg_restore is not None
    url = postgres.database()
    store = PgStore(url)
    store.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    store.append_input("t1", 0, {"op": "start", "seed": 1})
    store.flush()
    copy = tmp_path / "fivecrowns.dump"
    subprocess.run([pg_dump, "--format=custom", f"--file={copy}", url], check=True, timeout=60)
    store.append_input("t1", 1, {"op": "chat", "n": 1})  # after the copy: not in it
    store.flush()
    store.close()
    restored = postgres.database()
    subprocess.run(
        [pg_restore, f"--dbname={restored}", "--no-owner", str(copy)], check=True, timeout=60
    )
    again = PgStore(restored)
    (table,), _ = again.load()
    assert (table.id, table.inputs) == ("t1", [{"op": "start", "seed": 1}])
    again.close()
