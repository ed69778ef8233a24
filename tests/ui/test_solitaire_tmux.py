"""End to end in a real terminal: the installed ``fivecrowns solitaire`` under tmux.

With CI=true these must run (tmux is in scripts/apt-packages.txt); elsewhere they
skip without tmux. The transcript file shows what was said.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from fivecrowns.core.solitaire.rules import Phase
from fivecrowns.storage.saves import read_solitaire
from tmux_support import Terminal, terminal

pytestmark = pytest.mark.real


@contextmanager
def solitaire_terminal(tmp_path: Path, *options: str) -> Iterator[Terminal]:
    with terminal(tmp_path, *options, subcommand="solitaire", width=110) as term:
        yield term


def test_solitaire_full_screen_put_discard_quit_and_resume(tmp_path: Path) -> None:
    with solitaire_terminal(tmp_path, "--seed", "3") as t:
        t.wait_said(r"Hand of 3, 3s wild, left over \d+ points")
        # The last hand's row is drawn last: waiting for it, not the title, avoids catching a
        # half-painted screen (CI of 516dfa6 saw rows 3 to 8 only).
        screen = t.wait_screen(r"13 \(Kings wild\)")
        assert "Five Crowns Solitaire." in screen
        assert "Turned: Jst (Jack of stars)." in screen
        mark = len(t.said())
        t.keys("Down")
        t.wait_said(r"Hand of 4, 4s wild, left over \d+ points", after=mark)
        mark = len(t.said())
        t.keys("Enter")
        t.wait_said(r"Jack of stars into the hand of 4\. Choose the discard\.", after=mark)
        mark = len(t.said())
        t.keys("End", "Enter")
        t.wait_said(r"(?s)Discarded the .*Turned: ", after=mark)
        mark = len(t.said())
        t.keys("q")
        t.wait_said(r"Quit\? The game stays saved", after=mark)
        t.keys("y")
        t.wait_said(r"Saved\. Goodbye\.", after=mark)
        t.wait_exit()
        assert "Traceback" not in t.screen()
    saved = read_solitaire(tmp_path / "data" / "solitaire.json")
    assert saved.turns == 2 and saved.phase is Phase.PUT
    with solitaire_terminal(tmp_path, "--resume", "--line") as t:
        screen = t.wait_screen(r"Resumed solitaire\.")
        assert "Turned: " in screen
        t.keys("s")
        t.wait_screen(r"0 of 11 hands closed\.|1 of 11 hands closed\.")
        t.keys("q", "y")
        t.wait_exit()
