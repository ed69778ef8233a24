"""A WebSocket passed on to the process that owns the tables as raw bytes (``serve --bus``,
cluster.py): after both handshakes, whatever arrives from one socket is written to the other
in one write, with no frame decoded or encoded again (issue 29: a spare's CPU went mostly to
one socket write per frame, then to parsing, decoding and masking each one).

Why bytes can be passed on unchanged (RFC 6455): a client masks every frame it sends, and the
spare, toward the owner, is a client too; the owner sends unmasked frames, as the spare does
toward its client. Neither handshake offers an extension (no compression), so both sides speak
the same frames. The close handshake and the pings pass through: the client and the owner
answer each other.

The client's side is aiohttp's server: once the handshake is answered, its connection's bytes
are taken from aiohttp by putting :class:`_ClientSide` where aiohttp's WebSocket reader was
(``RequestHandler._payload_parser``, private API: tests/net/test_splice.py fails if aiohttp
stops feeding it every byte). The owner's side is a plain asyncio connection that sends the
handshake itself.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

from aiohttp import web
from yarl import URL

from fivecrowns.net.server.draining import drained

__all__ = ["HandshakeError", "Owner", "Refusal", "reach", "splice"]

#: RFC 6455's GUID: the accept key is base64(SHA-1(key + GUID)).
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_HEAD = 16384  # bytes of the owner's answer head at most (its headers are few)


class HandshakeError(ConnectionError):
    """The owner's answer is not a WebSocket handshake (not HTTP, or a wrong accept key)."""


class Refusal(Exception):
    """The owner answered the handshake with ``status`` (not 101) and ``headers``."""

    def __init__(self, status: int, headers: Mapping[str, str]) -> None:
        super().__init__(f"the owner answered {status}")
        self.status = status
        self.headers = dict(headers)


def accept_key(key: str) -> str:
    """The Sec-WebSocket-Accept answering ``key``."""
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + GUID).digest()).decode("ascii")


class Owner(asyncio.Protocol):
    """The connection to the owner: its handshake answer, then the bytes it sends, each
    chunk written to the client at once."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.transport: asyncio.Transport | None = None
        self.answer: asyncio.Future[tuple[int, dict[str, str]]] = loop.create_future()
        self.ended: asyncio.Future[None] = loop.create_future()
        self.client: asyncio.Transport | None = None
        self._head = bytearray()
        self._early = bytearray()  # what came after the answer, before the client's side
        self._drain: asyncio.Task[None] | None = None

    # --- asyncio's callbacks -----------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        client = self.client
        if client is not None:
            client.write(data)
            low, high = client.get_write_buffer_limits()
            if client.get_write_buffer_size() > high and self._drain is None:
                self._drain = asyncio.get_running_loop().create_task(self._wait_drained(low))
            return
        if self.answer.done():
            self._early += data
            return
        self._head += data
        end = self._head.find(b"\r\n\r\n")
        if end < 0:
            if len(self._head) > MAX_HEAD:
                self._fail(HandshakeError("the owner's answer head is too long"))
            return
        try:
            status, headers = _parse_head(bytes(self._head[:end]))
        except (ValueError, UnicodeDecodeError) as error:
            self._fail(HandshakeError(f"the owner's answer is not HTTP: {error}"))
            return
        self._early += self._head[end + 4 :]
        self._head.clear()
        self.answer.set_result((status, headers))

    def eof_received(self) -> bool | None:
        return None  # why: the owner closed; so does this side (connection_lost follows)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.answer.done():
            self.answer.set_exception(exc or ConnectionResetError("the owner closed"))
        if self.client is not None:
            # why a bare close: the owner's close frame, if it sent one, has passed already;
            # if it died, the client sees the connection drop, as from one process that dies
            self.client.close()
        if self._drain is not None:
            self._drain.cancel()
        if not self.ended.done():
            self.ended.set_result(None)

    def pause_writing(self) -> None:
        if self.client is not None:  # why: the owner reads slowly; so the client waits
            self.client.pause_reading()

    def resume_writing(self) -> None:
        if self.client is not None and not self.client.is_closing():
            self.client.resume_reading()

    # --- the rest ------------------------------------------------------------------------

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def attach(self, client: asyncio.Transport) -> None:
        """From now on, pass the owner's bytes to ``client`` (those already here first)."""
        self.client = client
        if self._early:
            early, self._early = bytes(self._early), bytearray()
            self.data_received(early)
        if self.transport is not None:
            self.transport.resume_reading()

    def _fail(self, error: Exception) -> None:
        if not self.answer.done():
            self.answer.set_exception(error)
        self.close()

    async def _wait_drained(self, low: int) -> None:
        """The client does not read: stop reading from the owner until it has read most of
        what it was sent (so its frames wait at the owner, where they are bounded); drop
        both after ten minutes."""
        assert self.transport is not None and self.client is not None
        self.transport.pause_reading()
        try:
            read = await drained(self.client, low)
            if read is None:
                self.client.close()
                self.close()
            elif read and not self.transport.is_closing():
                self.transport.resume_reading()
        finally:
            self._drain = None


