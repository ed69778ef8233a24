"""WebSocket peers that see bytes, for the tests of passing a WebSocket on unchanged
(net/server/splice.py): a client whose every frame and mask key the test chooses, and an owner
that answers the handshake by hand and keeps every byte it is sent. Every wait is bounded."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import struct

__all__ = ["WAIT", "FakeOwner", "RawClient", "frame"]

WAIT = 10.0  # seconds any one wait takes at most
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode: int, payload: bytes, mask: bytes | None = None, fin: bool = True) -> bytes:
    """One WebSocket frame (RFC 6455 section 5.2), masked with ``mask`` if given."""
    first = (0x80 if fin else 0) | opcode
    bit = 0x80 if mask is not None else 0
    if len(payload) < 126:
        head = struct.pack("!BB", first, bit | len(payload))
    elif len(payload) < 65536:
        head = struct.pack("!BBH", first, bit | 126, len(payload))
    else:
        head = struct.pack("!BBQ", first, bit | 127, len(payload))
    if mask is None:
        return head + payload
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return head + mask + masked


def _accept(key: str) -> str:
    return base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()


async def _read_head(reader: asyncio.StreamReader) -> str:
    return (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)).decode("latin-1")


def _header(head: str, name: str) -> str | None:
    for line in head.split("\r\n")[1:]:
        key, _colon, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


class FakeOwner:
    """A server on loopback that answers one WebSocket handshake with ``answer`` (None: 101
    with the right accept key, then ``greeting`` in the same write) and keeps the request's
    head and every byte after it."""

    def __init__(
        self, greeting: bytes = b"", answer: str | None = None, accept: str | None = None
    ) -> None:
        self.greeting = greeting
        self.answer = answer
        self.accept = accept
        self.head = ""
        self.received = bytearray()
        self.ended = asyncio.Event()  # the sender closed its side
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._arrived = asyncio.Event()

    async def start(self, port: int = 0) -> FakeOwner:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def header(self, name: str) -> str | None:
        """A header of the handshake request it was sent."""
        return _header(self.head, name)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self.head = await _read_head(reader)
        if self.answer is not None:
            writer.write(self.answer.encode("latin-1"))
            writer.close()
            return
        accept = self.accept or _accept(self.header("Sec-WebSocket-Key") or "")
        writer.write(
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
            ).encode("latin-1")
            + self.greeting
        )
        for _chunk in range(100_000):
            data = await reader.read(65536)
            if not data:
                break
            self.received += data
            self._arrived.set()
        self.ended.set()

    async def until_received(self, count: int) -> bytes:
        """The first ``count`` bytes sent after the handshake, once they are all here (or
        what came, if fewer did within ``WAIT`` seconds: the test's assertion shows them)."""
        for _wait in range(1000):
            if len(self.received) >= count:
                break
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), WAIT)
            except TimeoutError:
                break
        return bytes(self.received[:count])

    def send(self, data: bytes) -> None:
        assert self._writer is not None
        self._writer.write(data)

    def unsent(self) -> int:
        """Bytes written to the connection that its socket has not taken yet."""
        assert self._writer is not None
        return self._writer.transport.get_write_buffer_size()

    def close_connection(self) -> None:
        if self._writer is not None:
            self._writer.close()

    async def stop(self) -> None:
        self.close_connection()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


class RawClient:
    """A WebSocket client on a plain socket: the handshake, then bytes as the test writes
    them (``early``: sent with the handshake, before its answer)."""

    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.answer = ""

    async def connect(
        self, url: str, headers: dict[str, str] | None = None, early: bytes = b""
    ) -> RawClient:
        host, port = url.removeprefix("ws://").split("/", 1)[0].rsplit(":", 1)
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(host, int(port)), WAIT
        )
        key = base64.b64encode(b"0123456789abcdef").decode()
        lines = [
            "GET /ws HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in (headers or {}).items()),
        ]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + early)
        self.answer = await _read_head(self.reader)
        assert self.answer.startswith("HTTP/1.1 101"), self.answer
        assert _header(self.answer, "Sec-WebSocket-Accept") == _accept(key)
        return self

    def send(self, data: bytes) -> None:
        assert self.writer is not None
        self.writer.write(data)

    async def read(self, count: int) -> bytes:
        assert self.reader is not None
        return await asyncio.wait_for(self.reader.readexactly(count), WAIT)

    async def at_end(self) -> bool:
        """True once the other side has closed the connection with nothing more sent."""
        assert self.reader is not None
        return await asyncio.wait_for(self.reader.read(1), WAIT) == b""

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
