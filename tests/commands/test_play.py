"""`fivecrowns play` and `fivecrowns history` from the command line: bad options are sentences."""

from __future__ import annotations

import pytest

from fivecrowns.cli import DEFAULT_COMMAND, main
from fivecrowns.storage.history import append_history
from fivecrowns.ui.launch import LaunchError, make_seats


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path / "config"))


def test_play_is_the_default_command() -> None:
    assert DEFAULT_COMMAND == "play"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "--players must be 2 to 7, not 9."),
        (["--humans", "0"], "--humans must be 1 to 3, not 0."),
        (["--ai", "easy,hard,medium"], "--ai names 3 computer players but there are 2"),
        (["--names", "Ann,Ben"], "--names needs 3 names separated by commas, got 'Ann,Ben'."),
        (["--ai", "nobody"], "'nobody' is not a computer player"),
        (["--delay", "99"], "--delay must be 0 to 10 seconds, not 99.0."),
        (["--resume", "--seed", "3"], "Give --resume or --seed, not both"),
        (["--resume", "--names", "A,B,C"], "Give --resume or --names, not both"),
    ],
)
def test_bad_options_are_sentences(args, message, capsys) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_a_missing_save_is_a_run_time_failure(capsys) -> None:
    # exit status 1 for what goes wrong at run time, 2 for a wrong command line (cli.py)
    assert main(["play", "--resume"]) == 1
    err = capsys.readouterr().err
    assert "There is no saved game to resume in " in err
    assert "Traceback" not in err


def test_seats_humans_first_with_names() -> None:
    seats = make_seats(4, 2, "Zoe,Yan,Xi,Wu", "easy,hard")
    assert [(s.name, s.level) for s in seats] == [
        ("Zoe", None), ("Yan", None), ("Xi", "easy"), ("Wu", "hard"),
    ]  # fmt: skip
    with pytest.raises(LaunchError):
        make_seats(3, 1, None, "easy,,hard")


def test_history_command(capsys) -> None:
    assert main(["history"]) == 0
    assert capsys.readouterr().out.strip() == "No finished games yet."
    append_history(["You", "Ann"], [40, 90])
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "You won with 40. You 40, Ann 90." in out
    assert "1 finished game in all" in out


def test_play_without_a_terminal_is_a_sentence(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fivecrowns play reads single key presses, so it needs a terminal")


def test_history_refuses_last_0_on_standard_error(capsys) -> None:
    assert main(["history", "--last", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == "--last must be 1 or more, not 0."
    assert captured.out == ""


def test_history_skips_damaged_lines_and_says_how_many(capsys) -> None:
    from fivecrowns.storage.history import history_path

    append_history(["You", "Ann"], [40, 90])
    with history_path().open("a", encoding="utf-8") as handle:
        handle.write('{"date":"2026","players":["A","B"],"totals":[1]}\n')
        handle.write('{"date":"2026","players":["A"],"totals":["x"]}\n')
        handle.write("not json\n")
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "You won with 40. You 40, Ann 90." in out
    assert "1 finished game in all" in out
    assert out.rstrip().endswith("3 damaged lines in the history file were skipped.")


class _ClosedKeyboard:
    """Stands in for the terminal presentation: the keyboard closes at once."""

    def __init__(self, session, line_mode: bool = False) -> None:
        self.session = session

    def run(self) -> None:
        raise EOFError


def test_a_new_game_keeps_an_unfinished_save_aside_and_resume_previous_returns_to_it(
    tmp_path, capsys, monkeypatch
) -> None:
    from fivecrowns.storage import autosave as storage

    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    transcript = tmp_path / "said.txt"
    talk = ["--speech", "none", "--transcript", str(transcript)]
    assert main(["play", "--seed", "1", *talk]) == 1  # the keyboard closed: saved
    first = storage.autosave_path().read_text()
    assert storage.kept_games() == []
    assert main(["play", "--seed", "2", *talk]) == 1
    second = storage.autosave_path().read_text()
    assert second != first
    (kept,) = storage.kept_games()
    assert kept.read_text() == first
    said = transcript.read_text()
    assert f"An unfinished game was kept in {kept}. " in said
    assert "fivecrowns play --resume previous." in said
    capsys.readouterr()
    assert main(["play", "--resume", "previous", *talk]) == 1
    # the two games swapped places: neither is lost
    assert storage.autosave_path().read_text() == first
    assert [path.read_text() for path in storage.kept_games()] == [second]


def test_resume_previous_with_nothing_kept_aside_is_a_sentence(capsys) -> None:
    assert main(["play", "--resume", "previous"]) == 1
    assert capsys.readouterr().err.startswith("There is no game kept aside to resume in ")


class _ClosedBoard(_ClosedKeyboard):
    def __init__(self, session, line_mode: bool = False, render=None) -> None:
        self.session = session


def test_a_new_solitaire_game_keeps_an_unfinished_one_aside(tmp_path, monkeypatch) -> None:
    from fivecrowns.storage.autosave import kept_games
    from fivecrowns.ui.solitaire import solitaire_save_path

    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("fivecrowns.ui.app.Presentation", _ClosedBoard)
    transcript = tmp_path / "said.txt"
    talk = ["--speech", "none", "--transcript", str(transcript)]
    assert main(["solitaire", "--seed", "1", *talk]) == 1  # the keyboard closed: saved
    first = solitaire_save_path().read_text()
    assert main(["solitaire", "--seed", "2", *talk]) == 1
    second = solitaire_save_path().read_text()
    (kept,) = kept_games(solitaire_save_path())
    assert second != first and kept.read_text() == first
    said = transcript.read_text()
    assert f"An unfinished game was kept in {kept}. " in said
    assert "fivecrowns solitaire --resume previous." in said
    assert main(["solitaire", "--resume", "previous", *talk]) == 1
    assert solitaire_save_path().read_text() == first
    assert [path.read_text() for path in kept_games(solitaire_save_path())] == [second]


def test_line_mode_says_why_it_is_silent_and_how_to_hear_a_voice() -> None:
    import argparse

    from fivecrowns.ui.launch import LINE_MODE_SILENCE, _open_output

    chosen = argparse.Namespace(speech="none", line=True, transcript=None)
    output, reason = _open_output(chosen)
    output.close()
    assert reason.startswith("Speech: silence, as chosen.")
    defaulted = argparse.Namespace(speech=None, line=True, transcript=None)
    output, reason = _open_output(defaulted)
    output.close()
    assert reason.startswith(LINE_MODE_SILENCE)
    assert "--speech auto" in reason
