"""``fivecrowns history``: the results of finished games, newest first."""

from __future__ import annotations

import argparse
import sys

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--last", type=int, default=10, help="how many games to show (default 10)")


def run(args: argparse.Namespace) -> int:
    from fivecrowns.ui.storage import (
        describe_history,
        history_path,
        read_history_counted,
        skipped_words,
    )

    if args.last < 1:
        print(f"--last must be 1 or more, not {args.last}.", file=sys.stderr)
        return 2
    games, skipped = read_history_counted()
    for sentence in describe_history(games, last=args.last):
        print(sentence)
    if games:
        count = "1 finished game" if len(games) == 1 else f"{len(games)} finished games"
        print(f"{count} in all, kept in {history_path()}.")
    if skipped:
        print(skipped_words(skipped))
    return 0
