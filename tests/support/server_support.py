"""A real `fivecrowns serve` process on loopback and real WebSocket clients, for the server tests.

Every wait here is bounded in time; every loop in count.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from fivecrowns import i18n
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard, going_out_discards
from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.net.server.app import Server, make_app
from fivecrowns.table import Table

if TYPE_CHECKING:
    from fivecrowns.ui.session import Session

LOOPBACK = "127.0.0.1"
TABLE_EVENTS = {
    "seat_taken",
    "seat_left",
    "bot_added",
    "bot_removed",
    "stand_in",
    "hand_back",
    "dropped",
    "chat",
    "game_started",
}


class ServerProcess:
    """``fivecrowns serve --port 0`` in its own process; ``url`` once it listens. With
    ``files``, the process may open that many files at most (its soft and hard limit)."""

    def __init__(
        self, data: Path | None, *extra: str, port: int = 0, files: int | None = None
    ) -> None:
        self.data = data
        self.port = port
        self.extra = extra
        self.files = files
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.stderr_text: str | None = None  # what it wrote, once stopped

    def start(self, timeout: float = 30.0) -> ServerProcess:
        self.stderr_text = None
        where = ["--data", str(self.data)] if self.data is not None else ["--memory"]
        command = [
            sys.executable,
            "-m",
            "fivecrowns",
            "serve",
            "--host",
            LOOPBACK,
            "--port",
            str(self.port),
        ]
        self.proc = subprocess.Popen(
            [*command, *where, *self.extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=None if self.files is None else self._limit_files,
        )
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if line or self.proc.poll() is not None:
                break
        found = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
        if found is None:
            self.stop()
            raise AssertionError(f"the server did not start: {line!r}")
        self.url = f"ws://{LOOPBACK}:{found.group(1)}/ws"
        return self

    def _limit_files(self) -> None:
        import resource

        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> str:
        """Stops the server; returns what it wrote to stderr (a traceback would be there),
        the same again when it was stopped already."""
        if self.proc is None:
            return ""
        if self.stderr_text is not None:
            return self.stderr_text
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        assert self.proc.stderr is not None
        self.stderr_text = self.proc.stderr.read()
        return self.stderr_text

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


#: A fixture's way to start a server of a test's own (tests/web/conftest.py's ``serve``):
#: extra options, then ``data=`` (its folder, ``None``: in memory) and ``port=``.
Serve = Callable[..., ServerProcess]


def run_against(
    server: ServerProcess,
    scenario: Callable[[], Coroutine[Any, Any, None]],
    closing: Iterable[Any] = (),
) -> str:
    """Run ``scenario`` against ``server``; then, whatever happened, close each of ``closing``
    (raw sockets, raw clients) and stop the server. A traceback in the server's log fails the
    test; the log is returned for further checks."""
    try:
        asyncio.run(scenario())
    finally:
        for thing in closing:
            with contextlib.suppress(OSError):
                thing.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors
    return errors


class Client:
    """One player's or spectator's connection; keeps every frame it received, as text."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[str] = []
        self.token: str | None = None
        self.seq = 0
        self.snapshot: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.table: str | None = None
        self.code: str | None = None
        self.waiting = False  # sent a move and heard no game event or error since

    async def connect(self, url: str, hello: bool = True) -> Client:
        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=5))
        if hello:
            await self.say_hello()
        return self

    async def say_hello(self) -> None:
        """Hello (with the token and last seq, once it has them), then wait for the welcome."""
        message: dict[str, Any] = {"type": "hello", "v": 1, "name": self.name}
        if self.token:
            message["token"] = self.token
            message["last_seq"] = self.seq
        await self.send(message)
        await self.until(lambda m: m["type"] == "welcome")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        assert self.ws is not None
        # why wait_for: aiohttp's receive(timeout) starts its timeout afresh after each ping it
        # answers, so with the server's 20 s heartbeat a wait for a missing frame never ends
        message = await asyncio.wait_for(self.ws.receive(), timeout)
        if message.type is not aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"{self.name}: connection ended ({message.type})")
        self.frames.append(message.data)
        data: dict[str, Any] = json.loads(message.data)
        kind = data["type"]
        if kind == "welcome":
            self.token = data["token"]
        elif kind == "event":
            assert data["seq"] == self.seq + 1, (self.name, data["seq"], self.seq)
            self.seq = data["seq"]
            self.events.append(data)
            if data["kind"] not in TABLE_EVENTS:
                self.waiting = False
        elif kind == "snapshot":
            self.snapshot = data
            self.seq = data["seq"]
        elif kind == "error":
            self.errors.append(data)
            self.waiting = False
            if data["code"] != "rate_limited":
                self.snapshot = None  # why: never play the same refused move again
        elif kind == "seated":
            self.seat, self.table, self.code = data["seat"], data["table"], data["code"]
        return data

    async def until(self, test: Any, timeout: float = 20.0, limit: int = 20_000) -> dict[str, Any]:
        """Read frames until one passes ``test``; returns it."""
        deadline = time.monotonic() + timeout
        for _ in range(limit):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            data = await self.recv(timeout=left)
            if test(data):
                return data
        raise TimeoutError(f"{self.name}: nothing expected came in {timeout} s")

    def my_turn(self) -> bool:
        snap = self.snapshot
        return bool(snap and snap["legal"] and snap["seq"] == self.seq and not self.waiting)

    def choose(self) -> dict[str, Any]:
        """A plain player: go out when it can, lay down the best, else draw or discard the first."""
        assert self.snapshot is not None
        legal = self.snapshot["legal"]
        for wanted in ("go_out", "lay_down", "draw_stock", "discard"):
            for move in legal:
                if move["move"] == wanted and (wanted != "lay_down" or move["melds"] is None):
                    return dict(move)
        return dict(legal[0])

    async def act(self, move: dict[str, Any]) -> None:
        args = {key: value for key, value in move.items() if key != "move"}
        if "discard" in args:
            args = {"card": args["discard"]}
        await self.send({"type": "act", "action": move["move"], "args": args, "seq": self.seq})
        self.waiting = True

    def game_over(self) -> bool:
        return any(event["kind"] == "game_over" for event in self.events)


