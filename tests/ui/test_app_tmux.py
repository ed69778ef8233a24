"""End to end in a real terminal: the installed ``fivecrowns play`` under tmux.

Keys are pressed with ``tmux send-keys``; the transcript file shows what was
said and ``tmux capture-pane`` what is on the screen. With CI=true these tests
must run (tmux is in scripts/apt-packages.txt); elsewhere they skip without tmux.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import termios
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from output_support import require

pytestmark = pytest.mark.real

REPO = Path(__file__).resolve().parents[1]


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


def test_full_screen_in_tmux(tmp_path: Path) -> None:
    with terminal(tmp_path, "--seed", "7", "--delay", "0") as t:
        t.wait_said(r"This is your last turn\.")
        screen = t.wait_screen(r"Your hand, 3 cards")
        assert "Five Crowns. Round 1 of 11. 3s are wild." in screen
        assert re.search(r"Discard pile: \S+ \(.+\)\.\s+Stock: \d+ cards\.", screen)
        assert "Ben" in screen and "went out" in screen
        hand_row = next(i for i, row in enumerate(screen.splitlines()) if "Your hand" in row) + 2
        assert t.cursor() == (1, hand_row)  # on the first card
        mark = len(t.said())
        t.keys("Right")
        t.wait_said(r", 2 of 3\n", after=mark)
        assert t.cursor() == (6, hand_row)  # cards are five columns apart
        assert "On card 2 of 3" in t.wait_screen("On card 2 of 3")
        mark = len(t.said())
        t.keys("w")
        t.wait_said(r"Round 1 of 11\. 3s are wild, and jokers\.", after=mark)
        mark = len(t.said())
        t.keys("Escape")
        t.wait_said(r"Actions\. \d+ items\. Draw from the stock: D", after=mark)
        assert "> Draw from the stock: D" in t.wait_screen("> Draw from the stock")
        t.keys("Escape", "d")
        t.wait_said(r"You drew the ", after=mark)
        mark = len(t.said())
        t.keys("Enter")
        t.wait_said(r"Round 1 over\..*Totals: ", after=mark)
        t.wait_said(r"Round 2 next\. Press Enter or Space to deal it\.", after=mark)
        t.keys("Enter")
        t.wait_said(r"Round 2 of 11\. 4s are wild\.", after=mark)
        t.wait_screen(r"Round 2 of 11\. 4s are wild\.")
        t.keys("q")
        t.wait_said(r"Quit\? The game stays saved", after=mark)
        t.keys("y")
        t.wait_said(r"Saved\. Goodbye\.", after=mark)
        t.wait_exit()
        assert "Traceback" not in t.screen()
        assert t.autosave()["moves"]


def test_line_mode_in_tmux(tmp_path: Path) -> None:
    with terminal(tmp_path, "--line", "--seed", "7", "--delay", "0") as t:
        t.wait_said(r"This is your last turn\.")
        screen = t.wait_screen(r"This is your last turn\.")
        lines = [line for line in screen.splitlines() if line.strip()]
        assert lines[0].startswith("New game: ")  # the game first; speech details on I
        assert not any(line.startswith("Speech: ") for line in lines)
        assert any(line.startswith("Round 1 of 11. 3s are wild.") for line in lines)
        t.keys("Right", "w", "z")
        screen = t.wait_screen(r"Z does nothing here")
        after = screen.split("This is your last turn.", 1)[1].strip().splitlines()
        assert after.pop(0).startswith("Top discard: ")  # what a last turn may take
        assert after[0].endswith(", 2 of 3")
        assert after[1].startswith("Round 1 of 11. 3s are wild, and jokers.")
        assert after[2] == "Z does nothing here. Press F1 or question mark for help."
        said = t.said()
        assert "[sound] invalid" in said and "Z does nothing here." in said
        t.keys("q", "y")
        t.wait_said(r"Saved\. Goodbye\.")


def test_resume_after_kill_gives_the_same_state(tmp_path: Path) -> None:
    with terminal(tmp_path, "--seed", "12", "--delay", "0", "--players", "2") as t:
        t.wait_said(r"Your turn|This is your last turn")
        for _ in range(3):
            mark = len(t.said())
            t.keys("d")
            t.wait_said("You drew", after=mark)
            t.keys("Enter")
            t.wait_said(r"You discarded|You laid down", after=mark)
            t.wait_said(r"Your turn|last turn|Round", after=mark)
        time.sleep(0.3)
        before = t.autosave()
        screen_before = t.screen()
        os.kill(t.pid(), signal.SIGKILL)
        t.wait_exit()
    with terminal(tmp_path, "--resume", "--delay", "0", transcript="resumed.txt") as t:
        t.wait_said(r"Resumed\. Round \d+ of 11")
        time.sleep(0.3)
        after = t.autosave()
        assert after["game"] == before["game"]
        assert after["moves"] == before["moves"]
        hand = re.search(r"Your hand, \d+ cards.*\n.*\n.*\n", screen_before)
        assert hand is not None
        assert hand.group(0) in t.wait_screen(re.escape(hand.group(0)))
