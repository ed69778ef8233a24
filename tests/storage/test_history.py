"""The history of finished games (storage/history.py): kept newest first, read from its end,
never glued or doubled (issue 16 items 9 and 10), damaged lines skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

from fivecrowns.cli import main
from fivecrowns.storage import history as game_history
from gamehelpers import DEEP


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


def test_history_is_kept_and_told_newest_first(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    game_history.append_history(["You", "Ann"], [120, 95], path)
    game_history.append_history(["You", "Ann", "Ben"], [80, 80, 99], path)
    with path.open("a") as handle:
        handle.write("garbage\n")
    games = game_history.read_history(path)
    assert len(games) == 2
    told = game_history.describe_history(games)
    assert told[0].endswith("You and Ann shared the win with 80. You 80, Ann 80, Ben 99.")
    assert told[1].endswith("Ann won with 95. You 120, Ann 95.")


def test_binary_or_deeply_nested_history_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    game_history.append_history(["You", "Ann"], [120, 95], path)
    with path.open("ab") as handle:
        handle.write(b"\xff\xfe binary\n" + DEEP.encode() + b"\n")
    game_history.append_history(["You", "Ann"], [70, 90], path)
    assert [game["totals"] for game in game_history.read_history(path)] == [[120, 95], [70, 90]]
