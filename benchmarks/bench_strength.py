"""Strength of the computer players: one level against three of another.

    python benchmarks/bench_strength.py hard medium --games 1000 --seed 1 --workers 2
    python benchmarks/bench_strength.py lab_expert:ExpertBot hard --games 1000 --duplicate
    python benchmarks/bench_strength.py hint hard --games 1000 --duplicate --out r.json

plays GAMES four-player games (seat 1: the first level; seats 2-4: the
second), game g dealt from a fixed seed with seat g mod 4 dealing first, and
reports points per game for the lone player and for the mean of the other
three, their difference, and the relative difference with 95% confidence
intervals (normal interval on the per-game paired difference; percentile
bootstrap, 2,000 resamples, for the ratio). Writes JSON to --out.

``--duplicate`` also replays every deal with the seats swapped (seat 1: the
second level; seats 2-4: the first) and compares, deal by deal, the lone
player's points in the two series: the same cards, so most of the luck of the
deal cancels. ``--baseline`` also replays every deal with all four seats
playing the second level and compares, deal by deal, seat 1's points with the
first level there and with the second level there, the other three seats
unchanged (a replacement series: the two games are the same until seat 1
first plays differently, so it is the least noisy of the three; it measures
what swapping one seat's player saves, against that field). Each decision of
a seat playing the first level is timed (median, p99, max). The report is
rewritten after every finished chunk of games, so a run stopped early (a
deadline, a shared machine) still leaves honest figures for the games it
played; ``games`` says how many.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import time
from typing import Any

from _stats import commit, mean_interval, percentile, write_report
from fivecrowns.ai.arena import play_series

Row = tuple[int, list[int], list[int], list[float]]  # game number, totals, winners, lone times


def _chunk(args: tuple[list[str], int, int, int, str, str]) -> tuple[str, list[Row]]:
    specs, seed, first, count, label, timed_level = args
    rows: list[Row] = []
    for offset, result in enumerate(
        play_series(specs, count, seed, first_game=first, time_decisions=True)
    ):
        times = [
            t
            for seat, seat_times in enumerate(result.decision_times)
            if specs[seat] == timed_level
            for t in seat_times
        ]
        rows.append((first + offset, list(result.totals), list(result.winners), times))
    return label, rows


def _bootstrap(lone: list[float], field: list[float], rng: random.Random) -> list[float]:
    n = len(lone)
    ratios = []
    for _ in range(2000):
        sample = [rng.randrange(n) for _ in range(n)]
        a = sum(lone[i] for i in sample)
        b = sum(field[i] for i in sample)
        ratios.append(1 - a / b)
    ratios.sort()
    return [ratios[int(0.025 * 2000)], ratios[int(0.975 * 2000) - 1]]


def _series(rows: list[Row], lone_name: str, field_name: str) -> dict[str, Any]:
    lone = [float(totals[0]) for _, totals, _, _ in rows]
    field = [statistics.fmean(totals[1:]) for _, totals, _, _ in rows]
    diff = [a - b for a, b in zip(lone, field, strict=True)]
    n = len(rows)
    mean_diff, half = mean_interval(diff, 1.96) if n > 1 else (diff[0], float("nan"))
    wins = [0.0, 0.0]
    for _, _, winners, _ in rows:
        share = 1 / len(winners)
        for seat in winners:
            wins[0 if seat == 0 else 1] += share
    return {
        "lone": lone_name,
        "field": field_name,
        "games": n,
        "lone_mean": statistics.fmean(lone),
        "field_mean": statistics.fmean(field),
        "mean_difference": mean_diff,
        "difference_ci95": [mean_diff - half, mean_diff + half],
        "fewer_points_fraction": 1 - statistics.fmean(lone) / statistics.fmean(field),
        "fewer_points_ci95": _bootstrap(lone, field, random.Random(12345)) if n > 1 else None,
        "lone_win_share": wins[0] / n,
        "field_win_share_each": wins[1] / n / 3,
    }


def _times(rows: list[Row]) -> dict[str, Any]:
    times = [t * 1000 for _, _, _, seat_times in rows for t in seat_times]
    if not times:
        return {}
    return {
        "decisions": len(times),
        "median_ms": statistics.median(times),
        "p99_ms": percentile(times, 0.99),
        "max_ms": max(times),
    }


def _duplicate(
    straight: list[Row], swapped: list[Row], first: str, second: str
) -> dict[str, Any] | None:
    by_game = {game: totals for game, totals, _, _ in swapped}
    pairs = [(totals[0], by_game[game][0]) for game, totals, _, _ in straight if game in by_game]
    if len(pairs) < 2:
        return None
    diff = [float(a - b) for a, b in pairs]
    mean_diff, half = mean_interval(diff, 1.96)
    a = [float(p[0]) for p in pairs]
    b = [float(p[1]) for p in pairs]
    return {
        "deals": len(pairs),
        "what": f"per deal: {first} alone against three {second} (seat 1 points) minus "
        f"{second} alone against three {first} on the same deal (seat 1 points)",
        f"{first}_alone_mean": statistics.fmean(a),
        f"{second}_alone_mean": statistics.fmean(b),
        "mean_difference": mean_diff,
        "difference_ci95": [mean_diff - half, mean_diff + half],
        "fewer_points_fraction": 1 - statistics.fmean(a) / statistics.fmean(b),
        "fewer_points_ci95": _bootstrap(a, b, random.Random(54321)),
    }


def _replacement(
    straight: list[Row], baseline: list[Row], args: argparse.Namespace
) -> dict[str, Any] | None:
    by_game = {game: totals for game, totals, _, _ in baseline}
    pairs = [(totals, by_game[game]) for game, totals, _, _ in straight if game in by_game]
    if len(pairs) < 2:
        return None
    own = [float(a[0] - b[0]) for a, b in pairs]
    margin = [(a[0] - statistics.fmean(a[1:])) - (b[0] - statistics.fmean(b[1:])) for a, b in pairs]
    mean_own, half_own = mean_interval(own, 1.96)
    mean_margin, half_margin = mean_interval(margin, 1.96)
    first = [float(a[0]) for a, _ in pairs]
    second = [float(b[0]) for _, b in pairs]
    return {
        "deals": len(pairs),
        "what": f"per deal: seat 1 points with {args.lone} in seat 1 minus seat 1 points with "
        f"{args.field} in seat 1, the other three seats {args.field} in both games; "
        "'margin' is the same for seat 1 points minus the mean of the other three",
        f"{args.lone}_seat1_mean": statistics.fmean(first),
        f"{args.field}_seat1_mean": statistics.fmean(second),
        "mean_difference": mean_own,
        "difference_ci95": [mean_own - half_own, mean_own + half_own],
        "fewer_points_fraction": 1 - statistics.fmean(first) / statistics.fmean(second),
        "fewer_points_ci95": _bootstrap(first, second, random.Random(24680)),
        "margin_difference": mean_margin,
        "margin_difference_ci95": [mean_margin - half_margin, mean_margin + half_margin],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lone")
    parser.add_argument("field")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--duplicate", action="store_true", help="also the swapped series")
    parser.add_argument(
        "--baseline", action="store_true", help="also every deal with four of the second level"
    )
    parser.add_argument("--out")
    args = parser.parse_args()
    series = {"straight": [args.lone] + [args.field] * 3}
    if args.duplicate:
        series["swapped"] = [args.field] + [args.lone] * 3
    if args.baseline:
        series["baseline"] = [args.field] * 4
    jobs = [
        (specs, args.seed, first, min(args.chunk, args.games - first), label, args.lone)
        for first in range(0, args.games, args.chunk)
        for label, specs in series.items()
    ]
    start, cpu_start = time.perf_counter(), time.process_time()
    rows: dict[str, list[Row]] = {label: [] for label in series}
    workers = max(1, min(2, args.workers))  # the machine is shared: never more than 2
    with multiprocessing.Pool(workers) as pool:
        for label, done in pool.imap(_chunk, jobs):
            rows[label].extend(done)
            elapsed = time.perf_counter() - start
            counts = ", ".join(f"{name} {len(found)}" for name, found in rows.items())
            print(f"games: {counts}; {elapsed:.0f} s", file=sys.stderr, flush=True)
            if all(rows.values()):
                report = _report(args, rows, elapsed, cpu_start, workers)
                write_report(args.out, json.dumps(report, indent=2) + "\n")
    report = _report(args, rows, time.perf_counter() - start, cpu_start, workers)
    # why: the games run in worker processes; their CPU time is known once they have ended.
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    report["cpu_seconds_workers"] = children.ru_utime + children.ru_stime
    text = json.dumps(report, indent=2)
    print(text)
    write_report(args.out, text + "\n")
    return 0


def _report(
    args: argparse.Namespace,
    rows: dict[str, list[Row]],
    elapsed: float,
    cpu_start: float,
    workers: int,
) -> dict[str, Any]:
    straight = sorted(rows["straight"])
    report: dict[str, Any] = _series(straight, args.lone, args.field)
    report["seed"] = args.seed
    report["games_asked"] = args.games
    report[f"decision_times_{args.lone}"] = _times(straight)
    if "swapped" in rows:
        swapped = sorted(rows["swapped"])
        report["swapped"] = _series(swapped, args.field, args.lone)
        report["swapped"][f"decision_times_{args.lone}"] = _times(swapped)
        report["duplicate"] = _duplicate(straight, swapped, args.lone, args.field)
    if "baseline" in rows:
        report["replacement"] = _replacement(straight, sorted(rows["baseline"]), args)
    report.update(
        {
            "seconds": elapsed,
            "cpu_seconds_main_process": time.process_time() - cpu_start,
            "workers": workers,
            "commit": commit(),
            "load_average_at_end": os.getloadavg(),
        }
    )
    return report


if __name__ == "__main__":
    raise SystemExit(main())
