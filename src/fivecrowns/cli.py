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
(:mod:`fivecrowns.errorlog`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

__all__ = ["BUG", "COMMANDS", "DEFAULT_COMMAND", "build_parser", "installed_version", "main"]

BUG = "Sorry, fivecrowns {command} failed: {error}. The details are in {path}."

# name -> (module under fivecrowns.commands, one-line help). Order is the help order.
COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": ("simulate", "Play whole games between computer players; print scores and speed."),
    "export": (
        "export",
        "Export a hand, melds, the score sheet or the game log as text or braille.",
    ),
    "speech": ("speech", "Check speech, braille and sound: list the backends, speak a test."),
    "solve": ("solve", "Arrange a hand into books and runs with the least leftover points."),
    "solitaire": (
        "solitaire",
        "Five Crowns Solitaire: play it with keys and speech, or --auto for the computer.",
    ),
    "play": ("play", "Play a game with keys and speech (the default): full screen, or --line."),
    "history": ("history", "The results of finished games, newest first."),
    "serve": ("serve", "Run a game server that players join from their own computers."),
    "join": ("join", "Play or watch at a game server, typing commands line by line."),
}

# What a bare ``fivecrowns`` runs. The front-end issue makes this "play".
DEFAULT_COMMAND = "play"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivecrowns",
        description="Five Crowns for everyone: play by keyboard and speech, or watch the screen.",
    )
    _one_line_errors(parser)
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"fivecrowns.commands.{module_name}")
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        _one_line_errors(command_parser)
        module.configure(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


def installed_version() -> str:
    """The version of the installed package (written once, in pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fivecrowns")
    except PackageNotFoundError:
        return "unknown (not installed: run it from an installed copy)"


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """A bad option gets one line and status 2, not argparse's usage block plus a line.

    why: a screen reader reads the whole usage block before it reaches the reason.
    """

    def error(message: str) -> NoReturn:
        print(f"{parser.prog}: {message}. See {parser.prog} --help.", file=sys.stderr)
        raise SystemExit(2)

    setattr(parser, "error", error)  # noqa: B010


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    wants_default = not arguments or arguments[0].startswith("-")
    alone = (["-h"], ["--help"], ["--version"])
    if wants_default and arguments[:1] not in alone and DEFAULT_COMMAND in COMMANDS:
        arguments.insert(0, DEFAULT_COMMAND)
    parser = build_parser()
    args = parser.parse_args(arguments)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 0
    try:
        result: int = args._run(args)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # why: the reader closed the pipe (`| head`); point stdout at devnull so that
        # Python's own flush at exit does not raise again (the recipe in the signal docs).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as error:  # why: a bug gets a sentence and a log entry, not a traceback
        from fivecrowns.errorlog import error_log_path, log_error

        path = log_error(f"fivecrowns {args.command} failed", error) or error_log_path()
        name = type(error).__name__
        print(BUG.format(command=args.command, error=name, path=path), file=sys.stderr)
        return 1
    return result
