"""`fivecrowns history` from the command line: the finished games, how many, and the
damaged lines or the unreadable file said in a sentence.
"""

from __future__ import annotations

from fivecrowns.cli import main
from fivecrowns.storage import history as game_history
from fivecrowns.storage.history import append_history


def test_an_unreadable_history_is_said_not_taken_for_none(capsys) -> None:
    path = game_history.history_path()
    path.mkdir(parents=True)  # a folder where the file should be
    assert main(["history"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"The history file {path} cannot be read")
    assert "No finished games yet" not in err


def test_history_command(capsys) -> None:
    assert main(["history"]) == 0
    assert capsys.readouterr().out.strip() == "No finished games yet."
    append_history(["You", "Ann"], [40, 90])
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "You won with 40. You 40, Ann 90." in out
    assert "1 finished game in all" in out


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
