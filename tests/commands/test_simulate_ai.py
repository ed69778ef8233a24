"""``fivecrowns simulate --ai``: one computer player per seat, fair seats, JSON, progress bar."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from typing import Any

import pytest

from fivecrowns.ai import arena
from fivecrowns.cli import main
from fivecrowns.core.game import Game


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar off a terminal
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_one_level_per_seat_and_the_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--ai", "hard,medium,easy", "--games", "2", "--seed", "3")
    assert set(data) == {"games", "seats", "games_per_second"}
    assert data["games"] == 2
    assert [seat["ai"] for seat in data["seats"]] == ["hard", "medium", "easy"]
    for seat in data["seats"]:
        assert set(seat) == {"ai", "mean_score", "wins"}
        assert isinstance(seat["mean_score"], float) and isinstance(seat["wins"], float)
    assert sum(seat["wins"] for seat in data["seats"]) == pytest.approx(2)
    assert data["games_per_second"] > 0


def test_one_name_fills_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--ai", "easy", "--players", "3", "--games", "1")
    assert [seat["ai"] for seat in data["seats"]] == ["easy"] * 3


def test_the_same_seed_replays_the_same_results_with_every_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--ai", "easy,medium,hard", "--games", "1", "--seed", "8")
    assert _json(capsys, *args)["seats"] == _json(capsys, *args)["seats"]


def test_the_first_dealer_moves_one_seat_on_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    dealers: list[int] = []

    class Recording(Game):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            dealers.append(self.first_dealer)

    monkeypatch.setattr(arena, "Game", Recording)
    arena.play_series(["medium"] * 3, 6, seed=2)
    assert dealers == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize(
    ("ai", "message"),
    [
        ("hard,wizard", "'wizard' is not a computer player: use easy, medium, hard, simple"),
        ("hard,medium", "--ai names 2 computer players but there are 4 seats"),
        ("no_such_module_xyz:Bot", "Cannot import module 'no_such_module_xyz'"),
        ("fivecrowns.ai.medium:Nobody", "Module 'fivecrowns.ai.medium' has no class 'Nobody'."),
        ("fivecrowns.ai.memory:Memory", "has no decide(view) method, so it cannot play."),
        ("hard,,medium", "has an empty name"),
    ],
)
def test_a_bad_ai_name_gets_a_sentence_and_status_2(
    capsys: pytest.CaptureFixture[str], ai: str, message: str
) -> None:
    players = ["--players", "4"] if ai == "hard,medium" else []
    assert main(["simulate", "--ai", ai, *players, "--games", "1"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""
    assert "Traceback" not in captured.err


def test_a_progress_bar_runs_on_a_terminal_and_not_on_a_pipe() -> None:
    command = [sys.executable, "-m", "fivecrowns", "simulate", "--ai", "medium,medium"]
    command += ["--games", "3", "--json"]
    piped = subprocess.run(command, capture_output=True, text=True, check=True)
    assert piped.stderr == ""
    leader, follower = pty.openpty()
    # why: tqdm draws nothing on a terminal 0 columns wide, and a new pty has no size.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    shown = b""
    try:
        while True:  # read while the command runs; EIO means it closed the terminal
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert process.stdout is not None
    out = process.stdout.read()
    assert process.wait(timeout=120) == 0
    assert json.loads(out)["games"] == 3
    assert re.search(rb"\d of 3 games, \d+ percent", shown), shown


def test_without_tqdm_simulate_runs_on_a_terminal_without_a_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # tqdm is the optional extra "progress"; a player's install does not have it.
    from fivecrowns.commands import simulate

    monkeypatch.setitem(sys.modules, "tqdm", None)  # makes `import tqdm` raise ImportError
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert simulate._progress_bar(3) is None


BROKEN_BOTS = """
from fivecrowns.ai import Bot, Decision
from fivecrowns.core.cards import parse_card
from fivecrowns.core.moves import Discard


class Crashing(Bot):
    def decide(self, view):
        raise RuntimeError("my bug")


class Cheating(Bot):
    def decide(self, view):
        return Decision(Discard(parse_card("jk")), "Discarded a joker I do not have.")


class Mute:
    def decide(self, view):
        return "draw"
"""


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("Crashing", "Seat 1 (broken_bots:Crashing) could not decide: RuntimeError('my bug')."),
        ("Cheating", "Seat 1 (broken_bots:Cheating) made an illegal move: "),
        ("Mute", "Seat 1 (broken_bots:Mute) answered 'draw', which is not a Decision with a move."),
    ],
)
def test_a_broken_plug_in_gets_a_sentence_not_a_traceback(
    tmp_path: Any, bot: str, message: str
) -> None:
    (tmp_path / "broken_bots.py").write_text(BROKEN_BOTS, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    command = [sys.executable, "-m", "fivecrowns", "simulate", "--ai", f"broken_bots:{bot},medium"]
    result = subprocess.run(
        [*command, "--games", "1"], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_the_hint_player_plays_what_the_hint_says_which_is_hard(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 27 item 2: ``hint`` follows the hint, and the hint is hard's move, so a table
    with a hint-follower in seat 1 scores exactly as the same deals with hard there."""
    args = ("--games", "2", "--seed", "5")
    follower = _json(capsys, "--ai", "hint,hard,hard,hard", *args)["seats"]
    hard = _json(capsys, "--ai", "hard,hard,hard,hard", *args)["seats"]
    assert follower[0]["ai"] == "hint"
    assert [seat["mean_score"] for seat in follower] == [seat["mean_score"] for seat in hard]
    assert [seat["wins"] for seat in follower] == [seat["wins"] for seat in hard]
