"""``fivecrowns play``: a new game (or --resume the saved one) with keys and speech."""

from __future__ import annotations

import argparse
import sys

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=3, help="players at the table (default 3)")
    parser.add_argument("--names", help="seat names in order, separated by commas")
    parser.add_argument(
        "--humans",
        type=int,
        default=1,
        help="human seats at this keyboard (hot seat when 2 or more)",
    )
    parser.add_argument(
        "--ai",
        default=None,  # why None: on --resume, only a plug-in typed here may play (issue 16)
        help="computer players: easy, medium, hard, or package.module:Class; one for all, "
        "or one per computer seat separated by commas (default medium)",
    )
    parser.add_argument("--seed", type=int, help="shuffle seed, to replay the same deal")
    parser.add_argument(
        "--speech",
        choices=("auto", "screenreader", "tts", "print", "none"),
        help="how messages are spoken (default: the settings file, else auto; "
        "in --line mode the console text is read by your screen reader, so default none)",
    )
    parser.add_argument("--transcript", help="append every message to this file")
    parser.add_argument(
        "--line", action="store_true", help="line mode: every message a plain line, no redraws"
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="last",
        choices=("last", "previous"),
        help="continue the saved game; --resume previous continues the unfinished game "
        "kept aside when a new game was started",
    )
    parser.add_argument(
        "--delay",
        type=float,
        help="seconds before each computer player's move (default 1, or the settings file)",
    )
    parser.add_argument("--verbosity", choices=("brief", "normal", "full"))


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from fivecrowns.errors import FiveCrownsError
    from fivecrowns.ui.launch import LaunchError, launch

    # why: the saved game keeps its own deal and table; a new --seed or --names would be ignored
    for option, value in (("--seed", args.seed), ("--names", args.names)):
        if args.resume and value is not None:
            return _fail(f"Give --resume or {option}, not both: the saved game keeps its own.")
    try:
        return launch(args)
    except LaunchError as error:
        return _fail(str(error))
    except FiveCrownsError as error:
        return _fail(str(error))
