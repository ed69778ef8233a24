"""End to end in real terminals: `fivecrowns join --keys` clients and a spectator under tmux.

A real server; Ann plays full screen, Ben in line mode, both with the keys of local play
(D to draw, Enter to discard), and Cy watches with the line client. They finish a whole
game with a computer player. Checked from the transcripts and the screens: the game ends
for everyone with the same result, and nobody's screen or transcript names another
seat's card drawn from the stock. With CI=true this must run; elsewhere it skips without tmux.
"""

from __future__ import annotations

import re
import shlex
import sys
import time
import uuid
from pathlib import Path

import pytest

from server_support import ServerProcess
from tmux_support import TmuxWindow, kill_tmux, require_tmux

pytestmark = [pytest.mark.real, pytest.mark.slow]


def test_two_keys_clients_and_a_spectator_finish_a_game_and_keep_hands_private(
    tmp_path: Path,
) -> None:
    require_tmux()
    program = shlex.quote(str(Path(sys.executable).parent / "fivecrowns"))
    server = ServerProcess(tmp_path / "server", "--bot-delay", "0.05", "--rate", "100").start()
    socket = f"fivecrowns-keys-{uuid.uuid4().hex[:8]}"

    def start(name: str, command: str, transcript: Path) -> TmuxWindow:
        return TmuxWindow.start(socket, name, command, transcript, (110, 40))

    try:
        cy_file = tmp_path / "Cy.txt"
        cy = start(
            "Cy",
            f"{program} join {server.url} --name Cy 2>&1 | tee {shlex.quote(str(cy_file))}",
            cy_file,
        )
        cy.wait("No open tables")
        ann_file = tmp_path / "Ann.txt"
        keys = "--keys --speech none"
        ann = start(
            "Ann",
            f"{program} join {server.url} --name Ann {keys} --create 3 --bots easy --start "
            f"--transcript {shlex.quote(str(ann_file))}",
            ann_file,
        )
        table = ""
        for _ in range(100):  # the spectator lists the tables until Ann's is there
            cy.type("list")
            found = re.search(r"Table (\w+): Ann", cy.said())
            if found:
                table = found.group(1)
                break
            time.sleep(0.2)
        assert table, cy.said()
        cy.type(f"watch {table}")
        cy.wait("You are watching")
        ben_file = tmp_path / "Ben.txt"
        ben = start(
            "Ben",
            f"{program} join {server.url} --name Ben {keys} --line --table {table} "
            f"--transcript {shlex.quote(str(ben_file))}",
            ben_file,
        )
        players = (ann, ben)
        for window in players:
            window.wait("New game: Ann")
        # both press D and Enter in turn until the game is over for both (bounded in time)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not all("Game over" in w.said() for w in players):
            for window in players:
                if "Game over" not in window.said():
                    window.keys("d")
                    window.keys("Enter")
            time.sleep(0.15)
        cy.wait("Game over", 30)
        results = []
        for window in (ann, ben, cy):
            text = window.said()
            assert "Game over" in text, text[-3000:]
            assert "Traceback" not in text
            totals = re.findall(r"Final totals: [^.]*", text)[-1]
            results.append(sorted(int(n) for n in re.findall(r"\d+", totals)))
        assert results[0] == results[1] == results[2], results  # the same final totals
        for window, other in ((ann, "Ben"), (ben, "Ann")):
            for seen in (window.said(), window.screen()):
                assert f"{other} drew the" not in seen  # another seat's stock draw is never named
            assert f"{other} drew from the stock" in window.said()
        assert "drew the" not in cy.said() and "Your hand" not in cy.said()
        assert "Ann's hand, " in ann.screen()  # the full-screen table
        for window in players:
            window.keys("q")
            window.keys("y")
        cy.type("q")
        for window in players:
            window.wait(r"You left the table\. You are in the lobby\.")
        cy.wait_closed()  # q ends the line client
    finally:
        kill_tmux(socket)
        errors = server.stop()
    assert "Traceback" not in errors, errors
