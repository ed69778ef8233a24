"""The saved-game formats, checked whole before any of a file is used.

Every save is read through here, by the terminal game today and the network
server later: a file is refused with one sentence naming it and what is wrong,
before a single value reaches the game. The shape of each format is a msgspec
schema (the same schema library as the network protocol): types, lengths and
ranges, so a crafted file cannot make the loader allocate gigabytes, loop for
minutes or pick code to run. The rules' own consistency checks (the right cards,
scores that add up) stay in the core loaders, which run after the schema.

Formats:

- the terminal game's autosave (``autosave.json``): ``version``, ``seats``
  (name and computer-player level), ``seed``, ``first_dealer``, ``decks``,
  ``moves``, ``at_keyboard``, ``verbosity`` and the full ``game`` state;
- the full game state of :func:`fivecrowns.core.codec.game_to_json` (``export --game``);
- the solitaire save of :meth:`fivecrowns.core.solitaire.rules.Solitaire.to_json`.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from fivecrowns.core.errors import SaveFileError
from fivecrowns.i18n import N_, format_number
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.atomic import atomic_write_text

# why lazily (in the functions below): the settings and history read files through this
# module, and `fivecrowns --help` should not load the rules of both games to do so
if TYPE_CHECKING:
    from fivecrowns.core.game import Game
    from fivecrowns.core.solitaire.rules import Solitaire

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_SAVE_BYTES",
    "check_autosave",
    "check_game_state",
    "check_solitaire_save",
    "load_game",
    "load_solitaire",
    "read_bounded",
    "read_game_file",
    "read_solitaire",
    "save_game",
    "save_solitaire",
]

#: A save larger than this is refused: a whole 11-round game with its events is about 0.2 MB.
MAX_SAVE_BYTES = 4_000_000
#: The longest player name a save (or ``--names``) may hold, in characters.
MAX_NAME_LENGTH = 40
_MAX_MOVES = 20_000  # a 14-player game plays well under 5,000 moves
_MAX_EVENTS = 40_000
_MAX_CARDS = 16 * 58

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME_LENGTH)]
# why a pattern: a level is a built-in name or a module:Class a person typed; never free text.
Level = Annotated[str, msgspec.Meta(max_length=200, pattern=r"^[A-Za-z0-9_.]+(:[A-Za-z0-9_]+)?$")]
Seat = Annotated[int, msgspec.Meta(ge=0, le=13)]
Players = Annotated[int, msgspec.Meta(ge=2, le=14)]
Decks = Annotated[int, msgspec.Meta(ge=1, le=16)]
Score = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
Seed = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=8)]
Cards = Annotated[list[Token], msgspec.Meta(max_length=_MAX_CARDS)]
CardText = Annotated[str, msgspec.Meta(max_length=_MAX_CARDS * 5)]


class _Move(msgspec.Struct, forbid_unknown_fields=True):
    move: Literal["draw_stock", "take_discard", "discard", "go_out", "lay_down"]
    card: Token | None = None
    discard: Token | None = None
    melds: Annotated[list[Cards], msgspec.Meta(max_length=20)] | None = None


class _SeatEntry(msgspec.Struct):
    name: Name
    level: Level | None = None


class _Options(msgspec.Struct):
    decks: Decks
    forbid_return_discard: bool


class _Meld(msgspec.Struct):
    kind: Literal["book", "run"]
    cards: Cards


# An event's values: seats, counts, card tokens, melds, results. The core decodes each by
# its type; the schema bounds the sizes and refuses what JSON cannot hold sanely.
_EventValue = int | str | None | bool | list[Any] | dict[str, Any]


class _GameState(msgspec.Struct):
    format: Literal["fivecrowns-save"]
    version: Literal[1]
    players: Annotated[list[Name], msgspec.Meta(min_length=2, max_length=14)]
    options: _Options
    seed: Seed | None
    first_dealer: Seat
    rng: tuple[
        Annotated[int, msgspec.Meta(ge=0, le=10)],
        Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=2**32)]], msgspec.Meta(max_length=625)],
        float | None,
    ]
    deck_orders: Annotated[list[Cards], msgspec.Meta(max_length=11)]
    round: Annotated[int, msgspec.Meta(ge=1, le=11)]
    dealer: Seat
    round_scores: Annotated[
        list[Annotated[list[Score], msgspec.Meta(max_length=14)]], msgspec.Meta(max_length=11)
    ]
    totals: Annotated[list[Score], msgspec.Meta(min_length=2, max_length=14)]
    decks_in_play: Decks
    phase: Literal["draw", "discard", "last_draw", "last_lay_down", "last_discard", "game_over"]
    current_player: Seat
    hands: Annotated[list[Cards], msgspec.Meta(max_length=14)]
    stock: Cards
    discard_pile: Cards
    went_out: Seat | None
    last_turns: Annotated[list[Seat], msgspec.Meta(max_length=14)]
    laid_down: Annotated[
        list[Annotated[list[_Meld], msgspec.Meta(max_length=20)]], msgspec.Meta(max_length=14)
    ]
    taken_discard: Token | None
    round_start_event: Annotated[int, msgspec.Meta(ge=0, le=_MAX_EVENTS)]
    events: Annotated[
        list[Annotated[dict[str, _EventValue], msgspec.Meta(max_length=16)]],
        msgspec.Meta(max_length=_MAX_EVENTS),
    ]
    moves: Annotated[list[tuple[Seat, _Move]], msgspec.Meta(max_length=_MAX_MOVES)]


class _Autosave(msgspec.Struct):
    version: Literal[1]
    seats: Annotated[list[_SeatEntry], msgspec.Meta(min_length=2, max_length=14)]
    seed: Seed | None
    first_dealer: Seat
    moves: Annotated[list[tuple[Seat, _Move]], msgspec.Meta(max_length=_MAX_MOVES)]
    decks: Decks = 2
    at_keyboard: Seat = 0
    verbosity: Literal["brief", "normal", "full"] | None = None
    id: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    game: _GameState | None = None


class _SolitaireHand(msgspec.Struct):
    cards: CardText
    closed: bool


class _SolitaireSave(msgspec.Struct):
    format: Literal["fivecrowns-solitaire"]
    version: Literal[1]
    phase: Literal["put", "discard", "won", "lost"]
    hands: Annotated[
        dict[Annotated[str, msgspec.Meta(max_length=2)], _SolitaireHand],
        msgspec.Meta(max_length=11),
    ]
    stock: CardText
    turned: Annotated[str, msgspec.Meta(max_length=8)] | None
    target: Annotated[int, msgspec.Meta(ge=3, le=13)] | None
    discards: CardText
    turns: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    seed: Seed | None = None
    id: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None


# Each sentence about a file, whole, for each kind of file the game reads (a noun put into
# a sentence would not agree in Spanish: "la partida guardada", "el archivo"). ``what`` is
# one of these keys; any other ``what`` gets the sentence under None, with {what} in it.
_SAVED_GAME = "saved game"
_SAVED_SOLITAIRE = "saved solitaire game"
_SETTINGS_FILE = "settings file"

_CANNOT_READ: dict[str | None, str] = {
    _SAVED_GAME: N_("The saved game {path} cannot be read: {reason}."),
    _SAVED_SOLITAIRE: N_("The saved solitaire game {path} cannot be read: {reason}."),
    _SETTINGS_FILE: N_("The settings file {path} cannot be read: {reason}."),
    None: N_("The {what} {path} cannot be read: {reason}."),
}
_NOT_PLAIN: dict[str | None, str] = {
    _SAVED_GAME: N_("The saved game {path} is not a plain file, so it was not read."),
    _SAVED_SOLITAIRE: N_(
        "The saved solitaire game {path} is not a plain file, so it was not read."
    ),
    _SETTINGS_FILE: N_("The settings file {path} is not a plain file, so it was not read."),
    None: N_("The {what} {path} is not a plain file, so it was not read."),
}
_TOO_BIG: dict[str | None, str] = {
    _SAVED_GAME: N_(
        "The saved game {path} is {size} bytes, more than any real one ({limit} at most), "
        "so it was not read."
    ),
    _SAVED_SOLITAIRE: N_(
        "The saved solitaire game {path} is {size} bytes, more than any real one "
        "({limit} at most), so it was not read."
    ),
    _SETTINGS_FILE: N_(
        "The settings file {path} is {size} bytes, more than any real one ({limit} at most), "
        "so it was not read."
    ),
    None: N_(
        "The {what} {path} is {size} bytes, more than any real one ({limit} at most), "
        "so it was not read."
    ),
}
_GREW: dict[str | None, str] = {
    _SAVED_GAME: N_("The saved game {path} grew past {limit} bytes while being read."),
    _SAVED_SOLITAIRE: N_(
        "The saved solitaire game {path} grew past {limit} bytes while being read."
    ),
    _SETTINGS_FILE: N_("The settings file {path} grew past {limit} bytes while being read."),
    None: N_("The {what} {path} grew past {limit} bytes while being read."),
}
_NOT_TEXT: dict[str | None, str] = {
    _SAVED_GAME: N_("The saved game {path} is not text and cannot be resumed."),
    _SAVED_SOLITAIRE: N_("The saved solitaire game {path} is not text and cannot be resumed."),
}
_DAMAGED: dict[str | None, str] = {
    _SAVED_GAME: N_("The saved game {path} is damaged and cannot be resumed: {detail}."),
    _SAVED_SOLITAIRE: N_(
        "The saved solitaire game {path} is damaged and cannot be resumed: {detail}."
    ),
}
_TOO_DEEP: dict[str | None, str] = {
    _SAVED_GAME: N_(
        "The saved game {path} is damaged and cannot be resumed: it is nested too deeply."
    ),
    _SAVED_SOLITAIRE: N_(
        "The saved solitaire game {path} is damaged and cannot be resumed: it is nested too deeply."
    ),
}
_NOT_A_SAVE: dict[str | None, str] = {
    _SAVED_GAME: N_("The saved game {path} is not a saved game."),
    _SAVED_SOLITAIRE: N_("The saved solitaire game {path} is not a saved game."),
}


def _say(sentences: dict[str | None, str], what: str, **values: object) -> str:
    """The sentence for a kind of file, in the player's language."""
    template = sentences.get(what) or sentences.get(None) or sentences[_SAVED_GAME]
    return _(template).format(what=what, **values)


