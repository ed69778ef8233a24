"""`fivecrowns solitaire` from the command line: a new game keeps an unfinished one aside."""

from __future__ import annotations

from fivecrowns.cli import main


class _ClosedKeyboard:
    """Stands in for the terminal presentation: the keyboard closes at once."""

    def __init__(self, session, line_mode: bool = False) -> None:
        self.session = session

    def run(self) -> None:
        raise EOFError


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
