"""Where the server keeps tables, players and each table's inputs, behind a small interface.

:class:`Store` is all the server uses, so a later step can put tables on a
shared database (PostgreSQL, Redis) without touching the lobby. Two stores:

- :class:`SqliteStore`: one SQLite file (embedded, nothing to install), in WAL
  mode. Inputs wait in memory until :meth:`Store.flush` commits them all in one
  transaction; the server flushes before it sends any frame (so before it answers
  a move), so a ``kill -9`` of the server loses no acknowledged move.
- :class:`MemoryStore`: nothing on disk (``fivecrowns serve`` without ``--data``).

Accounts and their sessions are kept beside the tables (:mod:`fivecrowns.storage.accounts`),
and the file has versions (:mod:`fivecrowns.storage.migrations`).

A table is stored as its creation facts and its list of inputs; the table is
rebuilt by replaying them (:meth:`fivecrowns.table.Table.replay`). Tokens are
stored only as SHA-256 hashes.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from fivecrowns.storage.accounts import AccountStore, MemoryAccounts, SqliteAccounts
from fivecrowns.storage.migrations import migrate

__all__ = ["MemoryStore", "SqliteStore", "Store", "StoredPlayer", "StoredTable"]


@dataclass(slots=True)
class StoredTable:
    id: str
    seats: int
    creator_id: str
    creator_name: str
    code: str | None
    private: bool
    inputs: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    guests: bool = True  # why: a table may take only players with an account


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    id: str
    name: str
    token_hash: str


class Store(Protocol):
    #: The accounts and their sessions (fivecrowns.storage.accounts), kept beside the tables.
    accounts: AccountStore

    def add_player(self, player: StoredPlayer) -> None: ...

    def add_table(self, table: StoredTable) -> None: ...

    def append_input(self, table_id: str, index: int, command: dict[str, Any]) -> None:
        """Keep an input; it is durable once :meth:`flush` has returned."""
        ...

    def flush(self) -> None:
        """Commit every input kept since the last flush (cheap when there is none)."""
        ...

    def finish_table(self, table_id: str, finished: bool = True) -> None:
        """Mark a table finished (not brought back on a restart), or not again (a new game)."""
        ...

    def load(self) -> tuple[list[StoredPlayer], list[StoredTable]]:
        """Every player and every unfinished table, inputs in order."""
        ...

    def close(self) -> None: ...


class MemoryStore:
    """Keeps nothing: tables live as long as the server process."""

    def __init__(self) -> None:
        self.accounts: AccountStore = MemoryAccounts()

    def add_player(self, player: StoredPlayer) -> None:
        pass

    def add_table(self, table: StoredTable) -> None:
        pass

    def append_input(self, table_id: str, index: int, command: dict[str, Any]) -> None:
        pass

    def flush(self) -> None:
        pass

    def finish_table(self, table_id: str, finished: bool = True) -> None:
        pass

    def load(self) -> tuple[list[StoredPlayer], list[StoredTable]]:
        return [], []

    def close(self) -> None:
        pass


_encode = msgspec.json.Encoder().encode


class SqliteStore:
    """Tables, players and inputs in one SQLite file."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # why isolation_level=None: each statement commits at once, so an answered move is on disk
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        # why WAL with synchronous=NORMAL: durable across a killed process (what kill -9 tests);
        # only a power cut may lose the last commits, and the writes stay fast.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        migrate(self._db, path)  # why: an older server's file gets the newer tables
        self.accounts: AccountStore = SqliteAccounts(self._db)
        self._pending: list[tuple[str, int, str]] = []

    def add_player(self, player: StoredPlayer) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO players (id, name, token_hash) VALUES (?, ?, ?)",
            (player.id, player.name, player.token_hash),
        )

    def add_table(self, table: StoredTable) -> None:
        self._db.execute(
            "INSERT INTO tables (id, seats, creator_id, creator_name, code, private, guests)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.seats,
                table.creator_id,
                table.creator_name,
                table.code,
                int(table.private),
                int(table.guests),
            ),
        )

    def append_input(self, table_id: str, index: int, command: dict[str, Any]) -> None:
        # why msgspec: it writes the same compact JSON as json.dumps (UTF-8 where json.dumps
        # wrote \u escapes; json.loads reads both) in a fraction of the time
        self._pending.append((table_id, index, _encode(command).decode()))

    def flush(self) -> None:
        """Commit the kept inputs in one transaction. why: one commit per move was about 40%
        of the server's CPU per move; the server flushes before sending any frame."""
        if not self._pending:
            return
        rows = self._pending
        try:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT INTO inputs (table_id, idx, command) VALUES (?, ?, ?)", rows
            )
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise  # why: the inputs stay kept, for the next flush to try again
        self._pending = []

    def finish_table(self, table_id: str, finished: bool = True) -> None:
        self.flush()
        self._db.execute("UPDATE tables SET finished = ? WHERE id = ?", (int(finished), table_id))

    def load(self) -> tuple[list[StoredPlayer], list[StoredTable]]:
        players = [
            StoredPlayer(*row)
            for row in self._db.execute("SELECT id, name, token_hash FROM players")
        ]
        tables: list[StoredTable] = []
        rows = self._db.execute(
            "SELECT id, seats, creator_id, creator_name, code, private, guests FROM tables"
            " WHERE finished = 0 ORDER BY rowid"
        ).fetchall()
        for table_id, seats, creator_id, creator_name, code, private, guests in rows:
            commands = [
                json.loads(text)
                for (text,) in self._db.execute(
                    "SELECT command FROM inputs WHERE table_id = ? ORDER BY idx", (table_id,)
                )
            ]
            tables.append(
                StoredTable(
                    table_id,
                    seats,
                    creator_id,
                    creator_name,
                    code,
                    bool(private),
                    commands,
                    guests=bool(guests),
                )
            )
        return players, tables

    def close(self) -> None:
        self.flush()
        self._db.close()
