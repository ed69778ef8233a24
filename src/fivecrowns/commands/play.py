"""``fivecrowns play``: a new game (or --resume the saved one) with keys and speech."""

from __future__ import annotations

import argparse
import sys

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        default=3,
        metavar=_("PLAYERS"),
        help=_("players at the table (default 3)"),
    )
    parser.add_argument(
        "--names", metavar=_("NAMES"), help=_("seat names in order, separated by commas")
    )
    parser.add_argument(
        "--humans",
        type=int,
        default=1,
        metavar=_("HUMANS"),
        help=_("human seats at this keyboard (hot seat when 2 or more)"),
    )
    parser.add_argument(
        "--ai",
        default=None,  # why None: on --resume, only a plug-in typed here may play (issue 16)
        metavar=_("AI"),
        help=_(
            "computer players: easy, medium, hard, simple, or package.module:Class; one for all, "
            "or one per computer seat separated by commas (default medium)"
        ),
    )
    parser.add_argument(
        "--seed", type=int, metavar=_("SEED"), help=_("shuffle seed, to replay the same deal")
    )
    parser.add_argument(
        "--speech",
        choices=("auto", "screenreader", "tts", "print", "none"),
        help=_(
            "how messages are spoken (default: the settings file, else auto; "
            "in --line mode the console text is read by your screen reader, so default none)"
        ),
    )
    parser.add_argument(
        "--transcript", metavar=_("TRANSCRIPT"), help=_("append every message to this file")
    )
    parser.add_argument(
        "--sounds",
        metavar=_("PACK"),
        help=_(
            "the sound pack: default, or a folder in the sounds folder of the game's data "
            "folder (default: the settings file)"
        ),
    )
    parser.add_argument(
        "--line", action="store_true", help=_("line mode: every message a plain line, no redraws")
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="last",
        metavar="last|previous|list|N",
        help=_(
            "continue the saved game; --resume previous: the unfinished game kept aside "
            "when a new game was started; --resume list: every unfinished game, numbered; "
            "--resume N: number N of that list"
        ),
    )
    parser.add_argument(
        "--delay",
        type=float,
        metavar=_("DELAY"),
        help=_("seconds before each computer player's move (default 1, or the settings file)"),
    )
    parser.add_argument("--verbosity", choices=("brief", "normal", "full"))


def _fail(message: str, status: int = 2) -> int:
    print(message, file=sys.stderr)
    return status


RESUME_CHOICE = N_(
    "--resume takes last, previous, list or a number from --resume list, not '{choice}'."
)


def resume_choice_problem(choice: str | None) -> str | None:
    """A sentence when ``--resume CHOICE`` is none of last, previous, list or a number."""
    if choice is None or choice in ("last", "previous", "list"):
        return None
    if choice.isdigit() and len(choice) < 6:
        return None
    return _(RESUME_CHOICE).format(choice=choice[:40])


def run(args: argparse.Namespace) -> int:
    from fivecrowns.ai.loader import BotLoadError
    from fivecrowns.core.errors import FiveCrownsError
    from fivecrowns.storage.locks import DataFolderBusy
    from fivecrowns.ui.launch import LaunchError, launch, list_unfinished

    problem = resume_choice_problem(args.resume)
    if problem:
        return _fail(problem)
    if args.resume == "list":
        print("\n".join(list_unfinished()))
        return 0

    # why: the saved game keeps its own deal and table; a new --seed or --names would be ignored
    for option, value in (("--seed", args.seed), ("--names", args.names)):
        if args.resume and value is not None:
            return _fail(
                _("Give --resume or {option}, not both: the saved game keeps its own.").format(
                    option=option
                )
            )
    try:
        return launch(args)
    except DataFolderBusy as error:
        print(error, file=sys.stderr)
        return 1  # why 1: a run-time refusal, not a usage error
    except (LaunchError, BotLoadError) as error:
        return _fail(str(error))  # a usage error: 2
    except FiveCrownsError as error:
        return _fail(str(error), 1)  # a missing or damaged save, no terminal: run time
