"""The ``fivecrowns`` command: a thin dispatcher over ``fivecrowns.commands``.

Each subcommand lives in its own module under ``fivecrowns.commands`` with two
functions, ``configure(parser)`` and ``run(args) -> int``, so that work on one
command never touches another. Command modules import heavy libraries (speech,
prompt_toolkit, liblouis) inside ``run`` only, so ``fivecrowns --help`` stays fast.

Exit status, for every command: 0 done; 1 a run-time failure (a missing or damaged
save, no terminal, a file that cannot be written, liblouis missing, a bug); 2 a
usage error (an unknown option, a value out of range, options that do not go
together); 130 stopped with Control+C. Each failure prints one sentence to
standard error and no traceback; a bug's traceback goes to errors.log
(:mod:`fivecrowns.storage.errorlog`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from fivecrowns.i18n import LANGUAGE_NAMES, LANGUAGES, N_
from fivecrowns.i18n import gettext as _

__all__ = ["BUG", "COMMANDS", "DEFAULT_COMMAND", "build_parser", "installed_version", "main"]

BUG = N_("Sorry, fivecrowns {command} failed: {error}. The details are in {path}.")

# name -> (module under fivecrowns.commands, one-line help). Order is the help order.
COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": (
        "simulate",
        N_("Play whole games between computer players; print scores and speed."),
    ),
    "export": (
        "export",
        N_("Export a hand, melds, the score sheet or the game log as text or braille."),
    ),
    "speech": (
        "speech",
        N_("Check speech, braille and sound: list the backends, speak a test."),
    ),
    "solve": ("solve", N_("Arrange a hand into books and runs with the least leftover points.")),
    "solitaire": (
        "solitaire",
        N_("Five Crowns Solitaire: play it with keys and speech, or --auto for the computer."),
    ),
    "play": (
        "play",
        N_("Play a game with keys and speech (the default): full screen, or --line."),
    ),
    "history": ("history", N_("The results of finished games, newest first.")),
    "serve": ("serve", N_("Run a game server that players join from their own computers.")),
    "join": ("join", N_("Play or watch at a game server, typing commands line by line.")),
}

# What a bare ``fivecrowns`` runs. The front-end issue makes this "play".
DEFAULT_COMMAND = "play"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivecrowns",
        description=_(
            "Five Crowns for everyone: play by keyboard and speech, or watch the screen."
        ),
    )
    _one_line_errors(parser)
    _language_option(parser)
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"fivecrowns.commands.{module_name}")
        command_parser = sub.add_parser(name, help=_(help_text), description=_(help_text))
        _one_line_errors(command_parser)
        _language_option(command_parser)
        module.configure(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


LANGUAGE_HELP = N_(
    "The language the game speaks and writes: {choices}. Default: the setting, else the system's."
)


def _language_option(parser: argparse.ArgumentParser) -> None:
    # why on every parser: "fivecrowns play --language es" and "fivecrowns --language es
    # --help" both work; cli.main reads the value before argparse does (fivecrowns.language)
    choices = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help=_(LANGUAGE_HELP).format(choices=choices),
    )


def installed_version() -> str:
    """The version of the installed package (written once, in pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fivecrowns")
    except PackageNotFoundError:
        return _("unknown (not installed: run it from an installed copy)")


USAGE_ERROR = N_("{prog}: {message}. See {prog} --help.")


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """A bad option gets one line and status 2, not argparse's usage block plus a line.

    why: a screen reader reads the whole usage block before it reaches the reason.
    """

    def error(message: str) -> NoReturn:
        print(_(USAGE_ERROR).format(prog=parser.prog, message=message), file=sys.stderr)
        raise SystemExit(2)

    setattr(parser, "error", error)  # noqa: B010


def _without_language(arguments: list[str]) -> list[str]:
    """The arguments with ``--language X`` (or ``--language=X``) left out, to find the command.

    >>> _without_language(["--language", "es", "--help"]), _without_language(["--language=es"])
    (['--help'], [])
    """
    rest: list[str] = []
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument == "--language":
            skip = True
        elif not argument.startswith("--language="):
            rest.append(argument)
    return rest


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    from fivecrowns.language import start

    problem = start(arguments)
    if problem:
        print(problem, file=sys.stderr)
    # why: "--language es" may come before the command, and alone with --help it still
    # asks for the top-level help, so it is set aside when looking for the command
    rest = _without_language(arguments)
    wants_default = not rest or rest[0].startswith("-")
    alone = (["-h"], ["--help"], ["--version"])
    if wants_default and rest not in alone and DEFAULT_COMMAND in COMMANDS:
        arguments.insert(0, DEFAULT_COMMAND)
    parser = build_parser()
    args = parser.parse_args(arguments)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 0
    try:
        result: int = args._run(args)
    except KeyboardInterrupt:
        print(_("Stopped."), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # why: the reader closed the pipe (`| head`); point stdout at devnull so that
        # Python's own flush at exit does not raise again (the recipe in the signal docs).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as error:  # why: a bug gets a sentence and a log entry, not a traceback
        from fivecrowns.storage.errorlog import error_log_path, log_error

        path = log_error(f"fivecrowns {args.command} failed", error) or error_log_path()
        name = type(error).__name__
        print(_(BUG).format(command=args.command, error=name, path=path), file=sys.stderr)
        return 1
    return result
