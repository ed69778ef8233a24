"""``fivecrowns join``: play or watch at a game server, typing commands line by line."""

from __future__ import annotations

import argparse
import getpass
from typing import Any

from fivecrowns.i18n import N_, pgettext
from fivecrowns.i18n import gettext as _

__all__ = ["configure", "run"]

DEFAULT_URL = "ws://127.0.0.1:8765/ws"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "url",
        metavar=_("url"),
        nargs="?",
        default=DEFAULT_URL,
        help=_("the server's address (default {url})").format(url=DEFAULT_URL),
    )
    parser.add_argument(
        "--name",
        default=None,
        metavar=_("NAME"),
        help=_("your name at the table (default your login)"),
    )
    parser.add_argument(
        "--table",
        default=None,
        metavar=_("TABLE"),
        help=_("a table number or invite code to join"),
    )
    parser.add_argument(
        "--watch",
        default=None,
        metavar=_("WATCH"),
        help=_("a table number or invite code to watch"),
    )
    parser.add_argument(
        "--keys",
        action="store_true",
        help=_(
            "play with the keys, speech and screen of fivecrowns play (full screen; "
            "with --line, line mode) instead of typed commands"
        ),
    )
    parser.add_argument(
        "--create", type=int, metavar=_("SEATS"), help=_("with --keys: create a table")
    )
    parser.add_argument(
        "--bots",
        default="",
        metavar=_("BOTS"),
        help=_("with --create: computer levels, separated by commas"),
    )
    parser.add_argument("--private", action="store_true", help=_("with --create: a private table"))
    parser.add_argument(
        "--start", action="store_true", help=_("with --create: start once every seat is taken")
    )
    parser.add_argument("--line", action="store_true", help=_("with --keys: line mode"))
    parser.add_argument(
        "--speech",
        choices=("auto", "screenreader", "tts", "print", "none"),
        help=_("with --keys: how messages are spoken (as fivecrowns play)"),
    )
    parser.add_argument(
        "--transcript",
        metavar=_("TRANSCRIPT"),
        help=_("with --keys: append every message to this file"),
    )
    parser.add_argument(
        "--sounds",
        metavar=_("PACK"),
        help=_(
            "the sound pack: default, or a folder in the sounds folder of the game's data "
            "folder (default: the settings file)"
        ),
    )
    parser.add_argument("--verbosity", choices=("brief", "normal", "full"))
    account = parser.add_mutually_exclusive_group()
    account.add_argument(
        "--log-in",
        action="store_true",
        help=_(
            "log in to your account NAME (--name) at the server; the password is asked "
            "without showing it (or read from the first line of input when it is not a terminal)"
        ),
    )
    account.add_argument(
        "--sign-up",
        action="store_true",
        help=_("make the account NAME (--name) at the server and log in to it; as --log-in"),
    )


PASSWORD_PROMPT = N_("Password for {name}: ")
PASSWORD_AGAIN = N_("The same password again: ")
PASSWORDS_DIFFER = N_("The two passwords differ; nothing was sent. Try again.")
NO_PASSWORD = N_("No password was given; nothing was sent.")


def read_password(name: str, twice: bool, stdin: Any = None) -> str | None:
    """The password, asked without echo on a terminal (twice for a new account); from the
    first line of ``stdin`` when it is not a terminal (scripts, tests). ``None`` after a
    sentence saying why there is none."""
    import sys

    stdin = stdin if stdin is not None else sys.stdin
    if not stdin.isatty():
        password: str = stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(_(PASSWORD_PROMPT).format(name=name))
        if twice and password and getpass.getpass(_(PASSWORD_AGAIN)) != password:
            print(_(PASSWORDS_DIFFER), file=sys.stderr)
            return None
    if not password:
        print(_(NO_PASSWORD), file=sys.stderr)
        return None
    return password


def player_name(given: str | None) -> str:
    """The name to sit down with: the one given, else the login name, else "Player",
    in one line of at most 24 characters.

    >>> player_name("  Ann   Lee "), player_name("x" * 30) == "x" * 24
    ('Ann Lee', True)
    """
    fallback = pgettext("the name of a player who gave none", "Player")
    try:
        login = getpass.getuser()
    except (KeyError, OSError):  # why: no login name in some containers and services
        login = ""
    return " ".join((given or login or fallback).split())[:24] or fallback


def run(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from fivecrowns.storage.seats import SavedSeats
    from fivecrowns.ui.join_line import HELP, LineClient, stdin_lines

    name = player_name(args.name)
    url = args.url if "://" in args.url else f"ws://{args.url}/ws"
    if args.keys and not sys.stdin.isatty():
        from fivecrowns.ui.join_keys import run_keys

        return run_keys(args, url, name)  # why first: it says it needs a terminal, no password
    # why before the full screen: the password is asked without echo on the terminal
    credentials: tuple[str, str] | None = None
    if args.log_in or args.sign_up:
        password = read_password(name, twice=args.sign_up)
        if password is None:
            return 2
        credentials = ("sign_up" if args.sign_up else "log_in", password)
    if args.keys:
        from fivecrowns.ui.join_keys import run_keys

        return run_keys(args, url, name, credentials)
    first: list[dict[str, Any]] = []
    if args.table:  # a table number; the client tries it as an invite code if no table has it
        first.append({"type": "join", "table": args.table})
    if args.watch:
        first.append({"type": "watch", "table": args.watch})

    async def main() -> int:
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        stdin_lines(lines)
        print(_(HELP), flush=True)
        client = LineClient(url, name, say=lambda text: print(text, flush=True))
        client.connection.credentials = credentials
        client.fallback_code = args.table
        client.fallback_watch = args.watch  # a private table is watched by its invite code
        # why: a client started again after a crash takes its seat back (seats.json)
        return await client.run(lines, client.take_back_from(SavedSeats(), first))

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
