"""``serve --workers N --shares-bus``: a front whose shares are served by ``serve --worker-of``
processes (on any machine; here on loopback), each under its own lease in a real Redis, on a
real PostgreSQL; kill -9 of a share's worker and a spare takes the share; a worker that lost
its lease never writes again (net/server/shares.py)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import psycopg
import pytest

from cluster_support import owner_now
from fivecrowns.net.protocol import CreateTable, encode
from fivecrowns.net.server.shares import (
    HANDSHAKES_AT_ONCE,
    HANDSHAKES_PER_ADDRESS,
    MAGIC,
    link_context,
    link_to,
    share_key,
)
from fivecrowns.net.server.workers import (
    Arrive,
    Close,
    Frames,
    LinkError,
    Message,
    _framed,
    _read_batch,
    _to_front,
)
from fivecrowns.table import Table
from pg_support import pg_url_fixture, postgres_fixture
from redis_server import RedisServer, redis_server
from server_support import FAST, Client, ServerProcess, check_no_leak, play_until, run_against

# why: the fixtures, imported for pytest to find
__all__ = ["pg_url_fixture", "postgres_fixture", "redis_server"]

SECRET = "a secret of the test, long enough"
LEASE = "1"


class ShareWorker:
    """One ``fivecrowns serve --worker-of`` process; ``address`` is where its link listens."""

    def __init__(self, bus: str, store: str, count: int, secret: Path, *extra: str) -> None:
        command = [sys.executable, "-m", "fivecrowns", "serve", "--worker-of", bus]
        options = ["--workers", str(count), "--store", store, "--lease", LEASE, *FAST, *extra]
        where = ["--host", "127.0.0.1", "--port", "0", "--link-secret", str(secret)]
        self.proc = subprocess.Popen(
            [*command, *options, *where],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"listens on (127\.0\.0\.1:\d+)", line)
        if found is None:
            self.stop()
            raise AssertionError(f"the share worker did not start: {line!r}")
        self.address = found.group(1)

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        assert self.proc.stderr is not None
        return self.proc.stderr.read()


@pytest.fixture(name="secret")
def secret_fixture(tmp_path: Path) -> Path:
    path = tmp_path / "link-secret"
    path.write_text(SECRET + "\n")
    return path


def _holder(redis: RedisServer, index: int) -> tuple[int, int] | None:
    """The epoch and process id of share ``index``'s holder, from Redis."""
    reply = subprocess.run(
        ["redis-cli", "-p", str(redis.port), "GET", share_key(index)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not reply:
        return None
    epoch, name, _address = reply.split(" ", 2)
    return int(epoch), int(name.rsplit("/", 1)[1])


def _replayed(url: str, table_id: str) -> Table:
    """The table as PostgreSQL keeps it, rebuilt from its inputs: the ground truth."""
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT seats, creator_id, creator_name FROM tables WHERE id = %s", (table_id,)
        ).fetchone()
        assert row is not None
        inputs = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT command FROM inputs WHERE table_id = %s ORDER BY idx", (table_id,)
            ).fetchall()
        ]
    seats, creator_id, creator_name = row
    return Table.replay(seats, creator_name, creator_id, inputs)


def _wait_for_holders(redis: RedisServer, count: int) -> dict[int, tuple[int, int]]:
    """The holder of each of ``count`` shares, once every one is held."""
    return _wait_for_holders_of(redis, count, count)


def _wait_for_holders_of(
    redis: RedisServer, held: int, count: int = 2
) -> dict[int, tuple[int, int]]:
    """The holders of ``count`` shares, once ``held`` of them are held."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        holders = {index: _holder(redis, index) for index in range(count)}
        if sum(1 for holder in holders.values() if holder) >= held:
            return {index: holder for index, holder in holders.items() if holder}
        time.sleep(0.1)
    raise AssertionError("the shares were not taken")


def _lone_front(
    data: Path, redis: RedisServer, pg_url: str, secret: Path, *more: str
) -> ServerProcess:
    """A front of two shares served by share workers, with ``more`` options, started."""
    options = ["--workers", "2", "--store", pg_url, "--shares-bus", redis.url]
    link = ["--lease", LEASE, "--link-secret", str(secret)]
    return ServerProcess(data, *FAST, *options, *link, *more).start()


@pytest.fixture(name="workers")
def workers_fixture(
    redis_server: RedisServer, pg_url: str, secret: Path
) -> Iterator[list[ShareWorker]]:
    """Three share workers for two shares: two hold one each, one is the spare."""
    started = [ShareWorker(redis_server.url, pg_url, 2, secret) for _ in range(3)]
    try:
        yield started
    finally:
        texts = [worker.stop() for worker in started]  # why first: every one is stopped
    for text in texts:
        assert "Traceback" not in text, text
        assert "leaked semaphore" not in text, text  # why: a pool it never used (issue 29)


async def _drain(clients: list[Client], quiet: float = 0.3) -> None:
    """Read each client's frames until none has come for ``quiet`` seconds (bounded)."""

    async def drain(client: Client) -> None:
        for _ in range(2000):
            try:
                await client.recv(timeout=quiet)
            except TimeoutError:
                return

    await asyncio.gather(*(drain(client) for client in clients))


