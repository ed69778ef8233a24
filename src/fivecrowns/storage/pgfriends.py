"""Friends in PostgreSQL: :class:`fivecrowns.storage.friends.SqlFriends` for a server whose
tables are in PostgreSQL (:mod:`fivecrowns.net.server.pgstore`), the same statements as in
SQLite sent through :class:`fivecrowns.storage.pgsql.PgSql`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from fivecrowns.storage.friends import SqlFriends
from fivecrowns.storage.pgsql import PgSql

__all__ = ["PgFriends"]


class PgFriends(SqlFriends):
    """Friends in the server's PostgreSQL database. ``connect`` gives the store's open
    connection (why a function: the store opens a new one when its connection was lost)."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]]) -> None:
        super().__init__(PgSql(connect))
