"""Issue 16 item 5: never "Saved. Goodbye." when nothing was saved.

The data folder cannot be written (here it would sit under a plain file, which fails
even for root), or the disk is full: the quit question and the goodbye say the game
is not saved and why.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from fivecrowns.storage import autosave as storage
from fivecrowns.ui.session import Seat
from solitaire_support import board
from ui_support import table


def _unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(blocker / "data"))
    return blocker / "data"


def test_quitting_a_game_that_could_not_be_saved_says_so(tmp_path, monkeypatch) -> None:
    folder = _unwritable(tmp_path, monkeypatch)
    seats = [Seat("You"), Seat("Ann", "easy")]
    with table(seats, 3, data_dir=folder) as t:
        t.press("q")
        question = t.spoken()[-1]
        assert question.startswith("Quit? This game is not saved: the game could not be written")
        assert str(folder) in question and "Quitting loses it." in question
        t.press("y")
        goodbye = t.spoken()[-1]
        assert goodbye.startswith("Not saved: the game could not be written to")
        assert goodbye.endswith("This game cannot be resumed. Goodbye.")
        assert "Saved. Goodbye." not in t.spoken()


def test_a_full_disk_is_told_and_a_later_save_clears_it(tmp_path, monkeypatch) -> None:
    real = storage.write_autosave

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "write_autosave", full)
    seats = [Seat("You"), Seat("Ann", "easy")]
    with table(seats, 3, data_dir=tmp_path / "data") as t:
        t.session.save_now()
        t.press("q")
        assert "(No space left on device)" in t.spoken()[-1]
        t.press("n")
        monkeypatch.setattr(storage, "write_autosave", real)
        t.session.save_now()
        t.press("q", "y")
        assert t.spoken()[-1] == "Saved. Goodbye."


def test_solitaire_that_could_not_be_saved_says_so(tmp_path, monkeypatch) -> None:
    from fivecrowns.core.solitaire.rules import Solitaire

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with board(Solitaire.deal(seed=5), save=blocker / "data" / "solitaire.json") as b:
        b.press("q")
        assert b.said()[-1].startswith("Quit? This game is not saved: Could not save the game")
        b.press("y")
        assert b.said()[-1].endswith("This game cannot be resumed. Goodbye.")
