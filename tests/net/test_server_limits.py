"""The server's resource limits against rude clients, with a real `fivecrowns serve` process
and raw WebSocket clients on loopback (docs/protocol.md, "Limits"; issue 26).

Each attack is bounded in count and time; the figures asserted are far from both the fixed
server's and the old one's (the old server grew by hundreds of megabytes here).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from server_support import (
    FAST,
    Client,
    RawClient,
    ServerProcess,
    run_against,
    server_memory,
    server_sockets,
    wait_until,
    wait_until_connected,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads the server's /proc")

MB = 1024 * 1024


def test_table_lists_a_client_never_reads_do_not_grow_the_server() -> None:
    """Four sockets ask for a big table list 1,500 times each and never read: while a client
    is not reading, a newer list replaces its unsent one, so the server stays small."""
    server = ServerProcess(None, *FAST, "--max-per-address", "0").start()
    rude: list[RawClient] = []

    async def scenario() -> None:
        creators = [Client(f"A long player name {index:03d}") for index in range(50)]
        for creator in creators:  # 50 tables of 7 seats: a list of about 40 KB
            await creator.connect(server.url)
            await creator.send({"type": "create_table", "seats": 7, "bots": ["expert"] * 6})
            await creator.until(lambda m: m["type"] == "seated")
        watcher = Client("Eve")
        await watcher.connect(server.url)
        await watcher.send({"type": "list_tables"})
        listing = await watcher.until(lambda m: m["type"] == "tables" and m["tables"])
        assert len(watcher.frames[-1]) > 30_000, len(watcher.frames[-1])
        assert len(listing["tables"]) == 50
        before = server_memory(server)
        cut = 0
        for _ in range(4):
            client = RawClient(server.url)
            rude.append(client)
            assert b" 101 " in client.upgrade()
            client.send({"type": "hello", "v": 1, "name": "Rude"})
            try:
                for _ask in range(1500):
                    client.send({"type": "list_tables"})
            except (ConnectionResetError, BrokenPipeError):
                # why allowed: a client that reads nothing may be dropped as too far behind
                # (CI on a loaded machine: its sending was still going when the server cut it)
                cut += 1
        grown = 0
        deadline = time.monotonic() + 4.0  # the old server had grown by 100 MB in well under
        while time.monotonic() < deadline:
            grown = max(grown, server_memory(server) - before)
            await asyncio.sleep(0.1)
        print(f"the server grew by {grown / MB:.1f} MB under 6,000 unread table lists; {cut} cut")
        assert grown < 40 * MB
        # and a client that reads still gets its list at once
        await watcher.send({"type": "list_tables"})
        await watcher.until(lambda m: m["type"] == "tables" and m["tables"], timeout=10)
        for client in [*creators, watcher]:
            await client.close()

    run_against(server, scenario, closing=rude)


LINE = "\U0001f0cf" * 300  # a chat line of 1.2 KB: 300 playing-card jokers, 4 bytes each


async def _chat_log(talkers: list[Client], lines: int) -> None:
    """``lines`` chat lines of :data:`LINE` in the talkers' table's log, at the pace the chat
    limits allow (a connection's 5 at once, then one a second; the table's 12, then 3)."""
    said = 0
    deadline = time.monotonic() + 60
    for turn in range(lines * 20):
        if said == lines or time.monotonic() > deadline:
            break
        talker = talkers[turn % len(talkers)]
        await talker.send({"type": "chat", "text": LINE})
        heard = await talker.until(
            lambda m, name=talker.name: (
                m["type"] == "error"
                or (m["type"] == "event" and m["kind"] == "chat" and m["data"]["name"] == name)
            )
        )
        if heard["type"] == "event":
            said += 1
        else:
            assert heard["code"] in ("chat_rate", "chat_busy"), heard
            await asyncio.sleep(0.2)
    assert said == lines, said


def test_a_client_that_never_reads_is_dropped_and_its_socket_freed() -> None:
    """A seated client asks for its table's chat again and again and never reads: once
    its unsent bytes pass the bound it is dropped, and within a few seconds its socket is
    closed although it never takes the close frame (the old server kept it for ever)."""
    server = ServerProcess(None, *FAST).start()
    rude: list[RawClient] = []

    async def scenario() -> None:
        idle = server_sockets(server)
        client = RawClient(server.url)
        rude.append(client)
        assert b" 101 " in client.upgrade()
        client.send({"type": "hello", "v": 1, "name": "Rude"})
        client.send({"type": "create_table", "seats": 2})
        ann, cy = Client("Ann"), Client("Cy")  # a player and a spectator there, who read
        await ann.connect(server.url)
        await ann.send({"type": "list_tables"})
        listing = await ann.until(lambda m: m["type"] == "tables" and m["tables"])
        table = listing["tables"][0]["id"]
        await ann.send({"type": "join", "table": table})
        await ann.until(lambda m: m["type"] == "snapshot")
        await cy.connect(server.url)
        await cy.send({"type": "watch", "table": table})
        await cy.until(lambda m: m["type"] == "snapshot")
        before = ann.seq
        # why chat: the biggest events a client can add to a log (2.5 KB each, the line
        # and its sentence). 200 asks for 12 lines (2,400 events, within the 5,000 one
        # connection may be sent again at once) are 6 MB in 2,600 frames: past the bound
        # in bytes (4 MiB), far from the one in frames (5,000)
        await _chat_log([ann, cy], 12)
        if ann.seq < before + 12:  # Cy's last lines may not be read yet
            await ann.until(lambda _m: ann.seq == before + 12)
        assert [event["kind"] for event in ann.events[-12:]] == ["chat"] * 12
        for _ask in range(200):  # none of it read
            client.send({"type": "resume", "last_seq": before})
        await wait_until(lambda: server_sockets(server) == idle + 3, timeout=30)
        # the server had it: now it lets it go
        await wait_until(lambda: server_sockets(server) == idle + 2, timeout=30)
        assert server_memory(server) < 150 * MB
        other = Client("Ben")  # the server goes on
        await other.connect(server.url)
        for reader in (ann, cy, other):
            await reader.close()

    run_against(server, scenario, closing=rude)


class _StuckSocket:
    """A WebSocket whose client reads nothing: its close handshake never ends."""

    def __init__(self) -> None:
        self.closed = False
        self.closed_with: tuple[int, bytes] | None = None
        self.never = asyncio.Event()

    async def close(self, *, code: int = 1000, message: bytes = b"") -> None:
        self.closed_with = (code, message)
        await self.never.wait()


class _Transport:
    """A socket whose client reads nothing: whatever is written stays in its buffer."""

    def __init__(self) -> None:
        self.aborted = False
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return 16384, 65536

    def get_write_buffer_size(self) -> int:
        return 10**6

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True


def test_the_queue_is_bounded_in_bytes_and_keeps_one_unsent_table_list() -> None:
    from fivecrowns.net.server import connection
    from fivecrowns.net.server.connection import Connection
    from fivecrowns.net.server.limits import Limits

    async def scenario() -> None:
        connection.CLOSE_WAIT = 0.1
        ws, transport = _StuckSocket(), _Transport()
        limits = Limits(outgoing_bytes=1000)
        conn = Connection(ws, limits, lambda: True, transport)  # type: ignore[arg-type]
        conn.writer = asyncio.create_task(conn.write_loop())
        conn.send_raw(b"x" * 100)
        await wait_until(lambda: transport.written != [], timeout=5)  # it waits for the client
        for number in range(5):
            conn.send_listing(b'{"type":"tables","n":%d}' % number)
        assert len(conn.queue) == 5  # four replaced lists the writer skips, and the newest
        assert conn.unsent == len(b'{"type":"tables","n":4}')
        conn.send_raw(b"y" * 900)
        assert not conn.closed
        conn.send_raw(b"z" * 100)  # past 1,000 unsent bytes: dropped, the queue let go
        assert conn.closed and conn.unsent == 0 and list(conn.queue) == [None]
        await wait_until(lambda: transport.aborted, timeout=5)  # the close never ended: cut
        assert ws.closed_with == (1013, b"too far behind")  # why it was dropped, for its log
        conn.writer.cancel()

    saved = connection.CLOSE_WAIT
    try:
        asyncio.run(scenario())
    finally:
        connection.CLOSE_WAIT = saved


def test_one_address_holds_at_most_its_share_of_connections() -> None:
    server = ServerProcess(None, *FAST, "--max-per-address", "3").start()

    async def scenario() -> None:
        clients = [Client(name) for name in ("Ann", "Ben", "Cy")]
        for client in clients:
            await client.connect(server.url)
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(server.url)
            assert refused.value.status == 429
            async with session.get(server.url.replace("ws://", "http://")) as answer:
                assert answer.status == 429
                assert await answer.text() == (
                    "Your address already has 3 connections to this server, as many as it "
                    "allows; close one and try again.\n"
                )
            spanish = {"Accept-Language": "es"}
            async with session.get(server.url.replace("ws://", "http://"), headers=spanish) as es:
                assert (await es.text()).startswith("Tu dirección ya tiene 3 conexiones")
        await clients[0].close()  # a slot of this address is free again
        again = Client("Dee")
        await wait_until_connected(again, server.url)
        for client in [*clients[1:], again]:
            await client.close()

    run_against(server, scenario)


def _trickle(sock: socket.socket, seconds: float) -> float | None:
    """Send a half HTTP request a header line a second (slowloris) until the server closes
    the connection; how long that took, or None if it never did within ``seconds``."""
    began = time.monotonic()
    sock.settimeout(1.0)
    for _ in range(int(seconds) + 1):
        with contextlib.suppress(OSError):
            sock.sendall(b"X-Slow: 1\r\n")
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - began
        except TimeoutError:
            continue
        except OSError:  # reset: closed too
            return time.monotonic() - began
    return None


def test_half_sent_requests_and_connections_without_hello_are_closed_in_time() -> None:
    """The deadlines: 10 s for a whole HTTP request (the old server kept a half-sent one
    for an hour), 10 s for a WebSocket's hello (the old one kept it for ever)."""
    server = ServerProcess(None, *FAST).start()
    port = int(server.url.rsplit(":", 1)[1].removesuffix("/ws"))
    slow = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(5)]

    async def scenario() -> None:
        for sock in slow:
            sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        trickles = [asyncio.to_thread(_trickle, sock, 25.0) for sock in slow]
        quiet = Client("Quiet")
        await quiet.connect(server.url, hello=False)
        began = time.monotonic()
        error = await quiet.until(lambda m: m["type"] == "error", timeout=25)
        took = time.monotonic() - began
        assert error["code"] == "hello_timeout"
        assert error["text"] == (
            "This connection said no hello within 10 seconds of opening, so it closes. "
            "Connect again and say hello first."
        )
        assert 8 < took < 15, took
        assert quiet.ws is not None
        closing = await asyncio.wait_for(quiet.ws.receive(), 10)
        assert closing.type is aiohttp.WSMsgType.CLOSE
        await quiet.close()
        closed = await asyncio.gather(*trickles)
        print(f"half-sent requests closed after {closed} s")
        assert all(seconds is not None and seconds < 15 for seconds in closed), closed
        talker = Client("Ann")  # a client that says hello is not touched by the deadline
        await talker.connect(server.url)
        await asyncio.sleep(11)
        await talker.send({"type": "list_tables"})
        await talker.until(lambda m: m["type"] == "tables")
        await talker.close()

    run_against(server, scenario, closing=slow)


