"""Solver speed: the solver before issue 15 and today's, on the same hands in the same run.

Run it pinned to one core:

    taskset -c 0 .venv/bin/python benchmarks/bench_solver.py --out benchmarks/results/solver.txt

For every hand class (dealt from the 116-card deck, or dense: a few ranks and
suits, many duplicates), every size from 3 to 14 cards, and without and with
the mandatory discard, ``--hands`` seeded hands are each solved once by
:mod:`fivecrowns.core.melds.reference` (the solver before issue 15) and once by
:mod:`fivecrowns.core.melds.solver`, alternating which goes first, with garbage collection
off and ``time.perf_counter_ns`` around the one public call
(``best_arrangement`` or ``best_with_discard``: the whole arrangement is built).
The figure per hand is the ratio old time / new time (above 1: the new one is
faster); rows give its median, 10th percentile, minimum and maximum, and the
new solver's median, p99 and max in milliseconds, and the "ceiling" (see the header).

"new" is :mod:`fivecrowns.core.melds.solver` as installed: with its compiled search when the install
built it (the header says which), and the last columns time the same hands once more with
the compiled search switched off (``melds._C = None``): the pure-Python search that an
install without a C compiler runs, against the same old times.

Two settings of the new solver's tables (``fivecrowns.core.melds.solver`` keeps a bounded
memo of solved states and a table of meld options between calls; the old one
starts empty on every call):

- ``warm``: the tables fill as the run goes, as they do in a game (no hand is
  solved by the new solver before its timed call, so no answer is looked up whole).
- ``cold``: ``melds.clear_caches()`` before every call of the new solver, so it
  starts as empty as the old one.

Then the worst hand named in issue 15, and the slowest hand a random search
over dense 14-card hands finds (``--search`` candidates), each the fastest of
5 calls, cold and warm. Wall time and CPU time (``time.process_time``) of the
whole run are printed with the load average, since the machine is shared.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from _stats import commit, percentile, write_report
from fivecrowns.core.cards import JOKER, Card, Rank, new_deck, parse_cards
from fivecrowns.core.melds import reference as melds_reference
from fivecrowns.core.melds import solver as melds

Solver = Callable[[Sequence[Card], Rank], object]
WORST_ISSUE_HAND = "3h 6c 7st 7st 7h 7h 7c 7c 7sp 7sp 7d 7d 10c Ksp"


def deal_hand(
    rng: random.Random, size: int, max_wilds: int, dense: float = 0.5
) -> tuple[list[Card], Rank]:
    """A hand of ``size`` cards with at most ``max_wilds`` wilds (jokers or the wild rank).

    With probability ``dense`` it comes from a few ranks in a few suits only.
    """
    wild_rank = Rank(rng.randint(3, 13))
    deck = new_deck(2)
    if rng.random() < dense:
        ranks = set(rng.sample(range(3, 14), rng.randint(2, 6)))
        suits = set(rng.sample(range(5), rng.randint(1, 3)))
        deck = [
            card
            for card in deck
            if card.is_joker
            or card.rank == wild_rank
            or (int(card.rank or 0) in ranks and card.suit is not None and card.suit.index in suits)
        ]
    wilds = [card for card in deck if card == JOKER or card.rank == wild_rank]
    naturals = [card for card in deck if card not in wilds]
    wild_count = rng.randint(0, min(max_wilds, size, len(wilds)))
    natural_count = min(size - wild_count, len(naturals))
    hand = rng.sample(wilds, wild_count) + rng.sample(naturals, natural_count)
    while len(hand) < size:  # a tiny dense deck: top up with more wilds
        hand.append(JOKER)
    rng.shuffle(hand)
    return hand, wild_rank


def python_only(solver: Solver) -> Solver:
    """The same solver with the compiled search switched off for the call."""

    def solve(hand: Sequence[Card], wild_rank: Rank) -> object:
        compiled, melds._C = melds._C, None
        try:
            return solver(hand, wild_rank)
        finally:
            melds._C = compiled

    return solve


def pair_times(
    old: Solver, new: Solver, hands: Sequence[tuple[list[Card], Rank]], cold: bool
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(old ns, new ns, new again ns, pure-Python ns) per hand, each solved once by old and
    new, alternating which goes first; then the new solver once more on the same hand, every
    state now known (the cost of reading the hand, following the choices and building the
    arrangement); then the pure-Python search on it (its own memo has not seen the hand)."""
    old_times, new_times, again_times, python_times = [], [], [], []
    python = python_only(new)
    gc.disable()  # why: a collection in the middle of one call is noise, not the solver
    try:
        for index, (hand, wild_rank) in enumerate(hands):
            pair = []
            for solver in (old, new) if index % 2 == 0 else (new, old):
                if cold and solver is new:
                    melds.clear_caches(tables=False)
                start = time.perf_counter_ns()
                solver(hand, wild_rank)
                pair.append((solver is new, time.perf_counter_ns() - start))
            for is_new, elapsed in pair:
                (new_times if is_new else old_times).append(elapsed)
            start = time.perf_counter_ns()
            new(hand, wild_rank)
            again_times.append(time.perf_counter_ns() - start)
            if cold:
                melds.clear_caches(tables=False)
            start = time.perf_counter_ns()
            python(hand, wild_rank)
            python_times.append(time.perf_counter_ns() - start)
    finally:
        gc.enable()
    return old_times, new_times, again_times, python_times


