"""``fivecrowns solve``: words, JSON, JSON lines, and bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fivecrowns.cli import main


def test_solve_prints_the_arrangement_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--wild", "10", "8c", "8c", "8sp", "5h", "jk", "7h", "Kd"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "10s are wild; 7 cards in hand.",
        "A run of 5, 6, 7 of hearts using a joker for the 6; a book of 8s; "
        "left over: King of diamonds, 13 points.",
        "Leftover points: 13.",
    ]


def test_solve_with_discard_says_how_to_go_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--round", "11", "--discard", "3st", "4st", "5st", "6st"]) == 0
    out = capsys.readouterr().out
    assert "Leftover points: 0." in out
    assert "You can go out by discarding the 3 of stars or 6 of stars." in out
    assert main(["solve", "--round", "11", "--discard", "3st", "4st", "5st"]) == 0
    out = capsys.readouterr().out
    assert "Leftover points: 7." in out
    assert "You cannot go out with this hand." in out


def test_solve_json_keys_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--wild", "K", "--discard", "--json", "5st", "3st", "4st"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == {
        "cards": ["5st", "3st", "4st"],
        "wild": "K",
        "leftover_points": 7,
        "melds": [],
        "leftover": ["3st", "4st"],
        "discard": "5st",
        "can_go_out": False,
    }
    assert main(["solve", "--wild", "K", "--json", "5st", "3st", "4st"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["can_go_out"] is True
    assert result["discard"] is None
    assert result["melds"] == [["3st", "4st", "5st"]]


def test_solve_default_wild_rank_follows_the_hand_size(capsys: pytest.CaptureFixture[str]) -> None:
    # 5 cards in hand: round 3, 5s wild. 6 cards after drawing: also round 3.
    assert main(["solve", "--json", "5h", "9c", "9d", "Qd", "Kd"]) == 0
    assert json.loads(capsys.readouterr().out)["wild"] == "5"
    assert main(["solve", "--json", "--discard", "5h", "9c", "9d", "Qd", "Kd", "3c"]) == 0
    assert json.loads(capsys.readouterr().out)["wild"] == "5"
    # Fewer than 3 cards is still round 1 (3s wild); more than 13 still round 11.
    assert main(["solve", "--json", "5h"]) == 0
    assert json.loads(capsys.readouterr().out)["wild"] == "3"
    assert main(["solve", "5h"]) == 0
    assert capsys.readouterr().out.startswith("3s are wild; 1 card in hand.\n")


def test_solve_accepts_long_forms(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--wild", "K", "--json", "7", "of", "hearts", "8h", "joker"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == ["7h", "8h", "jk"]


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["solve", "--wild", "K", "7x"], "'7x' is not a card"),
        (["solve", "--round", "12", "7h"], "There is no round 12"),
        (["solve", "--round", "two", "7h"], "'two' is not a round"),
        (["solve", "--wild", "2", "7h"], "'2' is not a rank"),
        (["solve", "--wild", "K"], "Give the cards to solve"),
        (["solve", "--wild", "K", "--round", "3", "7h"], "not allowed with"),
        (["solve", "--wild", "K", "--jsonl", "7h"], "come from standard input"),
        (["solve", "--json", "--jsonl"], "not allowed with"),
    ],
)
def test_solve_bad_input_gets_one_line_and_status_2(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as stop:
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert reason in lines[0]
    assert "Traceback" not in captured.err


def test_solve_jsonl_one_object_per_line_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "3st 4st 5st\n7h 8x\n\njk jk Kd 9c\n8c 8sp 8d Qd\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["solve", "--wild", "K", "--discard", "--jsonl"]) == 2
    captured = capsys.readouterr()
    results = [json.loads(line) for line in captured.out.splitlines()]
    assert len(results) == 5
    assert results[0]["leftover_points"] == 7
    assert results[0]["discard"] == "5st"
    assert "'8x' is not a card" in results[1]["error"]
    assert results[2] == {"error": "There are no cards to solve."}
    assert results[3]["can_go_out"] is True
    assert results[3]["melds"] == [["9c", "jk", "jk"]]
    assert results[3]["discard"] == "Kd"
    assert results[4]["cards"] == ["8c", "8sp", "8d", "Qd"]
    assert results[4]["discard"] == "Qd"
    assert results[4]["can_go_out"] is True


def test_solve_jsonl_all_good_lines_exit_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("3st 4st 5st\n9c 9d\n"))
    assert main(["solve", "--wild", "K", "--jsonl"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [result["leftover_points"] for result in results] == [0, 18]
    assert [result["can_go_out"] for result in results] == [True, False]


def test_solve_example_in_docs_is_true(capsys: pytest.CaptureFixture[str]) -> None:
    docs = (Path(__file__).parents[2] / "docs" / "solver.md").read_text(encoding="utf-8")
    assert main(["solve", "--round", "3", "7h", "8h", "9h", "jk", "Qd"]) == 0
    out = capsys.readouterr().out
    assert "fivecrowns solve --round 3 7h 8h 9h jk Qd" in docs
    assert out in docs