def _parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """The status and the headers (names in lower case) of an HTTP answer's head."""
    lines = head.decode("latin-1").split("\r\n")
    version, status, *_reason = lines[0].split(" ", 2)
    if not version.startswith("HTTP/1."):
        raise ValueError(f"status line {lines[0]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"header line {line!r}")
        headers[name.strip().lower()] = value.strip()
    return int(status), headers


async def reach(address: str, headers: Mapping[str, str], timeout: float = 10.0) -> Owner:
    """A WebSocket to ``address`` (``ws://host:port/path``) with its handshake answered and
    nothing read after it: :class:`Refusal` if the owner answers otherwise,
    :class:`HandshakeError`, ``OSError`` or ``TimeoutError`` if it cannot be reached."""
    url = URL(address)
    if url.scheme != "ws" or url.host is None or url.port is None:
        raise HandshakeError(f"not a ws:// address: {address}")
    loop = asyncio.get_running_loop()
    key = base64.b64encode(secrets.token_bytes(16)).decode("ascii")
    lines = [
        f"GET {url.raw_path_qs} HTTP/1.1",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if "Host" not in headers:
        lines.append(f"Host: {url.raw_authority}")
    for name, value in headers.items():
        if "\r" in value or "\n" in value:  # why: a header must not start another one
            raise ValueError(f"header {name} has a line break")
        lines.append(f"{name}: {value}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    _transport, owner = await asyncio.wait_for(
        loop.create_connection(lambda: Owner(loop), url.host, url.port), timeout
    )
    try:
        assert owner.transport is not None
        owner.transport.write(request)
        status, answer = await asyncio.wait_for(owner.answer, timeout)
        if status != 101:
            raise Refusal(status, answer)
        if answer.get("sec-websocket-accept") != accept_key(key):
            raise HandshakeError("the owner's accept key is wrong")
        if answer.get("sec-websocket-extensions"):  # why: its frames must be the client's
            raise HandshakeError("the owner chose an extension nobody offered")
        owner.transport.pause_reading()  # why: nowhere to put its frames until splice()
    except BaseException:
        owner.close()
        raise
    return owner


class _ClientSide:
    """What aiohttp feeds the client's bytes to once the WebSocket is open, in place of its
    own reader: each chunk goes to the owner in one write, as it came."""

    def __init__(self, owner: Owner) -> None:
        self.owner = owner

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        if self.owner.transport is not None:
            self.owner.transport.write(data)
        return False, b""

    def feed_eof(self) -> None:
        self.owner.close()  # the client went: so does its connection to the owner


async def splice(request: web.Request, owner: Owner) -> web.WebSocketResponse:
    """Answer the client's handshake, then pass bytes between it and ``owner`` until either
    side closes; the response, for aiohttp, once it has."""
    # why no heartbeat here: the owner's pings pass through, and the client answers them
    ws = web.WebSocketResponse(heartbeat=None, compress=False)
    protocol: Any = request.protocol
    transport = request.transport
    # why taken first: bytes a client sent before the answer (RFC 6455 says it must wait)
    # would otherwise go to aiohttp's reader, and be lost to the owner
    early: bytes = protocol._message_tail
    protocol._message_tail = b""
    try:
        await ws.prepare(request)
    except ConnectionResetError:
        owner.close()
        return ws
    except BaseException:  # why: a request that is no WebSocket handshake (HTTP 400)
        owner.close()
        raise
    if transport is None or transport.is_closing() or protocol._payload_parser is None:
        owner.close()
        return ws
    # why nothing is lost here: prepare() gives the loop no turn between writing the answer
    # and returning, so no byte of the client's can have reached aiohttp's reader
    protocol._payload_parser = _ClientSide(owner)
    assert isinstance(transport, asyncio.Transport)
    owner.attach(transport)
    if early:
        _ClientSide(owner).feed_data(early)
    try:
        await asyncio.shield(owner.ended)
    finally:
        owner.close()
        transport.close()
        with contextlib.suppress(Exception):  # why: the socket is gone; aiohttp's close says so
            await ws.close()
    return ws