def test_a_killed_share_worker_is_replaced_by_the_spare_and_the_players_play_on(
    tmp_path: Path,
    redis_server: RedisServer,
    pg_url: str,
    secret: Path,
    workers: list[ShareWorker],
) -> None:
    """Two tables, one on each share, each share held by a worker process under its lease;
    kill -9 of the worker of Ann's table with a move on its way to it: its lease expires, the
    spare takes the share (a newer epoch), brings the table back from PostgreSQL, the front
    links to it and puts each connection back, open all along: each hears every event after
    the last it was sent, in order and none twice (Client.recv checks), no error and no new
    ``seated``; the move is made; they play on. The other table is not disturbed."""
    holders = _wait_for_holders(redis_server, 2)
    front = _lone_front(tmp_path / "front", redis_server, pg_url, secret)

    async def scenario() -> None:
        ann, ben = Client("Ann"), Client("Ben")
        cy, di = Client("Cy"), Client("Di")
        for client in (ann, ben, cy, di):
            await client.connect(front.url)
        tables = []
        for first, second in ((ann, ben), (cy, di)):
            await first.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
            await first.until(lambda m: m["type"] == "snapshot")
            await second.send({"type": "join", "table": first.table})
            await second.until(lambda m: m["type"] == "snapshot")
            await first.send({"type": "start"})
            tables.append(first.table)
        assert ann.table is not None and cy.table is not None
        share = int(ann.table, 16) % 2
        assert int(cy.table, 16) % 2 != share  # one table on each share
        await play_until([ann, ben, cy, di], lambda c: c.seq >= 20)
        epoch, pid = holders[share]
        os.kill(pid, signal.SIGSTOP)
        # why drain: a view read before the stopped worker's last frames came lags the table,
        # and a move chosen from it is refused as stale (seen once under load)
        await _drain([ann, ben])
        # a move on its way when the worker dies (if a person's turn; else a bot's is)
        mover = next((client for client in (ann, ben) if client.my_turn()), None)
        marks = {client.name: len(client.frames) for client in (ann, ben, cy, di)}
        before = mover.seq if mover is not None else -1
        if mover is not None:
            await mover.act(mover.choose())
        await asyncio.sleep(0.3)
        os.kill(pid, signal.SIGKILL)
        await play_until([ann, ben, cy, di], lambda c: c.seq >= 60, timeout=60)
        after = _holder(redis_server, share)
        assert after is not None and after[0] > epoch and after[1] != pid, (after, epoch, pid)
        if mover is not None:
            made = next(e for e in mover.events if e["seq"] == before + 1)
            assert made["data"].get("player") == mover.seat, made
        for client in (ann, ben, cy, di):
            assert client.errors == [], client.errors
            later = [json.loads(frame) for frame in client.frames[marks[client.name] :]]
            assert not [f for f in later if f["type"] in ("seated", "error", "tables")], later
        # every event each heard is the table's as PostgreSQL keeps it, and only its seat's
        for client, table in ((ann, ann.table), (ben, ann.table), (cy, cy.table), (di, cy.table)):
            check_no_leak(client, _replayed(pg_url, table), client.seat)
        for client in (ann, ben, cy, di):
            await client.close()

    run_against(front, scenario)  # why no traceback: it checks the front's log


