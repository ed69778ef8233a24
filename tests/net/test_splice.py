"""A WebSocket passed on as raw bytes (net/server/splice.py), in one process: aiohttp's server
on the client's side, a hand-made owner on the other. These also pin the aiohttp private API
splice.py leans on (its connection feeds every byte after the handshake to
``RequestHandler._payload_parser``, and ends it with ``feed_eof``): if aiohttp changes that,
the bytes stop arriving and these fail."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
from aiohttp import web

from fivecrowns.net.server.splice import HandshakeError, Refusal, reach, splice
from raw_websocket import WAIT, FakeOwner, RawClient, frame

TEXT, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x0, 0x8, 0x9, 0xA
MASK = b"\x11\x22\x33\x44"


@asynccontextmanager
async def spare(owner: FakeOwner) -> AsyncIterator[str]:
    """An aiohttp server whose ``/ws`` passes each WebSocket on to ``owner``; its address."""

    async def handle(request: web.Request) -> web.StreamResponse:
        return await splice(request, await reach(owner.url, {"X-Forwarded-For": "1.2.3.4"}))

    app = web.Application()
    app.router.add_get("/ws", handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
    finally:
        await runner.cleanup()


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 6 * WAIT))


def test_frames_pass_both_ways_byte_for_byte() -> None:
    """The client's frames reach the owner with their own mask keys, fragments and ping; the
    owner's reach the client as it wrote them (its first ones sent with its handshake answer,
    a frame larger than one read, a pong, its close); then the connection ends."""
    greeting = frame(TEXT, b'{"type":"hello"}') + frame(TEXT, "año".encode())
    from_client = (
        frame(TEXT, b'{"type":"draw"}', MASK)
        + frame(TEXT, b"half ", b"\x01\x02\x03\x04", fin=False)
        + frame(CONTINUATION, b"and half", b"\x05\x06\x07\x08")
        + frame(PING, b"are you there", b"\x09\x0a\x0b\x0c")
    )
    from_owner = frame(TEXT, b"x" * 70_000) + frame(PONG, b"are you there") + frame(TEXT, b"{}")
    closing = frame(CLOSE, b"\x03\xe8bye")

    async def scenario() -> None:
        owner = await FakeOwner(greeting).start()
        async with spare(owner) as url:
            client = await RawClient().connect(url)
            assert await client.read(len(greeting)) == greeting
            client.send(from_client)
            assert await owner.until_received(len(from_client)) == from_client
            owner.send(from_owner)
            assert await client.read(len(from_owner)) == from_owner
            owner.send(closing)
            owner.close_connection()
            assert await client.read(len(closing)) == closing
            assert await client.at_end()
            assert owner.header("X-Forwarded-For") == "1.2.3.4"
            assert owner.header("Sec-WebSocket-Extensions") is None
            await client.close()
        await owner.stop()

    run(scenario)


def test_the_client_going_closes_its_connection_to_the_owner() -> None:
    async def scenario() -> None:
        owner = await FakeOwner().start()
        async with spare(owner) as url:
            client = await RawClient().connect(url)
            client.send(frame(TEXT, b"one", MASK))
            await owner.until_received(9)
            await client.close()
            await asyncio.wait_for(owner.ended.wait(), WAIT)
        await owner.stop()

    run(scenario)


def test_a_frame_sent_with_the_handshake_reaches_the_owner_first() -> None:
    """A client that does not wait for the answer (RFC 6455 says it must) loses nothing:
    aiohttp holds those bytes back from its own reader, and they go to the owner."""
    early = frame(TEXT, b"too soon", MASK)
    later = frame(TEXT, b"later", MASK)

    async def scenario() -> None:
        owner = await FakeOwner().start()
        async with spare(owner) as url:
            client = await RawClient().connect(url, early=early)
            client.send(later)
            assert await owner.until_received(len(early + later)) == early + later
            await client.close()
        await owner.stop()

    run(scenario)


def test_the_owners_refusal_is_its_status_and_headers() -> None:
    answer = (
        "HTTP/1.1 503 Service Unavailable\r\nX-Fivecrowns-Refusal: full\r\n"
        "Content-Length: 5\r\n\r\nfull\n"
    )

    async def scenario() -> None:
        owner = await FakeOwner(answer=answer).start()
        with pytest.raises(Refusal) as refused:
            await reach(owner.url, {"X-Forwarded-For": "1.2.3.4"})
        assert refused.value.status == 503
        assert refused.value.headers["x-fivecrowns-refusal"] == "full"
        await owner.stop()

    run(scenario)


@pytest.mark.parametrize(
    ("answer", "accept"),
    [(None, "d3Jvbmcga2V5"), ("SSH-2.0-OpenSSH_9.2\r\n\r\n", None)],
    ids=["wrong accept key", "not HTTP"],
)
def test_an_answer_that_is_no_websocket_handshake_is_an_error(
    answer: str | None, accept: str | None
) -> None:
    async def scenario() -> None:
        owner = await FakeOwner(answer=answer, accept=accept).start()
        with pytest.raises(HandshakeError):
            await reach(owner.url, {})
        await owner.stop()

    run(scenario)


def test_a_client_that_does_not_read_holds_the_owners_bytes_at_the_owner() -> None:
    """While the client reads nothing, the spare stops reading from the owner once the
    client's socket is full, so the owner's bytes wait at the owner (bounded there) and not in
    the spare's memory; once the client reads, every byte arrives, in order."""
    size = 48 * 1024 * 1024  # more than loopback's socket buffers hold between them
    payload = bytes(range(256)) * (size // 256)

    async def scenario() -> None:
        owner = await FakeOwner().start()
        async with spare(owner) as url:
            client = await RawClient().connect(url)
            owner.send(payload)
            await asyncio.sleep(1.0)  # the spare reads what it can meanwhile
            assert owner.unsent() > size // 4  # held at the owner
            got = bytearray()
            for _read in range(10_000):
                if len(got) >= size:
                    break
                got += await client.read(min(1 << 20, size - len(got)))
            assert got == payload
            assert owner.unsent() == 0
            await client.close()
        await owner.stop()

    run(scenario)
