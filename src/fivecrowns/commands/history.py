"""``fivecrowns history``: the results of finished games, newest first."""

from __future__ import annotations

import argparse
import sys

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--last", type=int, default=10, help="how many games to show (default 10)")


OLDER_NOT_READ = (
    "The newest {count} finished games were read; the history file {path} is very large, "
    "so older ones were left out."
)


def run(args: argparse.Namespace) -> int:
    from fivecrowns.ui.storage import (
        describe_history,
        history_path,
        read_history_tail,
        skipped_words,
    )

    if args.last < 1:
        print(f"--last must be 1 or more, not {args.last}.", file=sys.stderr)
        return 2
    found = read_history_tail()
    if found.problem:
        print(found.problem, file=sys.stderr)
        return 1
    games, skipped = found.games, found.skipped
    for sentence in describe_history(games, last=args.last):
        print(sentence)
    if games and found.older_not_read:
        print(OLDER_NOT_READ.format(count=len(games), path=history_path()))
    elif games:
        count = "1 finished game" if len(games) == 1 else f"{len(games)} finished games"
        print(f"{count} in all, kept in {history_path()}.")
    if skipped:
        print(skipped_words(skipped))
    return 0
