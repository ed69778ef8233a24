"""Strength of the computer players: one level against three of another.

    python benchmarks/bench_strength.py hard medium --games 1000 --seed 1 --workers 2

plays GAMES four-player games (seat 1: the first level; seats 2-4: the
second), game g dealt from a fixed seed with seat g mod 4 dealing first, and
reports points per game for the lone player and for the mean of the other
three, their difference, and the relative difference with 95% confidence
intervals (normal interval on the per-game paired difference; percentile
bootstrap, 2,000 resamples, for the ratio). Writes JSON to --out.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time

from _stats import commit, mean_interval, write_report
from fivecrowns.ai.arena import play_series


def _chunk(args: tuple[list[str], int, int, int]) -> list[tuple[list[int], list[int]]]:
    specs, seed, first, count = args
    return [
        (list(r.totals), list(r.winners)) for r in play_series(specs, count, seed, first_game=first)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lone")
    parser.add_argument("field")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--out")
    args = parser.parse_args()
    specs = [args.lone] + [args.field] * 3
    jobs = [
        (specs, args.seed, first, min(args.chunk, args.games - first))
        for first in range(0, args.games, args.chunk)
    ]
    start = time.perf_counter()
    rows: list[tuple[list[int], list[int]]] = []
    workers = max(1, min(2, args.workers))  # the machine is shared: never more than 2
    with multiprocessing.Pool(workers) as pool:
        for done in pool.imap(_chunk, jobs):
            rows.extend(done)
            print(f"{len(rows)} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    elapsed = time.perf_counter() - start
    lone = [totals[0] for totals, _ in rows]
    field = [statistics.fmean(totals[1:]) for totals, _ in rows]
    diff = [a - b for a, b in zip(lone, field, strict=True)]
    n = len(rows)
    mean_diff, half = mean_interval(diff, 1.96)
    rng = random.Random(12345)
    ratios = []
    for _ in range(2000):
        sample = [rng.randrange(n) for _ in range(n)]
        a = sum(lone[i] for i in sample)
        b = sum(field[i] for i in sample)
        ratios.append(1 - a / b)
    ratios.sort()
    wins = [0.0, 0.0]
    for _, winners in rows:
        share = 1 / len(winners)
        for seat in winners:
            wins[0 if seat == 0 else 1] += share
    report = {
        "lone": args.lone,
        "field": args.field,
        "games": n,
        "seed": args.seed,
        "lone_mean": statistics.fmean(lone),
        "field_mean": statistics.fmean(field),
        "mean_difference": mean_diff,
        "difference_ci95": [mean_diff - half, mean_diff + half],
        "fewer_points_fraction": 1 - statistics.fmean(lone) / statistics.fmean(field),
        "fewer_points_ci95": [ratios[int(0.025 * 2000)], ratios[int(0.975 * 2000) - 1]],
        "lone_win_share": wins[0] / n,
        "field_win_share_each": wins[1] / n / 3,
        "seconds": elapsed,
        "games_per_second": n / elapsed,
        "workers": workers,
        "commit": commit(),
        "load_average_at_end": os.getloadavg(),
    }
    text = json.dumps(report, indent=2)
    print(text)
    write_report(args.out, text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