def test_a_worker_that_lost_its_lease_never_writes_again(
    redis_server: RedisServer, pg_url: str, secret: Path
) -> None:
    """The test is the front of one share. The worker holding it is stopped (SIGSTOP) past
    its lease; another worker takes the share and claims it in the database. A ``start``
    sent to the stopped one, which it reads first when it is let run again, is refused by
    the database: nothing it makes is saved, no frame of it goes to the front, and the
    worker ends the link (the front then links to the new holder)."""
    first = ShareWorker(redis_server.url, pg_url, 1, secret)
    started = [first]  # why a list: stopped after, whatever failed meanwhile
    try:
        (epoch, pid) = _wait_for_holders(redis_server, 1)[0]
        assert pid == first.proc.pid

        async def scenario() -> None:
            reader, writer, linked = await link_to(first.address, SECRET.encode(), 0)
            assert linked == epoch
            create = encode(CreateTable(seats=2, bots=["easy"]))
            writer.write(_framed([Arrive(1, "p-ann", "Ann", "hash", "en", "", "", create)]))
            table = None
            for _ in range(50):
                body = await asyncio.wait_for(_read_batch(reader), 10)
                assert body is not None
                for op in _to_front.decode(body):
                    if isinstance(op, Frames):
                        for frame in op.frames:
                            if b'"snapshot"' in frame:
                                table = json.loads(frame)["table"]
                if table is not None:
                    break
            assert table is not None
            await asyncio.sleep(0.3)  # why: what the table made so far is saved
            with psycopg.connect(pg_url) as db:
                (before,) = db.execute(
                    "SELECT count(*) FROM inputs WHERE table_id = %s", (table,)
                ).fetchone() or (0,)
            os.kill(pid, signal.SIGSTOP)
            spare = ShareWorker(redis_server.url, pg_url, 1, secret)
            started.append(spare)
            for _ in range(100):  # the spare takes the share and claims it
                holder = _holder(redis_server, 0)
                if holder is not None and holder[1] == spare.proc.pid:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            with psycopg.connect(pg_url) as db:
                fence = db.execute("SELECT epoch FROM fences WHERE name = 'share:0'").fetchone()
                assert fence is not None and fence[0] > epoch
                writer.write(_framed([Message(1, b'{"type": "start"}')]))
                await writer.drain()
                os.kill(pid, signal.SIGCONT)
                said: list[object] = []
                for _ in range(50):  # what it says until it ends the link (a lost share)
                    body = await asyncio.wait_for(_read_batch(reader), 10)
                    if body is None:
                        break
                    said += _to_front.decode(body)
                # no frame of the unsaved start; a sentence that it cannot save, if any
                assert not [op for op in said if isinstance(op, Frames)], said
                closes = [op for op in said if isinstance(op, Close)]
                assert all(op.code == "cannot_save" for op in closes), said
                (count,) = db.execute(
                    "SELECT count(*) FROM inputs WHERE table_id = %s", (table,)
                ).fetchone() or (0,)
                assert count == before, "the fenced worker wrote an input"
            writer.close()

        asyncio.run(scenario())
    finally:
        texts = [worker.stop() for worker in started]  # why first: every one is stopped
    assert not [text for text in texts if "Traceback" in text], texts


def test_a_front_without_the_secret_gets_no_link(
    redis_server: RedisServer, pg_url: str, secret: Path
) -> None:
    """A link with another secret is refused, and the worker serves on (a bad input changes
    nothing); one with the secret is taken."""
    worker = ShareWorker(redis_server.url, pg_url, 1, secret)
    try:
        _wait_for_holders(redis_server, 1)

        async def scenario() -> None:
            with pytest.raises(Exception, match="refused the link"):
                await link_to(worker.address, b"another secret, also long enough", 0)
            reader, writer, epoch = await link_to(worker.address, SECRET.encode(), 0)
            assert epoch >= 1
            body = await asyncio.wait_for(_read_batch(reader), 10)
            assert body is not None  # its first summary: it serves this link
            writer.close()

        asyncio.run(scenario())
    finally:
        assert "Traceback" not in worker.stop()