def test_the_connection_cap_stays_under_the_file_limit_and_says_so() -> None:
    """Under ``ulimit -n 400`` the default 2,500 connections cannot be reached: the server
    takes at most 400 less the files it keeps for itself (256), says so once, and answers
    the rest HTTP 503 (the old one ran out of files instead)."""
    server = ServerProcess(None, *FAST, "--max-per-address", "0", files=400).start()
    rude: list[RawClient] = []
    try:
        answers = []
        for _ in range(150):
            client = RawClient(server.url)
            rude.append(client)
            answers.append(client.upgrade().split(b" ")[1])
        assert answers.count(b"101") == 144
        assert answers[144:] == [b"503"] * 6
    finally:
        for client in rude:
            client.close()
        errors = server.stop()
    assert server.proc is not None and server.proc.stdout is not None
    said = server.proc.stdout.read()
    assert said.count("The open-file limit") == 1
    assert (
        "The open-file limit (ulimit -n) is 400, so this server takes at most 144 connections "
        "at once, not 2500.\n"
    ) in said
    assert "Traceback" not in errors, errors


def test_accept_errors_are_logged_briefly() -> None:
    """500 connections that send nothing exhaust a server's 400 files: each kind of accept()
    error is one short line per 10 s, with no traceback (the old server logged a traceback
    for each of up to 1,024 failures a second), and the server serves again after."""
    server = ServerProcess(None, *FAST, files=400).start()
    port = int(server.url.rsplit(":", 1)[1].removesuffix("/ws"))
    flood: list[socket.socket] = []

    async def scenario() -> None:
        for _ in range(500):
            flood.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        await asyncio.sleep(3.0)  # a few rounds of asyncio's accept retry (1 s)
        for sock in flood:
            sock.close()
        ann = Client("Ann")
        await asyncio.wait_for(wait_until_connected(ann, server.url), 30)
        await ann.send({"type": "list_tables"})
        await ann.until(lambda m: m["type"] == "tables")
        await ann.close()

    try:
        asyncio.run(scenario())
    finally:
        for sock in flood:
            sock.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors[:2000]
    lines = [line for line in errors.splitlines() if "accept" in line]
    assert lines, errors[:2000]
    assert len(lines) <= 2, lines
    assert lines[0] == "Cannot accept a connection: EMFILE (Too many open files)"
    assert len(errors) < 2000, errors[:2000]


