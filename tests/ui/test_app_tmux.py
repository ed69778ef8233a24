"""End to end in a real terminal: the installed ``fivecrowns play`` (ui/app.py) under tmux.

The full screen and line mode, a resume after kill -9, issue 10's hot seat in line mode and
the full screen at 80 by 24, and noise typed into the terminal (issue 16 item 6). Keys are
pressed with ``tmux send-keys``; the transcript file shows what was
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

from tmux_support import Terminal, terminal

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
        time.sleep(0.3)  # why: the screen is drawn just after the words are said; nothing says when
        before = t.autosave()
        screen_before = t.screen()
        os.kill(t.pid(), signal.SIGKILL)
        t.wait_exit()
    with terminal(tmp_path, "--resume", "--delay", "0", transcript="resumed.txt") as t:
        t.wait_said(r"Resumed\. Round \d+ of 11")
        after = t.autosave()
        assert after["game"] == before["game"]
        assert after["moves"] == before["moves"]
        hand = re.search(r"Your hand, \d+ cards.*\n.*\n.*\n", screen_before)
        assert hand is not None
        assert hand.group(0) in t.wait_screen(re.escape(hand.group(0)))


NOISE = [
    ["ff"],  # a byte that is never UTF-8
    ["c3", "28"],  # a broken two-byte sequence
    ["1b", "5b", "30", "6d"],  # ESC[0m
    ["1b", "5b", "31", "3b", "33", "31", "6d"],  # ESC[1;31m
    ["1b", "5b", "35", "4d"],  # ESC[5M
    ["80", "fe", "ed"],
]


# Issue 16 item 6: bytes that are not UTF-8 and colour codes (CSI sequences) typed or pasted
# into a real terminal never stop the game on a traceback; the keys after them work.
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


def whole_pane(t: Terminal) -> str:
    """The screen and everything scrolled off it: what a screen reader could review."""
    return t.tmux("capture-pane", "-p", "-S", "-", "-t", "game")


def test_line_mode_hot_seat_handoff_keeps_the_previous_hand_private(tmp_path: Path) -> None:
    options = ("--line", "--players", "3", "--humans", "2", "--names", "Ann,Kim,Cy")
    with terminal(tmp_path, *options, "--seed", "5", "--delay", "0") as t:
        said = t.wait_said(r"Pass to (Ann|Kim)\. Press Enter when ready\.")
        first = re.findall(r"Pass to (Ann|Kim)\.", said)[-1]
        second = "Kim" if first == "Ann" else "Ann"
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


def check_fits(screen: str, hand_cards: int) -> None:
    """80 by 24: the hand shows, no line is longer than the screen, no word is cut."""
    rows = screen.splitlines()
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
    heading = next(i for i, row in enumerate(rows) if re.match(r"(Your|\w+'s) hand, ", row))
    assert rows[heading].startswith(f"Your hand, {hand_cards} cards")
    assert re.fullmatch(r" (\S{2,3}\s+)+", rows[heading + 2] + " "), rows[heading + 2]
    header = next(row for row in rows if "last round" in row)
    ends = [header.index(word) + len(word) for word in ("cards", "last round", "total")]
    for row in rows:
        seat = re.match(r"[> ] \S.*?\s+(\d+)\s+(\d*)\s+(\d+)", row)
        if seat and row != header:
            assert row.rfind(seat.group(1), 0, ends[0] + 1) + len(seat.group(1)) == ends[0]
            assert row[: ends[2]].endswith(seat.group(3)), (row, header)
    for row in rows:  # a line ends between words (or at a full stop), never inside one
        if len(row) >= 79:
            assert not re.search(r"[a-z]$", row) or row.endswith(("of", "and")), row


def test_full_screen_at_80_by_24_with_7_players(tmp_path: Path) -> None:
    options = ("--players", "7", "--seed", "3", "--delay", "0")
    with terminal(tmp_path, *options, width=80, height=24) as t:
        t.wait_said(r"This is your last turn\.|Your turn\.")
        screen = t.wait_screen(r"Your hand, 3 cards")
        check_fits(screen, 3)
        assert "Discard pile: 3h (wild 3 of hearts)." in screen
        t.keys("d", "Enter")
        screen = t.wait_screen(r"Round 2 next\. Press Enter or Space to deal it\.")
        assert re.search(r"Round 1 over\. \w+ went out\. ", screen), screen
        assert "Totals: " in screen
        rows = screen.splitlines()
        cards = rows.index(next(r for r in rows if r.startswith("Your hand, 4 cards"))) + 2
        wild_at = [m.start() for m in re.finditer(r"\S+", rows[cards])]
        marks = [m.start() for m in re.finditer("wild", rows[cards + 1])]
        assert marks and set(marks) <= set(wild_at)  # "wild" under each wild card
        check_fits(screen, 4)
        t.keys("q", "y")
        t.wait_said(r"Saved\. Goodbye\.")
