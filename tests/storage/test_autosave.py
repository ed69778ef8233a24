"""The autosave, the games kept aside and the data folder's lock (storage/autosave.py).

- Issue 16 items 2 and 3, issue 10 item 4: nothing the player saved is ever lost. Every
  unfinished game is kept (``--resume list``, ``--resume N``); a save that does not load is
  kept under its own name and never moved over one that does.
- Issue 16 item 4: two copies on one data folder. The second is refused; nothing is lost.
- Writes are atomic; a missing, damaged, binary or too deeply nested autosave is a sentence.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from fivecrowns.cli import main
from fivecrowns.core.errors import SaveFileError
from fivecrowns.storage import autosave as storage
from fivecrowns.storage.locks import data_folder_lock
from fivecrowns.ui.solitaire import solitaire_save_path
from gamehelpers import DEEP
from tmux_support import program, terminal


def test_a_second_copy_in_the_same_folder_is_refused(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    storage.write_autosave({"seats": [], "seed": 1, "first_dealer": 0, "moves": []})
    before = storage.autosave_path().read_bytes()
    with data_folder_lock():
        for command in (["play"], ["play", "--resume"], ["solitaire"]):
            assert main([*command, "--speech", "none"]) == 1
            err = capsys.readouterr().err
            assert err.startswith("Another Five Crowns game is running and saving in ")
            assert "fivecrowns history" in err
    assert storage.autosave_path().read_bytes() == before
    assert sorted(p.name for p in storage.autosave_path().parent.glob("*.json")) == [
        "autosave.json"
    ]


def test_the_lock_is_free_again_after_a_game_and_clears_stale_temporaries() -> None:
    folder = storage.autosave_path().parent
    folder.mkdir(parents=True, exist_ok=True)
    stale = folder / ".autosave.json.k2j3h4.tmp"
    stale.write_text("{half a save")
    with data_folder_lock():
        assert not stale.exists()
    with data_folder_lock():
        pass


@pytest.mark.real
def test_two_processes_one_data_folder(tmp_path: Path) -> None:
    """A real game in tmux holds the folder; a second `fivecrowns play` and `solitaire`
    are refused with a sentence and status 1, and the first game's save is intact."""
    with terminal(tmp_path, "--seed", "7", "--delay", "0") as t:
        t.wait_said(r"This is your last turn\.")
        saved = (tmp_path / "data" / "autosave.json").read_bytes()
        env = {
            **os.environ,
            "FIVECROWNS_DATA_DIR": str(tmp_path / "data"),
            "FIVECROWNS_CONFIG_DIR": str(tmp_path / "config"),
        }
        for command in (["play", "--seed", "2"], ["solitaire", "--seed", "3"], ["play"]):
            second = subprocess.run(
                [program(), *command, "--speech", "none"],
                env=env,
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=60,
            )
            assert second.returncode == 1, second.stderr
            assert second.stderr.startswith("Another Five Crowns game is running")
            assert "Traceback" not in second.stderr
        assert (tmp_path / "data" / "autosave.json").read_bytes() == saved
        assert not list((tmp_path / "data").glob("*-kept-*.json"))
        t.keys("q", "y")
        t.wait_said(r"Saved\. Goodbye\.")
        t.wait_exit()
    assert json.loads((tmp_path / "data" / "autosave.json").read_text())["seed"] == 7


class _ClosedKeyboard:
    """Stands in for the terminal presentation: the keyboard closes at once."""

    def __init__(self, session, line_mode: bool = False, render=None) -> None:
        self.session = session

    def run(self) -> None:
        raise EOFError


