"""``fivecrowns speech``: --list, --test, --wav, settings; run through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivecrowns.cli import main
from fivecrowns.output.sounds import SOUND_NAMES
from output_support import without_speech_dispatcher


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return without_speech_dispatcher(tmp_path, monkeypatch)


def test_test_with_print_says_the_default_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speech", "--test", "--backend", "print"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Five Crowns is ready. The 7 of hearts is wild.\n"
    assert captured.err == "Speech: printed lines, as chosen.\n"


def test_test_with_text_and_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    transcript = tmp_path / "said.txt"
    code = main(["speech", "--test", "--backend", "none", "--transcript", str(transcript), "Hi."])
    assert code == 0
    assert capsys.readouterr().out == ""
    assert transcript.read_text(encoding="utf-8").endswith(" Hi.\n")


def test_list_names_every_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speech", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split(":")[0] for line in lines[:4]]
    assert names == ["screenreader", "tts", "print", "none"]
    for line in lines[:4]:
        assert ": available." in line or ": not available." in line
    assert lines[2] == "print: available. Each announcement as a plain line of text."
    count = len(SOUND_NAMES)
    assert lines[4].startswith(f"Sounds: {count} of {count} sound files found in ")
    assert lines[5].startswith(("Braille export: available.", "Braille export: not available."))
    assert lines[6].startswith("Settings file: ")


def test_wav_needs_the_tts_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speech", "--test", "--backend", "print", "--wav", "x.wav"]) == 2
    assert capsys.readouterr().err == "--wav works only with --test --backend tts.\n"


def test_bad_setting_changes_nothing(_own_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speech", "--rate", "5", "--save"]) == 2
    assert "Not changed: tts_rate 5 is not between 50 and 600" in capsys.readouterr().err
    assert not (_own_config / "settings.json").exists()


def test_save_keeps_the_choices(_own_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speech", "--backend", "print", "--rate", "240", "--mute", "--save"]) == 0
    saved = json.loads((_own_config / "settings.json").read_text(encoding="utf-8"))["output"]
    assert (saved["speech"], saved["tts_rate"], saved["sound_muted"]) == ("print", 240, True)
    assert capsys.readouterr().out.startswith("Saved to ")
    assert main(["speech", "--test", "Saved choice."]) == 0
    assert capsys.readouterr().out == "Saved choice.\n"


def test_an_unavailable_backend_for_test_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FIVECROWNS_AUDIO", "nosuchbackend")
    assert main(["speech", "--test", "--backend", "tts"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "The built-in voice is not available: 'nosuchbackend' is not a miniaudio backend.\n"
    )
