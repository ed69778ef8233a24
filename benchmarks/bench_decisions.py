"""Time per decision of the computer players, in whole four-player games.

    python benchmarks/bench_decisions.py --games 100 --seed 1

For each level L in (medium, hard) it plays GAMES four-player games, L in seat 1
against three medium players (the strength benchmark's tables), game g dealt
from the fixed seed with seat g mod 4 dealing first, and times every decision
of seat 1 with time.perf_counter around ``bot.decide(view)`` (building the view
is not counted; the solver caches are emptied before every game, so each game
starts cold). One process, so one core. Prints count, median, p90, p99 and max
in milliseconds, per level and per phase kind (draw / discard / last turn), and
for all decisions the process's CPU time too (``cpu``: on a shared machine a
long wall time can be time spent waiting for the core).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

from _stats import percentile, write_report
from fivecrowns.ai.arena import game_seed
from fivecrowns.ai.evaluate import clear_caches
from fivecrowns.ai.loader import load_bot
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds import solver as melds
from fivecrowns.core.views import player_view

KINDS = {
    Phase.DRAW: "draw",
    Phase.DISCARD: "discard",
    Phase.LAST_DRAW: "last turn",
    Phase.LAST_LAY_DOWN: "last turn",
    Phase.LAST_DISCARD: "last turn",
}


def summary(values: list[float]) -> dict[str, float]:
    ms = [value * 1000 for value in values]
    return {
        "count": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p90_ms": round(percentile(ms, 0.90), 3),
        "p99_ms": round(percentile(ms, 0.99), 3),
        "max_ms": round(max(ms), 3),
    }


def measure(level: str, games: int, seed: int, players: int = 4) -> dict[str, object]:
    times: dict[str, list[float]] = {"all": []}
    for number in range(games):
        clear_caches()
        bots = [load_bot(level, seed=number)] + [load_bot("medium") for _ in range(players - 1)]
        game = Game(
            [f"Seat {seat + 1}" for seat in range(players)],
            seed=game_seed(seed, number),
            first_dealer=number % players,
        )
        while not game.is_over:
            seat = game.current_player
            view = player_view(game, seat)
            start, cpu_start = time.perf_counter(), time.process_time()
            decision = bots[seat].decide(view)
            elapsed = time.perf_counter() - start
            if seat == 0:
                times.setdefault("cpu", []).append(time.process_time() - cpu_start)
                times["all"].append(elapsed)
                times.setdefault(KINDS[view.phase], []).append(elapsed)
            game.apply(seat, decision.move)
    return {kind: summary(values) for kind, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="medium,hard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--out")
    parser.add_argument(
        "--pure-python",
        action="store_true",
        help="switch the solver's compiled search off (what an install without a C compiler runs)",
    )
    args = parser.parse_args()
    if args.pure_python:
        melds._C = None
    report: dict[str, object] = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "solver": "pure Python" if melds._C is None else "compiled search",
        "games": args.games,
        "seed": args.seed,
        "table": f"the level in seat 1 against medium players, {args.players} players",
    }
    for level in args.levels.split(","):
        start = time.perf_counter()
        report[level] = measure(level, args.games, args.seed, args.players)
        report[f"{level}_seconds"] = round(time.perf_counter() - start, 1)
    report["load_average_at_end"] = os.getloadavg()
    text = json.dumps(report, indent=2)
    print(text)
    write_report(args.out, text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
