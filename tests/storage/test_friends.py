"""Friends, blocks and private messages behind the store interface (issue 28 item 4): the
SQLite store and the memory store answer alike, and the SQLite one lasts across a reopen of
the file (an older server's file gets the friends' tables by a migration step)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.store import MemoryStore, SqliteStore, StoredTable
from fivecrowns.storage.friends import FriendStore, PrivateMessage
from fivecrowns.storage.migrations import STEPS, version_of


@pytest.fixture(name="store")
def store_fixture(server_store: Any) -> FriendStore:
    return server_store.friends


def test_a_request_becomes_a_friendship_both_ways_and_ends_from_either_side(
    store: FriendStore,
) -> None:
    store.ask("ann", "bob", 1.0)
    store.ask("ann", "bob", 2.0)  # asking again changes nothing
    store.ask("cy", "bob", 3.0)
    assert store.asked("ann", "bob") and not store.asked("bob", "ann")
    assert store.asking("bob") == ["ann", "cy"] and store.asks_of("ann") == ["bob"]
    store.befriend("bob", "ann", 4.0)
    assert store.are_friends("ann", "bob") and store.are_friends("bob", "ann")
    assert store.asking("bob") == ["cy"] and store.asks_of("ann") == []
    assert store.friends("ann") == ["bob"] and store.friends("bob") == ["ann"]
    store.drop_request("cy", "bob")
    assert store.asking("bob") == []
    store.unfriend("bob", "ann")
    assert store.friends("ann") == store.friends("bob") == []


def test_a_block_ends_the_friendship_and_the_requests_between_the_two(store: FriendStore) -> None:
    store.befriend("ann", "bob", 1.0)
    store.ask("bob", "ann", 2.0)
    store.ask("ann", "cy", 2.0)
    store.block("ann", "bob", 3.0)
    assert store.blocks("ann", "bob") and not store.blocks("bob", "ann")
    assert not store.are_friends("ann", "bob") and store.asking("ann") == []
    assert store.blocked_by("ann") == ["bob"] and store.asks_of("ann") == ["cy"]
    store.unblock("ann", "bob")
    assert store.blocked_by("ann") == []


def test_the_inbox_is_taken_once_in_order_and_a_deleted_account_is_forgotten(
    store: FriendStore,
) -> None:
    for n in range(3):
        store.keep_message(PrivateMessage("ann", "bob", f"line {n}", float(n)))
    store.keep_message(PrivateMessage("cy", "bob", "from cy", 9.0))
    assert store.inbox_size("bob") == 4 and store.inbox_size("ann") == 0
    store.forget("cy")
    taken = store.take_inbox("bob")
    assert [m.text for m in taken] == ["line 0", "line 1", "line 2"]
    assert taken[0] == PrivateMessage("ann", "bob", "line 0", 0.0)
    assert store.take_inbox("bob") == [] and store.inbox_size("bob") == 0
    store.befriend("ann", "cy", 1.0)
    store.block("cy", "dee", 1.0)
    store.forget("cy")
    assert store.friends("ann") == [] and store.blocked_by("cy") == []


def test_friends_last_in_the_servers_file_and_an_older_file_gets_their_tables(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    friends_step = next(i for i, step in enumerate(STEPS) if "friend_requests" in step)
    for number, step in enumerate(STEPS[:friends_step], start=1):  # a file from before friends
        for statement in step.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {number}")
    db.close()
    store = SqliteStore(path)
    store.friends.befriend("ann", "bob", 1.0)
    store.friends.keep_message(PrivateMessage("ann", "bob", "hi", 2.0))
    store.close()
    again = SqliteStore(path)
    assert again.friends.friends("bob") == ["ann"]
    assert [m.text for m in again.friends.take_inbox("bob")] == ["hi"]
    again.close()
    with sqlite3.connect(path) as check:
        assert version_of(check) == len(STEPS)
    check.close()


def test_a_tables_bans_are_kept_until_the_table_closes(store: FriendStore) -> None:
    store.ban("t1", "dee", 1.0)
    store.ban("t1", "dee", 2.0)  # banning again changes nothing
    store.ban("t2", "dee", 1.0)
    assert store.banned("t1", "dee") and store.banned("t2", "dee")
    assert not store.banned("t1", "cy") and not store.banned("t3", "dee")
    store.forget_table("t1")
    assert not store.banned("t1", "dee") and store.banned("t2", "dee")


def test_the_bans_of_a_table_marked_finished_are_forgotten_when_the_tables_come_back(
    server_store: Any,
) -> None:
    """A table that ended while nobody was at it (or the server was away) is never closed, so
    its bans would stay for ever; a server bringing its tables back forgets them."""
    for table_id in ("t1", "t2"):
        server_store.add_table(StoredTable(table_id, 4, "ann", "Ann", None, False))
        server_store.friends.ban(table_id, "dee", 1.0)
    server_store.finish_table("t1")
    server_store.friends.forget_finished_tables()
    if isinstance(server_store, MemoryStore):  # its bans go with the process, as its tables
        return
    assert not server_store.friends.banned("t1", "dee")
    assert server_store.friends.banned("t2", "dee")


def test_a_ban_lasts_in_the_servers_file(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    first = SqliteStore(path)
    first.friends.ban("t1", "dee", 1.0)
    first.close()
    again = SqliteStore(path)
    assert again.friends.banned("t1", "dee")
    again.close()
