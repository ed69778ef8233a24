"""`fivecrowns history` from the command line: the finished games, how many, and the
damaged lines or the unreadable file said in a sentence.
"""

from __future__ import annotations

from fivecrowns.cli import main
from fivecrowns.storage import history as game_history


def test_an_unreadable_history_is_said_not_taken_for_none(capsys) -> None:
    path = game_history.history_path()
    path.mkdir(parents=True)  # a folder where the file should be
    assert main(["history"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"The history file {path} cannot be read")
    assert "No finished games yet" not in err
