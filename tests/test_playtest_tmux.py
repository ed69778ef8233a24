"""Issue 10 in a real terminal: hot seat in line mode and the full screen at 80 by 24.

The installed ``fivecrowns play`` runs under tmux; the transcript shows what was said
and ``tmux capture-pane`` (with its scrollback) what a player could read on the screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tmux_support import Terminal, terminal

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