@pytest.fixture
def talk(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    return ["--speech", "none", "--transcript", str(tmp_path / "said.txt")]


def _files() -> dict[str, bytes]:
    folder = storage.autosave_path().parent
    return {p.name: p.read_bytes() for p in folder.glob("*.json")}


def test_three_new_games_in_a_row_keep_all_three(talk, capsys) -> None:
    """The playtest of issue 10 item 4: start, quit, start, quit, start: nothing is gone."""
    saves = []
    for seed in (1, 2, 3):
        assert main(["play", "--seed", str(seed), *talk]) == 1
        saves.append(storage.autosave_path().read_bytes())
    kept = sorted(path.read_bytes() for path in storage.kept_games())
    assert kept == sorted(saves[:2])
    capsys.readouterr()
    assert main(["play", "--resume", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("1. Saved ") and "You, Ann and Ben, round 1 of 11." in lines[0]
    assert lines[0].endswith(f"File: {storage.autosave_path()}")
    assert [line.split(".")[0] for line in lines] == ["1", "2", "3"]
    # the oldest is number 3; the game saved last is number 1
    assert storage.unfinished_games()[2].read_bytes() == saves[0]
    assert storage.unfinished_games()[0].read_bytes() == saves[2]


def test_resume_n_keeps_every_game(talk) -> None:
    for seed in (1, 2, 3):
        assert main(["play", "--seed", str(seed), *talk]) == 1
    assert main(["play", "--resume", "3", *talk]) == 1
    seeds = sorted(json.loads(p.read_bytes())["seed"] for p in storage.unfinished_games())
    assert seeds == [1, 2, 3]
    assert json.loads(storage.autosave_path().read_bytes())["seed"] == 1


@pytest.mark.parametrize("choice", ["7", "0", "twelve", "-1"])
def test_a_resume_choice_that_names_nothing_is_a_sentence(choice, talk, capsys) -> None:
    assert main(["play", "--seed", "1", *talk]) == 1
    before = _files()
    capsys.readouterr()
    assert main(["play", "--resume", choice, *talk]) == (
        1 if choice.isdigit() else 2
    )  # no such game: run time; not a number: usage
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--resume" in err
    assert _files() == before


def test_a_damaged_autosave_never_replaces_a_good_kept_game(talk, tmp_path) -> None:
    assert main(["play", "--seed", "1", *talk]) == 1
    assert main(["play", "--seed", "2", *talk]) == 1
    (good,) = storage.kept_games()
    good_bytes = good.read_bytes()
    storage.autosave_path().write_text('{"version": 1, "seats": [', encoding="utf-8")
    assert main(["play", "--seed", "3", *talk]) == 1
    assert good.read_bytes() == good_bytes  # the good game kept aside is untouched
    (damaged,) = storage.damaged_games()
    assert damaged.read_text(encoding="utf-8") == '{"version": 1, "seats": ['
    said = (tmp_path / "said.txt").read_text(encoding="utf-8")
    assert f"The saved game could not be resumed, so it was kept as {damaged}" in said
    assert "An unfinished game was kept" not in said.split("Speech:")[-1]


def test_resume_previous_with_a_damaged_kept_game_moves_nothing(talk, capsys) -> None:
    assert main(["play", "--seed", "1", *talk]) == 1
    assert main(["play", "--seed", "2", *talk]) == 1
    (kept,) = storage.kept_games()
    kept.write_text("{not json", encoding="utf-8")
    before = _files()
    capsys.readouterr()
    assert main(["play", "--resume", "previous", *talk]) == 1
    err = capsys.readouterr().err
    assert f"The saved game {kept} is damaged and cannot be resumed" in err
    assert _files() == before


def test_solitaire_keeps_every_game_and_a_damaged_one_apart(talk, tmp_path, capsys) -> None:
    for seed in (1, 2):
        assert main(["solitaire", "--seed", str(seed), *talk]) == 1
    (good,) = storage.kept_games(solitaire_save_path())
    good_bytes = good.read_bytes()
    solitaire_save_path().write_text('{"format": "fivecrowns-solitaire", "version": -7}')
    assert main(["solitaire", "--seed", "3", *talk]) == 1
    assert good.read_bytes() == good_bytes
    (damaged,) = storage.damaged_games(solitaire_save_path())
    assert "version" in damaged.read_text()
    said = (tmp_path / "said.txt").read_text(encoding="utf-8")
    assert f"so it was kept as {damaged}" in said
    capsys.readouterr()
    assert main(["solitaire", "--resume", "list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. Saved ") and "2. Saved " in out
    assert "1 damaged saves are kept in" in out


def test_atomic_write_leaves_old_or_new_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "autosave.json"
    storage.write_autosave({"moves": [1]}, path)

    def broken_replace(source: str, target: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        storage.write_autosave({"moves": [1, 2]}, path)
    monkeypatch.undo()
    assert json.loads(path.read_text(encoding="utf-8"))["moves"] == [1]
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]  # no temporary left


def test_missing_or_damaged_autosave_is_a_sentence(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="There is no saved game to resume"):
        storage.read_autosave(tmp_path / "autosave.json")
    (tmp_path / "autosave.json").write_text('{"version": 1, "seats"')
    with pytest.raises(SaveFileError, match="is damaged and cannot be resumed"):
        storage.read_autosave(tmp_path / "autosave.json")


def test_binary_or_deeply_nested_autosave_is_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(SaveFileError, match="is not text and cannot be resumed"):
        storage.read_autosave(path)
    path.write_text(DEEP)
    with pytest.raises(SaveFileError, match="is damaged and cannot be resumed"):
        storage.read_autosave(path)
