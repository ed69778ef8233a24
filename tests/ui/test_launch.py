"""Starting a game (ui/launch.py): seats from the options, what is said about speech at the
start and in line mode, and a save's computer-player levels, which never choose code to run
(issue 16, item 1: a module:Class plug-in plays only when the person types it with --ai).
"""

from __future__ import annotations

import json
import sys

import pytest

from ai_support import HOSTILE_LEVELS
from fivecrowns.cli import main
from fivecrowns.storage import autosave as storage
from fivecrowns.ui.launch import LaunchError, make_seats, speech_note
from fivecrowns.ui.session import Seat
from ui_support import table


def test_start_up_says_the_game_first_and_speech_details_on_a_key() -> None:
    report = (
        "Speech: printed lines, because no screen reader is running; the built-in voice is "
        "not available: no sound device could be opened (miniaudio: failed to init device)."
    )
    note = speech_note(report, "print", "I")
    assert note == "Speech: printed lines. Press I for details."
    assert speech_note("Speech: silence, as chosen.", "none", "I") is None
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        assert t.spoken()[0].startswith("New game: You and Ann (medium).")
        t.session.speech_report = report
        t.press("i")
        assert t.spoken()[-1].startswith(report)
        assert t.spoken()[-1].endswith("run: fivecrowns speech --list.")


class _ClosedKeyboard:
    def __init__(self, session, line_mode: bool = False, render=None) -> None:
        self.session = session

    def run(self) -> None:
        raise EOFError


def _save_with_level(level: object) -> None:
    storage.write_autosave(
        {
            "seats": [{"name": "You", "level": None}, {"name": "Ann", "level": level}],
            "seed": 5,
            "first_dealer": 0,
            "decks": 2,
            "moves": [],
            "at_keyboard": 0,
        }
    )


@pytest.mark.parametrize("level", HOSTILE_LEVELS)
@pytest.mark.parametrize("resume", ["last", "previous"])
def test_a_level_in_a_save_imports_nothing(level, resume, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    called: list[str] = []
    import os
    import tempfile

    monkeypatch.setattr(os, "abort", lambda: called.append("abort"))
    monkeypatch.setattr(tempfile, "mkdtemp", lambda *a, **k: called.append("mkdtemp"))
    _save_with_level(level)
    if resume == "previous":
        storage.keep_aside_autosave()
    module = level.partition(":")[0]
    unloaded = module not in sys.modules
    before = set(sys.modules)
    status = main(["play", "--resume", resume, "--speech", "none"])
    err = capsys.readouterr().err
    assert status in (1, 2)
    assert "Traceback" not in err
    assert f"'{level}', a plug-in, and a saved game never chooses code to run" in err
    assert f"fivecrowns play --resume --ai {level}" in err
    if unloaded:
        assert module not in sys.modules
    assert not {name for name in set(sys.modules) - before if name.split(".")[0] == module}
    assert called == []


def test_a_plugin_typed_on_the_command_line_may_resume(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    spec = "fivecrowns.ai.simple:SimplePlayer"
    _save_with_level(spec)
    # the keyboard closes at once: status 1 (run time) with "The game is saved" (not a refusal)
    assert main(["play", "--resume", "--ai", spec, "--speech", "none"]) == 1
    assert "The game is saved" in capsys.readouterr().err


@pytest.mark.parametrize("level", [3, ["medium"], {"a": 1}, True])
def test_a_level_that_is_not_a_word_is_a_sentence(level, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    _save_with_level(level)
    saved = storage.autosave_path().read_bytes()
    assert main(["play", "--resume", "--speech", "none"]) in (1, 2)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "saved game" in err
    assert storage.autosave_path().read_bytes() == saved


def test_the_save_written_keeps_levels_as_words(monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    assert main(["play", "--seed", "3", "--ai", "easy", "--speech", "none"]) == 1
    seats = json.loads(storage.autosave_path().read_text())["seats"]
    assert [seat["level"] for seat in seats] == [None, "easy", "easy"]


def test_seats_humans_first_with_names() -> None:
    seats = make_seats(4, 2, "Zoe,Yan,Xi,Wu", "easy,hard")
    assert [(s.name, s.level) for s in seats] == [
        ("Zoe", None), ("Yan", None), ("Xi", "easy"), ("Wu", "hard"),
    ]  # fmt: skip
    with pytest.raises(LaunchError):
        make_seats(3, 1, None, "easy,,hard")


def test_line_mode_says_why_it_is_silent_and_how_to_hear_a_voice() -> None:
    import argparse

    from fivecrowns.ui.launch import LINE_MODE_SILENCE, open_output

    chosen = argparse.Namespace(speech="none", line=True, transcript=None)
    output, reason = open_output(chosen)
    output.close()
    assert reason.startswith("Speech: silence, as chosen.")
    defaulted = argparse.Namespace(speech=None, line=True, transcript=None)
    output, reason = open_output(defaulted)
    output.close()
    assert reason.startswith(LINE_MODE_SILENCE)
    assert "--speech auto" in reason


def test_a_save_naming_the_retired_expert_level_plays_hard_and_says_so(monkeypatch) -> None:
    """Issue 27 item 4: expert left the levels; a save that names it still resumes, hard
    plays that seat, a sentence says so, and the save written names hard."""
    from fivecrowns.ui.session import Session

    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    said: list[str] = []
    original = Session.say

    def say(self: Session, text: str, *args: object, **kwargs: object) -> None:
        said.append(text)
        original(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Session, "say", say)
    _save_with_level("expert")
    assert main(["play", "--resume", "--speech", "none"]) == 1
    assert (
        "The expert level plays as hard now: measured over 1,000 duplicate deals it was no "
        "stronger."
    ) in said
    seats = json.loads(storage.autosave_path().read_text())["seats"]
    assert [seat["level"] for seat in seats] == [None, "hard"]
