"""A spare ``fivecrowns serve --bus`` process on the owner's machine hands each connection it
accepts to the owner, the socket itself (net/server/handoff.py): real processes, a real
Redis. Each process listens on a port of its own here, so a connection to the spare's port
surely starts at the spare. Which process holds which connection is read from /proc."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from pathlib import Path

import aiohttp
import pytest
from redis import Redis

from cluster_support import Cluster, owner_and_spare
from fivecrowns.net.server.handoff import Offer, Receiver, boot_id, hand_off, sweep
from redis_server import RedisServer, redis_server
from server_support import Client, play_until, wait_until_connected

# why: the fixture, imported for pytest to find
__all__ = ["redis_server"]

ESTABLISHED = "01"

pytestmark = pytest.mark.skipif(
    boot_id() is None and not os.environ.get("CI"), reason="no boot id: this is not Linux"
)


def _tcp(pid: int) -> set[tuple[int, int]]:
    """The (local port, remote port) of every established TCP connection ``pid`` holds."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    held = set()
    for table in ("tcp", "tcp6"):
        lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
            if state == ESTABLISHED and inode in inodes:
                held.add((int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16)))
    return held


def _gets(redis: RedisServer) -> int:
    """How many GET commands Redis has answered so far."""
    with Redis.from_url(redis.url) as client:
        stats = client.info("commandstats")
    return int(stats.get("cmdstat_get", {}).get("calls", 0))


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def test_a_spare_hands_the_clients_own_connection_to_the_owner_and_pumps_nothing(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """The owner holds the very connection the client made to the spare's port (so it sees
    the client's own address and port); while the client plays, the spare holds no
    connection but its own to Redis: none to the client, none to the owner, so it passes on
    no byte."""
    with owner_and_spare(tmp_path / "server", redis_server, "--grace", "30") as (owner, spare):
        assert owner.proc is not None and spare.proc is not None
        spare_port, redis_port = _port(spare.url), redis_server.port

        def spare_holds_only_redis() -> bool:
            assert spare.proc is not None
            return all(remote == redis_port for _local, remote in _tcp(spare.proc.pid))

        async def scenario() -> None:
            ann = await Client("Ann").connect(spare.url)
            assert ann.ws is not None
            mine = ann.ws.get_extra_info("sockname")[1]
            assert (spare_port, mine) in _tcp(owner.proc.pid)  # type: ignore[union-attr]
            assert spare_holds_only_redis()
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann], lambda c: c.seq >= 40, 60)
            assert spare_holds_only_redis()
            await play_until([ann], lambda c: c.seq >= 80, 60)
            assert spare_holds_only_redis()
            assert ann.errors == []
            await ann.close()

        asyncio.run(scenario())


def test_a_crowd_connecting_at_once_is_handed_off_whole(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """300 clients connect to the one port of two processes at the same moment (a crowd
    coming back after a restart): the spare hands off every connection the kernel gives it,
    none is passed on as bytes; and it does not ask Redis who owns once per connection
    (redis-py's pool of 100 refused the rest, which were then passed on as bytes)."""
    options = ("--max-per-address", "0", "--max-connections", "1000")
    with Cluster(tmp_path / "server", redis_server, *options) as cluster:
        owner, spare = cluster.first.proc, cluster.second.proc
        assert owner is not None and spare is not None
        crowd = 300

        async def scenario() -> None:
            clients = [Client(f"P{number}") for number in range(crowd)]
            asked = _gets(redis_server)
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(client.connect(cluster.url) for client in clients)), 60
                )
                asked = _gets(redis_server) - asked
                held = [ports for ports in _tcp(spare.pid) if ports[1] != redis_server.port]
                assert not held, f"{len(held)} connections held by the spare"
                # why a quarter: the spare's lease beats ask three times a second
                assert asked < crowd / 4, asked
                assert len([p for p in _tcp(owner.pid) if p[1] != redis_server.port]) == crowd
            finally:
                for client in clients:
                    await client.close()

        asyncio.run(scenario())


