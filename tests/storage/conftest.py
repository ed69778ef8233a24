"""The server's stores, opened the three ways a server opens them, for the store tests
(accounts, ratings, friends): in memory, in a SQLite file, and in a real PostgreSQL
(tests/support/pg_support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.store import MemoryStore, SqliteStore
from pg_support import pg_url_fixture, postgres_fixture  # noqa: F401  (the fixtures)


@pytest.fixture(name="server_store", params=["memory", "sqlite", "postgresql"])
def server_store_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A whole store; a test file's own ``store`` fixture takes the part it tests."""
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "postgresql":
        from fivecrowns.net.server.pgstore import PgStore

        shared = PgStore(request.getfixturevalue("pg_url"))
        yield shared
        shared.close()
        return
    store = SqliteStore(tmp_path / "tables.sqlite3")
    yield store
    store.close()