async def play_until(clients: list[Client], stop: Any, timeout: float = 180.0) -> None:
    """Each client plays its turns until ``stop()`` is true for all of them (bounded in time)."""

    async def run(client: Client) -> None:
        deadline = time.monotonic() + timeout
        for _ in range(200_000):
            if stop(client):
                return
            if client.my_turn():
                if client.errors and client.errors[-1]["code"] == "rate_limited":
                    await asyncio.sleep(0.2)
                    client.errors.clear()
                await client.act(client.choose())
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{client.name}: did not finish in {timeout} s")
            try:
                await client.recv(timeout=min(left, 0.5))
            except TimeoutError:  # why: stop() may have become true through another client
                continue

    await asyncio.gather(*(run(client) for client in clients))


async def killed_and_restarted(start: Callable[[int], ServerProcess]) -> None:
    """The kill -9 scenario, for any store: ``start(0)`` serves Ann, Ben and two computer
    players until 120 events, then dies by SIGKILL; ``start(1)`` (the same tables) takes them
    back by their tokens and last seqs; every event each had heard is still in the table's
    log, the same, and the game plays to its end with no error and no traceback."""
    first = start(0).start()
    try:
        ann, ben = Client("Ann"), Client("Ben")
        await ann.connect(first.url)
        await ben.connect(first.url)
        await ann.send({"type": "create_table", "seats": 4, "bots": ["easy", "simple"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ben.send({"type": "join", "table": ann.table})
        await ben.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann, ben], lambda c: c.seq >= 120)
        seen = {client.name: list(client.events) for client in (ann, ben)}
        first.kill9()
    finally:
        first.stop()
    for client in (ann, ben):
        await client.close()
    second = start(1).start()
    try:
        again = []
        for old in (ann, ben):
            client = Client(old.name)
            client.token, client.seq = old.token, old.seq
            await client.connect(second.url)
            await client.until(lambda m: m["type"] == "snapshot")
            again.append(client)
        # the bots may still be finishing their turns (they think in a worker thread): wait
        # until a human is to play and both have heard everything, so no event is in flight
        await play_until(again, lambda c: any(o.my_turn() for o in again), 60)
        newest = max(client.seq for client in again)
        await play_until(again, lambda c: c.seq == newest, 30)
        # why a barrier: the snapshot after the last change may still be unread; the server
        # answers in order, so once the answer is read nothing sent before it is left
        for client in again:
            await client.send({"type": "ask", "what": "round"})
            await client.until(lambda m: m["type"] == "answer")
        for client in again:
            await client.send({"type": "resume", "last_seq": 0})
        for client, old in zip(again, (ann, ben), strict=True):
            client.seq, client.events = 0, []
            await client.until(lambda m, c=client: m["type"] == "snapshot" and c.events != [])
            heard = seen[old.name]
            start_seq = heard[0]["seq"]
            assert client.events[start_seq - 1 : start_seq - 1 + len(heard)] == heard
        await play_until(again, lambda c: c.game_over())
        for client in again:
            assert client.errors == []
            await client.close()
    finally:
        errors = second.stop()
    assert "Traceback" not in errors, errors


class RecordingLink(WebSocketLink):
    """A client's link, keeping every message the server sent it (for the leak checks)."""

    def __init__(self, url: str, name: str) -> None:
        super().__init__(url, name)
        self.received: list[dict[str, Any]] = []

    def receive(self, data: dict[str, Any]) -> None:
        self.received.append(data)
        super().receive(data)


def no_leaks(seat: int | None, received: list[dict[str, Any]]) -> None:
    """No message a seat (``None``: a spectator) received holds another seat's stock draw,
    its kept cards in a last turn, the stock or a seed; a snapshot holds only its own hand."""
    for message in received:
        if message.get("type") == "event":
            data = message["data"]
            if message["kind"] == "drew_from_stock" and data["player"] != seat:
                assert data["card"] is None, message
            if message["kind"] == "laid_down" and data["player"] != seat:
                assert data["leftover"] is None, message
            assert "seed" not in data and "stock" not in data
        if message.get("type") == "snapshot" and message.get("view"):
            view = message["view"]
            assert message["seat"] == seat
            if seat is None:
                assert "hand" not in view, message
            else:
                assert len(view["hand"]) == view["hand_counts"][seat]
            assert "stock" not in view and "seed" not in view


Handler = Callable[[web.Request], Awaitable[web.WebSocketResponse]]


@contextlib.contextmanager
def fake_server(handler: Handler, timeout: float = 30.0) -> Iterator[str]:
    """A small WebSocket server on loopback that answers with ``handler`` (a test writes
    what it sends, malformed frames too); yields its ``ws://`` address. It runs in a thread
    of its own and stops at the end of the ``with``, or after ``timeout`` seconds."""
    started = threading.Event()
    port: list[int] = []
    stop: list[asyncio.Event] = []

    async def serve() -> None:
        app = web.Application()
        app.router.add_get("/ws", handler)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, 0)
        await site.start()
        port.append(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        stop.append(asyncio.Event())
        started.set()
        try:
            await asyncio.wait_for(stop[0].wait(), timeout)
        finally:
            await runner.cleanup()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    try:
        assert started.wait(10), "the small server did not start"
        yield f"ws://{LOOPBACK}:{port[0]}/ws"
    finally:
        if stop:
            loop.call_soon_threadsafe(stop[0].set)
        thread.join(10)


def replayed(data: Path, table_id: str) -> Table:
    """The table as the server stored it, rebuilt from its inputs: the ground truth."""
    with sqlite3.connect(data / "tables.sqlite3") as db:
        seats, creator_id, creator_name = db.execute(
            "SELECT seats, creator_id, creator_name FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        inputs = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT command FROM inputs WHERE table_id = ? ORDER BY idx", (table_id,)
            )
        ]
    return Table.replay(seats, creator_name, creator_id, inputs)


