"""`fivecrowns play` from the command line: bad options are sentences, a missing save and no
terminal are run-time failures, and a new game keeps an unfinished one aside."""

from __future__ import annotations

import pytest

from fivecrowns.cli import DEFAULT_COMMAND, main


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


def test_play_without_a_terminal_is_a_sentence(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fivecrowns play reads single key presses, so it needs a terminal")


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
