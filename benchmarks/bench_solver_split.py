"""Would splitting a hand into groups that cannot meld together make the solver search less?

Issue 15 suggested solving each group of cards apart (cards of one rank, or of one suit
within 4 ranks, can share a meld; a group is a connected set of such cards). This counts the
states a memoised search visits on the same random hands three ways, each exact (the values
are asserted equal):

- ``today``: the order of :mod:`fivecrowns.core.melds.solver` (the lowest natural card left first);
- ``groups``: the same search, but each group of the hand is finished before the next one
  starts (the lowest card of the first group with cards left), so a later group is searched
  once per way of leaving the earlier groups rather than once per mix of them;
- ``loose``: cards with no other card they could share a meld with are taken out and added
  back in closed form (the most expensive ones each get 2 wilds, the next one is the
  discard), and only the rest is searched.

States are what a pure-Python search pays for (about 2 microseconds each); the table shows
how many of them each way needs. Wilds and jokers join any group; all three ways share them
through the count of wilds left, which is part of every state.

    .venv/bin/python benchmarks/bench_solver_split.py --out benchmarks/results/solver_split.txt
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence

from _stats import commit, write_report
from bench_solver import deal_hand
from fivecrowns.core.melds import solver as melds

Value = Callable[[int, int, int, int], int]


def neighbours(a: int, b: int) -> bool:
    """Whether natural codes ``a`` and ``b`` can be in one meld of at most 5 cards."""
    same_rank = a // 5 == b // 5
    return same_rank or (a % 5 == b % 5 and abs(a // 5 - b // 5) <= 4)


def codes_of(x: int) -> list[int]:
    return [code for code in range(55) if (x >> (2 * code)) & 3]


def cards_in(x: int) -> int:
    return sum((x >> (2 * code)) & 3 for code in range(55))


def groups(x: int) -> list[int]:
    """The groups of state ``x`` as masks of its fields, by their lowest card."""
    codes = codes_of(x)
    parent = {code: code for code in codes}

    def find(code: int) -> int:
        while parent[code] != code:
            code = parent[code]
        return code

    for index, a in enumerate(codes):
        for b in codes[index + 1 :]:
            if neighbours(a, b):
                parent[find(a)] = find(b)
    masks: dict[int, int] = {}
    for code in codes:
        masks[find(code)] = masks.get(find(code), 0) | (3 << (2 * code))
    return sorted(masks.values(), key=lambda mask: mask & -mask)


def search(cheap: int, order: Sequence[int] | None) -> tuple[Value, dict[tuple[int, ...], int]]:
    """A memoised search of the solver's recursion; ``order``: group masks to finish in turn."""
    memo: dict[tuple[int, ...], int] = {}

    def value(x: int, wilds: int, owed: int, melded: int) -> int:
        key = (x, wilds, owed, melded)
        if key in memo:
            return memo[key]
        if not x:
            memo[key] = melds._terminal(wilds, owed, melded, cheap)
            return memo[key]
        part = x
        for mask in order or ():
            if x & mask:
                part = x & mask
                break
        code = ((part & -part).bit_length() - 1) >> 1
        best = melds._INFINITY
        for sub, need, _kind, _naturals, _index in melds._build_options(code, x >> (2 * code)):
            if need > wilds:
                break
            best = min(best, value(x - sub, wilds - need, owed, 1))
            if best == 0:
                break
        one = melds._ONE[code]
        if best and owed:
            best = min(best, value(x - one, wilds, 0, melded))
        if best > melds._POINTS[code]:
            best = min(best, melds._POINTS[code] + value(x - one, wilds, owed, melded))
        memo[key] = best
        return best

    return value, memo


def loose_split(x: int, wilds: int, owed: int, cheap: int) -> tuple[int, int, int]:
    """(value, states, loose cards): loose cards in closed form, the rest searched."""
    codes = codes_of(x)
    loose = [
        a
        for a in codes
        if (x >> (2 * a)) & 3 == 1 and not any(b != a and neighbours(a, b) for b in codes)
    ]
    rest = x - sum(1 << (2 * code) for code in loose)
    points = sorted((code // 5 + 3 for code in loose), reverse=True)
    value, memo = search(cheap, None)
    best = melds._INFINITY
    for melded in range(min(len(points), wilds // 2) + 1):  # the most expensive get 2 wilds
        flag = 1 if melded else 0
        best = min(best, value(rest, wilds - 2 * melded, owed, flag) + sum(points[melded:]))
        if owed and melded < len(points):  # the next most expensive is the discard
            best = min(best, value(rest, wilds - 2 * melded, 0, flag) + sum(points[melded + 1 :]))
    return best, len(memo), len(loose)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per row (default 400)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    lines = [
        "States a memoised search visits on the same random hands (bench_solver.py's random "
        "class, 0 to 6 wilds), three exact ways; median and mean per hand.",
        f"Commit {commit()}; {args.hands} seeded hands per row (seed {args.seed}).",
        f"{'size':>4} {'discard':>7} | {'today':>13} | {'groups first':>13} | "
        f"{'loose apart':>13} | groups: median, largest median | loose cards median",
    ]
    print("\n".join(lines), flush=True)
    for size in range(3, 15):
        for owed in (0, 1):
            counts: dict[str, list[int]] = {"today": [], "groups": [], "loose": []}
            sizes, largest, loose_counts = [], [], []
            for _ in range(args.hands):
                cards, wild_rank = deal_hand(rng, size, 6, 0.0)
                hand = melds._hand(cards, wild_rank)
                assert hand is not None
                masks = groups(hand.start)
                today, memo = search(hand.cheap, None)
                expected = today(hand.start, hand.wilds, owed, 0)
                counts["today"].append(len(memo))
                grouped, memo = search(hand.cheap, masks)
                assert grouped(hand.start, hand.wilds, owed, 0) == expected
                counts["groups"].append(len(memo))
                value, states, loose = loose_split(hand.start, hand.wilds, owed, hand.cheap)
                assert value == expected
                counts["loose"].append(states)
                sizes.append(len(masks))
                largest.append(max((cards_in(mask & hand.start) for mask in masks), default=0))
                loose_counts.append(loose)
            cells = " | ".join(
                f"{statistics.median(counts[name]):5.1f} {statistics.fmean(counts[name]):7.1f}"
                for name in ("today", "groups", "loose")
            )
            row = (
                f"{size:>4} {'yes' if owed else 'no':>7} | {cells} | "
                f"{statistics.median(sizes):4.1f} {statistics.median(largest):4.1f} | "
                f"{statistics.median(loose_counts):4.1f}"
            )
            lines.append(row)
            print(row, flush=True)
    write_report(args.out, "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