def frame_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from frame_keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from frame_keys(inner)


def snapshots_by_seq(truth: Table, viewer: int | None) -> dict[int, dict[str, Any]]:
    """{seq: the snapshot ``viewer`` may have at that event number} for every number the
    log reached, the table rebuilt from ``truth``'s inputs one at a time (the last input
    that reached a number decides: one server change can hold several inputs)."""
    table = Table.replay(len(truth.seats), truth.inputs[0]["name"], truth.creator_id, [])
    found = {table.seq: table.snapshot(viewer)}
    for command in truth.inputs[1:]:
        table.apply_input(command)
        found[table.seq] = table.snapshot(viewer)
    return found


def changes_in_game(truth: Table) -> list[int]:
    """The event number after each input that changed the log once the game had started:
    each is a moment the server sent out, which every seat and spectator must be shown."""
    table = Table.replay(len(truth.seats), truth.inputs[0]["name"], truth.creator_id, [])
    moments = []
    for command in truth.inputs[1:]:
        before = table.seq
        table.apply_input(command)
        if table.seq != before and table.game is not None:
            moments.append(table.seq)
    return moments


#: The keys each friends frame may hold at any depth (docs/protocol.md "Friends").
_LINE_KEYS = {"message", "messages", "sender", "text", "sent", "said"}
FRIEND_FRAMES: dict[str, set[str]] = {
    "presence": {"type", "name", "presence", "text"},
    "friend": {"type", "what", "name", "text"},
    "friends": {"type", "friends", "name", "presence", "asking", "asked", "blocked", "text"},
    "private_message": {"type"} | _LINE_KEYS,
    "inbox": {"type"} | _LINE_KEYS,
}