def test_kill_9_of_the_owner_after_a_handoff_the_client_resumes_on_the_spare(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """The owner holding a handed-off connection is killed: the connection drops, the
    client connects again (to the spare's port, as before) with its token and last seq, the
    spare has taken the tables over, and the game goes on with nothing missed or twice."""
    with owner_and_spare(tmp_path / "server", redis_server, "--grace", "30") as (owner, spare):
        assert owner.proc is not None

        async def scenario() -> None:
            ann = await Client("Ann").connect(spare.url)
            assert ann.ws is not None
            mine = ann.ws.get_extra_info("sockname")[1]
            assert (_port(spare.url), mine) in _tcp(owner.proc.pid)  # type: ignore[union-attr]
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann], lambda c: c.seq >= 20 and c.my_turn(), 60)
            owner.kill9()
            with pytest.raises(ConnectionError):  # the connection drops with its owner
                await ann.until(lambda m: False, 10)
            await ann.close()
            again = Client("Ann")
            again.token, again.seq = ann.token, ann.seq
            await again.connect(spare.url)  # waits while the lease expires
            snapshot = await again.until(lambda m: m["type"] == "snapshot")
            assert snapshot["seq"] == ann.seq  # nothing acknowledged lost
            await play_until([again], lambda c: c.seq >= ann.seq + 10, 60)
            assert again.errors == []
            await again.close()

        asyncio.run(scenario())