def test_share_options_refused_with_a_sentence(tmp_path: Path, pg_url: str, secret: Path) -> None:
    base = [sys.executable, "-m", "fivecrowns", "serve", "--data", str(tmp_path)]
    cases = [
        (["--worker-of", "redis://127.0.0.1:1", "--store", pg_url], "need --workers"),
        (["--worker-of", "redis://127.0.0.1:1", "--workers", "2"], "need --store"),
        (
            ["--worker-of", "redis://127.0.0.1:1", "--workers", "2", "--store", pg_url],
            "secret",
        ),
        (
            [
                "--worker-of",
                "redis://127.0.0.1:1",
                "--workers",
                "2",
                "--store",
                pg_url,
                "--link-secret",
                str(secret),
                "--link-cert",
                str(secret),
            ],
            "give all three or none",
        ),
        (["--link-cert", "a.pem", "--link-key", "a.key", "--link-ca", "ca.pem"], "go with"),
        (
            [
                *("--worker-of", "redis://127.0.0.1:1", "--workers", "2", "--store", pg_url),
                *("--link-secret", str(secret), "--host", "0.0.0.0"),
            ],
            "needs --host",
        ),
    ]
    for options, words in cases:
        done = subprocess.run(
            [*base, *options],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "FIVECROWNS_LINK_SECRET"},
            timeout=30,
        )
        assert done.returncode == 2, done
        assert words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_front_serves_the_shares_it_has_and_links_a_worker_that_comes_later(
    tmp_path: Path, redis_server: RedisServer, pg_url: str, secret: Path
) -> None:
    """Two shares and one worker: the front starts anyway (after ten leases' time), puts a
    new table on the share it has, and links the second share's worker once it comes; the
    next table goes there (the fewest tables)."""
    first = ShareWorker(redis_server.url, pg_url, 2, secret)
    later: ShareWorker | None = None
    try:
        _wait_for_holders_of(redis_server, 1)
        front = _lone_front(tmp_path / "front", redis_server, pg_url, secret)
        held = [index for index in range(2) if _holder(redis_server, index) is not None]
        assert len(held) == 1

        async def scenario() -> None:
            nonlocal later
            ann = Client("Ann")
            await ann.connect(front.url)
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            assert ann.table is not None and int(ann.table, 16) % 2 == held[0]
            later = ShareWorker(redis_server.url, pg_url, 2, secret)
            _wait_for_holders(redis_server, 2)
            cy = Client("Cy")
            await cy.connect(front.url)
            for _ in range(100):  # until the front has linked it and heard it is ready
                await cy.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
                await cy.until(lambda m: m["type"] in ("snapshot", "error"))
                if cy.table is not None and int(cy.table, 16) % 2 != held[0]:
                    break
                await cy.send({"type": "leave"})
                await cy.until(lambda m: m["type"] == "tables")
                cy.table = None
                await asyncio.sleep(0.2)
            assert cy.table is not None and int(cy.table, 16) % 2 != held[0]
            for client in (ann, cy):
                await client.close()

        run_against(front, scenario)
    finally:
        texts = [worker.stop() for worker in (first, later) if worker is not None]
    assert not [text for text in texts if "Traceback" in text], texts


def _front(data: Path, redis: RedisServer, pg_url: str, secret: Path) -> ServerProcess:
    """One front of a cluster (``--bus``) whose shares are served by share workers."""
    return _lone_front(data, redis, pg_url, secret, "--bus", redis.url)


async def _back(old: Client, url: str) -> Client:
    """``old`` connected again, with its token and last seq, as the programs do after a
    drop: tried again while the fronts change over (bounded); what ``old`` heard is kept, so
    the checks see every frame the player was sent."""
    await old.close()
    client = Client(old.name)
    client.token, client.seq = old.token, old.seq
    client.frames, client.events = list(old.frames), list(old.events)
    client.seat, client.table = old.seat, old.table
    for _attempt in range(100):
        try:
            await client.connect(url)
            return client
        except (aiohttp.WSServerHandshakeError, aiohttp.ClientConnectionError, ConnectionError):
            if client.session is not None:
                await client.session.close()
            await asyncio.sleep(0.2)
    raise AssertionError(f"{old.name} could not connect again")


