"""How long the review of a round (Shift+R; the server's ``ask`` review) takes to work out.

Run: nice -n 10 .venv/bin/python benchmarks/bench_review.py [--games N]
Plays N whole games (default 20) of four ``easy`` players (the level with the most choices
to review) and reviews every seat's every round, cold (the solver's caches cleared before
each game), in this one process on one core. Prints wall and CPU time per review: the
median, the 99th percentile and the worst, and the round 11 reviews alone (the longest
rounds). The server answers ``ask`` on its event loop, so this is how long one review can
hold up the other tables there (a second ask for the same round is kept and costs nothing).
The committed output is in benchmarks/results/review.txt. Not part of the tests.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from fivecrowns.ai import load_bot
from fivecrowns.ai.evaluate import clear_caches
from fivecrowns.ai.review import review_round
from fivecrowns.core.game import Game
from fivecrowns.core.views import player_view


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    walls: list[float] = []
    cpus: list[float] = []
    last_walls: list[float] = []
    last_cpus: list[float] = []
    misses = 0
    for number in range(args.games):
        bots = [load_bot("easy", seed=seat) for seat in range(4)]
        game = Game([f"Seat {seat + 1}" for seat in range(4)], seed=args.seed * 1000 + number)
        while not game.is_over:
            seat = game.current_player
            game.apply(seat, bots[seat].decide(player_view(game, seat)).move)
        clear_caches()
        for round_number in range(1, 12):
            for seat in range(4):
                wall, cpu = time.perf_counter(), time.process_time()
                found = review_round(game, seat, round_number)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                assert found is not None
                misses += len(found)
                walls.append(wall)
                cpus.append(cpu)
                if round_number == 11:
                    last_walls.append(wall)
                    last_cpus.append(cpu)
    print(
        f"review of a round, {platform.python_implementation()} {platform.python_version()}, "
        f"{args.games} games of 4 easy players, seed {args.seed}: {len(walls)} reviews, "
        f"{misses} choices found"
    )
    for name, wall, cpu in (("every round", walls, cpus), ("round 11", last_walls, last_cpus)):
        print(
            f"{name}: median {statistics.median(wall) * 1000:.1f} ms wall "
            f"({statistics.median(cpu) * 1000:.1f} ms CPU), 99th percentile "
            f"{percentile(wall, 0.99) * 1000:.1f} ms wall ({percentile(cpu, 0.99) * 1000:.1f} ms "
            f"CPU), worst {max(wall) * 1000:.1f} ms wall ({max(cpu) * 1000:.1f} ms CPU)"
        )


if __name__ == "__main__":
    main()