def check_frames(frames: list[str], truth: Table, viewer: int | None, language: str = "en") -> None:
    """Every frame one connection received is what ``viewer`` may know, and nothing more:
    each event is what the table words for ``viewer`` in ``language``, and each snapshot is
    exactly ``viewer``'s snapshot at its event number (its own hand only, a spectator none)."""
    game = truth.game
    assert game is not None and game.seed is not None
    seed = str(game.seed)
    with i18n.speaking(language):
        expected = {frame["seq"]: frame for frame in truth.frames_since(0, viewer)}
    snapshots = snapshots_by_seq(truth, viewer)
    for raw in frames:
        assert seed not in raw
        frame = json.loads(raw)
        keys = set(frame_keys(frame))
        assert not keys & {"seed", "stock", "hands", "deck", "rng", "token_hash"}, keys
        if frame["type"] == "event":
            assert frame == {"type": "event", **expected[frame["seq"]]}
            data = frame["data"]
            if frame["kind"] == "drew_from_stock" and data["player"] != viewer:
                assert data["card"] is None
                assert language != "en" or "drew from the stock" in frame["text"]
            if frame["kind"] == "laid_down" and data["player"] != viewer:
                assert data["leftover"] is None
        elif frame["type"] in FRIEND_FRAMES:
            # a friend's presence, news or message says where they are in one word, who, and
            # what was written: no table, seat or card (issue 28 item 4)
            assert keys <= FRIEND_FRAMES[frame["type"]], (frame["type"], keys)
            if frame["type"] == "presence":
                assert frame["presence"] in ("playing", "watching", "lobby", "away", "offline")
        elif frame["type"] in RECORD_FRAMES:
            records_hold_no_cards(frame, truth)
        elif frame["type"] == "snapshot":
            if frame["view"] is not None:
                assert ("hand" in frame["view"]) == (viewer is not None)
            assert frame["seat"] == viewer
            assert frame["legal"] == [] or viewer is not None
            # why apart: who is watching is the server's, not the table's; names only
            watchers = frame.pop("watchers")
            assert all(isinstance(name, str) for name in watchers), watchers
            del frame["type"], frame["table"]
            assert frame == snapshots[frame["seq"]], frame["seq"]


#: The frames of ratings and records (issue 28), and every field they may hold: names,
#: numbers and sentences, never a card, a hand or a seat's anything else.
RECORD_FRAMES = {"record", "leaderboard", "rating", "games", "game"}
RECORD_KEYS = {
    "type", "name", "rating", "place", "of", "played", "won", "text", "change", "page",
    "pages", "rows", "lines", "games", "id", "date", "players", "totals", "rounds",
}  # fmt: skip


def records_hold_no_cards(frame: dict[str, Any], truth: Table) -> None:
    """A record, leaderboard or rating frame holds only its own fields, and no string in it
    names a card of the game (the game's cards as tokens, and as the words that say them)."""
    from fivecrowns.core.cards import JOKER, new_deck, spoken_name

    keys = set(frame_keys(frame))
    assert keys <= RECORD_KEYS, keys - RECORD_KEYS
    cards = [*new_deck(1), JOKER]
    tokens = {card.token for card in cards}
    spoken = {spoken_name(card) for card in cards}
    for value in frame_strings(frame):
        assert value not in tokens, value
        assert not any(name in value for name in spoken), value


def frame_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from frame_strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from frame_strings(inner)