def read_bounded(path: str | os.PathLike[str], what: str, limit: int = MAX_SAVE_BYTES) -> bytes:
    """The bytes of ``path``, refusing what is not a plain file or is larger than ``limit``.

    why: a FIFO would block for ever and /dev/zero would fill the memory; a sentence
    saying so is the whole answer. Raises :class:`SaveFileError` (FileNotFoundError
    is left to the caller, whose sentence says what was looked for).
    """
    target = os.fspath(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        raise
    except OSError as error:
        reason = error.strerror
        raise SaveFileError(_say(_CANNOT_READ, what, path=target, reason=reason)) from None
    if not stat.S_ISREG(info.st_mode):
        raise SaveFileError(_say(_NOT_PLAIN, what, path=target))
    if info.st_size > limit:
        size, most = format_number(info.st_size), format_number(limit)
        raise SaveFileError(_say(_TOO_BIG, what, path=target, size=size, limit=most))
    try:
        with open(target, "rb") as source:
            data = source.read(limit + 1)
    except OSError as error:
        reason = error.strerror
        raise SaveFileError(_say(_CANNOT_READ, what, path=target, reason=reason)) from None
    if len(data) > limit:
        raise SaveFileError(_say(_GREW, what, path=target, limit=format_number(limit)))
    return data


_AT = re.compile(r" - at `\$\.?(?P<where>[^`]*)`$")

# msgspec's own sentences (English, from the library), each as a whole sentence of ours
# that the catalog translates; one it words otherwise is kept as msgspec wrote it. The
# values in them (types like int and str, field names, limits) are data, not words.
_MSGSPEC = (
    (
        re.compile(r"^Expected (?P<expected>\S+), got (?P<got>\S+)$"),
        N_("expected {expected}, got {got}"),
    ),
    (
        re.compile(r"^Expected (?P<expected>\S+) of length (?P<bound>[<>]=) (?P<count>\d+)$"),
        N_("expected {expected} of length {bound} {count}"),
    ),
    (
        re.compile(r"^Expected (?P<expected>\S+) (?P<bound>[<>]=?) (?P<count>-?[\d.e+]+)$"),
        N_("expected {expected} {bound} {count}"),
    ),
    (
        re.compile(r"^Object missing required field (?P<field>\S+)$"),
        N_("the field {field} is missing"),
    ),
    (
        re.compile(r"^Object contains unknown field (?P<field>\S+)$"),
        N_("the field {field} is not one a save has"),
    ),
    (re.compile(r"^Invalid enum value (?P<value>.+)$"), N_("{value} is not a value allowed here")),
    (
        re.compile(r"^Expected (?P<expected>\S+) matching regex (?P<pattern>.+)$"),
        N_("expected {expected} matching the pattern {pattern}"),
    ),
)


# msgspec's words for JSON that does not parse; the English msgids are msgspec's own text.
_TRUNCATED = N_("Input data was truncated")
_MALFORMED = re.compile(r"^JSON is malformed: (?P<reason>.+) \(byte (?P<byte>\d+)\)$")
_MALFORMED_REASONS = {
    "trailing characters": N_("trailing characters"),
    "invalid character": N_("invalid character"),
    "expected ':'": N_("expected ':'"),
    "expected ',' or '}'": N_("expected ',' or '}'"),
    "expected ',' or ']'": N_("expected ',' or ']'"),
    "invalid escape character in string": N_("invalid escape character in string"),
    "object keys must be strings": N_("object keys must be strings"),
}


def _json_words(text: str) -> str:
    """msgspec's message for JSON that does not parse, in the player's language.

    >>> _json_words("JSON is malformed: trailing characters (byte 10)")
    'JSON is malformed: trailing characters (byte 10)'
    """
    if text == _TRUNCATED:
        return _(_TRUNCATED)
    found = _MALFORMED.match(text)
    if found and found.group("reason") in _MALFORMED_REASONS:
        reason = _(_MALFORMED_REASONS[found.group("reason")])
        return _("JSON is malformed: {reason} (byte {byte})").format(
            reason=reason, byte=found.group("byte")
        )
    return text


def _msgspec_words(text: str) -> str:
    """One of msgspec's messages (backquotes gone) in the player's language, first letter small.

    >>> _msgspec_words("Expected int, got float"), _msgspec_words("Expected array of length >= 2")
    ('expected int, got float', 'expected array of length >= 2')
    """
    for pattern, sentence in _MSGSPEC:
        found = pattern.match(text)
        if found:
            return _(sentence).format(**found.groupdict())
    return text[:1].lower() + text[1:]


def _detail(error: msgspec.MsgspecError) -> str:
    """msgspec's "Expected `int`, got `float` - at `$.decks`" as "expected int, got float
    (at decks)"."""
    text = str(error)
    where = ""
    found = _AT.search(text)
    if found:
        where = found.group("where")
        text = text[: found.start()]
    text = text.replace("`", "")
    if isinstance(error, msgspec.ValidationError):
        text = _msgspec_words(text)
    else:
        # why msgspec's text as it is: the place in the file ("byte 5"), for whoever repairs it
        text = _("it is not valid JSON, cut short or corrupted ({error})").format(
            error=_json_words(text.rstrip("."))
        )
    # TRANSLATORS: {where} is the field of the file (data, not translated), e.g. "seats"
    return _("{detail} (at {where})").format(detail=text, where=where) if where else text


# why decoders made at import: msgspec builds a Struct's type information on first use, and two
# threads doing that first use at once can crash the interpreter (seen with msgspec 0.22)
_DECODERS = {
    schema: msgspec.json.Decoder(schema) for schema in (_GameState, _Autosave, _SolitaireSave)
}


def _decode(raw: bytes, schema: type[Any], what: str, where: str) -> dict[str, Any]:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError(_say(_NOT_TEXT, what, path=where)) from None
    try:
        _DECODERS[schema].decode(raw)
        data = msgspec.json.decode(raw)
    except UnicodeDecodeError:  # msgspec raises it for a bad byte inside a string
        raise SaveFileError(_say(_NOT_TEXT, what, path=where)) from None
    except msgspec.MsgspecError as error:
        raise SaveFileError(_say(_DAMAGED, what, path=where, detail=_detail(error))) from None
    except RecursionError:
        raise SaveFileError(_say(_TOO_DEEP, what, path=where)) from None
    if not isinstance(data, dict):  # pragma: no cover - the schema is an object
        raise SaveFileError(_say(_NOT_A_SAVE, what, path=where))
    return data


def check_game_state(raw: bytes, where: str = "file") -> dict[str, Any]:
    """A full game state (:func:`fivecrowns.core.codec.game_to_json`) from JSON bytes, its shape
    checked; raises :class:`SaveFileError` naming ``where`` and the problem."""
    data = _decode(raw, _GameState, _SAVED_GAME, where)
    _check_counts(data, len(data["players"]), where)
    return data


def check_autosave(raw: bytes, where: str = "file") -> dict[str, Any]:
    """The terminal game's autosave from JSON bytes, its whole shape checked (seats that
    match the players, a human at the keyboard, sizes and ranges); raises
    :class:`SaveFileError` naming ``where`` and the problem.

    >>> try:
    ...     check_autosave(b'{"version": 1, "seats": [], "seed": 1, "first_dealer": 0}')
    ... except SaveFileError as error:
    ...     print(error)
    The saved game file is damaged and cannot be resumed: expected array of length >= 2 (at seats).
    """
    data = _decode(raw, _Autosave, _SAVED_GAME, where)
    seats = data["seats"]
    count = len(seats)

    def damaged(reason: str) -> SaveFileError:
        return SaveFileError(_(DAMAGED_SAVE).format(path=where, reason=reason))

    game = data.get("game")
    if game is not None:
        players = game["players"]
        if len(players) != count:
            # why no ngettext: a game has 2 to 14 seats and players, never 1
            reason = _("it has {seats} seats for {players} players")
            raise damaged(reason.format(seats=count, players=len(players)))
        _check_counts(game, count, where)
    at_keyboard = data.get("at_keyboard", 0)
    if at_keyboard >= count or seats[at_keyboard].get("level") is not None:
        reason = _("seat {seat} at the keyboard is not a human player")
        raise damaged(reason.format(seat=at_keyboard))
    if data["first_dealer"] >= count or any(seat >= count for seat, _move in data["moves"]):
        raise damaged(_("a move or the dealer belongs to no seat"))
    return data


DAMAGED_SAVE = N_("The saved game {path} is damaged: {reason}.")


def _check_counts(game: dict[str, Any], count: int, where: str) -> None:
    seats = ("first_dealer", "dealer", "current_player", "went_out")
    lists = ("hands", "laid_down", "totals")
    if any((game.get(key) or 0) >= count for key in seats) or any(
        len(game[key]) != count for key in lists
    ):
        raise SaveFileError(
            _(
                "The saved game {path} is damaged: its hands, scores or seats do not match "
                "its {count} players."
            ).format(path=where, count=count)
        )


def check_solitaire_save(raw: bytes, where: str = "file") -> dict[str, Any]:
    """A solitaire save from JSON bytes, its shape checked; raises :class:`SaveFileError`."""
    return _decode(raw, _SolitaireSave, _SAVED_SOLITAIRE, where)


def load_solitaire(path: str | os.PathLike[str]) -> Any:
    """A :class:`~fivecrowns.core.solitaire.rules.Solitaire` from ``path``: size, shape, rules.

    Raises :class:`SaveFileError` with a sentence naming the file.
    """
    from fivecrowns.core.solitaire.rules import Solitaire

    target = Path(path)
    try:
        raw = read_bounded(target, _SAVED_SOLITAIRE)
    except FileNotFoundError:
        missing = _("There is no saved solitaire game at {path}.")
        raise SaveFileError(missing.format(path=target)) from None
    data = check_solitaire_save(raw, str(target))
    try:
        return Solitaire.from_json(data)
    except SaveFileError as error:
        raise SaveFileError(_("{error} File: {path}.").format(error=error, path=target)) from error


def read_game_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], bool]:
    """A saved game of either kind from ``path``, its shape checked: ``(data, is_autosave)``.

    The terminal game's autosave (with ``seats``) or a full game state; raises
    :class:`SaveFileError` with a sentence naming the file.
    """
    target = os.fspath(path)
    try:
        raw = read_bounded(target, _SAVED_GAME)
    except FileNotFoundError:
        raise SaveFileError(_("There is no saved game at {path}.").format(path=target)) from None
    try:
        peek = msgspec.json.decode(raw)
    except UnicodeDecodeError:
        not_text = _("The saved game {path} is not text, so it cannot be read.")
        raise SaveFileError(not_text.format(path=target)) from None
    except msgspec.MsgspecError as error:
        if b"fivecrowns-save" not in raw[:200] and b'"seats"' not in raw[:200]:
            not_json = _("{path} is not a Five Crowns saved game: it is not a saved game's JSON.")
            raise SaveFileError(not_json.format(path=target)) from None
        reason = _detail(error)
        raise SaveFileError(_(DAMAGED_SAVE).format(path=target, reason=reason)) from None
    except RecursionError:
        reason = _("it is nested too deeply")
        raise SaveFileError(_(DAMAGED_SAVE).format(path=target, reason=reason)) from None
    if isinstance(peek, dict) and "seats" in peek:
        return check_autosave(raw, target), True
    if not isinstance(peek, dict) or peek.get("format") != "fivecrowns-save":
        not_ours = _("{path} is not a Five Crowns saved game.")
        raise SaveFileError(not_ours.format(path=target))
    return check_game_state(raw, target), False


