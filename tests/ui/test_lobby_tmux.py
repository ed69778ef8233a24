"""End to end in real terminals: the lobby of `fivecrowns join --keys` under tmux.

A real server. Ann (line mode) and Ben (full screen) start `fivecrowns join --keys` with no
table option and land in the spoken lobby. Ann creates a table by keys alone (C, then the
lists: 3 seats, 1 easy computer player, public), Ben hears it listed and joins it by its
number (1, J), Ann starts it (S); Cy (line mode) watches it from the lobby (1, W). They play
round 1 with D and Enter; then Ann leaves with Q, Y and is back in the lobby, hearing the
table listed with its round. Checked from the transcripts: the lobby is spoken, the game is
the same for everyone, the spectator never hears a hand or another seat's stock draw.
With CI=true this must run; elsewhere it skips without tmux.
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


def test_a_table_made_joined_watched_and_left_from_the_lobby_by_keys(tmp_path: Path) -> None:
    require_tmux()
    program = shlex.quote(str(Path(sys.executable).parent / "fivecrowns"))
    server = ServerProcess(tmp_path / "server", "--bot-delay", "0.05", "--rate", "100").start()
    socket = f"fivecrowns-lobby-{uuid.uuid4().hex[:8]}"

    def start(name: str, options: str) -> TmuxWindow:
        transcript = tmp_path / f"{name}.txt"
        command = (
            f"{program} join {server.url} --name {name} --keys --speech none {options} "
            f"--transcript {shlex.quote(str(transcript))}"
        )
        return TmuxWindow.start(socket, name, command, transcript, (110, 40))

    try:
        ann = start("Ann", "--line")
        ben = start("Ben", "")
        for window in (ann, ben):
            window.wait(r"No open tables\. Press C to create one")
        ann.keys("c")
        ann.wait(r"Create a table: the number of seats\. 6 items")
        ann.keys("Up", "Enter")  # 3 seats
        ann.wait(r"The number of computer players")
        ann.keys("Down", "Enter")  # 1 computer player
        ann.wait(r"The level of the computer players")
        ann.keys("Up", "Enter")  # easy
        ann.wait(r"Public or private table")
        ann.keys("Enter")  # public
        table = ann.wait(r"You sit in seat 1 at table (\w+)\.").group(1)
        ben.keys("l")
        ben.wait(
            rf"Table {table}, waiting to start: Ann, .+ \(computer, easy\) and an empty seat\."
        )
        ben.keys("1", "j")
        ben.wait(rf"You sit in seat 3 at table {table}\.")
        ann.wait(r"Ben sat down in seat 3\.")
        ann.keys("s")
        players = (ann, ben)
        for window in players:
            window.wait(r"New game: Ann, .+ \(easy\) and Ben\.")
        cy = start("Cy", "--line")
        cy.wait(rf"Table {table}, round 1 of 11: Ann")
        cy.keys("1", "w")
        cy.wait(rf"You are watching table {table}\.")
        cy.wait(r"You are watching a game in progress: Ann, .+ \(easy\) and Ben\.")
        # D and Enter in turn until round 1 is over for both (bounded in time)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all("Round 1 over" in w.said() for w in players):
            for window in players:
                if "Round 1 over" not in window.said():
                    window.keys("d")
                    window.keys("Enter")
            time.sleep(0.15)
        # the server has dealt round 2: the spectator hears it at once, no key to press
        cy.wait(r"Round 1 over[^\n]*\n(?:.*\n)*?.*Round 2 of 11", 30)
        assert "Press Enter" not in cy.said()
        cy.keys("d")
        cy.wait(r"You are watching this table: you have no turn\.")
        ann.keys("q")
        ann.wait(r"Quit\? You leave the table")
        ann.keys("y")
        ann.wait(r"You left the table\. You are in the lobby\.")
        ann.wait(rf"Table {table}, round \d+ of 11: .+ and Ben\.")
        for window in (ann, ben, cy):
            text = window.said()
            assert "Round 1 over" in text and "Traceback" not in text, text[-3000:]
        said = cy.said()
        assert "Your hand" not in said and "Your turn" not in said
        assert not re.search(r"(Ann|Ben) drew the", said)
        assert "Ann drew from the stock" in said or "Ann took the" in said
        assert "Five Crowns. Round" in ben.screen()  # the full-screen table
        ann.keys("q")
        ann.wait(r"Quit fivecrowns join\?")
        ann.keys("y")
        ann.wait(r"Goodbye\.")
    finally:
        kill_tmux(socket)
        errors = server.stop()
    assert "Traceback" not in errors, errors