def check_no_leak(client: Client, truth: Table, viewer: int | None, language: str = "en") -> None:
    """Everything ``client`` received is what ``viewer`` may know, and nothing more
    (:func:`check_frames`); the game had stock draws to check."""
    check_frames(client.frames, truth, viewer, language)
    drawn = [f for f in client.events if f["kind"] == "drew_from_stock"]
    assert drawn, "the game had stock draws to check"


async def wait_until(test: Callable[[], bool], timeout: float) -> None:
    """Wait (on the event loop) until ``test()`` is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never came true")
        await asyncio.sleep(0.01)


#: A server that answers at once: no pause before a computer player's move, a high rate limit.
FAST = ("--bot-delay", "0", "--rate", "1000")


async def wait_until_connected(client: Client, url: str, attempts: int = 50) -> Client:
    """Connect ``client``, trying again every 0.1 s while the server (or a spare in front of
    its owner) has not yet heard of a close: ``attempts`` tries at most."""
    for _ in range(attempts):
        try:
            await client.connect(url)
            return client
        except aiohttp.WSServerHandshakeError:
            if client.session is not None:
                await client.session.close()
            await asyncio.sleep(0.1)
    raise TimeoutError("never connected")


def solver_turn(session: Session) -> None:
    """One step of a turn with the keys a player would press (the solver chooses); a network
    session has no pause between rounds (the server deals at once)."""
    client = session.client
    wild = client.wild_rank
    hand = session.hand()
    if client.phase in (Phase.DRAW, Phase.LAST_DRAW):
        top = client.top_discard
        now = best_arrangement(hand, wild).leftover_points
        take = top is not None and best_with_discard([*hand, top], wild).leftover_points < now
        session.press("t" if take else "d")
        return
    if client.phase is Phase.DISCARD and going_out_discards(hand, wild):
        session.press("g")
        return
    best = best_with_discard(hand, wild)
    assert best.discard is not None
    session.press("home")
    for _ in range(hand.index(best.discard)):
        session.press("right")
    session.press("c-m")


class RawClient:
    """A WebSocket client on a plain socket that reads nothing after the handshake (a rude
    client); it sends masked text frames as RFC 6455 asks of a client."""

    def __init__(self, url: str, receive_buffer: int = 4096) -> None:
        found = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        assert found is not None, url
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # why small: what the kernel holds for a client that does not read is not the server's
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10.0)
        self.sock.connect((found.group(1), int(found.group(2))))
        self.host, self.path = f"{found.group(1)}:{found.group(2)}", found.group(3)

    def upgrade(self) -> bytes:
        """Send the HTTP upgrade and read its answer (the only read); returns the answer."""
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        answer = b""
        for _ in range(100):
            if b"\r\n\r\n" in answer:
                break
            chunk = self.sock.recv(1)  # why one byte: nothing after the answer is read
            if not chunk:
                break
            answer += chunk
        return answer

    def send(self, message: dict[str, Any]) -> None:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            header = bytes([0x81, 0x80 | size])
        else:
            header = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def server_memory(process: ServerProcess) -> int:
    """The server process's resident memory in bytes (Linux's /proc)."""
    assert process.proc is not None
    status = Path(f"/proc/{process.proc.pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None
    return int(found.group(1)) * 1024


def server_sockets(process: ServerProcess) -> int:
    """How many sockets the server process has open (Linux's /proc)."""
    assert process.proc is not None
    count = 0
    for link in Path(f"/proc/{process.proc.pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(link).startswith("socket:")
    return count


def private_table(url: str) -> tuple[Client, str, asyncio.AbstractEventLoop]:
    """Ann's private table of 3 seats (her connection stays open on the returned loop) and its
    invite code, as the server gives it."""

    async def create() -> Client:
        ann = Client("Ann")
        await ann.connect(url)
        await ann.send({"type": "create_table", "seats": 3, "private": True})
        await ann.until(lambda m: m["type"] == "snapshot")
        return ann

    loop = asyncio.new_event_loop()
    ann = loop.run_until_complete(create())
    assert ann.code is not None and ann.table is not None
    return ann, ann.code, loop


@contextlib.asynccontextmanager
async def running_in_process(server: Server) -> AsyncIterator[str]:
    """``server`` on a free loopback port in this process; yields its WebSocket address (for
    tests that must reach inside the server while it runs)."""
    runner = web.AppRunner(make_app(server), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, LOOPBACK, 0).start()
        yield f"ws://{LOOPBACK}:{runner.addresses[0][1]}/ws"
    finally:
        await runner.cleanup()
