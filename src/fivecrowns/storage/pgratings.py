"""Ratings in PostgreSQL: :class:`fivecrowns.storage.ratings.SqlRatings` for a server whose
tables are in PostgreSQL (:mod:`fivecrowns.net.server.pgstore`), the same statements as in
SQLite sent through :class:`fivecrowns.storage.pgsql.PgSql`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from fivecrowns.storage.pgsql import PgSql
from fivecrowns.storage.ratings import SqlRatings

__all__ = ["PgRatings"]


class PgRatings(SqlRatings):
    """Ratings in the server's PostgreSQL database. ``connect`` gives the store's open
    connection (why a function: the store opens a new one when its connection was lost)."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]]) -> None:
        super().__init__(PgSql(connect))
