"""A real client still connects and plays a whole round while another address holds a
connection-slot attack on a real `fivecrowns serve` process (issue 26, "players while
attacked"; benchmarks/bench_under_attack.py measures the latency half).

The attacker is at 127.0.1.N and the player at 127.0.0.1: two addresses, as on the
internet. Each attack is bounded in count, and every wait in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from server_support import (
    FAST,
    LOOPBACK,
    Client,
    ServerProcess,
    play_until,
    server_sockets,
    wait_until,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads the server's /proc")

ATTACKER = "127.0.1.1"  # one address of the attacker's
SLOTS = 40  # the server's --max-connections here: small, so the attack can try to fill it
PER_ADDRESS = 20  # the server's default --max-per-address


def _raw(port: int, source: str, request: bytes) -> socket.socket:
    """A TCP connection from ``source`` that sends ``request`` (perhaps nothing) and waits."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(10.0)
    sock.connect((LOOPBACK, port))
    if request:
        sock.sendall(request)
    return sock


async def _hold(session: aiohttp.ClientSession, url: str, held: list[asyncio.Task[None]]) -> int:
    """One WebSocket from the attacker's address that says hello and idles, answering the
    server's pings (so no deadline closes it) until cancelled; its HTTP status."""
    try:
        ws = await session.ws_connect(url)
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status
    await ws.send_json({"type": "hello", "v": 1, "name": f"Idle {len(held)}"})

    async def idle() -> None:
        with contextlib.suppress(Exception):
            async for _message in ws:  # why read: aiohttp answers pings while reading
                pass

    held.append(asyncio.create_task(idle()))
    return 101


def test_a_real_client_connects_and_plays_a_round_while_slots_are_attacked(tmp_path: Path) -> None:
    """One address asks for every slot and more (the server's whole cap and half as many
    again) and idles after hello; more addresses hold 100 TCP connections that send nothing
    and 50 half HTTP requests. A player at another address still connects, makes a table,
    and plays a whole round, and the attack's slots are still held when the round ends. (A
    server with no limit per address gave the attacker every slot, and the player HTTP 503.)"""
    server = ServerProcess(tmp_path / "server", *FAST, "--max-connections", str(SLOTS)).start()
    port = int(server.url.rsplit(":", 1)[1].removesuffix("/ws"))
    sockets: list[socket.socket] = []

    async def scenario() -> None:
        held: list[asyncio.Task[None]] = []
        connector = aiohttp.TCPConnector(local_addr=(ATTACKER, 0), limit=0)
        async with aiohttp.ClientSession(connector=connector) as attacker:
            try:
                statuses = [await _hold(attacker, server.url, held) for _ in range(SLOTS + 20)]
                assert statuses.count(101) == PER_ADDRESS, statuses
                assert set(statuses[PER_ADDRESS:]) == {429}, statuses
                for number in range(100):
                    sockets.append(_raw(port, f"127.0.1.{2 + number % 5}", b""))
                for number in range(50):
                    request = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    sockets.append(_raw(port, f"127.0.1.{7 + number % 5}", request))
                # the whole attack is open at the server (accepted) when the player comes
                await wait_until(lambda: server_sockets(server) >= PER_ADDRESS + 150, 10)
                ann = Client("Ann")
                await ann.connect(server.url)
                try:
                    await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
                    await ann.until(lambda m: m["type"] == "seated")
                    await ann.send({"type": "start"})
                    await play_until(
                        [ann],
                        lambda c: any(e["kind"] == "round_scored" for e in c.events),
                        timeout=60,
                    )
                finally:
                    await ann.close()
                # the attacker's slots were held through the round: one more is still refused
                assert all(not task.done() for task in held)
                assert await _hold(attacker, server.url, held) == 429
            finally:
                for task in held:
                    task.cancel()
                await asyncio.gather(*held, return_exceptions=True)

    try:
        asyncio.run(scenario())
    finally:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors
