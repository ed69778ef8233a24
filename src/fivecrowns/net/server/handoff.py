"""A spare ``fivecrowns serve --bus`` process gives each accepted connection itself to the
owner of the tables when both run on one machine: the socket's file descriptor goes over a
Unix socket (SCM_RIGHTS), the owner serves it as if it had accepted it, and the spare closes
its copy (issue 29: passing bytes on, splice.py, cost the spare CPU at every move; a socket
handed off costs it nothing after the handoff, and the owner sees the client's own address).

When: as soon as the spare accepts the connection, before it reads a byte, so nothing needs
replaying and the owner answers everything on it (the web page, the WebSocket handshake, the
Origin check, "full", the limits per address). The spare keeps a connection itself only when
it cannot hand it off: nobody holds the lease (it then waits for an owner, or says the server
is changing over, as before), the owner is on another machine (it then passes bytes on,
splice.py), or the owner does not take it.

"One machine" is told by the kernel's boot id (the same on both) and the owner's socket file
existing; the owner writes both in the lease (:class:`Offer`). Security: the socket is in a
folder only the server's user can open (0700), and the owner takes descriptors only from a
peer running as its own user (SO_PEERCRED). ``FIVECROWNS_HANDOFF=0`` turns handing off off
(the spare then passes bytes on as across machines).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import shutil
import socket
import struct
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

__all__ = [
    "BOOT_ID",
    "HANDOFF_VARIABLE",
    "Handing",
    "HandingSite",
    "Offer",
    "Receiver",
    "boot_id",
    "enabled",
    "hand_off",
    "sweep",
]

log = logging.getLogger(__name__)

BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
HANDOFF_VARIABLE = "FIVECROWNS_HANDOFF"
TAKEN, NOT_TAKEN = b"\x01", b"\x00"  # the owner's answer to a handoff
ANSWER_WAIT = 5.0  # seconds a spare waits for the owner's answer before dropping the client
RECEIVE_WAIT = 5.0  # seconds the owner waits for a spare's descriptor after it connects
BACKLOG = 1024  # why: a spare may hand over hundreds at once (a crowd reconnecting)
_CRED = struct.Struct("3i")  # struct ucred: pid, uid, gid
PREFIX, SOCKET_NAME = "fivecrowns-", "handoff.sock"
SWEEP_MOST = 1000  # folders looked at, at most, when a process starts
SWEEP_AGE = 60.0  # seconds: a younger socket is never swept (its owner may be starting)
WARN_EVERY = 60.0  # seconds between two warnings that handoffs cannot be taken


def enabled() -> bool:
    """Whether handing off is on (``FIVECROWNS_HANDOFF=0`` turns it off)."""
    return os.environ.get(HANDOFF_VARIABLE, "1") != "0"


@functools.cache  # why: it changes only with a reboot, and is asked at every connection
def boot_id() -> str | None:
    """This machine's boot id (Linux), the same for every process until the next boot; None
    where there is none (then nothing is handed off)."""
    try:
        text = BOOT_ID.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if text and " " not in text and ":" not in text else None


@dataclass(frozen=True, slots=True)
class Offer:
    """Where an owner takes handed-off sockets: its machine's boot id and its socket's path,
    written in the lease as ``BOOT:PATH``."""

    boot: str
    path: str

    def __str__(self) -> str:
        return f"{self.boot}:{self.path}"

    @classmethod
    def parse(cls, text: str) -> Offer | None:
        boot, colon, path = text.partition(":")
        if not colon or not boot or not path.startswith("/"):
            return None
        return cls(boot, path)

    def here(self) -> bool:
        """Whether the owner is on this machine (same boot, its socket file here)."""
        return self.boot == boot_id() and Path(self.path).is_socket()


def _peer_uid(unix: socket.socket) -> int:
    """The user the process at the other end of the Unix socket ``unix`` runs as."""
    _pid, uid, _gid = _CRED.unpack(
        unix.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CRED.size)
    )
    return int(uid)


async def hand_off(transport: asyncio.Transport, offer: Offer) -> bool:
    """Give ``transport``'s socket to the owner at ``offer``: True if it took it (the caller
    then closes its copy, which leaves the connection open); False if it did not, or could
    not be reached (the caller serves the connection itself). ``TimeoutError`` if its
    answer did not come in time: it may have taken the socket, so the caller drops it."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return False
    loop = asyncio.get_running_loop()
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.setblocking(False)
    try:
        try:
            await asyncio.wait_for(loop.sock_connect(unix, offer.path), ANSWER_WAIT)
            # why: whoever can write the lease names the path; a player's socket goes only to
            # a process of this server's own user
            if _peer_uid(unix) != os.getuid():
                log.warning("Did not hand a connection to %s: another user's socket", offer.path)
                return False
            # why one byte with it: a descriptor travels with data, never alone
            socket.send_fds(unix, [TAKEN], [sock.fileno()])
        except (OSError, TimeoutError):
            return False  # nothing was sent: the owner died, or is on its way out
        try:
            answer = await asyncio.wait_for(loop.sock_recv(unix, 1), ANSWER_WAIT)
        except OSError:
            # why not taken: a reset means the owner closed with the descriptor unread
            return False
        # why nothing (b"") counts as not taken: the owner then closed without answering,
        # refusing it, or died, its copy with it; only its silence (a timeout) is unknown
        return answer == TAKEN
    finally:
        unix.close()


class Receiver:
    """The owner's side: a Unix socket in a folder of its own (0700) where spares hand over
    accepted sockets; each one from a peer of this user is given to ``adopt`` (which says
    whether it took it)."""

    def __init__(self, adopt: Callable[[socket.socket], Awaitable[bool]]) -> None:
        self.adopt = adopt
        self.folder: Path | None = None
        self._listener: socket.socket | None = None
        self._task: asyncio.Task[None] | None = None
        self._serving: set[asyncio.Task[None]] = set()

    @property
    def offer(self) -> Offer | None:
        boot = boot_id()
        if boot is None or self.folder is None:
            return None
        return Offer(boot, str(self.folder / SOCKET_NAME))

    def start(self) -> Offer | None:
        """Listen; the offer to write in the lease, or None if this machine cannot (then
        the spares pass bytes on to this process, as across machines)."""
        if boot_id() is None or not hasattr(socket, "SO_PEERCRED"):
            return None
        # why these: short (a socket's path has at most 107 bytes), the user's own, and
        # systemd's RuntimeDirectory= is seen by another service where a PrivateTmp is not
        # (several RuntimeDirectory= make a list joined by colons: the first is taken)
        runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
        base = runtime or os.environ.get("XDG_RUNTIME_DIR") or None
        sweep(Path(base or tempfile.gettempdir()))
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            # why mkdtemp: it makes the folder 0700, so no other user can reach the socket
            self.folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))
            offer = self.offer
            assert offer is not None
            listener.bind(offer.path)
            listener.listen(BACKLOG)
            listener.setblocking(False)
        except OSError as error:  # why not fatal: bytes passed on still serve every player
            log.warning("Connections will not be handed to this process: %s", error)
            listener.close()
            self.stop()
            return None
        self._listener = listener
        self._task = asyncio.create_task(self._accept())
        return offer

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for task in list(self._serving):
            task.cancel()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._listener is not None
        failed, warned = 0, float("-inf")
        for _peer in range(10**12):  # why bounded: every loop is; this one by a count
            try:
                peer, _address = await loop.sock_accept(self._listener)
            except OSError as error:  # why: out of files a moment; the next try may work
                failed += 1
                # why once a minute: out of files, this fails every 0.1 s, and a line each
                # time would fill the log while changing nothing
                if time.monotonic() - warned >= WARN_EVERY:
                    log.warning("Could not take a handoff (%d times): %s", failed, error)
                    failed, warned = 0, time.monotonic()
                await asyncio.sleep(0.1)
                continue
            if failed:  # why: failures held back since the last warning are told, once
                log.warning("Could not take %d handoff(s) before this one", failed)
                failed = 0
            task = asyncio.create_task(self._serve(peer))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

    async def _serve(self, peer: socket.socket) -> None:
        with peer:
            try:
                uid = _peer_uid(peer)
                if uid != os.getuid():
                    log.warning("Refused a handoff from a process of user %d", uid)
                    return
                await asyncio.wait_for(_readable(peer), RECEIVE_WAIT)
                _data, fds, _flags, _address = socket.recv_fds(peer, 1, 1, socket.MSG_CMSG_CLOEXEC)
            except (OSError, TimeoutError) as error:  # why: the spare went meanwhile
                log.info("A handoff did not come: %s", error)
                return
            if not fds:
                return
            client = socket.socket(fileno=fds[0])
            # why checked: only a TCP connection is served; anything else is closed
            if client.type != socket.SOCK_STREAM or client.family not in (
                socket.AF_INET,
                socket.AF_INET6,
            ):
                client.close()
                taken = False
            else:
                taken = await self.adopt(client)
            with contextlib.suppress(OSError):
                peer.send(TAKEN if taken else NOT_TAKEN)


