"""End to end in real terminals: a server and two `fivecrowns join` clients under tmux.

Ann and Ben each type into their own tmux window; what each client printed is kept in a
transcript file (tee) and checked, and `capture-pane` shows it on the screen. With
CI=true this must run (tmux is in scripts/apt-packages.txt); elsewhere it skips without tmux.
"""

from __future__ import annotations

import shlex
import sys
import time
import uuid
from pathlib import Path

import pytest

from server_support import ServerProcess
from tmux_support import TmuxWindow, kill_tmux, require_tmux

pytestmark = pytest.mark.real


def test_two_join_clients_in_terminals_play_chat_and_keep_their_hands_private(
    tmp_path: Path,
) -> None:
    require_tmux()
    program = Path(sys.executable).parent / "fivecrowns"
    server = ServerProcess(tmp_path / "server", "--bot-delay", "0.05", "--rate", "100").start()
    socket = f"fivecrowns-join-{uuid.uuid4().hex[:8]}"
    windows: list[TmuxWindow] = []
    try:
        for name in ("Ann", "Ben"):
            transcript = tmp_path / f"{name}.txt"
            command = f"{shlex.quote(str(program))} join {server.url} --name {name}"
            command += f" 2>&1 | tee {shlex.quote(str(transcript))}"
            windows.append(TmuxWindow.start(socket, name, command, transcript, (100, 30)))
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
            assert "Your hand:" in window.screen()
        for window in windows:
            window.type("q")
        for window in windows:
            window.wait_closed()  # q ends the line client
    finally:
        kill_tmux(socket)
        errors = server.stop()
    assert "Traceback" not in errors, errors
