"""Issue 16 item 4: two copies on one data folder. The second is refused; nothing is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivecrowns.cli import main
from fivecrowns.storage import autosave as storage
from tmux_support import program, terminal


def test_a_second_copy_in_the_same_folder_is_refused(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    storage.write_autosave({"seats": [], "seed": 1, "first_dealer": 0, "moves": []})
    before = storage.autosave_path().read_bytes()
    with storage.data_folder_lock():
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
    with storage.data_folder_lock():
        assert not stale.exists()
    with storage.data_folder_lock():
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


def test_a_settings_save_waits_for_another_and_keeps_its_change(tmp_path: Path) -> None:
    """While one copy holds the settings file (read, change, write), a second copy's
    save waits for it, then keeps both changes (without the lock one was lost)."""
    import time

    from fivecrowns.storage.settings import _settings_lock

    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"keys": {"draw": "d"}, "output": {"tts_rate": 170}}')
    env = {**os.environ, "FIVECROWNS_CONFIG_DIR": str(path.parent)}
    with _settings_lock(path):
        second = subprocess.Popen(
            [sys.executable, "-m", "fivecrowns", "speech", "--mute", "--save"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline and second.poll() is None:
            time.sleep(0.05)
        assert second.poll() is None  # it waits for the lock
        path.write_text('{"keys": {"draw": "d"}, "output": {"tts_rate": 170, "tts_volume": 0.3}}')
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    data = json.loads(path.read_text())
    assert data["keys"] == {"draw": "d"}
    assert data["output"]["tts_rate"] == 170
    assert data["output"]["tts_volume"] == 0.3
    assert data["output"]["sound_muted"] is True
