"""Start a game from the ``fivecrowns play`` options: seats, game, output, session, presentation."""

from __future__ import annotations

import argparse
import datetime
import io
import sys
from pathlib import Path
from typing import Any

from fivecrowns import i18n
from fivecrowns.core.errors import FiveCrownsError, SaveFileError, UsageError
from fivecrowns.core.game import MAX_PLAYERS, MIN_PLAYERS, Game
from fivecrowns.i18n import N_, pgettext
from fivecrowns.i18n import gettext as _
from fivecrowns.storage import autosave as storage
from fivecrowns.storage.locks import data_folder_lock
from fivecrowns.storage.saves import MAX_NAME_LENGTH
from fivecrowns.ui.session import Seat, Session, game_from_save, new_seed
from fivecrowns.ui.settings import load_settings

__all__ = [
    "LaunchError",
    "NeedsTerminalError",
    "check_saved_game",
    "kept_aside_sentence",
    "launch",
    "list_damaged",
    "list_unfinished",
    "load_computer_player",
    "load_saved_computer_player",
    "make_seats",
]

COMPUTER_NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")


class LaunchError(UsageError):
    """A command-line option that cannot start a game; the message says which and why."""


class NeedsTerminalError(FiveCrownsError):
    """No keyboard to play with: input redirected, or it closed (a run-time failure)."""