def test_a_late_accept_retry_after_the_server_closed_is_not_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """CPython 3.12 retries accept() a second after EMFILE even once the server has closed
    its socket; that retry's ValueError is not news. Anything else still reaches asyncio's
    own handler."""
    import logging
    from types import SimpleNamespace

    from fivecrowns.net.server.resources import AcceptErrors

    class _Loop:
        def _start_serving(self) -> None: ...

    errors = AcceptErrors()
    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.DEBUG):
            late = {
                "message": "Exception in callback BaseSelectorEventLoop._start_serving()",
                "exception": ValueError("Invalid file descriptor: -1"),
                "handle": SimpleNamespace(_callback=_Loop()._start_serving),
            }
            errors(loop, late)
            assert caplog.records == []
            errors(loop, {"message": "Something else broke", "exception": ValueError("x")})
        assert any("Something else broke" in record.getMessage() for record in caplog.records)
    finally:
        loop.close()


@pytest.mark.parametrize("workers", [(), ("--workers", "2")], ids=["one", "workers"])
def test_one_player_and_one_address_make_a_few_tables_not_all_of_them(
    tmp_path: Path, workers: tuple[str, ...]
) -> None:
    """One client made the server's 1,000 tables in a second before: now one player has at
    most 3 open tables they made, one address at most 10 (counting the tables someone sits
    at: one everybody left closes after the grace). Behind ``serve --workers`` too, summed
    over the workers."""
    server = ServerProcess(tmp_path / "server" if workers else None, *FAST, *workers).start()

    async def scenario() -> None:
        ann = Client("Ann")
        await ann.connect(server.url)
        for _ in range(5):  # a table everybody left does not count: it closes soon anyway
            await ann.send({"type": "create_table", "seats": 3, "private": True})
            await ann.until(lambda m: m["type"] == "seated")
            await ann.send({"type": "leave"})
            await ann.until(lambda m: m["type"] == "left")
        guests = [Client(f"Guest {number}") for number in range(3)]
        for guest in guests:  # three tables she made and left, a guest still seated at each
            await ann.send({"type": "create_table", "seats": 3, "private": True})
            await ann.until(lambda m: m["type"] == "seated")
            await guest.connect(server.url)
            await guest.send({"type": "join", "code": ann.code})
            await guest.until(lambda m: m["type"] == "seated")
            await ann.send({"type": "leave"})
            await ann.until(lambda m: m["type"] == "left")
        await ann.send({"type": "create_table", "seats": 3})
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "too_many_tables"
        assert error["text"] == (
            "You already have 3 open tables you made, as many as one player may; finish one "
            "or let it close first."
        )
        others = [Client(f"Player {number}") for number in range(8)]
        for other in others[:7]:  # 3 + 7 = the 10 open tables this address may have
            await other.connect(server.url)
            await other.send({"type": "create_table", "seats": 2})
            await other.until(lambda m: m["type"] == "seated")
        last = others[7]
        await last.connect(server.url)
        await last.send({"type": "language", "language": "es"})
        await last.send({"type": "create_table", "seats": 2})
        error = await last.until(lambda m: m["type"] == "error")
        assert error["code"] == "too_many_tables"
        assert error["text"].startswith("Tu dirección ya tiene 10 mesas abiertas")
        for client in [ann, *guests, *others]:
            await client.close()

    run_against(server, scenario)


def test_a_table_that_never_started_closes_soon_after_its_creator_drops() -> None:
    """Such a table waited 30 minutes for its creator before (so 1,000 connections that each
    made a table and dropped held every table the server allows); now only the grace."""
    server = ServerProcess(None, *FAST, "--grace", "1").start()

    async def scenario() -> None:
        ann, ben = Client("Ann"), Client("Ben")
        await ann.connect(server.url)
        await ann.send({"type": "create_table", "seats": 3})
        await ann.until(lambda m: m["type"] == "seated")
        made = ann.table
        await ben.connect(server.url)
        await ben.send({"type": "list_tables"})
        listing = await ben.until(lambda m: m["type"] == "tables")
        assert made in [table["id"] for table in listing["tables"]]
        await ann.close()  # dropped, not left: she is still seated there
        gone = False
        for _ in range(40):  # the grace is 1 s; the sweep runs every half second
            await asyncio.sleep(0.25)
            await ben.send({"type": "list_tables"})
            listing = await ben.until(lambda m: m["type"] == "tables")
            if made not in [table["id"] for table in listing["tables"]]:
                gone = True
                break
        assert gone, "the table never closed"
        await ben.close()

    run_against(server, scenario)
