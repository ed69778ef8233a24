"""``fivecrowns solitaire``: Five Crowns Solitaire, played by you or by the computer.

    fivecrowns solitaire --auto --games 1000 --seed 1 --strategy best --json

``--auto`` lets a computer strategy play ``--games`` deals; deal k (counting from
0) is dealt with seed ``--seed`` + k, so ``--seed 7 --games 1`` replays deal 7 of a
series started with ``--seed 0``. ``--json`` prints ``{"games": G, "wins": W,
"win_rate": float, "mean_points_left": float}``; without it a sentence says the
same with a 95% confidence interval. Strategies: ``greedy`` (puts each card where
it lowers the leftover points most) and ``best`` (the default; it also counts the
cards still in the stock). See docs/solitaire.md.
"""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["configure", "run"]

_STRATEGIES = ("greedy", "best")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--auto", action="store_true", help="let the computer play many deals and report"
    )
    parser.add_argument("--games", type=int, default=100, help="deals to play with --auto")
    parser.add_argument(
        "--seed", type=int, default=None, help="the same seed deals the same cards (default 1)"
    )
    parser.add_argument(
        "--strategy",
        choices=_STRATEGIES,
        default="best",
        help="computer strategy for --auto: greedy or best (default best)",
    )
    parser.add_argument("--json", action="store_true", help="with --auto: print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.auto:
        return _run_auto(args)
    print(
        "Playing solitaire with keys and speech is not available yet; "
        "use --auto to let the computer play.",
        file=sys.stderr,
    )
    return 2


def _run_auto(args: argparse.Namespace) -> int:
    from fivecrowns.solitaire_ai import auto_play, load_strategy

    if args.games < 1:
        print(f"--games must be at least 1, not {args.games}.", file=sys.stderr)
        return 2
    seed = 1 if args.seed is None else args.seed
    report = auto_play(args.games, seed, load_strategy(args.strategy))
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    low, high = report.confidence_interval()
    deals = "deal" if report.games == 1 else "deals"
    print(
        f"Won {report.wins} of {report.games} {deals} with the {args.strategy} strategy: "
        f"{report.win_rate:.1%} (95% confidence {low:.1%} to {high:.1%}). "
        f"Mean points left: {report.mean_points_left:.1f}. "
        f"Seeds {seed} to {seed + report.games - 1}."
    )
    return 0
