"""The fenced PostgreSQL store of ``serve --bus --store postgresql://`` on a real PostgreSQL
(tests/support/pg_support.py): the lease's epoch is kept in the database and checked in the
same transaction as every write of inputs, so an owner that lost its lease never writes again.
"""

from __future__ import annotations

import threading

import psycopg
import pytest

from fivecrowns.net.server.cluster import FENCE
from fivecrowns.net.server.pgstore import FencedOutError, FencedPgStore, PgStore
from fivecrowns.net.server.store import StoredTable, StoreError
from pg_support import pg_url_fixture, postgres_fixture  # noqa: F401


def _inputs(url: str) -> list[tuple[str, int, str]]:
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT table_id, idx, command FROM inputs ORDER BY table_id, idx")
        return [(t, i, c) for t, i, c in rows.fetchall()]


def test_a_stale_owner_never_writes_again_even_an_index_nobody_wrote(pg_url: str) -> None:
    """The old owner's late input is at an index the new owner has not written yet, so the
    (table, index) key alone would let it in: the fence refuses it, and all of its flush."""
    old, new = FencedPgStore(pg_url, FENCE), FencedPgStore(pg_url, FENCE)
    old.claim(1)
    old.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    old.add_table(StoredTable("t2", 2, "p2", "Ben", None, False))
    old.append_input("t1", 0, {"op": "sit", "player": "p1"})
    old.flush()
    new.claim(2)
    assert (old.fence(), new.fence()) == (2, 2)
    with pytest.raises(FencedOutError):
        old.claim(2)  # not newer than the database's
    old.append_input("t1", 1, {"op": "chat", "text": "late"})
    old.append_input("t2", 0, {"op": "sit", "player": "p2"})
    with pytest.raises(FencedOutError):
        old.flush()
    assert _inputs(pg_url) == [("t1", 0, '{"op":"sit","player":"p1"}')]
    # once refused, refused again, even with nothing new to write: a flush that succeeded
    # would let the server send the frames of the moves the refused one held
    with pytest.raises(FencedOutError):
        old.flush()
    old.append_input("t2", 1, {"op": "chat", "text": "later"})
    with pytest.raises(FencedOutError):
        old.flush()
    new.append_input("t1", 1, {"op": "chat", "text": "mine"})
    new.flush()
    tables, _ = PgStore(pg_url).load()
    assert [table.inputs for table in tables] == [
        [{"op": "sit", "player": "p1"}, {"op": "chat", "text": "mine"}],
        [],
    ]
    old.close()  # its refused input is dropped without an error
    new.close()


def test_an_owner_that_never_claimed_writes_nothing(pg_url: str) -> None:
    store = FencedPgStore(pg_url, FENCE)
    store.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    store.append_input("t1", 0, {"op": "sit", "player": "p1"})
    with pytest.raises(FencedOutError):
        store.flush()
    assert _inputs(pg_url) == []
    store.close()


def test_of_many_processes_claiming_one_epoch_at_once_one_wins(pg_url: str) -> None:
    stores = [FencedPgStore(pg_url, FENCE) for _ in range(6)]
    won: list[int] = []
    start = threading.Barrier(len(stores))

    def claim(number: int) -> None:
        start.wait(timeout=30)
        try:
            stores[number].claim(7)
        except FencedOutError:
            return
        won.append(number)

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(won) == 1
    for store in stores:
        store.close()


def test_a_claim_waits_for_a_write_under_way_and_the_write_is_kept(pg_url: str) -> None:
    """The fence's row is read FOR SHARE in the write's transaction: a newer claim made while
    that transaction is open waits for it, so the new owner, which loads after its claim,
    finds every input the old owner wrote (none is lost between the two)."""
    old, new = FencedPgStore(pg_url, FENCE), FencedPgStore(pg_url, FENCE)
    old.claim(1)
    old.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    with psycopg.connect(pg_url) as held:  # a write under way, as old's flush takes it
        held.execute("SELECT 1 FROM fences WHERE name = %s AND epoch = 1 FOR SHARE", (FENCE,))
        held.execute('INSERT INTO inputs VALUES (\'t1\', 0, \'{"op":"start","seed":1}\')')
        claimed = threading.Event()
        thread = threading.Thread(target=lambda: (new.claim(2), claimed.set()))
        thread.start()
        assert not claimed.wait(0.5)  # the claim waits for the write to end
        held.commit()
    thread.join(timeout=30)
    assert claimed.is_set()
    (table,), _ = new.load()
    assert table.inputs == [{"op": "start", "seed": 1}]
    old.close()
    new.close()


def test_a_lost_connection_is_a_store_error_and_the_next_call_connects_again(
    pg_url: str,
) -> None:
    """The cluster's lease loop catches StoreError and tries again at its next beat; a raw
    psycopg error would have ended that loop, and the process would never take over."""
    store = FencedPgStore(pg_url, FENCE)
    store.claim(3)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    with pytest.raises(StoreError):
        store.fence()
    assert store.fence() == 3
    with pytest.raises(FencedOutError):
        store.claim(3)
    store.close()