@pytest.mark.parametrize("how", ["kill", "stop"])
def test_two_fronts_the_owner_gone_the_spare_front_links_every_share_and_the_games_finish(
    tmp_path: Path,
    redis_server: RedisServer,
    pg_url: str,
    secret: Path,
    workers: list[ShareWorker],
    how: str,
) -> None:
    """Two fronts (``--bus``) and two share workers. Four players connect to the spare
    front, which passes each connection on to the owner; two tables, one on each share; the
    owner front is killed (kill -9: its links drop) or stopped (SIGSTOP: its links stay
    open, as when its machine is cut off) mid-game: the spare takes the cluster lease and
    links to the holder of each share (a worker still linked to the stopped front hands the
    share on to the newer front), and the players connect again with their tokens and last
    seqs and finish both games: every event heard once, in order (Client.recv checks), no
    error, and every frame each heard is its seat's view of the table PostgreSQL keeps. The
    stopped front, let run again, finds its lease lost and stops; the workers refuse it."""
    _wait_for_holders(redis_server, 2)
    owner = _front(tmp_path / "a", redis_server, pg_url, secret)
    spare: ServerProcess | None = None
    try:
        first = owner_now(redis_server.url)
        spare = _front(tmp_path / "b", redis_server, pg_url, secret)
        url = spare.url

        async def scenario() -> None:
            ann, ben = Client("Ann"), Client("Ben")
            cy, di = Client("Cy"), Client("Di")
            for client in (ann, ben, cy, di):
                await client.connect(url)
            for one, two in ((ann, ben), (cy, di)):
                await one.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
                await one.until(lambda m: m["type"] == "snapshot")
                await two.send({"type": "join", "table": one.table})
                await two.until(lambda m: m["type"] == "snapshot")
                await one.send({"type": "start"})
            assert ann.table is not None and cy.table is not None
            assert int(ann.table, 16) % 2 != int(cy.table, 16) % 2  # one table on each share
            await play_until([ann, ben, cy, di], lambda c: c.seq >= 20)
            assert owner.proc is not None
            if how == "kill":
                owner.kill9()
            else:
                os.kill(owner.proc.pid, signal.SIGSTOP)
            again = await asyncio.gather(*(_back(client, url) for client in (ann, ben, cy, di)))
            for client in again:
                if client.snapshot is None or client.snapshot["seq"] != client.seq:
                    await client.until(lambda m: m["type"] in ("snapshot", "event"), 30)
            await play_until(list(again), lambda c: c.game_over(), 240)
            for client in again:
                assert client.errors == [], (client.name, client.errors)
                table = ann.table if client.name in ("Ann", "Ben") else cy.table
                assert table is not None
                check_no_leak(client, _replayed(pg_url, table), client.seat)
                await client.close()

        asyncio.run(scenario())
        assert owner_now(redis_server.url) != first  # the spare owns the tables now
        assert spare.proc is not None and spare.proc.poll() is None
        if how == "stop":
            assert owner.proc is not None
            os.kill(owner.proc.pid, signal.SIGCONT)
            assert owner.proc.wait(timeout=20) == 1  # it lost the tables, so it stopped
            assert "lost the tables" in owner.stop()
    finally:
        if owner.proc is not None and owner.proc.poll() is None:
            os.kill(owner.proc.pid, signal.SIGCONT)
        logs = owner.stop() + (spare.stop() if spare is not None else "")
    assert "Traceback" not in logs, logs


