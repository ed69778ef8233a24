"""Two ``fivecrowns serve --bus`` processes behind one address (one port, SO_REUSEPORT), on a
real Redis and one shared store, the data folder's SQLite file or a real PostgreSQL (each test
runs on both): a game goes on when the owner of the tables is killed with SIGKILL
(net/server/cluster.py, docs/operations.md)."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from cluster_support import Cluster, back_past_a_paused_process, owner_and_spare
from fivecrowns.net.client.websocket import CONNECTED_AGAIN
from join_support import Player, _play_a_turn
from pg_support import pg_url_fixture, postgres_fixture
from redis_server import RedisServer, redis_server
from server_support import Client, RecordingLink, play_until, wait_until_connected

# why: the fixtures, imported for pytest to find
__all__ = ["pg_url_fixture", "postgres_fixture", "redis_server"]


@pytest.fixture(name="shared", params=["sqlite", "postgresql"])
def shared_fixture(request: pytest.FixtureRequest) -> tuple[str, ...]:
    """The options that name the shared store: none (the data folder's SQLite file), or
    ``--store`` and a new database of a real PostgreSQL."""
    if request.param == "sqlite":
        return ()
    return ("--store", str(request.getfixturevalue("pg_url")))


@pytest.fixture(name="cluster")
def cluster_fixture(
    tmp_path: Path, redis_server: RedisServer, shared: tuple[str, ...]
) -> Iterator[Cluster]:
    with Cluster(tmp_path / "server", redis_server, *shared) as cluster:
        yield cluster


def test_a_connection_to_a_spare_process_reaches_the_owners_tables(
    tmp_path: Path, redis_server: RedisServer, shared: tuple[str, ...]
) -> None:
    """The spare passes a WebSocket on to the owner (here each on a port of its own, so that
    the connection surely goes through the spare): one lobby, one table list."""
    with owner_and_spare(tmp_path / "server", redis_server, *shared) as (owner, spare):

        async def scenario() -> None:
            ann, ben = Client("Ann"), Client("Ben")
            await ann.connect(spare.url)
            await ann.send({"type": "create_table", "seats": 2, "bots": []})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ben.connect(owner.url)
            listing = await ben.until(lambda m: m["type"] == "tables")
            assert [table["id"] for table in listing["tables"]] == [ann.table]
            await ben.send({"type": "join", "table": ann.table})
            await ben.until(lambda m: m["type"] == "snapshot")
            await ann.until(lambda m: m["type"] == "event" and m["kind"] == "seat_taken")
            for client in (ann, ben):
                await client.close()

        asyncio.run(scenario())


def test_a_spare_counts_the_connections_it_passes_on_toward_max_connections(
    tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each connection a spare passes on as bytes (handing off is off, as when the owner is
    on another machine) holds a socket of its own: past --max-connections it refuses the
    next one with the full server's sentence, and takes one again once one closes (the
    owner, which allows many more, is not what refuses)."""
    monkeypatch.setenv("FIVECROWNS_HANDOFF", "0")
    with owner_and_spare(
        tmp_path / "server", redis_server, spare_options=("--max-connections", "2")
    ) as (_owner, spare):

        async def scenario() -> None:
            ann, ben = Client("Ann"), Client("Ben")
            await ann.connect(spare.url)
            await ben.connect(spare.url)
            async with aiohttp.ClientSession() as session:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(spare.url)
                assert refused.value.status == 503
                async with session.get(spare.url.replace("ws://", "http://")) as answer:
                    assert answer.status == 503
                    assert await answer.text() == "The server is full; try again later.\n"
            await ben.close()
            # the spare hears of the close within a moment
            cy = await wait_until_connected(Client("Cy"), spare.url, attempts=100)
            for client in (ann, cy):
                await client.close()

        asyncio.run(scenario())


def test_a_full_owner_is_said_to_be_full_through_a_spare_at_once(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """The owner's "full" and its "changing over" are both HTTP 503: a spare passing a player
    on tells them apart and says "full" at once, instead of waiting for a new owner for two
    leases and then saying the server is changing over."""
    with owner_and_spare(
        tmp_path / "server", redis_server, lease="3", owner_options=("--max-connections", "1")
    ) as (owner, spare):

        async def scenario() -> None:
            ann = await Client("Ann").connect(owner.url)
            async with aiohttp.ClientSession() as session:
                started = asyncio.get_running_loop().time()
                async with session.get(spare.url.replace("ws://", "http://")) as answer:
                    assert answer.status == 503
                    assert await answer.text() == "The server is full; try again later.\n"
                assert asyncio.get_running_loop().time() - started < 3.0  # not after 2 leases
            await ann.close()

        asyncio.run(scenario())


def test_a_spare_passes_on_more_than_a_hundred_connections_at_once(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """aiohttp's client holds at most 100 connections by default; a spare's passed-on
    WebSockets are not bound by it (the 101st waited for ever, until one closed)."""
    with owner_and_spare(tmp_path / "server", redis_server, "--max-per-address", "0") as (
        _owner,
        spare,
    ):

        async def scenario() -> None:
            clients = [Client(f"P{number}") for number in range(105)]
            try:
                for client in clients:
                    await asyncio.wait_for(client.connect(spare.url), 30)
            finally:
                for client in clients:
                    await client.close()

        asyncio.run(scenario())


def test_kill_9_of_the_owner_the_game_finishes_on_the_other_process(cluster: Cluster) -> None:
    """Two players, two computer players and a spectator; the owner is killed mid-game: the
    other process takes the tables over, everyone connects again with their token and last
    seq, and the game is played to its end: no event missed or heard twice (Client checks
    each seq is one more than the last), no move refused."""

    async def scenario() -> None:
        ann, ben, cy = Client("Ann"), Client("Ben"), Client("Cy")
        for client in (ann, ben, cy):
            await client.connect(cluster.url)
        await ann.send({"type": "create_table", "seats": 4, "bots": ["easy", "simple"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ben.send({"type": "join", "table": ann.table})
        await ben.until(lambda m: m["type"] == "snapshot")
        await cy.send({"type": "watch", "table": ann.table})
        await cy.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann, ben], lambda c: c.seq >= 60)
        cluster.first.kill9()
        again = []
        for old in (ann, ben, cy):
            await old.close()
            client = Client(old.name)
            client.token, client.seq = old.token, old.seq
            await client.connect(cluster.url)  # waits while the lease expires
            if old is cy:
                await client.send({"type": "watch", "table": ann.table})
            await client.until(lambda m: m["type"] == "snapshot")
            again.append(client)
        ann2, ben2, cy2 = again
        await play_until([ann2, ben2], lambda c: c.game_over(), 240)
        await cy2.until(lambda m: m["type"] == "event" and m["kind"] == "game_over", 30)
        for client in again:
            assert client.errors == [], client.errors
            await client.close()

    asyncio.run(scenario())
    assert not cluster.first.alive() and cluster.second.alive()


def test_a_terminal_player_and_spectator_play_on_after_the_owner_is_killed(
    cluster: Cluster,
) -> None:
    """The terminal client (``join --keys``, its real link) needs no change: it connects
    again by itself, once, and the spectator hears the moves made after the fail-over."""
    ann: Player | None = None
    sam: Player | None = None
    try:
        ann = Player(cluster.url, "Ann")
        ann.wait(r"No open tables")
        ann.keys("c", "home", "c-m", "down", "c-m", "up", "c-m", "c-m")  # 2 seats, 1 easy
        ann.wait(r"You sit in seat 1 at table")
        ann.keys("s")
        ann.wait(r"New game: Ann and .+ \(easy\)\.")
        table = ann.link.table
        watcher = RecordingLink(cluster.url, "Sam")
        sam = Player(cluster.url, "Sam", link=watcher)
        sam.wait(rf"Table {table}, round 1")
        sam.keys("w")
        sam.wait(r"You are watching table")
        _play_a_turn(ann)
        cluster.first.kill9()
        ann.wait(r"The connection dropped; connecting again\.")
        ann.wait(re.escape(CONNECTED_AGAIN), timeout=30)
        sam.wait(re.escape(CONNECTED_AGAIN), timeout=30)
        seq = watcher.last_seq()
        for _turn in range(3):
            _play_a_turn(ann)
        assert watcher.wait_for(lambda: watcher.last_seq() > seq, 20)
        seqs = [int(frame["seq"]) for frame in watcher.frames]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # nothing missed or twice
        assert ann.said().count(CONNECTED_AGAIN) == 1
        assert sam.said().count(CONNECTED_AGAIN) == 1
    finally:
        for player in (ann, sam):
            if player is not None:
                player.close()


def test_an_owner_paused_past_its_lease_stops_and_never_writes_again(cluster: Cluster) -> None:
    """SIGSTOP the owner past its lease: the other process takes the tables over; woken, the
    old owner finds its lease gone and stops with a sentence (exit status 1), while the game
    plays on at the new owner with no save refused (a write of the old owner's at the same
    move number would make the new owner's fail, and close its connection)."""
    assert cluster.first.proc is not None

    async def scenario() -> None:
        ann = Client("Ann")
        await ann.connect(cluster.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann], lambda c: c.seq >= 10 and c.my_turn(), 60)
        cluster.first.proc.send_signal(signal.SIGSTOP)  # type: ignore[union-attr]
        try:
            await ann.close()
            # the spare, reached past the paused process, waits for the lease to expire and
            # takes over (cluster_support.back_past_a_paused_process says why several tries)
            again = await back_past_a_paused_process(cluster.url, ann)
            await again.until(lambda m: m["type"] == "snapshot")
        finally:
            cluster.first.proc.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
        await play_until([again], lambda c: c.seq >= ann.seq + 6, 60)
        assert again.errors == []
        await again.close()

    asyncio.run(scenario())
    cluster.first.proc.wait(timeout=30)
    assert cluster.first.proc.returncode == 1
    assert "lost the tables to another process" in cluster.first.stop()
    assert cluster.second.alive()
