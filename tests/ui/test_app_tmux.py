"""End to end in a real terminal: the installed ``fivecrowns play`` under tmux.

Keys are pressed with ``tmux send-keys``; the transcript file shows what was
said and ``tmux capture-pane`` what is on the screen. With CI=true these tests
must run (tmux is in scripts/apt-packages.txt); elsewhere they skip without tmux.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from tmux_support import terminal

pytestmark = pytest.mark.real



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