def test_link_handshakes_are_capped_at_once_and_per_address(
    redis_server: RedisServer, pg_url: str, secret: Path
) -> None:
    """Connections to the link's port that say nothing hold a handshake each for a few
    seconds: past ``HANDSHAKES_PER_ADDRESS`` from one address, or ``HANDSHAKES_AT_ONCE`` in
    all, the next is closed at once (nothing said to it); once they end, the front links."""
    worker = ShareWorker(redis_server.url, pg_url, 1, secret)
    try:
        _wait_for_holders(redis_server, 1)
        host, port = worker.address.rsplit(":", 1)

        async def opened(source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            return await asyncio.open_connection(host, int(port), local_addr=(source, 0))

        async def greeted(reader: asyncio.StreamReader) -> bool:
            """Whether the worker began a handshake (its magic), not closed at once."""
            try:
                hello = await asyncio.wait_for(reader.readexactly(len(MAGIC) + 32), 3)
            except asyncio.IncompleteReadError:
                return False
            return hello.startswith(MAGIC)

        async def scenario() -> None:
            held = [await opened("127.0.0.1") for _ in range(HANDSHAKES_PER_ADDRESS)]
            assert all([await greeted(reader) for reader, _writer in held])
            reader, writer = await opened("127.0.0.1")
            assert not await greeted(reader)  # one address past its share
            writer.close()
            others = [f"127.0.0.{2 + n // HANDSHAKES_PER_ADDRESS}" for n in range(64)]
            more = HANDSHAKES_AT_ONCE - HANDSHAKES_PER_ADDRESS
            held += [await opened(source) for source in others[:more]]
            assert all([await greeted(reader) for reader, _writer in held[-more:]])
            reader, writer = await opened(others[more])
            assert not await greeted(reader)  # a new address, past the cap of all
            writer.close()
            for _reader, held_writer in held:
                held_writer.close()
            await asyncio.sleep(0.3)
            reader, writer, epoch = await link_to(worker.address, SECRET.encode(), 0)
            assert epoch >= 1
            body = await asyncio.wait_for(_read_batch(reader), 10)
            assert body is not None  # its first summary: it serves this link
            writer.close()

        asyncio.run(scenario())
    finally:
        text = worker.stop()
        assert "Traceback" not in text, text


#: the extensions of each end's certificate, as docs/operations.md gives them
LEAF_EXTENSIONS = (
    "basicConstraints=critical,CA:FALSE\n"
    "keyUsage=critical,digitalSignature\n"
    "extendedKeyUsage=serverAuth,clientAuth\n"
    "subjectKeyIdentifier=hash\n"
    "authorityKeyIdentifier=keyid\n"
)


def _certificates(folder: Path, *names: str, authority: str = "ca") -> dict[str, tuple[str, str]]:
    """A certificate authority (``authority``) and a certificate and key it signed for each
    of ``names``, made with openssl: each name's (certificate, key) paths, the authority's
    certificate under ``authority``."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    ca_cert, ca_key = folder / f"{authority}.pem", folder / f"{authority}.key"

    def run(*command: str) -> None:
        subprocess.run(["openssl", *command], check=True, capture_output=True, timeout=30)

    # why the extensions: Python 3.13 verifies strictly (VERIFY_X509_STRICT), and refuses an
    # authority without key usage or a certificate without its authority's key id
    run("req", "-x509", *curve, "-keyout", str(ca_key), "-out", str(ca_cert), "-days", "2",
        "-subj", f"/CN={authority}",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")  # fmt: skip
    extensions = folder / "link.ext"
    extensions.write_text(LEAF_EXTENSIONS, encoding="utf-8")
    made = {authority: (str(ca_cert), str(ca_key))}
    for name in names:
        cert, key, request = folder / f"{name}.pem", folder / f"{name}.key", folder / f"{name}.csr"
        run("req", *curve, "-keyout", str(key), "-out", str(request), "-subj", f"/CN={name}")
        run("x509", "-req", "-in", str(request), "-CA", str(ca_cert), "-CAkey", str(ca_key),
            "-CAcreateserial", "-out", str(cert), "-days", "2",
            "-extfile", str(extensions))  # fmt: skip
        made[name] = (str(cert), str(key))
    return made


def test_a_link_with_tls_takes_only_a_front_with_a_certificate_of_its_authority(
    tmp_path: Path, redis_server: RedisServer, pg_url: str, secret: Path
) -> None:
    """With --link-cert, --link-key and --link-ca the link is TLS, both ways: a front with a
    certificate of the authority links (and the batches come through); one without TLS, or
    with a certificate of another authority, gets no link, and the worker serves on."""
    ours = _certificates(tmp_path, "worker", "front")
    theirs = _certificates(tmp_path, "stranger", authority="other")
    ca = ours["ca"][0]
    worker = ShareWorker(
        redis_server.url, pg_url, 1, secret,
        "--link-cert", ours["worker"][0], "--link-key", ours["worker"][1], "--link-ca", ca,
    )  # fmt: skip
    try:
        _wait_for_holders(redis_server, 1)

        async def scenario() -> None:
            stranger = link_context(False, *theirs["stranger"], theirs["other"][0])
            for tls in (None, stranger):
                with pytest.raises((OSError, LinkError, asyncio.IncompleteReadError)):
                    await link_to(worker.address, SECRET.encode(), 0, tls=tls)
            front = link_context(False, *ours["front"], ca)
            reader, writer, epoch = await link_to(worker.address, SECRET.encode(), 0, tls=front)
            assert epoch >= 1
            assert writer.get_extra_info("ssl_object") is not None  # encrypted
            body = await asyncio.wait_for(_read_batch(reader), 10)
            assert body is not None  # its first summary: it serves this link
            writer.close()

        asyncio.run(scenario())
    finally:
        text = worker.stop()
        assert "Traceback" not in text, text
