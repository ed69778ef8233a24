"""Issue 16 items 9 and 10: the history file is read from its end, never glued, never doubled."""

from __future__ import annotations

import json

from fivecrowns.cli import main
from fivecrowns.storage import history as game_history


def test_a_history_without_a_final_newline_is_not_glued_to_the_next_result() -> None:
    path = game_history.history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"date": "2026", "players": ["A", "B"], "totals": [1, 2]}))
    game_history.append_history(["Ann", "Bo"], [5, 9])
    games, skipped = game_history.read_history_counted()
    assert skipped == 0 and [game["totals"] for game in games] == [[1, 2], [5, 9]]


def test_the_same_game_recorded_again_after_a_kill_is_kept_once() -> None:
    game_history.append_history(["Ann", "Bo"], [5, 9], game_id="abc")
    game_history.append_history(["Ann", "Bo"], [5, 9], game_id="abc")  # resumed, finished again
    game_history.append_history(["Ann", "Bo"], [5, 9], game_id="def")  # a new game, same result
    assert len(game_history.read_history()) == 2


def test_a_huge_history_is_read_from_its_end(monkeypatch, capsys) -> None:
    monkeypatch.setattr(game_history, "HISTORY_TAIL_BYTES", 2_000)
    for number in range(100):
        game_history.append_history(["Ann", "Bo"], [number, 200])
    found = game_history.read_history_tail()
    assert found.older_not_read and found.skipped == 0
    assert found.games[-1]["totals"] == [99, 200] and len(found.games) < 100
    assert main(["history", "--last", "1"]) == 0
    out = capsys.readouterr().out
    assert "Ann won with 99." in out and "so older ones were left out." in out


def test_an_unreadable_history_is_said_not_taken_for_none(capsys) -> None:
    path = game_history.history_path()
    path.mkdir(parents=True)  # a folder where the file should be
    assert main(["history"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"The history file {path} cannot be read")
    assert "No finished games yet" not in err


def test_past_games_in_the_game_say_an_unreadable_history_too() -> None:
    from fivecrowns.ui.session import Seat
    from ui_support import table

    path = game_history.history_path()
    path.mkdir(parents=True)  # a folder where the file should be
    with table([Seat("You"), Seat("Ann", "medium")], seed=3) as t:
        before = t.state()
        t.press("S")
        said = t.spoken()[-1]
        assert said.startswith(f"The history file {path} cannot be read")
        assert "No finished games yet" not in said
        assert t.state() == before
