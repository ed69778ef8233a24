"""The little the stores need to know of the database they write to, so that one class per
store serves SQLite and PostgreSQL alike.

The stores (accounts, ratings) write their SQL once, in the dialect both databases share:
``?`` placeholders, ``INSERT … ON CONFLICT DO NOTHING`` and ``ON CONFLICT (…) DO UPDATE``
(SQLite has had both since 3.24), ``DELETE … RETURNING`` (SQLite 3.35; Debian 12 has 3.40),
``||`` to join text. What differs is behind :class:`Sql`:
how a statement is sent, what a broken unique key raises, how a transaction is opened, and the
column that tells rows apart in insertion order. :class:`SqliteSql` is here (SQLite comes with
Python); the PostgreSQL one is :class:`fivecrowns.storage.pgsql.PgSql`, so that psycopg is
imported only by a server that uses it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Protocol

__all__ = ["Rows", "Sql", "SqliteSql"]


class Rows(Protocol):
    """What a statement gives back: its rows, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Sql(Protocol):
    #: What the database raises when a row would break a unique key.
    unique_violation: ClassVar[tuple[type[Exception], ...]]
    #: A column of every table that grows with each row added (SQLite's hidden ``rowid``; a
    #: PostgreSQL table gives itself one, such as an identity column named ``n``).
    insertion_order: ClassVar[str]

    def execute(self, sql: str, values: Sequence[Any] = ()) -> Rows: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def transaction(self) -> Any:
        """A context manager: what is executed inside is kept together on a normal exit and
        not at all on an exception."""
        ...


class SqliteSql:
    """A connection to the server's SQLite file, in autocommit mode (``isolation_level``
    ``None``), as :class:`fivecrowns.net.server.store.SqliteStore` opens it."""

    unique_violation: ClassVar[tuple[type[Exception], ...]] = (sqlite3.IntegrityError,)
    insertion_order: ClassVar[str] = "rowid"

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, values: Sequence[Any] = ()) -> Rows:
        return self.db.execute(sql, values)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        # why IMMEDIATE: the write lock is taken at once, so two processes sharing the file
        # never both read, then both fail to write
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
