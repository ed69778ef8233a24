"""The server's SQLite file has versions: an older server's file opens in this one and keeps
its tables; a newer server's file is refused with a sentence and left as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fivecrowns.net.server.store import SqliteStore, StoredPlayer, StoredTable
from fivecrowns.storage.migrations import STEPS, NewerFileError, migrate, version_of

# The schema every server wrote before the file had versions (main before issue 28), as it
# was: a file of such a server has these tables and user_version 0.
_OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, seats INTEGER NOT NULL, creator_id TEXT NOT NULL,
    creator_name TEXT NOT NULL, code TEXT, private INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inputs (
    table_id TEXT NOT NULL, idx INTEGER NOT NULL, command TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


def _old_server_file(path: Path) -> None:
    """A tables file as an older server left it: a player, an open table with two inputs, and
    a finished one."""
    with sqlite3.connect(path) as db:
        db.executescript(_OLD_SCHEMA)
        db.execute("INSERT INTO players VALUES ('p1', 'Ann', 'hash1')")
        db.execute("INSERT INTO tables VALUES ('t1', 3, 'p1', 'Ann', NULL, 0, 0)")
        db.execute("INSERT INTO tables VALUES ('t2', 2, 'p1', 'Ann', 'ABCDE-FGHJK', 1, 1)")
        sit = '{"op":"sit","seat":0,"name":"Ann","player":"p1"}'
        chat = '{"op":"chat","player":"p1","name":"Ann","text":"hi"}'
        db.execute("INSERT INTO inputs VALUES ('t1', 0, ?)", (sit,))
        db.execute("INSERT INTO inputs VALUES ('t1', 1, ?)", (chat,))
    db.close()


def test_an_older_servers_file_opens_keeps_its_tables_and_gets_the_new_ones(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    _old_server_file(path)
    store = SqliteStore(path)
    tables, left_out = store.load()
    assert left_out == 0
    assert store.player("hash1") == StoredPlayer("p1", "Ann", "hash1")
    (table,) = tables  # the finished one is kept too, but not brought back
    assert (table.id, table.seats, table.creator_name, table.private) == ("t1", 3, "Ann", False)
    assert [command["op"] for command in table.inputs] == ["sit", "chat"]
    assert table.guests  # every table before accounts took guests
    store.add_table(StoredTable("t3", 4, "p1", "Ann", None, False, guests=False))
    store.close()
    with sqlite3.connect(path) as db:
        assert version_of(db) == len(STEPS)  # why no number: steps from branches merge
        assert db.execute("SELECT count(*) FROM tables").fetchone() == (3,)
        assert db.execute("SELECT count(*) FROM accounts").fetchone() == (0,)
    db.close()
    again = SqliteStore(path)  # a file at the newest version opens as it is
    assert {(t.id, t.guests) for t in again.load()[0]} == {("t1", True), ("t3", False)}
    assert not any(t.rated for t in again.load()[0])  # tables made before ratings: unrated
    again.close()


def test_each_step_runs_once_in_order_from_any_older_version(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "new.sqlite3", isolation_level=None)
    assert version_of(db) == 0
    assert migrate(db) == len(STEPS)
    assert version_of(db) == len(STEPS)
    assert migrate(db) == len(STEPS)  # nothing to run: ALTER TABLE twice would fail
    db.close()


def test_a_newer_servers_file_is_refused_with_a_sentence_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    _old_server_file(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(STEPS) + 5}")
    db.close()
    with pytest.raises(NewerFileError, match="newer version of the game") as refused:
        SqliteStore(path)
    assert str(path) in str(refused.value)
    with sqlite3.connect(path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(tables)")]
        assert "guests" not in columns
        assert version_of(db) == len(STEPS) + 5
    db.close()


def test_a_step_that_fails_leaves_the_file_at_its_version(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    _old_server_file(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE accounts (id TEXT)")  # step 2 cannot create it: it fails
    with pytest.raises(sqlite3.OperationalError):
        migrate(db)
    assert version_of(db) == 1  # step 1 done, step 2 undone whole
    assert "guests" not in [row[1] for row in db.execute("PRAGMA table_info(tables)")]
    db.close()