def test_handed_off_connections_count_toward_the_owners_max_connections(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """A handed-off connection is the owner's: the spare (--max-connections 2) holds none
    and takes a third, while the owner (--max-connections 3) counts each, and its "full"
    sentence reaches the fourth player, until one of the three leaves."""
    with owner_and_spare(
        tmp_path / "server",
        redis_server,
        owner_options=("--max-connections", "3"),
        spare_options=("--max-connections", "2"),
    ) as (_owner, spare):

        async def scenario() -> None:
            players = [Client(name) for name in ("Ann", "Ben", "Cy")]
            for player in players:
                await player.connect(spare.url)
            async with aiohttp.ClientSession() as session:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(spare.url)
                assert refused.value.status == 503
            await players[2].close()
            # the owner hears of the close within a moment
            players[2] = await wait_until_connected(Client("Dee"), spare.url, attempts=100)
            for player in players:
                await player.close()

        asyncio.run(scenario())


def test_with_handoff_off_the_spare_passes_bytes_on_as_across_machines(
    tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FIVECROWNS_HANDOFF=0: the spare keeps the client's connection and holds one to the
    owner's private port (splice.py), as when the owner is on another machine."""
    monkeypatch.setenv("FIVECROWNS_HANDOFF", "0")
    with owner_and_spare(tmp_path / "server", redis_server, "--grace", "30") as (owner, spare):
        assert owner.proc is not None and spare.proc is not None

        async def scenario() -> None:
            ann = await Client("Ann").connect(spare.url)
            assert ann.ws is not None
            mine = ann.ws.get_extra_info("sockname")[1]
            assert (_port(spare.url), mine) in _tcp(spare.proc.pid)  # type: ignore[union-attr]
            assert not any(mine in ports for ports in _tcp(owner.proc.pid))  # type: ignore[union-attr]
            await ann.close()

        asyncio.run(scenario())


def test_an_owner_that_cannot_make_its_socket_says_so_and_the_spare_passes_bytes_on(
    tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket folder whose path is too long for a Unix socket (107 bytes at most): the
    owner says in its log that connections will not be handed to it, and serves on; the
    spare passes a client's bytes on to it instead."""
    runtime = tmp_path / ("r" * 110)
    runtime.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    with owner_and_spare(tmp_path / "server", redis_server, "--grace", "30") as (owner, spare):
        assert spare.proc is not None

        async def scenario() -> None:
            ann = await Client("Ann").connect(spare.url)
            assert ann.ws is not None
            mine = ann.ws.get_extra_info("sockname")[1]
            assert (_port(spare.url), mine) in _tcp(spare.proc.pid)  # type: ignore[union-attr]
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.close()

        asyncio.run(scenario())
    said = owner.stop()  # stopped already: what it wrote
    assert "Connections will not be handed to this process" in said, said


def test_the_owner_takes_no_descriptor_from_another_user_and_its_folder_is_private(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The socket's folder is 0700; a peer whose SO_PEERCRED uid is not the owner's gets
    nothing taken (the check is the owner's own: here its uid is made to differ)."""

    async def scenario() -> None:
        adopted: list[socket.socket] = []

        async def adopt(client: socket.socket) -> bool:
            adopted.append(client)
            return True

        receiver = Receiver(adopt)
        offer = receiver.start()
        assert offer is not None and receiver.folder is not None
        try:
            assert receiver.folder.stat().st_mode & 0o777 == 0o700
            assert Offer.parse(str(offer)) == offer and offer.here()
            # a peer of this user hands a TCP socket over: taken
            assert await _hand(offer)
            assert len(adopted) == 1
            # the same from "another user": refused, nothing taken
            real = os.getuid()
            with monkeypatch.context() as patch:
                patch.setattr(os, "getuid", lambda: real + 1)
                assert not await _hand(offer)
            assert len(adopted) == 1
        finally:
            receiver.stop()
            for client in adopted:
                client.close()
        assert not Path(offer.path).exists()

    asyncio.run(asyncio.wait_for(scenario(), 20))


async def _hand(offer: Offer) -> bool:
    """Hand one side of a loopback TCP connection to ``offer``; whether it was taken."""
    loop = asyncio.get_running_loop()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    near = socket.create_connection(listener.getsockname())
    far, _address = await loop.sock_accept(listener)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.setblocking(False)
    try:
        await loop.sock_connect(unix, offer.path)
        socket.send_fds(unix, [b"\x01"], [far.fileno()])
        try:
            answer = await asyncio.wait_for(loop.sock_recv(unix, 1), 5)
        except ConnectionResetError:  # the owner closed with the descriptor unread
            return False
        return answer == b"\x01"
    finally:
        for each in (unix, far, near, listener):
            each.close()


def test_the_spare_hands_no_socket_to_another_users_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Whoever can write the lease names the owner's path: the spare checks that the process
    there runs as its own user (SO_PEERCRED) before a player's socket goes to it (here its
    uid is made to differ), and sends nothing otherwise."""

    class Transport:
        def __init__(self, sock: socket.socket) -> None:
            self.sock = sock

        def get_extra_info(self, name: str) -> socket.socket | None:
            return self.sock if name == "socket" else None

    async def scenario() -> None:
        path = tmp_path / "owner.sock"
        owner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        owner.bind(str(path))
        owner.listen()
        listener = socket.create_server(("127.0.0.1", 0))
        near = socket.create_connection(listener.getsockname())
        far, _address = listener.accept()
        boot = boot_id()
        assert boot is not None
        try:
            real = os.getuid()
            with monkeypatch.context() as patch:
                patch.setattr(os, "getuid", lambda: real + 1)
                taken = await hand_off(Transport(far), Offer(boot, str(path)))  # type: ignore[arg-type]
            assert not taken
            seen, _nothing = owner.accept()
            with seen:
                seen.settimeout(5)
                data, fds, _flags, _where = socket.recv_fds(seen, 1, 1)
            assert (data, fds) == (b"", [])  # the spare closed without sending a descriptor
        finally:
            for sock in (owner, listener, near, far):
                sock.close()

    asyncio.run(asyncio.wait_for(scenario(), 20))


def test_a_dead_owners_folder_is_swept_at_start_and_a_live_ones_is_not(tmp_path: Path) -> None:
    """``kill -9`` leaves an owner's folder and socket file behind: the next process to start
    removes those whose socket refuses and is over a minute old, and leaves a live owner's,
    a new one, a folder with no socket yet (one being made) and anything not named as ours."""
    dead = tmp_path / "fivecrowns-dead"
    live = tmp_path / "fivecrowns-live"
    making = tmp_path / "fivecrowns-making"
    other = tmp_path / "other-dead"
    for folder in (dead, live, making, other):
        folder.mkdir(mode=0o700)
    listeners = []
    for folder in (dead, live, other):
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(folder / "handoff.sock"))
        listener.listen()
        listeners.append(listener)
    listeners[0].close()  # the dead owner: its file stays, nobody listens
    listeners[2].close()
    try:
        # a dead socket made a moment ago may be a starting owner's (bound, not yet listening)
        assert sweep(tmp_path) == 0 and dead.exists()
        old = time.time() - 120
        for folder in (dead, live, other):
            os.utime(folder / "handoff.sock", (old, old))
        assert sweep(tmp_path) == 1
        assert not dead.exists()
        assert (live / "handoff.sock").is_socket() and making.is_dir()
        assert (other / "handoff.sock").exists()
        assert sweep(tmp_path) == 0  # a live owner's socket answers every time
    finally:
        listeners[1].close()


def test_handoffs_that_cannot_be_taken_are_logged_once_a_minute(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Out of file descriptors, accepting fails every 0.1 s: one warning, not one each time."""

    async def scenario() -> None:
        async def adopt(client: socket.socket) -> bool:
            client.close()
            return True

        async def out_of_files(_sock: socket.socket) -> tuple[socket.socket, object]:
            raise OSError(24, "Too many open files")

        loop = asyncio.get_running_loop()
        monkeypatch.setattr(loop, "sock_accept", out_of_files)
        receiver = Receiver(adopt)
        assert receiver.start() is not None
        try:
            await asyncio.sleep(0.75)  # about 7 failed tries
        finally:
            receiver.stop()

    with caplog.at_level("WARNING", logger="fivecrowns.net.server.handoff"):
        asyncio.run(asyncio.wait_for(scenario(), 20))
    warnings = [r for r in caplog.records if "Could not take a handoff" in r.getMessage()]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "Too many open files" in warnings[0].getMessage()
