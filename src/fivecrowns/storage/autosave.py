"""The autosave and the games kept aside, in the user's data folder.

The autosave is rewritten after every move with an atomic write (a temporary
file in the same folder, flushed to disk, then renamed over the old one), so a
kill at any moment leaves either the old save or the new one, never half a file.
The history of finished games is :mod:`fivecrowns.storage.history`; the lock that keeps
one game per data folder is :mod:`fivecrowns.storage.locks`.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fivecrowns.core.codec import game_to_json, move_to_json
from fivecrowns.core.errors import SaveFileError
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext
from fivecrowns.storage.atomic import atomic_write_text
from fivecrowns.storage.paths import data_dir
from fivecrowns.storage.saves import check_autosave, read_bounded

if TYPE_CHECKING:
    from fivecrowns.core.game import Game

__all__ = [
    "KeptAside",
    "autosave_path",
    "autosave_payload",
    "bring_back",
    "choose_kept_game",
    "damaged_games",
    "delete_autosave",
    "keep_aside_autosave",
    "kept_aside_path",
    "kept_games",
    "previous_autosave_path",
    "read_autosave",
    "swap_previous_autosave",
    "unfinished_games",
    "write_autosave",
]

SAVE_VERSION = 1


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


def autosave_payload(
    game: Game,
    seats: Sequence[tuple[str, str | None]],
    at_keyboard: int,
    verbosity: str,
    game_id: str,
) -> dict[str, Any]:
    """The autosave's content for a local game: its seats (name and computer level), the
    seed and moves that replay it, and the whole state (the schema in storage/saves.py)."""
    return {
        "seats": [{"name": name, "level": level} for name, level in seats],
        "seed": game.seed,
        "first_dealer": game.first_dealer,
        "decks": game.options.decks,
        "moves": [[player, move_to_json(move)] for player, move in game.moves],
        "at_keyboard": at_keyboard,
        "verbosity": verbosity,
        "id": game_id,
        "game": game_to_json(game),
    }


def write_autosave(payload: dict[str, Any], path: Path | None = None) -> None:
    path = path or autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"version": SAVE_VERSION, **payload}))


def read_autosave(path: Path | None = None) -> dict[str, Any]:
    """The saved game, its whole shape checked (:func:`fivecrowns.storage.saves.check_autosave`);
    raises :class:`SaveFileError` with a sentence if it is missing, damaged or too big."""
    path = path or autosave_path()
    try:
        raw = read_bounded(path, "saved game")
    except FileNotFoundError:
        raise SaveFileError(
            _("There is no saved game to resume in {folder}.").format(folder=path.parent)
        ) from None
    return check_autosave(raw, str(path))


# --- unfinished games kept aside ------------------------------------------------------
#
# A new game never replaces an unfinished one: the autosave is moved aside under a name
# of its own (NAME-kept-DATE.json), and a file that does not load is moved aside as
# NAME-damaged-DATE.json, never over anything. Nothing here deletes a kept file.


@dataclass(frozen=True)
class KeptAside:
    """Where a saved game was moved, and why it could not be resumed (None: it can)."""

    path: Path
    damage: str | None = None


def previous_autosave_path() -> Path:
    """The legacy single game kept aside (older versions kept only one, under this name)."""
    return kept_aside_path(autosave_path())


def kept_aside_path(path: Path) -> Path:
    """The legacy name of the one unfinished game kept aside: NAME-previous.json."""
    return path.with_name(f"{path.stem}-previous{path.suffix}")


def kept_games(path: Path | None = None) -> list[Path]:
    """The unfinished games kept aside beside ``path`` that can be resumed, newest first."""
    path = path or autosave_path()
    found = list(path.parent.glob(f"{path.stem}-kept-*{path.suffix}"))
    legacy = kept_aside_path(path)
    if legacy.is_file():
        found.append(legacy)
    return sorted(found, key=_newest_first)


def damaged_games(path: Path | None = None) -> list[Path]:
    """Saves that did not load and were kept aside under their own name, newest first."""
    path = path or autosave_path()
    return sorted(path.parent.glob(f"{path.stem}-damaged-*{path.suffix}"), key=_newest_first)


def _newest_first(path: Path) -> tuple[float, str]:
    try:
        return (-path.stat().st_mtime, path.name)
    except OSError:
        return (0.0, path.name)


def _free_name(path: Path, kind: str) -> Path:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    for number in range(1, 1000):
        suffix = "" if number == 1 else f"-{number}"
        candidate = path.with_name(f"{path.stem}-{kind}-{stamp}{suffix}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise SaveFileError(
        _("There are too many saved games kept in {folder}.").format(folder=path.parent)
    )


def keep_aside_autosave(
    path: Path | None = None, check: Callable[[Path], object] | None = None
) -> KeptAside | None:
    """Move the saved game at ``path`` aside under a new name before a new game saves there.

    ``check(path)`` loads it and raises :class:`SaveFileError` when it is damaged: such a
    file is kept as NAME-damaged-DATE.json, with the reason. Returns None when there was
    no saved game. Nothing is ever moved over an existing file.
    """
    path = path or autosave_path()
    if not path.exists():
        return None
    damage = None
    if check is not None:
        try:
            check(path)
        except SaveFileError as error:
            damage = str(error)
    kept = _free_name(path, "damaged" if damage else "kept")
    try:
        os.replace(path, kept)
    except OSError as error:
        raise SaveFileError(
            _(
                "The unfinished game {path} could not be kept aside: {why}. "
                "Nothing was changed; continue it with --resume."
            ).format(path=path, why=error.strerror)
        ) from None
    return KeptAside(kept, damage)


def choose_kept_game(choice: str, path: Path | None = None) -> Path | None:
    """The kept game a ``--resume`` choice names: None for ``last`` (the saved game itself),
    the newest kept game for ``previous``, or number N of :func:`unfinished_games`."""
    path = path or autosave_path()
    if choice == "last":
        return None
    kept = kept_games(path)
    if choice == "previous":
        if not kept:
            raise SaveFileError(
                _("There is no game kept aside to resume in {folder}.").format(folder=path.parent)
            )
        return kept[0]
    games = unfinished_games(path)
    number = int(choice) if choice.isdigit() and len(choice) < 6 else 0
    if not 1 <= number <= len(games):
        count = len(games)
        raise SaveFileError(no_such_game(count).format(choice=choice, count=count))
    chosen = games[number - 1]
    return None if chosen == path else chosen


def no_such_game(count: int) -> str:
    return ngettext(
        "There is no unfinished game number {choice}: there is {count}. "
        "See them with --resume list.",
        "There is no unfinished game number {choice}: there are {count}. "
        "See them with --resume list.",
        count,
    )


def unfinished_games(path: Path | None = None) -> list[Path]:
    """The saved game (when there is one), then the kept ones newest first: the numbers
    ``--resume N`` and ``--resume list`` use."""
    path = path or autosave_path()
    return ([path] if path.is_file() else []) + kept_games(path)


def bring_back(
    kept: Path, path: Path | None = None, check: Callable[[Path], object] | None = None
) -> KeptAside | None:
    """Make the kept game ``kept`` the saved game again; the saved game, if any, is kept
    aside in its place, so neither is lost. ``check`` loads ``kept`` first: a damaged one
    raises :class:`SaveFileError` and nothing is moved."""
    path = path or autosave_path()
    if check is not None:
        check(kept)
    aside = keep_aside_autosave(path, check)
    try:
        os.replace(kept, path)
    except OSError as error:
        raise SaveFileError(
            _("The game kept in {kept} could not be brought back: {why}.").format(
                kept=kept, why=error.strerror
            )
        ) from None
    return aside


def swap_previous_autosave(path: Path | None = None) -> None:
    """``--resume previous``: the newest kept game becomes the saved game; the saved game
    (if any) is kept aside in its place, so neither is lost."""
    path = path or autosave_path()
    chosen = choose_kept_game("previous", path)
    if chosen is not None:
        bring_back(chosen, path)


# --- one game at a time per data folder -------------------------------------------------


def delete_autosave(path: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        (path or autosave_path()).unlink()
