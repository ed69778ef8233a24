"""A spare ``fivecrowns serve --bus`` process passes each WebSocket on to the owner as raw
bytes (net/server/splice.py): here the owner is a hand-made one, named in the lease in a real
Redis, so the test sees the very bytes the spare sends it, and the spare is a real process."""

from __future__ import annotations

import asyncio
from pathlib import Path

from redis import Redis

from raw_websocket import WAIT, FakeOwner, RawClient, frame
from redis_server import RedisServer, free_port, redis_server
from server_support import FAST, ServerProcess

# why: the fixture, imported for pytest to find
__all__ = ["redis_server"]

TEXT, PING, PONG, CLOSE = 0x1, 0x9, 0xA, 0x8


def test_a_spare_passes_frames_on_unchanged_with_the_clients_address(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """The client's frames reach the owner with the client's own mask keys, its ping too
    (the owner answers it, not the spare); the owner's frames, written together, reach the
    client as they were written. The owner hears the client's address and the page's
    origin from the spare's handshake (for its limits per address and its origin check)."""
    port = free_port()
    with Redis.from_url(redis_server.url, decode_responses=True) as redis:
        # the lease names the hand-made owner, for a minute: the spare must not take it
        redis.set("fivecrowns:tables", f"1 handmade ws://127.0.0.1:{port}/ws", px=60_000)
    spare = ServerProcess(tmp_path / "server", *FAST, "--bus", redis_server.url).start()
    from_client = (
        frame(TEXT, b'{"type":"hello","name":"Ann"}', b"\x01\x02\x03\x04")
        + frame(PING, b"still there?", b"\x0a\x0b\x0c\x0d")
        + frame(TEXT, b'{"type":"tables"}', b"\xfe\xdc\xba\x98")
    )
    from_owner = (
        frame(TEXT, b'{"type":"welcome"}')
        + frame(PONG, b"still there?")
        + frame(TEXT, b'{"type":"tables","tables":[]}')
    )
    origin = spare.url.replace("ws://", "http://").removesuffix("/ws")

    async def scenario() -> None:
        owner = await FakeOwner().start(port)
        try:
            client = await RawClient().connect(spare.url, {"Origin": origin})
            client.send(from_client)
            assert await owner.until_received(len(from_client)) == from_client
            assert owner.header("X-Forwarded-For") == "127.0.0.1"
            assert owner.header("Origin") == origin
            owner.send(from_owner)
            assert await client.read(len(from_owner)) == from_owner
            owner.send(frame(CLOSE, b"\x03\xe9"))
            owner.close_connection()
            assert await client.read(4) == frame(CLOSE, b"\x03\xe9")
            assert await client.at_end()
            await client.close()
        finally:
            await owner.stop()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 4 * WAIT))
    finally:
        errors = spare.stop()
    assert "Traceback" not in errors, errors


def test_a_header_the_owners_handshake_cannot_carry_gets_a_sentence_not_a_traceback(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """aiohttp reads header bytes as UTF-8; the spare's handshake to the owner is Latin-1:
    such a request is answered 400 with a sentence, and the spare logs no traceback."""
    port = free_port()
    with Redis.from_url(redis_server.url, decode_responses=True) as redis:
        redis.set("fivecrowns:tables", f"1 handmade ws://127.0.0.1:{port}/ws", px=60_000)
    spare = ServerProcess(tmp_path / "server", *FAST, "--bus", redis_server.url).start()
    host, spare_port = spare.url.removeprefix("ws://").split("/", 1)[0].rsplit(":", 1)

    async def answer(value: bytes) -> bytes:
        reader, writer = await asyncio.open_connection(host, int(spare_port))
        writer.write(
            b"GET /ws HTTP/1.1\r\nHost: " + host.encode() + b"\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: MDEyMzQ1Njc4OWFiY2RlZg==\r\n"
            b"Sec-WebSocket-Version: 13\r\nAccept-Language: " + value + b"\r\n\r\n"
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
        body = await asyncio.wait_for(reader.read(400), WAIT)
        writer.close()
        return head + body

    try:
        for value in ("中文".encode(), b"\xff"):
            said = asyncio.run(answer(value))
            assert said.startswith(b"HTTP/1.1 400"), said
            assert b"a header of its request is not plain text" in said, said
    finally:
        errors = spare.stop()
    assert "Traceback" not in errors, errors
