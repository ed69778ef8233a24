"""``fivecrowns history``: the results of finished games, newest first."""

from __future__ import annotations

import argparse
import sys

from fivecrowns.i18n import format_number, ngettext
from fivecrowns.i18n import gettext as _

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--last",
        type=int,
        default=10,
        metavar=_("LAST"),
        help=_("how many games to show (default 10)"),
    )


def run(args: argparse.Namespace) -> int:
    from fivecrowns.storage.history import (
        describe_history,
        history_path,
        read_history_tail,
        skipped_words,
    )

    if args.last < 1:
        print(_("--last must be 1 or more, not {last}.").format(last=args.last), file=sys.stderr)
        return 2
    found = read_history_tail()
    if found.problem:
        print(found.problem, file=sys.stderr)
        return 1
    games, skipped = found.games, found.skipped
    for sentence in describe_history(games, last=args.last):
        print(sentence)
    if games and found.older_not_read:
        older = ngettext(
            "The newest finished game was read; the history file {path} is very large, "
            "so older ones were left out.",
            "The newest {count} finished games were read; the history file {path} is very "
            "large, so older ones were left out.",
            len(games),
        )
        print(older.format(count=format_number(len(games)), path=history_path()))
    elif games:
        kept = ngettext(
            "1 finished game in all, kept in {path}.",
            "{count} finished games in all, kept in {path}.",
            len(games),
        )
        print(kept.format(count=format_number(len(games)), path=history_path()))
    if skipped:
        print(skipped_words(skipped))
    return 0
