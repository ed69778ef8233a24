"""A program in a tmux window, driven by keys and read through its transcript.

The terminal tests (``fivecrowns join`` in line and keys mode, a terminal player beside a
browser) run the real program in a real terminal; what it prints is kept in a transcript
file (``tee`` or the game's ``--transcript``). Every tmux call and every wait is bounded.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

from output_support import require

__all__ = ["TmuxWindow", "kill_tmux", "require_tmux"]


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

    def play_one(self) -> bool:
        """Line mode: answer the newest "You can:" line if it is new: draw, else throw the
        first card."""
        lines = [line for line in self.said().splitlines() if line.startswith("You can:")]
        if len(lines) <= self.acted:
            return False
        self.acted = len(lines)
        self.type("d" if lines[-1].startswith("You can: d, draw") else "x 1")
        return True
