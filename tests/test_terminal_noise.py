"""Issue 16 item 6: bytes that are not UTF-8 and colour codes (CSI sequences) typed or
pasted into a real terminal never stop the game on a traceback; the keys after them work.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tmux_support import terminal

pytestmark = pytest.mark.real

NOISE = [
    ["ff"],  # a byte that is never UTF-8
    ["c3", "28"],  # a broken two-byte sequence
    ["1b", "5b", "30", "6d"],  # ESC[0m
    ["1b", "5b", "31", "3b", "33", "31", "6d"],  # ESC[1;31m
    ["1b", "5b", "35", "4d"],  # ESC[5M
    ["80", "fe", "ed"],
]


@pytest.mark.parametrize("mode", [["--line"], []])
def test_invalid_utf8_and_csi_sequences_do_not_stop_the_game(tmp_path: Path, mode) -> None:
    with terminal(tmp_path, *mode, "--seed", "7", "--delay", "0") as t:
        t.wait_said(r"This is your last turn\.")
        t.wait_ready()  # why: raw bytes bypass keys(), which waits for raw mode itself
        for raw in NOISE:
            t.tmux("send-keys", "-t", "game", "-H", *raw)
            time.sleep(0.2)
        mark = len(t.said())
        t.keys("w")  # the keys after the noise still work
        t.wait_said(r"Round 1 of 11\. 3s are wild", after=mark)
        screen = t.screen()
        assert "Traceback" not in screen and "Press ENTER to continue" not in screen
        assert "Exception" not in screen
        said = t.said()
        assert "\\udc" not in said  # no raw surrogate escapes reached the player
        assert "That key does nothing here." in said
        t.keys("q", "y")
        t.wait_said(r"Saved\. Goodbye\.")
        t.wait_exit()
        assert "Traceback" not in t.screen()
