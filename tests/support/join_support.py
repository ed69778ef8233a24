"""The join tests' helpers: a free port, a real ``fivecrowns join`` process, a ``join --keys``
player, and the ways a player starts a game and plays it on.

:class:`TypedClient` is the line client in its own process (lines typed in, lines read out);
:class:`Player` is a ``join --keys`` controller over a real link, its speech recorded. Every wait
is bounded.
"""

from __future__ import annotations

import queue
import re
import socket
import subprocess
import sys
import threading
import time

from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.join_keys import NetworkPlay
from fivecrowns.ui.session import Session
from fivecrowns.ui.settings import Settings


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class TypedClient:
    """`fivecrowns join` in its own process: lines typed in, lines read out (bounded waits)."""

    def __init__(self, url: str, name: str, *options: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fivecrowns", "join", url, "--name", name, *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.transcript: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def next_line(self, timeout: float) -> str | None:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        self.transcript.append(line)
        return line

    def until(self, test: object, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.next_line(0.2)
            if line is not None and test(line):  # type: ignore[operator]
                return line
        raise AssertionError(f"not seen in {timeout} s; last lines: {self.transcript[-8:]}")


class Player:
    """One ``join --keys`` controller over a real link, its speech recorded."""

    def __init__(
        self,
        url: str,
        name: str,
        link: WebSocketLink | None = None,
        *,
        first: list[dict[str, object]] | None = None,
        fallback_watch: str | None = None,
    ) -> None:
        self.link = link or WebSocketLink(url, name)
        self.link.connect(first)
        self.backend = RecordingBackend()
        # why only when given: the other tests run as they did on a client without it
        extra = {} if fallback_watch is None else {"fallback_watch": fallback_watch}
        self.play = NetworkPlay(self.link, Output(self.backend), Settings(delay=0.0), **extra)
        self.play.start()

    def said(self) -> str:
        return "\n".join(self.backend.spoken)

    def wait(self, pattern: str, timeout: float = 20.0, after: int = 0) -> re.Match[str]:
        """Take the news until ``pattern`` is said (after the first ``after`` sentences)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.play.news()
            found = re.search(pattern, "\n".join(self.backend.spoken[after:]))
            if found:
                return found
            self.link.wait_for(lambda: False, 0.02)
        raise AssertionError(f"{self.link.name} never said {pattern!r}:\n{self.said()[-3000:]}")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.play.press(key)

    def said_since(self, mark: int) -> str:
        return "\n".join(self.backend.spoken[mark:])

    def mark(self) -> int:
        return len(self.backend.spoken)

    def close(self) -> None:
        self.link.close()


def _play_a_turn(*players: Player) -> None:
    """Whoever has the turn draws and discards their first card (D, Home, Enter)."""
    for _ in range(500):
        for player in players:
            player.play.news()
            game = player.play.game
            assert game is not None
            if game.client.current_player == game.at_keyboard and not game.client.is_over:
                player.keys("d", "home", "c-m")
                return
        time.sleep(0.01)


def start_with_an_easy_computer(player: Player) -> Session:
    """From the lobby: ``player`` makes a table of 2 seats with 1 easy computer player and
    starts it; returns the game's session."""
    player.wait(r"No open tables")
    player.keys("c", "home", "c-m", "down", "c-m", "up", "c-m", "c-m")  # 2 seats, 1 easy
    player.wait(r"You sit in seat 1 at table")
    player.keys("s")
    player.wait(r"New game: ")
    game = player.play.game
    assert game is not None
    return game


def play_to_round_2(ann: Player) -> Session:
    """From the lobby: Ann makes a table of 2 seats with 1 easy computer player, starts it,
    and plays by keys until round 2 is dealt; returns her game's session."""
    game = start_with_an_easy_computer(ann)
    ann.wait(r"New game: Ann and .+ \(easy\)\.")
    deadline = time.monotonic() + 120
    while game.client.round < 2:
        assert time.monotonic() < deadline, "round 2 did not come"
        _play_a_turn(ann)
    return game
