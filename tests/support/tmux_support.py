"""A program in a tmux window, driven by keys and read through its transcript.

The terminal tests (``fivecrowns join`` in line and keys mode, a terminal player beside a
browser) run the real program in a real terminal; what it prints is kept in a transcript
file (``tee`` or the game's ``--transcript``). Every tmux call and every wait is bounded.
:func:`terminal` runs the installed ``fivecrowns play`` (or another subcommand) on a tmux
server of its own, as a :class:`Terminal`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import termios
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from output_support import require

__all__ = ["Terminal", "TmuxWindow", "kill_tmux", "program", "require_tmux", "terminal"]


def require_tmux() -> None:
    require(shutil.which("tmux") is not None, "tmux is not installed")


def kill_tmux(socket: str) -> None:
    subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)


class TmuxWindow:
    """One tmux window on its own server ``socket``; ``transcript`` is what it printed."""

    def __init__(self, socket: str, name: str, transcript: Path) -> None:
        self.socket, self.name, self.transcript = socket, name, transcript
        self.acted = 0  # "You can:" lines answered so far (play_one)

    @classmethod
    def start(
        cls, socket: str, name: str, command: str, transcript: Path, size: tuple[int, int]
    ) -> TmuxWindow:
        """A new window running ``command``, which writes what it says to ``transcript``
        (through ``tee`` or ``--transcript``), of ``size`` columns and rows."""
        window = cls(socket, name, transcript)
        window.open(command, size)
        return window

    def open(self, command: str, size: tuple[int, int]) -> None:
        width, height = size
        self.tmux(
            "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), command
        )

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def type(self, line: str) -> None:
        """Type ``line`` as it is, then Enter."""
        self.tmux("send-keys", "-t", self.name, "-l", line)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def said(self) -> str:
        return self.transcript.read_text(encoding="utf-8") if self.transcript.exists() else ""

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-S", "-300", "-t", self.name)

    def wait(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.said())
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{self.name} never said {pattern!r}:\n{self.said()[-3000:]}")

    def closed(self) -> bool:
        """True once the window's program has ended (its tmux session goes with it)."""
        found = subprocess.run(
            ["tmux", "-L", self.socket, "has-session", "-t", self.name],
            capture_output=True,
            timeout=10,
        )
        return found.returncode != 0

    def wait_closed(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.closed():
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} never ended:\n{self.said()[-3000:]}")
            time.sleep(0.05)

    def play_one(self) -> bool:
        """Line mode: answer the newest "You can:" line if it is new: draw, else throw the
        first card."""
        lines = [line for line in self.said().splitlines() if line.startswith("You can:")]
        if len(lines) <= self.acted:
            return False
        self.acted = len(lines)
        self.type("d" if lines[-1].startswith("You can: d, draw") else "x 1")
        return True


def program() -> str:
    installed = Path(sys.executable).parent / "fivecrowns"
    if installed.exists():
        return str(installed)
    found = shutil.which("fivecrowns")
    require(found is not None, "the fivecrowns command is not installed (run scripts/setup)")
    assert found is not None
    return found


class Terminal:
    def __init__(self, socket: str, folder: Path, transcript: Path) -> None:
        self.socket = socket
        self.folder = folder
        self.transcript = transcript
        self.ready = False

    def tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return result.stdout

    def raw_mode(self) -> bool:
        """True once the program has put the pane's terminal in raw mode (prompt_toolkit)."""
        tty = self.tmux("display", "-p", "-t", "game", "#{pane_tty}").strip()
        try:
            fd = os.open(tty, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:  # the program has ended and its terminal is gone
            return False
        try:
            iflag, _, _, lflag, *_ = termios.tcgetattr(fd)
        finally:
            os.close(fd)
        return not (lflag & termios.ICANON or iflag & termios.ICRNL)

    def wait_ready(self, timeout: float = 15.0) -> None:
        """Wait until the program reads single keys: the terminal is in raw mode.

        why: the first lines are said before prompt_toolkit makes the terminal raw; a key
        typed before that goes through the cooked terminal, and Enter arrives as Ctrl+J.
        """
        deadline = time.monotonic() + timeout
        while not (self.alive() and self.raw_mode()):
            if not self.alive() or time.monotonic() > deadline:
                raise AssertionError(f"the terminal never went raw; screen:\n{self.screen()}")
            time.sleep(0.05)
        self.ready = True

    def keys(self, *keys: str) -> None:
        if not self.ready:
            self.wait_ready()
        for key in keys:
            self.tmux("send-keys", "-t", "game", key)
            time.sleep(0.15)  # one key at a time, as a person types (Escape must stand alone)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "game")

    def cursor(self) -> tuple[int, int]:
        x, y = self.tmux("display", "-p", "-t", "game", "#{cursor_x} #{cursor_y}").split()
        return int(x), int(y)

    def said(self) -> str:
        return self.transcript.read_text(encoding="utf-8") if self.transcript.exists() else ""

    def wait_said(self, pattern: str, after: int = 0, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.said()[after:]
            if re.search(pattern, text):
                return text
            time.sleep(0.05)
        raise AssertionError(f"never said {pattern!r}; transcript:\n{self.said()}")

    def wait_screen(self, pattern: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if re.search(pattern, text):
                return text
            time.sleep(0.05)
        raise AssertionError(f"never showed {pattern!r}; screen:\n{self.screen()}")

    def pid(self) -> int:
        return int(self.tmux("display", "-p", "-t", "game", "#{pane_pid}"))

    def alive(self) -> bool:
        out = self.tmux("list-panes", "-t", "game", "-F", "#{pane_dead}")
        return out.strip() == "0"

    def wait_exit(self, timeout: float = 10.0) -> None:
        """Wait for the program to end; fail if it is still running after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not self.alive()

    def autosave(self) -> dict[str, object]:
        data: dict[str, object] = json.loads((self.folder / "data" / "autosave.json").read_text())
        return data


@contextmanager
def terminal(
    tmp_path: Path,
    *options: str,
    transcript: str = "said.txt",
    subcommand: str = "play",
    width: int = 100,
    height: int = 40,
    command_path: str | None = None,
) -> Iterator[Terminal]:
    """``fivecrowns SUBCOMMAND --speech none --transcript FILE OPTIONS`` in a new tmux server."""
    require(shutil.which("tmux") is not None, "tmux is not installed")
    socket = f"fivecrowns-test-{uuid.uuid4().hex[:8]}"
    said = tmp_path / transcript
    env = {
        "FIVECROWNS_DATA_DIR": str(tmp_path / "data"),
        "FIVECROWNS_CONFIG_DIR": str(tmp_path / "config"),
        "FIVECROWNS_AUDIO": "null",
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }
    command = ["env", *(f"{k}={v}" for k, v in env.items()), command_path or program(), subcommand]
    command += ["--speech", "none", "--transcript", str(said), *options]
    term = Terminal(socket, tmp_path, said)
    subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "game",
         "-x", str(width), "-y", str(height), shlex.join(command)],
        check=True,
    )  # fmt: skip
    term.tmux("set-option", "-t", "game", "remain-on-exit", "on")
    socket_path = term.tmux("display", "-p", "#{socket_path}").strip()
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        # why: the killed server can leave its socket file behind in /tmp/tmux-UID.
        Path(socket_path).unlink(missing_ok=True)
