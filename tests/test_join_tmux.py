"""End to end in real terminals: a server and two `fivecrowns join` clients under tmux.

Ann and Ben each type into their own tmux window; what each client printed is kept in a
transcript file (tee) and checked, and `capture-pane` shows it on the screen. With
CI=true this must run (tmux is in scripts/apt-packages.txt); elsewhere it skips without tmux.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from output_support import require
from server_support import ServerProcess

pytestmark = pytest.mark.real


class Window:
    def __init__(self, socket: str, name: str, transcript: Path) -> None:
        self.socket, self.name, self.transcript = socket, name, transcript
        self.acted = 0  # "You can:" lines answered so far

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", line)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def said(self) -> str:
        return self.transcript.read_text(encoding="utf-8") if self.transcript.exists() else ""

    def wait(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.said())
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{self.name} never printed {pattern!r}:\n{self.said()[-2000:]}")

    def play_one(self) -> bool:
        """Answer the newest "You can:" line if it is new: draw, else throw the first card."""
        lines = [line for line in self.said().splitlines() if line.startswith("You can:")]
        if len(lines) <= self.acted:
            return False
        self.acted = len(lines)
        self.type("d" if lines[-1].startswith("You can: d, draw") else "x 1")
        return True


def test_two_join_clients_in_terminals_play_chat_and_keep_their_hands_private(
    tmp_path: Path,
) -> None:
    require(shutil.which("tmux") is not None, "tmux is not installed")
    program = Path(sys.executable).parent / "fivecrowns"
    server = ServerProcess(tmp_path / "server", "--bot-delay", "0.05", "--rate", "100").start()
    socket = f"fivecrowns-join-{uuid.uuid4().hex[:8]}"
    windows: list[Window] = []
    try:
        for name in ("Ann", "Ben"):
            transcript = tmp_path / f"{name}.txt"
            command = f"{shlex.quote(str(program))} join {server.url} --name {name}"
            command += f" 2>&1 | tee {shlex.quote(str(transcript))}"
            args = ["new-session", "-d", "-s", name, "-x", "100", "-y", "30", command]
            subprocess.run(["tmux", "-L", socket, *args], check=True)
            windows.append(Window(socket, name, transcript))
        ann, ben = windows
        ann.wait("No open tables")
        ann.type("create 3 easy")
        table = ann.wait(r"You sit in seat 1 at table (\w+)\.").group(1)
        ben.wait(r"Table \w+|No open tables")
        ben.type(f"join {table}")
        ann.wait("Ben sat down in seat 3.")
        ben.type("say Hello from Ben")
        ann.wait("Ben says: Hello from Ben")
        ann.type("start")
        # both play by typing until the second round is dealt (bounded in time)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all("Round 2 of 11" in w.said() for w in windows):
            if not any(window.play_one() for window in windows):
                time.sleep(0.1)
        for window in windows:
            text = window.said()
            assert "Round 2 of 11" in text, text[-2000:]
            assert "Traceback" not in text
            other = "Ben" if window.name == "Ann" else "Ann"
            # another player's stock draw is never named, only that it happened
            assert f"{other} drew the" not in text
            assert f"{other} drew from the stock" in text
            assert "Your hand:" in window.tmux(
                "capture-pane", "-p", "-S", "-200", "-t", window.name
            )
        for window in windows:
            window.type("q")
        time.sleep(1.0)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        errors = server.stop()
    assert "Traceback" not in errors, errors
