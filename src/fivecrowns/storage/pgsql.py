"""PostgreSQL behind :class:`fivecrowns.storage.sql.Sql`, through psycopg 3: the stores'
statements, written once with ``?`` placeholders, reach PostgreSQL with psycopg's ``%s``.

Its own module so that psycopg (the ``[postgresql]`` extra) is imported only by a server
that uses PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, ClassVar

import psycopg

from fivecrowns.storage.sql import Rows

__all__ = ["PgSql"]


@cache
def _pg(sql: str) -> str:
    # why the % first: psycopg reads a lone % as the start of a placeholder; no statement of
    # the stores has a ? inside a string literal, so every ? is a value
    return sql.replace("%", "%%").replace("?", "%s")


class PgSql:
    """The server's PostgreSQL connection in autocommit mode. ``connect`` gives the store's
    open connection (why a function: the store opens a new one when its connection was
    lost)."""

    unique_violation: ClassVar[tuple[type[Exception], ...]] = (psycopg.errors.UniqueViolation,)
    insertion_order: ClassVar[str] = "n"

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]]) -> None:
        self._connect = connect

    def execute(self, sql: str, values: Sequence[Any] = ()) -> Rows:
        return self._connect().execute(_pg(sql), values)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._connect().cursor() as cursor:
            cursor.executemany(_pg(sql), rows)

    def transaction(self) -> Any:
        return self._connect().transaction()
