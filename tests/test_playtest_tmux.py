"""Issue 10 in a real terminal: hot seat in line mode and the full screen at 80 by 24.

The installed ``fivecrowns play`` runs under tmux; the transcript shows what was said
and ``tmux capture-pane`` (with its scrollback) what a player could read on the screen.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from test_ui_tmux import Terminal, terminal

pytestmark = pytest.mark.real


def whole_pane(t: Terminal) -> str:
    """The screen and everything scrolled off it: what a screen reader could review."""
    return t.tmux("capture-pane", "-p", "-S", "-", "-t", "game")


def test_line_mode_hot_seat_handoff_keeps_the_previous_hand_private(tmp_path: Path) -> None:
    options = ("--line", "--players", "3", "--humans", "2", "--names", "Ann,Kim,Cy")
    with terminal(tmp_path, *options, "--seed", "5", "--delay", "0") as t:
        said = t.wait_said(r"Pass to (Ann|Kim)\. Press Enter when ready\.")
        first = re.findall(r"Pass to (Ann|Kim)\.", said)[-1]
        second = "Kim" if first == "Ann" else "Ann"
        # why wait: the first line is said before the terminal is put in raw mode, and an
        # Enter typed before that arrives as Ctrl+J
        time.sleep(0.5)
        mark = len(t.said())
        t.keys("Enter")
        said = t.wait_said(r"Your turn", after=mark)
        hand = re.search(r"Your hand: (.+?)\.\n", said)
        assert hand is not None
        t.keys("h", "d")
        drawn = re.search(r"You drew the (.+?)\.\n", t.wait_said("You drew the ", after=mark))
        assert drawn is not None
        t.keys("Enter")  # discard
        t.wait_said(rf"Pass to {second}\. Press Enter when ready\.", after=mark)
        screen = whole_pane(t)
        assert f"Pass to {second}." in screen
        assert hand.group(1) not in screen, screen
        assert "You drew the " not in screen and "You discarded" not in screen
        mark = len(t.said())
        t.keys("Enter")  # the second player at the keyboard
        t.wait_said(rf"{second}\. Round 1 of 11", after=mark)
        t.keys("<")
        for _ in range(12):
            t.keys(",")
        t.keys(".", "r", "l")
        t.wait_said(r"Nothing has happened|drew|took", after=mark)
        after = t.said()[mark:]
        assert f"Your hand: {hand.group(1)}." not in after
        assert "You drew the " not in after and "You discarded" not in after
        screen = whole_pane(t)
        assert hand.group(1) not in screen
        assert "You drew the " not in screen
        t.keys("q", "y")
        t.wait_said(r"Saved\. Goodbye\.")
