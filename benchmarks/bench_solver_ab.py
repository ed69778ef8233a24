"""Two versions of the solver (``core/melds/solver.py``) side by side: is a change faster?

    git show main:src/fivecrowns/core/melds/solver.py > /tmp/melds_main.py
    taskset -c 1 .venv/bin/python benchmarks/bench_solver_ab.py /tmp/melds_main.py \
        src/fivecrowns/core/melds/solver.py --out benchmarks/results/solver_ab.txt

Both files are loaded the same way, as separate modules (neither is the installed
``fivecrowns.core.melds.solver``), and each hand is solved once by each, the order alternating from
hand to hand: a harness that always ran one version first, or ran the installed module
against a copy, was measured to favour one side by 15 to 20 percent on identical code.
Give the same file twice to see the harness's own bias (it should print ratios near 1).
The figure per hand is time(A) / time(B) (above 1: B is faster); rows are bench_solver.py's
random and dense hands, tables warm and cold, without and with the discard.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Sequence
from types import ModuleType

from _stats import commit, percentile, write_report
from bench_solver import deal_hand


def load(name: str, path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bench_solver_ab: cannot load {path}.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # why: dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="the first solver.py (the baseline)")
    parser.add_argument("b", help="the second solver.py")
    parser.add_argument("--hands", type=int, default=300, help="hands per row (default 300)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args(argv)
    first, second = load("melds_a", args.a), load("melds_b", args.b)
    wall, cpu = time.perf_counter(), time.process_time()
    rng = random.Random(args.seed)
    lines = [
        f"A = {args.a}, B = {args.b}; commit {commit()}; {args.hands} seeded hands per row "
        f"(seed {args.seed}); per hand time(A) / time(B), median and p10.",
    ]
    print(lines[0], flush=True)
    medians = []
    gc.disable()  # why: a collection in the middle of one call is noise, not the solver
    try:
        for cold in (False, True):
            for label, dense in (("random", 0.0), ("dense", 1.0)):
                for size in (3, 6, 10, 14):
                    for discard in (False, True):
                        ratios = []
                        name = "best_with_discard" if discard else "best_arrangement"
                        for index in range(args.hands):
                            hand, wild_rank = deal_hand(rng, size, 6, dense)
                            times = {}
                            order = (first, second) if index % 2 else (second, first)
                            for module in order:
                                if cold:
                                    module.clear_caches(tables=False)
                                start = time.perf_counter_ns()
                                getattr(module, name)(hand, wild_rank)
                                times[module] = time.perf_counter_ns() - start
                            ratios.append(times[first] / times[second])
                        medians.append(statistics.median(ratios))
                        row = (
                            f"{label:>6} {size:>2} discard {'yes' if discard else 'no ':3} "
                            f"tables {'cold' if cold else 'warm'}: A/B median "
                            f"{medians[-1]:5.2f}, p10 {percentile(ratios, 0.10):5.2f}"
                        )
                        lines.append(row)
                        print(row, flush=True)
    finally:
        gc.enable()
    row = (
        f"Median over the {len(medians)} rows {statistics.median(medians):.3f}, lowest "
        f"{min(medians):.3f}, highest {max(medians):.3f}. Wall "
        f"{time.perf_counter() - wall:.1f} s, CPU {time.process_time() - cpu:.1f} s."
    )
    lines.append(row)
    print(row)
    write_report(args.out, "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
