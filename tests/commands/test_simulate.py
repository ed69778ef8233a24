"""``fivecrowns simulate``: whole games between computer players."""

from __future__ import annotations

import argparse
import json

import pytest

from fivecrowns.ai import load_bot
from fivecrowns.cli import DEFAULT_COMMAND, main
from fivecrowns.commands.simulate import configure, simulate
from fivecrowns.core.game import Game
from fivecrowns.core.views import player_view


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", *args, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_simulate_json_reports_real_games(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--players", "3", "--games", "2", "--seed", "4")
    assert data["games"] == 2
    seats = data["seats"]
    assert isinstance(seats, list) and len(seats) == 3
    assert {seat["ai"] for seat in seats} == {"medium"}
    assert sum(seat["wins"] for seat in seats) == pytest.approx(2.0)
    assert isinstance(data["games_per_second"], float) and data["games_per_second"] > 0
    # The means are those of the games the seed stands for, played here independently:
    # game g is dealt from seed * 1_000_003 + g and seat g mod 3 deals first.
    bot = load_bot("medium")
    totals = [0, 0, 0]
    for number in range(2):
        game = Game(
            ["Seat 1", "Seat 2", "Seat 3"], seed=4 * 1_000_003 + number, first_dealer=number % 3
        )
        assert game.dealer == number % 3
        while not game.is_over:
            seat = game.current_player
            game.apply(seat, bot.decide(player_view(game, seat)).move)
        totals = [a + b for a, b in zip(totals, game.totals, strict=True)]
    assert [seat["mean_score"] for seat in seats] == [total / 2 for total in totals]


def test_the_same_seed_gives_the_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    first = _json(capsys, "--players", "2", "--games", "2", "--seed", "9")
    second = _json(capsys, "--players", "2", "--games", "2", "--seed", "9")
    other = _json(capsys, "--players", "2", "--games", "2", "--seed", "10")
    assert first["seats"] == second["seats"]
    assert first["seats"] != other["seats"]


def test_shared_wins_count_as_fractions() -> None:
    result = simulate(players=2, games=6, seed=3)
    assert sum(result.wins) == pytest.approx(6)
    assert all(win * 2 == int(win * 2) for win in result.wins)


def test_simulate_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--players", "2", "--games", "1", "--seed", "1", "--ai", "simple"]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("1 game, 2 players, seed 1.\n")
    assert "Seat 1 (simple): mean score" in out and "games per second" in out
    assert DEFAULT_COMMAND == "play"  # a bare `fivecrowns` starts a game (issue 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "The number of games must be 1 or more, not 0."),
        (["--players", "1"], "A game needs 2 to 7 players"),
        (["--players", "4", "--decks", "1"], "One deck is enough only for 2 or 3 players, not 4."),
    ],
)
def test_bad_options_get_a_sentence_and_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["simulate", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_large_tables_run_as_the_help_says(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    configure(parser)
    assert "8 to 14 may need more --decks" in " ".join(parser.format_help().split())
    assert main(["simulate", "--players", "8", "--games", "1", "--ai", "simple"]) == 0
    assert capsys.readouterr().out.startswith("1 game, 8 players")
    assert main(["simulate", "--players", "9", "--games", "1", "--ai", "simple"]) == 2
    assert capsys.readouterr().err.strip() == "9 players need at least 3 decks."
    assert main(["simulate", "--players", "9", "--decks", "3", "--games", "1"]) == 0
