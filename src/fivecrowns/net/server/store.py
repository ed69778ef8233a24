"""Where the server keeps tables, players and each table's inputs, behind a small interface.

:class:`Store` is all the server uses, so a later step can put tables on a
shared database (PostgreSQL, Redis) without touching the lobby. Two stores:

- :class:`SqliteStore`: one SQLite file (embedded, nothing to install), in WAL
  mode. Inputs wait in memory until :meth:`Store.flush` commits them all in one
  transaction; the server flushes before it sends any frame (so before it answers
  a move), so a ``kill -9`` of the server loses no acknowledged move.
- :class:`MemoryStore`: nothing on disk (``fivecrowns serve`` without ``--data``).

Accounts and their sessions are kept beside the tables (:mod:`fivecrowns.storage.accounts`),
and so are friends, blocks and private messages (:mod:`fivecrowns.storage.friends`),
and the file has versions (:mod:`fivecrowns.storage.migrations`).

A table is stored as its creation facts and its list of inputs; the table is
rebuilt by replaying them (:meth:`fivecrowns.table.Table.replay`). A table that
cannot be read or rebuilt is set aside (:meth:`Store.set_aside`): kept as it is,
named with why in its own list, and not brought back again. Players are stored
when they take a seat (a hello alone keeps nothing on disk), and looked up by
their token's SHA-256 hash when they come back; a token itself is never stored.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from fivecrowns.storage.accounts import AccountStore, MemoryAccounts, SqliteAccounts
from fivecrowns.storage.friends import FriendStore, MemoryFriends, SqliteFriends
from fivecrowns.storage.migrations import migrate
from fivecrowns.storage.ratings import MemoryRatings, RatingStore, SqliteRatings

__all__ = ["MemoryStore", "SqliteStore", "Store", "StoreError", "StoredPlayer", "StoredTable"]


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
    damaged: str | None = None  # why its inputs could not be read, if they could not
    guests: bool = True  # why: a table may take only players with an account
    rated: bool = False  # its account holders' games move their ratings


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    id: str
    name: str
    token_hash: str


class StoreError(Exception):
    """A store on another machine could not be written (the connection was lost, another
    writer has the table); like a full disk for SQLite, the server says so in its log."""


class Store(Protocol):
    #: The accounts and their sessions (fivecrowns.storage.accounts), kept beside the tables.
    accounts: AccountStore
    #: Friends, blocks and private messages (fivecrowns.storage.friends), beside the accounts.
    friends: FriendStore
    #: The players' ratings and the rated games (fivecrowns.storage.ratings).
    ratings: RatingStore

    def add_player(self, player: StoredPlayer) -> None:
        """Keep a player (one who took a seat) for a restart."""
        ...

    def player(self, token_hash: str) -> StoredPlayer | None:
        """The stored player with this token hash, if any."""
        ...

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

    def load(self, most: int | None = None) -> tuple[list[StoredTable], int]:
        """The unfinished tables not set aside, inputs in order, oldest first: the newest
        ``most`` of them if there are more (all if ``most`` is None); and how many were left
        out. Players are looked up one at a time, by :meth:`player`, when they come back."""
        ...

    def set_aside(self, table_id: str, why: str) -> None:
        """Bring a table that could not be rebuilt back no more; keep all of it as it is."""
        ...

    def close(self) -> None: ...


class MemoryStore:
    """Keeps nothing: tables live as long as the server process."""

    def __init__(self) -> None:
        self.ratings: RatingStore = MemoryRatings()
        self.accounts: AccountStore = MemoryAccounts(self.ratings.forget)
        self.friends: FriendStore = MemoryFriends()

    def add_player(self, player: StoredPlayer) -> None:
        pass

    def player(self, token_hash: str) -> StoredPlayer | None:
        return None

    def add_table(self, table: StoredTable) -> None:
        pass

    def append_input(self, table_id: str, index: int, command: dict[str, Any]) -> None:
        pass

    def flush(self) -> None:
        pass

    def finish_table(self, table_id: str, finished: bool = True) -> None:
        pass

    def load(self, most: int | None = None) -> tuple[list[StoredTable], int]:
        return [], 0

    def set_aside(self, table_id: str, why: str) -> None:
        pass

    def close(self) -> None:
        pass


_encode = msgspec.json.Encoder().encode


def _decode_input(text: Any) -> dict[str, Any]:
    command = json.loads(text)
    if not isinstance(command, dict):
        raise TypeError(f"{type(command).__name__}, not an object")
    return command


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
        self.friends: FriendStore = SqliteFriends(self._db)
        self.ratings: RatingStore = SqliteRatings(self._db)
        self._pending: list[tuple[str, int, str]] = []

    def add_player(self, player: StoredPlayer) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO players (id, name, token_hash) VALUES (?, ?, ?)",
            (player.id, player.name, player.token_hash),
        )

    def player(self, token_hash: str) -> StoredPlayer | None:
        row = self._db.execute(
            "SELECT id, name, token_hash FROM players WHERE token_hash = ?", (token_hash,)
        ).fetchone()
        return None if row is None else StoredPlayer(*row)

    def add_table(self, table: StoredTable) -> None:
        self._db.execute(
            "INSERT INTO tables (id, seats, creator_id, creator_name, code, private, guests,"
            " rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.seats,
                table.creator_id,
                table.creator_name,
                table.code,
                int(table.private),
                int(table.guests),
                int(table.rated),
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

    def load(self, most: int | None = None) -> tuple[list[StoredTable], int]:
        tables: list[StoredTable] = []
        rows = self._db.execute(
            "SELECT id, seats, creator_id, creator_name, code, private, guests, rated FROM tables"
            " WHERE finished = 0 AND id NOT IN (SELECT table_id FROM set_aside) ORDER BY rowid"
        ).fetchall()
        left_out = 0 if most is None else max(0, len(rows) - most)
        for table_id, seats, creator_id, creator_name, code, private, guests, rated in rows[
            left_out:
        ]:
            table = StoredTable(
                table_id,
                seats,
                creator_id,
                creator_name,
                code,
                bool(private),
                guests=bool(guests),
                rated=bool(rated),
            )
            try:
                table.inputs = [
                    _decode_input(text)
                    for (text,) in self._db.execute(
                        "SELECT command FROM inputs WHERE table_id = ? ORDER BY idx", (table_id,)
                    )
                ]
            except (ValueError, TypeError) as error:  # why: one bad row must not stop the rest
                table.inputs = []
                table.damaged = f"an input is unreadable: {error}"
            tables.append(table)
        return tables, left_out

    def set_aside(self, table_id: str, why: str) -> None:
        # why a list of its own: the table's rows stay exactly as they were (nothing that could
        # not be read is written over), and a later version may still read them
        self._db.execute(
            "INSERT OR REPLACE INTO set_aside (table_id, why, at) VALUES (?, ?, datetime('now'))",
            (table_id, why),
        )

    def close(self) -> None:
        self.flush()
        self._db.close()
