"""Whole-game throughput: games per second of ``fivecrowns simulate`` (simple players).

Run: .venv/bin/python benchmarks/bench_simulate.py [--games N]
Plays N games (default 40) for each table size 2, 4 and 7 with seed 1, in this
one process on one core, and prints games per second and moves per second; the
committed output is in benchmarks/results/simulate.txt. Not part of the tests.
"""

from __future__ import annotations

import argparse
import platform
import time

from fivecrowns.ai.simple import SimplePlayer
from fivecrowns.core.game import Game
from fivecrowns.core.views import player_view


def run_table(players: int, games: int, seed: int) -> tuple[float, float, float]:
    """Seconds, games per second and moves per second for ``games`` games."""
    bot = SimplePlayer()
    names = [f"Seat {seat + 1}" for seat in range(players)]
    moves = 0
    start = time.perf_counter()
    for number in range(games):
        game = Game(names, seed=seed * 1_000_003 + number)
        while not game.is_over:
            seat = game.current_player
            game.apply(seat, bot.choose_move(player_view(game, seat)))
        moves += len(game.moves)
    seconds = time.perf_counter() - start
    return seconds, games / seconds, moves / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"fivecrowns simulate throughput, {platform.python_implementation()} "
        f"{platform.python_version()}, {args.games} games per table, seed {args.seed}"
    )
    for players in (2, 4, 7):
        seconds, per_game, per_move = run_table(players, args.games, args.seed)
        print(
            f"{players} players: {per_game:.2f} games per second "
            f"({seconds:.1f} s, {per_move:.0f} moves per second)"
        )


if __name__ == "__main__":
    main()