def fastest(
    solver: Solver,
    hand: list[Card],
    wild_rank: Rank,
    cold: bool,
    repeat: int = 5,
    tables: bool = False,
) -> int:
    runs = []
    for _ in range(repeat):
        if cold:
            melds.clear_caches(tables=tables)
        start = time.perf_counter_ns()
        solver(hand, wild_rank)
        runs.append(time.perf_counter_ns() - start)
    return min(runs)


def ms(value: float) -> str:
    return f"{value / 1e6:8.3f}"


def search_worst(rng: random.Random, candidates: int) -> tuple[list[Card], Rank, int]:
    """The dense 14-card hand the new solver takes longest on (nothing kept), of ``candidates``."""
    worst: tuple[list[Card], Rank, int] = ([], Rank.THREE, -1)
    for _ in range(candidates):
        wild_rank = Rank(rng.randint(3, 13))
        ranks = rng.sample([r for r in range(3, 14) if r != wild_rank], rng.randint(1, 4))
        pool = [card for card in new_deck(2) if card.rank is not None and int(card.rank) in ranks]
        hand = rng.sample(pool, min(len(pool), rng.randint(9, 14)))
        while len(hand) < 14:
            hand.append(rng.choice([JOKER, Card(wild_rank, hand[0].suit)]))
        # why nothing kept and the faster of 2: a single short call mostly measures the machine
        elapsed = fastest(melds.best_with_discard, hand, wild_rank, True, repeat=2, tables=True)
        if elapsed > worst[2]:
            worst = (hand, wild_rank, elapsed)
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per row (default 400)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-wilds", type=int, default=6)
    parser.add_argument(
        "--search", type=int, default=3000, help="hands the worst-case search tries"
    )
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args(argv)
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    try:
        cores = sorted(os.sched_getaffinity(0))
    except AttributeError:
        cores = []
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "Solver benchmark: the solver before issue 15 (old) and today's (new), "
        "same hands, same run.",
        f"Commit {commit()}; Python {platform.python_implementation()} "
        f"{platform.python_version()}; "
        f"cores allowed {cores}; load average {load:.2f} at start; {args.hands} seeded hands "
        f"per row (seed {args.seed}), 0 to {args.max_wilds} wilds; whole arrangement built.",
        "new: fivecrowns.core.melds.solver with "
        + (
            "its compiled search (fivecrowns.core.melds._melds_c, source "
            f"{melds._C.SOURCE_SHA256[:12]})"
            if melds._C is not None
            else "NO compiled search (this install did not build it): pure Python"
        )
        + "; python: the same with the compiled search switched off.",
        "speed-up = old time / new time per hand (median, p10, min, max); "
        "times in ms; new solver tables warm or cold (see the docstring).",
        "ceiling = median of old time / a second call of the new solver on the same hand, every "
        "state known: the speed-up no faster search could beat while the rest of a call "
        "(reading the cards, following the choices, building the arrangement) stays as it is.",
    ]
    print("\n".join(lines), flush=True)
    header = (
        f"{'class':>6} {'size':>4} {'discard':>7} {'tables':>6} | speed-up: {'median':>6} "
        f"{'p10':>6} {'min':>6} {'max':>7} | old median | new: {'median':>8} {'p99':>8} {'max':>8}"
        " | ceiling | python: median    p10"
    )
    lines.append(header)
    print(header, flush=True)
    rng = random.Random(args.seed)
    summary: dict[tuple[str, str], list[float]] = {}
    for cold in (False, True):
        tables = "cold" if cold else "warm"
        for label, dense in (("random", 0.0), ("dense", 1.0)):
            for size in range(3, 15):
                for discard in (False, True):
                    hands = [deal_hand(rng, size, args.max_wilds, dense) for _ in range(args.hands)]
                    old: Solver = (
                        melds_reference.best_with_discard
                        if discard
                        else melds_reference.best_arrangement
                    )
                    new: Solver = melds.best_with_discard if discard else melds.best_arrangement
                    warm_up = [deal_hand(rng, size, args.max_wilds, dense) for _ in range(20)]
                    pair_times(old, new, warm_up, cold)  # other hands: none is solved twice
                    old_times, new_times, again_times, python_times = pair_times(
                        old, new, hands, cold
                    )
                    ratios = [o / n for o, n in zip(old_times, new_times, strict=True)]
                    python_ratios = [o / n for o, n in zip(old_times, python_times, strict=True)]
                    ceiling = [o / n for o, n in zip(old_times, again_times, strict=True)]
                    summary.setdefault((label, tables), []).append(statistics.median(ratios))
                    summary.setdefault((label, tables + ", pure Python"), []).append(
                        statistics.median(python_ratios)
                    )
                    row = (
                        f"{label:>6} {size:>4} {'yes' if discard else 'no':>7} {tables:>6} | "
                        f"speed-up: {statistics.median(ratios):6.2f} "
                        f"{percentile(ratios, 0.10):6.2f} {min(ratios):6.2f} {max(ratios):7.2f} | "
                        f"{ms(statistics.median(old_times))}   | new: "
                        f"{ms(statistics.median(new_times))} {ms(percentile(new_times, 0.99))} "
                        f"{ms(max(new_times))} | {statistics.median(ceiling):7.2f} | "
                        f"python: {statistics.median(python_ratios):6.2f} "
                        f"{percentile(python_ratios, 0.10):6.2f}"
                    )
                    lines.append(row)
                    print(row, flush=True)
    for (label, tables), medians in summary.items():
        row = (
            f"Lowest median speed-up over the 24 rows of {label} hands, tables {tables}: "
            f"{min(medians):.2f}"
        )
        lines.append(row)
        print(row, flush=True)
    worst_hand = parse_cards(WORST_ISSUE_HAND)
    found_hand, found_wild, _ = search_worst(rng, args.search)
    for name, hand, wild in (
        (f"issue 15's worst hand ({WORST_ISSUE_HAND}, 3s wild)", worst_hand, Rank.THREE),
        (
            f"slowest of {args.search} searched dense 14-card hands "
            f"({' '.join(card.token for card in found_hand)}, {found_wild.plural} wild)",
            found_hand,
            found_wild,
        ),
    ):
        for discard in (False, True):
            old = melds_reference.best_with_discard if discard else melds_reference.best_arrangement
            new = melds.best_with_discard if discard else melds.best_arrangement
            row = (
                f"{name}, discard {'yes' if discard else 'no'}: "
                f"old {ms(fastest(old, hand, wild, True))} ms, "
                f"new with nothing kept {ms(fastest(new, hand, wild, True, tables=True))} ms, "
                f"new cold {ms(fastest(new, hand, wild, True))} ms, "
                f"new warm {ms(fastest(new, hand, wild, False))} ms, "
                f"pure Python cold {ms(fastest(python_only(new), hand, wild, True))} ms "
                "(fastest of 5)"
            )
            lines.append(row)
            print(row, flush=True)
    row = (
        f"Whole run: wall {time.perf_counter() - wall_start:.1f} s, "
        f"CPU {time.process_time() - cpu_start:.1f} s."
    )
    lines.append(row)
    print(row)
    write_report(args.out, "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