def sweep(base: Path) -> int:
    """Remove the handoff folders in ``base`` that a process of this user left behind when it
    died (``kill -9`` leaves its folder and socket file): those whose socket refuses a
    connection and is over a minute old. A live owner's socket answers, and a folder without
    a socket or with a new one may be one being made, so those stay. How many were removed."""
    removed = 0
    try:
        folders = sorted(base.glob(f"{PREFIX}*"))[:SWEEP_MOST]
    except OSError:
        return 0
    for folder in folders:
        path = folder / SOCKET_NAME
        try:
            if folder.is_symlink() or folder.stat().st_uid != os.getuid() or not path.is_socket():
                continue
            # why an age: a process starting now binds its socket a moment before it listens,
            # and in that moment its socket refuses too
            if time.time() - path.stat().st_mtime < SWEEP_AGE:
                continue
        except OSError:
            continue
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.setblocking(False)  # why: a live owner with a full backlog must not hold us
        try:
            probe.connect(str(path))
        except ConnectionRefusedError:  # why only this: nobody listens there any more
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
        except OSError:
            pass  # a full backlog (alive) or anything unsure: left alone
        finally:
            probe.close()
    if removed:
        log.info("Removed %d handoff folder(s) left by processes that died", removed)
    return removed


async def _readable(sock: socket.socket) -> None:
    """Wait until ``sock`` has something to read (or is closed)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(sock.fileno(), wake)
    try:
        await ready
    finally:
        loop.remove_reader(sock.fileno())


class Handing(asyncio.Protocol):
    """What a spare's public port makes of each accepted connection first: it asks
    ``decide`` (a coroutine: hand it off, or serve it) before reading a byte; a connection
    served here is given to aiohttp's protocol ``serve()`` from then on."""

    def __init__(
        self,
        serve: Callable[[], asyncio.BaseProtocol],
        handing: Callable[[asyncio.Transport], asyncio.Future[bool] | None],
    ) -> None:
        self.serve = serve
        self.handing = handing
        self.transport: asyncio.Transport | None = None
        self.early = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        pending = self.handing(transport)
        if pending is None:
            self._serve_here()
            return
        transport.pause_reading()  # why: a byte read here could not go with the socket
        pending.add_done_callback(self._handed)

    def _handed(self, pending: asyncio.Future[bool]) -> None:
        transport = self.transport
        assert transport is not None
        if pending.cancelled() or pending.exception() is not None:
            if not pending.cancelled():
                log.warning("A connection was dropped: %s", pending.exception())
            transport.abort()  # why: the owner may hold it; two servers must never share it
            return
        if pending.result():
            transport.close()  # why close, not abort: the owner's copy stays open
            return
        if not transport.is_closing():
            self._serve_here()

    def _serve_here(self) -> None:
        transport = self.transport
        assert transport is not None
        protocol = self.serve()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        if self.early:
            assert isinstance(protocol, asyncio.Protocol)
            protocol.data_received(bytes(self.early))
            self.early.clear()
        if not transport.is_reading():
            transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        self.early += data  # why: only if the loop read before the pause; kept for aiohttp

    def eof_received(self) -> bool | None:
        return True  # why: keep it open; aiohttp or the owner will hear the client's end

    def connection_lost(self, exc: Exception | None) -> None:
        pass


class HandingSite(web.TCPSite):
    """aiohttp's TCP site whose connections are each made by ``factory`` (a :class:`Handing`)
    instead of by the runner's server directly."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        factory: Callable[[], asyncio.BaseProtocol],
        backlog: int,
    ) -> None:
        super().__init__(runner, host, port, backlog=backlog, reuse_port=True)
        self.factory = factory

    async def start(self) -> None:
        self._runner._reg_site(self)  # what BaseSite.start does
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self.factory, self._host, self._port, backlog=self._backlog, reuse_port=True
        )
        self._bound_port = self._server.sockets[0].getsockname()[1]