def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    """Write ``game`` to ``path`` atomically (a temporary file, then a rename).

    An existing file is replaced only if it loads as a saved game: a foreign,
    truncated or corrupted file is never overwritten.
    """
    from fivecrowns.core.codec import game_to_json

    target = os.fspath(path)
    if os.path.exists(target):
        try:
            load_game(target)
        except SaveFileError as error:
            raise SaveFileError(_("{error} It was not overwritten.").format(error=error)) from error
    atomic_write_text(target, json.dumps(game_to_json(game), separators=(",", ":")))


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a game saved by :func:`save_game`; raises :class:`SaveFileError` naming the problem."""
    from fivecrowns.core.codec import SAVE_FORMAT, game_from_json

    target = os.fspath(path)
    try:
        with open(target, encoding="utf-8") as source:
            text = source.read()
    except FileNotFoundError as error:
        raise SaveFileError(_("There is no saved game at {path}.").format(path=target)) from error
    except UnicodeDecodeError as error:
        raise SaveFileError(
            _("{path} is not a Five Crowns saved game: it is not text.").format(path=target)
        ) from error
    except OSError as error:
        raise SaveFileError(
            _("{path} cannot be read: {error}.").format(path=target, error=error.strerror)
        ) from error
    try:
        data = json.loads(text)
    except RecursionError as error:
        # why: json.loads raises RecursionError, not JSONDecodeError, on deeply nested arrays.
        raise SaveFileError(
            _("{path} is not a Five Crowns saved game: its JSON is nested too deeply.").format(
                path=target
            )
        ) from error
    except ValueError as error:
        if not isinstance(error, json.JSONDecodeError):
            # why: a number of over 4,300 digits raises a plain ValueError, not a JSON error
            raise SaveFileError(
                _("{path} is damaged: {error}.").format(path=target, error=error)
            ) from error
        if SAVE_FORMAT not in text[:200]:
            raise SaveFileError(
                _("{path} is not a Five Crowns saved game: it is not a saved game's JSON.").format(
                    path=target
                )
            ) from error
        raise SaveFileError(
            _(
                "{path} is not a complete saved game: it is cut short or corrupted "
                "(line {line}, column {column})."
            ).format(path=target, line=error.lineno, column=error.colno)
        ) from error
    try:
        return game_from_json(data)
    except SaveFileError as error:
        raise SaveFileError(f"{target}: {error}") from error


def save_solitaire(game: Solitaire, path: str | os.PathLike[str]) -> None:
    """Write the game to ``path`` atomically: a crash leaves the old file or the new one.

    An existing file is replaced only if it is a solitaire save: a foreign or
    damaged file is never overwritten."""
    target = Path(path)
    if target.exists():
        try:
            read_solitaire(target)
        except SaveFileError as error:
            # two whole sentences
            kept = _("It was not overwritten.")
            raise SaveFileError(f"{error} {kept}") from error
    text = json.dumps(game.to_json(), indent=1) + "\n"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, text)
    except OSError as error:
        raise SaveFileError(
            _("Could not save the game to {path}: {reason}.").format(
                path=target, reason=error.strerror
            )
        ) from error


def read_solitaire(path: str | os.PathLike[str]) -> Solitaire:
    """Read a game saved by :func:`save_solitaire`; a missing or damaged file: SaveFileError."""
    from fivecrowns.core.solitaire.rules import Solitaire

    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise SaveFileError(
            _("There is no saved solitaire game at {path}.").format(path=source)
        ) from error
    except (OSError, UnicodeDecodeError) as error:
        raise SaveFileError(
            _("Could not read the saved game {path}: {reason}.").format(path=source, reason=error)
        ) from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFileError(
            _(
                "The saved game {path} is damaged: it is not complete JSON "
                "(line {line}, column {column})."
            ).format(path=source, line=error.lineno, column=error.colno)
        ) from error
    except ValueError as error:
        # why: a number of over 4,300 digits raises a plain ValueError, not a JSON error
        raise SaveFileError(
            _("The saved game {path} is damaged: {reason}.").format(path=source, reason=error)
        ) from error
    except RecursionError as error:
        # why: json.loads raises RecursionError, not JSONDecodeError, on deeply nested arrays.
        raise SaveFileError(
            _("The saved game {path} is damaged: its JSON is nested too deeply.").format(
                path=source
            )
        ) from error
    try:
        return Solitaire.from_json(data)
    except SaveFileError as error:
        file = _("File: {path}.").format(path=source)
        raise SaveFileError(f"{error} {file}") from error  # two whole sentences
