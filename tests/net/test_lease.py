"""The lease in a real Redis (epochs, expiry, hand-over), the bus listener that subscribes again
after Redis is killed and restarted (redis-py issue 2089), and the fenced shared store."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from fivecrowns.net.server.cluster import LEASE_KEY, Fenced, FencedStore, Node
from fivecrowns.net.server.lease import Holder, Lease, Listener, connect
from fivecrowns.net.server.store import SqliteStore, StoredTable, StoreError
from redis_server import RedisServer, redis_server

__all__ = ["redis_server"]  # why: the fixture, imported for pytest to find


def test_one_holder_at_a_time_each_with_a_newer_epoch(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        redis = connect(redis_server.url)
        try:
            first = Lease(redis, "t", "a", "ws://a/ws", ttl=0.3)
            second = Lease(redis, "t", "b", "ws://b/ws", ttl=0.3)
            assert await first.take()
            assert not await second.take()  # held: nobody else takes it
            assert await first.holder() == Holder(first.epoch, "a", "ws://a/ws")
            assert not await second.renew()  # never taken: nothing to renew
            for _beat in range(4):  # renewed, it outlives its ttl
                await asyncio.sleep(0.15)
                assert await first.renew()
            await asyncio.sleep(0.5)  # not renewed (a process killed): it expires
            assert await first.holder() is None
            assert await second.take()
            assert second.epoch == first.epoch + 1
            assert not await first.renew()  # the old holder learns it lost it
            await first.give_up()  # and cannot give up what it no longer holds
            assert (await second.holder()) is not None
            await second.give_up()  # a clean stop: free at once
            assert await first.take(floor=10)  # past the store's newest epoch
            assert first.epoch == 11
        finally:
            await redis.aclose()

    asyncio.run(scenario())


def test_a_holder_late_to_renew_keeps_the_lease_unless_another_took_it_since(
    redis_server: RedisServer,
) -> None:
    """A holder that renews after its lease expired (a pause, a loaded machine) keeps it when
    nobody took it meanwhile (it used to lose it, and stop, though no other process held it);
    once another took it, even one that let it go again since, the late renewal fails."""

    async def scenario() -> None:
        redis = connect(redis_server.url)
        try:
            first = Lease(redis, "t", "a", "ws://a/ws", ttl=0.2)
            second = Lease(redis, "t", "b", "ws://b/ws", ttl=0.2)
            assert await first.take()
            await asyncio.sleep(0.4)  # past its ttl, not renewed
            assert await first.holder() is None
            assert await first.renew()  # nobody took it: the first holds it again
            assert await first.holder() == Holder(first.epoch, "a", "ws://a/ws")
            assert not await second.take()
            await asyncio.sleep(0.4)
            assert await second.take()  # expired again, and taken with a newer epoch
            await second.give_up()
            assert await first.holder() is None
            assert not await first.renew()  # a newer owner was: never the first's again
            assert await first.holder() is None
        finally:
            await redis.aclose()

    asyncio.run(scenario())


def test_the_listener_subscribes_again_after_redis_is_killed(redis_server: RedisServer) -> None:
    """redis-py's asyncio pub/sub does not come back by itself (its issue 2089); ours does."""

    async def scenario() -> None:
        heard: list[str] = []
        listener_redis = connect(redis_server.url)
        listener = Listener(listener_redis, "news", heard.append, pause=0.1, tries=200)
        task = asyncio.create_task(listener.run())
        try:
            await asyncio.wait_for(listener.subscribed.wait(), 10)
            publisher = connect(redis_server.url)
            assert await publisher.publish("news", "before") == 1
            await _until(lambda: heard == ["before"])
            await publisher.aclose()
            redis_server.kill9()
            await asyncio.sleep(0.5)  # the listener finds the drop and keeps trying
            redis_server.start()
            await _until(lambda: listener.subscriptions == 2)
            publisher = connect(redis_server.url)
            assert await publisher.publish("news", "after") == 1
            await _until(lambda: heard == ["before", "after"])
            await publisher.aclose()
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await listener_redis.aclose()

    asyncio.run(scenario())


async def _until(test: object, timeout: float = 10.0) -> None:
    assert callable(test)
    for _tick in range(int(timeout / 0.05)):
        if test():
            return
        await asyncio.sleep(0.05)
    raise TimeoutError("the condition never came true")


def test_a_fenced_owner_never_writes_again(tmp_path: Path) -> None:
    """Two processes' stores on one SQLite file: once the newer owner claims its epoch, the
    older one's inputs are refused, and nothing of them is written."""
    path = tmp_path / "tables.sqlite3"
    old, new = FencedStore(path), FencedStore(path)
    old.claim(1)
    old.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    old.append_input("t1", 0, {"op": "sit", "player": "p1"})
    old.flush()
    new.claim(2)
    with pytest.raises(Fenced):
        old.claim(2)  # not newer than the store's
    old.append_input("t1", 1, {"op": "chat", "text": "late"})
    with pytest.raises(Fenced):
        old.flush()
    new.append_input("t1", 1, {"op": "chat", "text": "mine"})
    new.flush()
    (table,) = SqliteStore(path).load()[0]
    assert table.inputs == [{"op": "sit", "player": "p1"}, {"op": "chat", "text": "mine"}]
    old.close()  # its refused input is dropped without an error
    new.close()


def test_the_table_and_index_key_refuses_a_second_writer(tmp_path: Path) -> None:
    """Even without the fence, two writers of one table's input at one index: one is refused."""
    path = tmp_path / "tables.sqlite3"
    first, second = SqliteStore(path), SqliteStore(path)
    first.add_table(StoredTable("t1", 2, "p1", "Ann", None, False))
    first.append_input("t1", 0, {"op": "sit", "player": "p1"})
    first.flush()
    second.append_input("t1", 0, {"op": "sit", "player": "p2"})
    with pytest.raises(sqlite3.IntegrityError):
        second.flush()
    first.close()
    (table,) = SqliteStore(path).load()[0]
    assert table.inputs == [{"op": "sit", "player": "p1"}]


class _StoreThatLoadsNothing:
    """A shared store whose fence and claim work and whose tables cannot be read (the
    database lost between the claim and the load)."""

    def __init__(self) -> None:
        self.fences_read = 0
        self.claimed: list[int] = []

    def fence(self) -> int:
        self.fences_read += 1
        return 0

    def claim(self, epoch: int) -> None:
        self.claimed.append(epoch)


class _ServerThatCannotRecover:
    stopping = False

    def recover(self) -> None:
        raise StoreError("connection lost")


def test_a_take_over_that_cannot_load_the_tables_gives_the_lease_up_and_stops(
    redis_server: RedisServer,
) -> None:
    """Owning the lease without the tables would keep them from every process: a process
    whose load fails after its claim gives the lease up at once and stops, so another takes
    over; and while another holds the lease a spare does not read the store's fence."""

    async def scenario() -> None:
        store = _StoreThatLoadsNothing()
        node = Node(_ServerThatCannotRecover(), store, redis_server.url, "", ttl=5.0)  # type: ignore[arg-type]
        other = Lease(connect(redis_server.url), LEASE_KEY, "other", "", ttl=5.0)
        try:
            assert await other.take()
            await node._try_to_own()
            assert (store.fences_read, node.owner) == (0, False)  # held: nothing read
            await other.give_up()
            await node._try_to_own()
            assert store.claimed == [other.epoch + 1]
            assert (node.owner, node.lost, node.stopped.is_set()) == (False, True, True)
            assert await node.lease.holder() is None  # given up: free for another at once
        finally:
            await node.redis.aclose()
            await other.redis.aclose()

    asyncio.run(scenario())
