"""``fivecrowns solitaire``: Five Crowns Solitaire, played by you or by the computer.

    fivecrowns solitaire [--seed S] [--line] [--speech ...]    play with keys and speech
    fivecrowns solitaire --resume                               continue the saved game
    fivecrowns solitaire --resume previous      the unfinished game a new game kept aside

    fivecrowns solitaire --auto --games 1000 --seed 1 --strategy best --json

``--auto`` lets a computer strategy play ``--games`` deals; deal k (counting from
0) is dealt with seed ``--seed`` + k, so ``--seed 7 --games 1`` replays deal 7 of a
series started with ``--seed 0``. ``--json`` prints ``{"games": G, "wins": W,
"win_rate": float, "mean_points_left": float}``; without it a sentence says the
same with a 95% confidence interval. Strategies: ``greedy`` (puts each card where
it lowers the leftover points most) and ``best`` (the default; it also counts the
cards still in the stock). See docs/solitaire.md.

    fivecrowns solitaire --export brf --game SAVE.json --out board.brf

writes the board (every hand with its best melds and leftover, the stock's
contents, the discards) as ``text``, ``brf`` or ``unicode`` braille; without
``--game`` it exports a new deal of ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import sys

from fivecrowns.i18n import N_, current_language, join_list, ngettext
from fivecrowns.i18n import gettext as _

__all__ = ["configure", "run"]

_STRATEGIES = ("greedy", "best")


def configure(parser: argparse.ArgumentParser) -> None:
    # The options' names, choices and metavars are words for the computer: not translated.
    parser.add_argument(
        "--auto", action="store_true", help=_("let the computer play many deals and report")
    )
    # why default None: --games without --auto is refused, so it must be told from the default
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        # TRANSLATORS: the name of the option's value in --help, in capitals
        metavar=_("GAMES"),
        help=_("deals to play with --auto (100)"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        # TRANSLATORS: the name of the option's value in --help, in capitals
        metavar=_("SEED"),
        help=_(
            "the same seed deals the same cards (default: a new deal to play; 1 with --auto "
            "and --export)"
        ),
    )
    parser.add_argument(
        "--strategy",
        choices=_STRATEGIES,
        default=None,
        help=_("computer strategy for --auto: greedy or best (default best)"),
    )
    parser.add_argument("--json", action="store_true", help=_("with --auto: print one JSON object"))
    parser.add_argument(
        "--export",
        dest="fmt",
        choices=("text", "brf", "unicode"),
        help=_("write the board as text, brf (braille for embossers) or unicode braille"),
    )
    # TRANSLATORS: the name of the option's value in --help: a saved game's file
    parser.add_argument("--game", metavar=_("SAVE.json"), help=_("with --export: a saved game"))
    parser.add_argument(
        "--width",
        type=int,
        metavar="N",
        default=40,
        help=_(
            "with --export: characters or cells per line, 14 to 80, BRF at most 40 (default 40)"
        ),
    )
    parser.add_argument(
        "--grade", type=int, choices=(1, 2), default=1, help=_("with --export: braille grade")
    )
    # TRANSLATORS: the name of the option's value in --help, in capitals
    parser.add_argument("--out", metavar=_("FILE"), help=_("with --export: write to FILE"))
    parser.add_argument(
        "--resume",
        nargs="?",
        const="last",
        metavar="last|previous|list|N",
        help=_(
            "continue the saved solitaire game; --resume previous: the unfinished game kept "
            "aside when a new game was started; --resume list: every unfinished game, numbered; "
            "--resume N: number N of that list"
        ),
    )
    parser.add_argument(
        "--line", action="store_true", help=_("line mode: every message a plain line, no redraws")
    )
    parser.add_argument(
        "--speech",
        choices=("auto", "screenreader", "tts", "print", "none"),
        help=_(
            "how messages are spoken (default auto; in --line mode none: "
            "your screen reader reads the lines)"
        ),
    )
    parser.add_argument(
        "--transcript",
        # TRANSLATORS: the name of the option's value in --help, in capitals
        metavar=_("TRANSCRIPT"),
        help=_("append every message to this file"),
    )


def run(args: argparse.Namespace) -> int:
    from fivecrowns.commands.play import resume_choice_problem

    problem = resume_choice_problem(args.resume)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if args.auto:
        # why refuse: --auto plays new deals of its own; it would silently ignore these
        ignored = [
            name
            for name, value in (("--export", args.fmt), ("--resume", args.resume))
            if value is not None
        ]
        if ignored:
            print(
                _("--auto plays new deals, so it does not take {option}.").format(
                    option=ignored[0]
                ),
                file=sys.stderr,
            )
            return 2
        return _run_auto(args)
    if args.fmt is not None:
        return _run_export(args)
    auto_only = (("--games", args.games), ("--strategy", args.strategy), ("--json", args.json))
    given = [name for name, value in auto_only if value not in (None, False)]
    if given:
        print(_("{options}: only with --auto.").format(options=join_list(given)), file=sys.stderr)
        return 2
    return _run_play(args)


KEPT_NEW_GAME = N_(
    "An unfinished game was kept in {path}. To go back to it, quit and run: "
    "fivecrowns solitaire --resume previous. To see every kept game: "
    "fivecrowns solitaire --resume list."
)
KEPT_WHILE_RESUMING = N_(
    "The game that was saved before was kept in {path}. "
    "To see every kept game: fivecrowns solitaire --resume list."
)
LIST_LINE = N_(
    "{number}. Saved {when}: {open} hands open, {stock} cards in the stock. File: {path}"
)


def _list_unfinished() -> list[str]:
    import datetime

    from fivecrowns.core.errors import SaveFileError
    from fivecrowns.storage import autosave as storage
    from fivecrowns.storage.saves import load_solitaire
    from fivecrowns.ui.launch import LIST_DAMAGED, LIST_DAMAGED_LINE, LIST_EMPTY
    from fivecrowns.ui.solitaire import solitaire_save_path

    path = solitaire_save_path()
    games = storage.unfinished_games(path)
    lines: list[str] = []
    for number, kept in enumerate(games, 1):
        try:
            game = load_solitaire(kept)
        except SaveFileError as error:
            lines.append(LIST_DAMAGED_LINE.format(number=number, reason=error))
            continue
        when = datetime.datetime.fromtimestamp(kept.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        lines.append(
            _(LIST_LINE).format(
                number=number,
                when=when,
                open=len(game.open_hands),
                stock=len(game.stock),
                path=kept,
            )
        )
    if not games:
        lines.append(LIST_EMPTY.format(folder=path.parent))
    damaged = storage.damaged_games(path)
    if damaged:
        lines.append(LIST_DAMAGED.format(count=len(damaged), folder=path.parent))
    return lines


def _run_play(args: argparse.Namespace) -> int:
    from fivecrowns.core.errors import FiveCrownsError, UsageError
    from fivecrowns.storage.locks import DataFolderBusy, data_folder_lock

    if args.resume == "list":
        print("\n".join(_list_unfinished()))
        return 0
    try:
        with data_folder_lock():
            return _play_locked(args)
    except DataFolderBusy as error:
        print(error, file=sys.stderr)
        return 1  # why 1: a run-time refusal, not a usage error
    except FiveCrownsError as error:
        print(error, file=sys.stderr)
        return 2 if isinstance(error, UsageError) else 1  # no terminal, a bad save: run time


def _play_locked(args: argparse.Namespace) -> int:
    import io
    import random

    from fivecrowns.core.errors import FiveCrownsError, UsageError
    from fivecrowns.core.solitaire.rules import Solitaire
    from fivecrowns.storage import autosave as storage
    from fivecrowns.storage import history as game_history
    from fivecrowns.storage.saves import load_solitaire
    from fivecrowns.ui.launch import kept_aside_sentence
    from fivecrowns.ui.solitaire import SolitaireSession, solitaire_save_path

    path = solitaire_save_path()
    if args.resume and args.seed is not None:
        raise UsageError(_("Give --resume or --seed, not both."))
    chosen = storage.choose_kept_game(args.resume, path) if args.resume else None
    # why before the deal: starting a game saves it at once, over the game kept for --resume
    if not sys.stdin.isatty():
        raise FiveCrownsError(
            _(
                "fivecrowns solitaire reads single key presses, so it needs a terminal: "
                "start it in a terminal window, not with its input redirected, or use --auto."
            )
        )
    if args.resume:
        game = load_solitaire(chosen or path)
        kept = None if chosen is None else storage.bring_back(chosen, path, load_solitaire)
        template = _(KEPT_WHILE_RESUMING)
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        game = Solitaire.deal(seed)
        game.game_id = game_history.new_game_id()
        # why keep it aside: starting saves at once, over an unfinished game
        kept = storage.keep_aside_autosave(path, load_solitaire)
        template = _(KEPT_NEW_GAME)
    from fivecrowns.output import create_output
    from fivecrowns.ui.app import Presentation
    from fivecrowns.ui.settings import load_settings

    speech = args.speech or ("none" if args.line else None)
    # why a StringIO stream: the presentations show every message themselves
    output, reason = create_output(speech, args.transcript, stream=io.StringIO())
    try:
        session = SolitaireSession(game, output, settings=load_settings())
        presentation = Presentation(session, line_mode=args.line, render=session.render)
        session.say(reason)
        if kept is not None:
            session.say(kept_aside_sentence(kept, template))
        session.start(resumed=bool(args.resume))
        try:
            presentation.run()
        except EOFError:
            if session.save_problem:
                print(
                    _("The keyboard input closed; the game is not saved: {reason}").format(
                        reason=session.save_problem
                    ),
                    file=sys.stderr,
                )
                return 1
            print(_("The keyboard input closed; the game is saved for --resume."), file=sys.stderr)
            return 1
    finally:
        output.close()
    return 0


def _run_auto(args: argparse.Namespace) -> int:
    from fivecrowns.core.solitaire.player import auto_play, load_strategy

    games = 100 if args.games is None else args.games
    if games < 1:
        print(_("--games must be at least 1, not {games}.").format(games=games), file=sys.stderr)
        return 2
    seed = 1 if args.seed is None else args.seed
    report = auto_play(games, seed, load_strategy(args.strategy or "best"))
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    low, high = report.confidence_interval()
    # TRANSLATORS: {strategy} is a strategy's name as typed (greedy, best); {rate}, {low} and
    # {high} are percentages such as "12.0%", {level} is "95%"
    won = ngettext(
        "Won {wins} of {count} deal with the {strategy} strategy: "
        "{rate} ({level} confidence {low} to {high}).",
        "Won {wins} of {count} deals with the {strategy} strategy: "
        "{rate} ({level} confidence {low} to {high}).",
        report.games,
    ).format(
        wins=report.wins,
        count=report.games,
        strategy=args.strategy or "best",
        rate=_percent(report.win_rate),
        level="95%",  # why a placeholder: a "%" in a message looks like a printf conversion
        low=_percent(low),
        high=_percent(high),
    )
    mean = _("Mean points left: {points}.").format(points=_decimal(report.mean_points_left))
    seeds = _("Seeds {first} to {last}.").format(first=seed, last=seed + report.games - 1)
    print(f"{won} {mean} {seeds}")  # whole sentences in a row
    return 0


def _run_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from fivecrowns.core.errors import FiveCrownsError, SaveFileError
    from fivecrowns.core.solitaire.rules import Solitaire
    from fivecrowns.export import render
    from fivecrowns.export.braille import Translator
    from fivecrowns.export.errors import LiblouisMissingError
    from fivecrowns.export.layout import check_width
    from fivecrowns.export.solitaire import board_document
    from fivecrowns.storage.saves import load_solitaire

    try:
        check_width(args.width)
        if args.fmt == "brf" and args.width > 40:
            raise FiveCrownsError(
                _(
                    "BRF lines are at most 40 cells, so --width {width} is too wide: "
                    "choose 14 to 40."
                ).format(width=args.width)
            )
        if args.game is not None and args.seed is not None:
            raise FiveCrownsError(_("Give --game SAVE.json or --seed S, not both."))
        same_file = args.out is not None and args.game is not None
        if same_file and Path(args.out).resolve() == Path(args.game).resolve():
            raise FiveCrownsError(
                _("--out {path} is the saved game itself; write the board to another file.").format(
                    path=args.out
                )
            )
        if args.fmt != "text":
            # says how to install liblouis if it is missing
            Translator(args.grade, args.fmt, current_language())
        if args.game is not None:
            game = load_solitaire(args.game)
        else:
            game = Solitaire.deal(1 if args.seed is None else args.seed)
        text = render(board_document(game.view()), args.fmt, args.width, args.grade)
    except FiveCrownsError as error:
        print(error, file=sys.stderr)
        # a save that cannot be read or no liblouis: run time (1); the rest are options (2)
        return 1 if isinstance(error, (SaveFileError, LiblouisMissingError)) else 2
    if args.out is None:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
        return 0
    try:
        Path(args.out).write_bytes(text.encode("utf-8"))
    except OSError as error:
        print(
            _("Could not write {path}: {reason}.").format(
                path=args.out, reason=error.strerror or error
            ),
            file=sys.stderr,
        )
        return 1
    # TRANSLATORS: {format} is text, brf or unicode, as typed after --export
    print(
        _("Wrote the solitaire board as {format} to {path}.").format(
            format=args.fmt, path=args.out
        ),
        file=sys.stderr,
    )
    return 0


def _percent(rate: float) -> str:
    """ "12.5%" in English (as always); the language's own way elsewhere ("12,5 %")."""
    if current_language() == "en":
        return f"{rate:.1%}"
    from babel.numbers import format_percent

    return str(format_percent(rate, "#,##0.0%", locale=current_language()))


def _decimal(number: float) -> str:
    """ "7.5" in English (as always); "7,5" in Spanish."""
    if current_language() == "en":
        return f"{number:.1f}"
    from babel.numbers import format_decimal

    return str(format_decimal(number, "#,##0.0", locale=current_language()))
