"""Solitaire strategies: win rates of greedy and best over the same seeded deals.

    python benchmarks/bench_solitaire.py --games 10000 --seed 0 --workers 2 \\
        --out benchmarks/results/solitaire.txt

Deal k is ``Solitaire.deal(seed + k)`` for k in 0..GAMES-1, and every strategy
plays the same deals. Reports for each strategy the wins, the win rate with a
95% Wilson interval, the mean points left in open hands and the time per deal;
then the paired difference best minus greedy (per-deal wins) with a 95% normal
interval. Runs in chunks on --workers processes and prints progress as it goes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import sys
import time
from datetime import UTC, datetime

from _stats import commit, mean_interval, write_report
from fivecrowns.core.solitaire.player import load_strategy, play_game, wilson_interval
from fivecrowns.core.solitaire.rules import Phase, Solitaire

STRATEGIES = ("greedy", "best")


def _chunk(job: tuple[str, int, int]) -> tuple[str, int, list[tuple[int, int]], float]:
    """Play deals first..first+count-1 with one strategy: (won 0/1, points left) each."""
    name, first, count = job
    strategy = load_strategy(name)
    start = time.process_time()
    outcomes = []
    for seed in range(first, first + count):
        game = play_game(Solitaire.deal(seed), strategy)
        outcomes.append((int(game.phase is Phase.WON), game.points_left()))
    return name, first, outcomes, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2 here)")
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--out", help="write the report to this file as well")
    args = parser.parse_args()
    jobs = [
        (name, args.seed + first, min(args.chunk, args.games - first))
        for name in STRATEGIES
        for first in range(0, args.games, args.chunk)
    ]
    measured = commit()  # now: the work tree may change while the deals are played
    results: dict[str, dict[int, tuple[int, int]]] = {name: {} for name in STRATEGIES}
    cpu = dict.fromkeys(STRATEGIES, 0.0)
    started = time.monotonic()
    with multiprocessing.Pool(args.workers) as pool:
        for done, (name, first, outcomes, seconds) in enumerate(
            pool.imap_unordered(_chunk, jobs), 1
        ):
            for offset, outcome in enumerate(outcomes):
                results[name][first + offset] = outcome
            cpu[name] += seconds
            wins = sum(won for won, _ in results[name].values())
            print(
                f"{done}/{len(jobs)} chunks, {time.monotonic() - started:.0f} s: "
                f"{name} {wins}/{len(results[name])} won",
                flush=True,
            )
    wall = time.monotonic() - started
    lines = [
        f"measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on the shared 2-core dev machine "
        f"(other developers' jobs were running), commit {measured}",
        f"Five Crowns Solitaire, {args.games} deals: seeds {args.seed} to "
        f"{args.seed + args.games - 1} (Solitaire.deal(seed)), the same deals for each strategy; "
        f"CPython {platform.python_version()}, {args.workers} worker processes, "
        f"{wall:.0f} s wall clock",
    ]
    for name in STRATEGIES:
        outcomes = list(results[name].values())
        wins = sum(won for won, _ in outcomes)
        low, high = wilson_interval(wins, len(outcomes))
        points = sum(left for _, left in outcomes) / len(outcomes)
        lines.append(
            f"{name}: won {wins} of {len(outcomes)} = {wins / len(outcomes):.2%} "
            f"(95% CI {low:.2%} to {high:.2%}, Wilson); mean points left {points:.2f}; "
            f"{cpu[name] / len(outcomes) * 1000:.0f} ms CPU per deal"
        )
    seeds = sorted(results["best"])
    differences = [results["best"][s][0] - results["greedy"][s][0] for s in seeds]
    mean, half = mean_interval(differences, 1.959964)
    only_best = sum(d == 1 for d in differences)
    only_greedy = sum(d == -1 for d in differences)
    lines.append(
        f"best minus greedy (paired per deal): {mean:+.2%} (95% CI {mean - half:+.2%} to "
        f"{mean + half:+.2%}); deals won only by best {only_best}, only by greedy {only_greedy}"
    )
    report = "\n".join(lines) + "\n"
    print(report, end="")
    write_report(args.out, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