def make_seats(players: int, humans: int, names: str | None, ai: str) -> list[Seat]:
    """Humans first, then computer players, named from ``names`` or by default.

    >>> [(s.name, s.level) for s in make_seats(3, 1, None, "medium")]
    [('You', None), ('Ann', 'medium'), ('Ben', 'medium')]
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise LaunchError(
            _("--players must be {low} to {high}, not {players}.").format(
                low=MIN_PLAYERS, high=MAX_PLAYERS, players=players
            )
        )
    if not 1 <= humans <= players:
        raise LaunchError(
            _("--humans must be 1 to {players}, not {humans}.").format(
                players=players, humans=humans
            )
        )
    computers = players - humans
    levels = [part.strip() for part in ai.split(",")]
    if any(not level for level in levels):
        raise LaunchError(
            _("--ai '{ai}' has an empty name: separate names with single commas.").format(ai=ai)
        )
    if len(levels) == 1:
        levels = levels * computers
    if computers and len(levels) != computers:
        raise LaunchError(
            i18n.ngettext(
                "--ai names {names} computer players but there is {count} computer seat.",
                "--ai names {names} computer players but there are {count} computer seats.",
                computers,
            ).format(names=len(levels), count=computers)
        )
    if names:
        given = [name.strip() for name in names.split(",")]
        if len(given) != players or any(not name for name in given):
            shown = names if len(names) <= 200 else names[:200] + "..."
            raise LaunchError(
                _("--names needs {players} names separated by commas, got '{shown}'.").format(
                    players=players, shown=shown
                )
            )
        longest = max(given, key=len)
        if len(longest) > MAX_NAME_LENGTH:
            raise LaunchError(
                _("--names: a name is at most {limit} characters; one has {length}.").format(
                    limit=MAX_NAME_LENGTH, length=len(longest)
                )
            )
    else:
        if humans == 1:
            # TRANSLATORS: the only human's name at the table (the screen then says "Your hand")
            human_names = [pgettext("the default name of the only human player", "You")]
        else:
            human_names = [_("Player {number}").format(number=i + 1) for i in range(humans)]
        given = human_names + list(COMPUTER_NAMES[:computers])
    return [Seat(given[i]) for i in range(humans)] + [
        Seat(given[humans + i], levels[i]) for i in range(computers)
    ]


def load_computer_player(level: str, seat: int, seed: int = 0) -> Any:
    """A computer player from a level or ``module:Class`` the person typed (``--ai``)."""
    from fivecrowns.ai import load_bot

    return load_bot(level, seed=seed * 31 + seat)


SAVED_PLUGIN = N_(
    "The saved game's computer player {name} is '{level}', a plug-in, and a saved game "
    "never chooses code to run. To resume it with that player, name it yourself: "
    "fivecrowns play --resume --ai {level}"
)


def load_saved_computer_player(seat: Seat, index: int, seed: int, typed: set[str]) -> Any:
    """A computer player named by a save: a built-in level, or a plug-in only when the
    person typed that same ``module:Class`` with ``--ai`` now (a file never picks code)."""
    from fivecrowns.ai.loader import is_plugin_spec, load_bot, load_level

    level = seat.level or ""
    if is_plugin_spec(level):
        if level not in typed:
            raise LaunchError(_(SAVED_PLUGIN).format(name=seat.name, level=level))
        return load_bot(level, seed=seed * 31 + index)
    return load_level(level, seed=seed * 31 + index)


LINE_MODE_SILENCE = N_(
    "Speech: silence in line mode, so your screen reader reads these lines. "
    "For the built-in voice, start with --speech auto."
)


#: After the start, when speech is not what the player chose: the short form, details on a key.
SPEECH_NOTE = N_("Speech: {what}. Press {keys} for details.")
#: The output layer's sentence (fivecrowns.output.factory) when speech is as the player chose.
AS_CHOSEN = N_("Speech: {what}, as chosen.")
_SPEECH_WORDS = {
    "screenreader": N_("your screen reader"),
    "tts": N_("the built-in voice"),
    "print": N_("printed lines"),
    "none": N_("silence"),
}


def speech_note(reason: str, backend: str, keys: str) -> str | None:
    """One short sentence when the speech report has more than "as chosen" to say.

    >>> speech_note("Speech: silence, as chosen.", "none", "I") is None
    True
    >>> speech_note("Speech: printed lines, because no screen reader is running.", "print", "I")
    'Speech: printed lines. Press I for details.'
    """
    # why the output layer's own sentence: the reason is worded there, in the language
    before, _what, after = _(AS_CHOSEN).partition("{what}")
    dots = before.count(".") + after.count(".")
    if reason.startswith(before) and reason.endswith(after) and reason.count(".") == dots:
        return None
    what = _(_SPEECH_WORDS[backend]) if backend in _SPEECH_WORDS else backend
    return _(SPEECH_NOTE).format(what=what, keys=keys)


def open_output(args: argparse.Namespace) -> tuple[Any, str]:
    from fivecrowns.output import create_output

    speech = args.speech or ("none" if args.line else None)
    # why: the presentations show every message themselves; a print backend would
    # write over the full screen or double every line in line mode.
    output, reason = create_output(
        speech, args.transcript, stream=io.StringIO(), sound_pack=getattr(args, "sounds", None)
    )
    if args.line and not args.speech:
        # why: the player did not choose silence; line mode did. Say why, and how to change it.
        silence_word = _SPEECH_WORDS["none"]
        silence = _(AS_CHOSEN).format(what=_(silence_word))
        reason = reason.replace(silence, _(LINE_MODE_SILENCE), 1)
    return output, reason


KEPT_NEW_GAME = N_(
    "An unfinished game was kept in {path}. To go back to it, quit and run: "
    "fivecrowns play --resume previous. To see every kept game: fivecrowns play --resume list."
)
KEPT_DAMAGED = N_(
    "The saved game could not be resumed, so it was kept as {path} and nothing was lost. "
    "The reason: {damage}"
)
KEPT_WHILE_RESUMING = N_(
    "The game that was saved before was kept in {path}. "
    "To see every kept game: fivecrowns play --resume list."
)
LIST_LINE = N_(
    "{number}. Saved {when}: {players}, round {round} of 11. Totals: {totals}. File: {path}"
)
LIST_DAMAGED_LINE = N_("{number}. Cannot be resumed: {reason}")
LIST_EMPTY = N_("There is no unfinished game in {folder}.")


#: The English sentence of :func:`list_damaged` for many saves, kept for callers that format
#: it themselves (fivecrowns.commands.solitaire); list_damaged words it in the language.
LIST_DAMAGED = (
    "{count} damaged saves are kept in {folder} under names with 'damaged'; they cannot be resumed."
)


def list_damaged(count: int) -> str:
    return i18n.ngettext(
        "{count} damaged save is kept in {folder} under names with 'damaged'; "
        "it cannot be resumed.",
        "{count} damaged saves are kept in {folder} under names with 'damaged'; "
        "they cannot be resumed.",
        count,
    )


def kept_aside_sentence(kept: storage.KeptAside, template: str = KEPT_NEW_GAME) -> str:
    """What the player hears about a saved game moved aside."""
    if kept.damage:
        return _(KEPT_DAMAGED).format(path=kept.path, damage=kept.damage)
    return _(template).format(path=kept.path)


def check_saved_game(path: Path) -> None:
    """Load the saved game at ``path`` completely; raises SaveFileError if it cannot resume."""
    game_from_save(storage.read_autosave(path))


def list_unfinished() -> list[str]:
    """``fivecrowns play --resume list``: one line per unfinished game, numbered for --resume N."""
    from fivecrowns.words.lists import name_numbers

    games = storage.unfinished_games()
    lines: list[str] = []
    for number, path in enumerate(games, 1):
        try:
            game, seats, _keyboard = game_from_save(storage.read_autosave(path))
        except SaveFileError as error:
            lines.append(_(LIST_DAMAGED_LINE).format(number=number, reason=error))
            continue
        when = datetime.datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        names = [seat.name for seat in seats]
        players = i18n.join_list(names)
        totals = name_numbers(names, list(game.totals))
        lines.append(
            _(LIST_LINE).format(
                number=number,
                when=when,
                players=players,
                round=game.round,
                totals=totals,
                path=path,
            )
        )
    folder = storage.autosave_path().parent
    if not games:
        lines.append(_(LIST_EMPTY).format(folder=folder))
    damaged = storage.damaged_games()
    if damaged:
        count = len(damaged)
        lines.append(list_damaged(count).format(count=count, folder=folder))
    return lines


def retire_levels(seats: list[Seat]) -> tuple[list[Seat], str | None]:
    """Seats whose level the game no longer offers play its replacement (a save, or ``--ai``
    typed from habit, still starts), with the sentence that says so (``None``: none did).

    >>> seats, note = retire_levels([Seat("You"), Seat("Ann", "expert")])
    >>> [seat.level for seat in seats], note is not None
    ([None, 'hard'], True)
    """
    from dataclasses import replace

    from fivecrowns.ai.loader import RETIRED_LEVELS, retired_note

    notes: list[str] = []
    result = []
    for seat in seats:
        key = (seat.level or "").strip().lower()
        if key in RETIRED_LEVELS:
            note = retired_note(key)
            if note is not None and note not in notes:
                notes.append(note)
            seat = replace(seat, level=RETIRED_LEVELS[key])
        result.append(seat)
    return result, " ".join(notes) or None


def launch(args: argparse.Namespace) -> int:
    with data_folder_lock():
        return _launch(args)


def _launch(args: argparse.Namespace) -> int:
    settings = load_settings()
    if args.verbosity:
        settings.verbosity = args.verbosity
    if args.delay is not None:
        if not 0 <= args.delay <= 10:
            raise LaunchError(
                _("--delay must be 0 to 10 seconds, not {delay}.").format(delay=args.delay)
            )
        settings.delay = args.delay
    at_keyboard = 0
    chosen = None
    if args.resume:
        chosen = storage.choose_kept_game(args.resume)
        data = storage.read_autosave(chosen)
        game, seats, at_keyboard = game_from_save(data)
        if isinstance(data.get("verbosity"), str) and not args.verbosity:
            settings.verbosity = data["verbosity"]
    else:
        seats = make_seats(args.players, args.humans, args.names, args.ai or "medium")
        seed = args.seed if args.seed is not None else new_seed()
        game = Game([seat.name for seat in seats], seed=seed)
    seats, retired = retire_levels(seats)
    game_seed = game.seed or 0
    typed = {part.strip() for part in (args.ai or "").split(",")}
    bots = {
        index: (
            load_saved_computer_player(seat, index, game_seed, typed)
            if args.resume
            else load_computer_player(seat.level, index, game_seed)
        )
        for index, seat in enumerate(seats)
        if seat.level is not None
    }
    if not sys.stdin.isatty():
        raise NeedsTerminalError(
            _(
                "fivecrowns play reads single key presses, so it needs a terminal: "
                "start it in a terminal window, not with its input redirected."
            )
        )
    # why keep it aside, not ask: a question before the game would need its own key
    # handling; moving the file loses nothing and one sentence says how to go back.
    template = KEPT_WHILE_RESUMING if args.resume else KEPT_NEW_GAME
    if chosen is not None:
        kept = storage.bring_back(chosen, check=check_saved_game)
    elif not args.resume:
        kept = storage.keep_aside_autosave(check=check_saved_game)
    else:
        kept = None
    output, reason = open_output(args)
    try:
        game_id = str(data["id"]) if args.resume and data.get("id") else None
        session = Session(game, seats, output, settings, bots=bots, game_id=game_id)
        if args.resume and at_keyboard in session.seat_state:
            session.at_keyboard = at_keyboard
        from fivecrowns.ui.app import Presentation

        presentation = Presentation(session, line_mode=args.line)
        # why not first: the game and "Your turn" matter more; the details are on a key.
        session.speech_report = reason
        if kept is not None:
            session.say(kept_aside_sentence(kept, template))
        if retired is not None:
            session.say(retired)
        session.start(resumed=bool(args.resume))
        note = speech_note(reason, output.backend.name, session.keymap.display_keys("speech"))
        if note:
            session.say(note)
        session.save_now()
        try:
            presentation.run()
        except EOFError:
            if session.save_problem:
                raise NeedsTerminalError(
                    _("The keyboard input closed. The game is not saved: {why}").format(
                        why=session.save_problem
                    )
                ) from None
            raise NeedsTerminalError(
                _(
                    "The keyboard input closed. The game is saved: "
                    "continue it with fivecrowns play --resume."
                )
            ) from None
    finally:
        output.close()
    return 0
