"""Autosave and the history of finished games, in the user's data folder.

The autosave is rewritten after every move with an atomic write (a temporary
file in the same folder, flushed to disk, then renamed over the old one), so a
kill at any moment leaves either the old save or the new one, never half a file.
The history is one JSON object per line, appended when a game ends: a main game
has ``players`` and ``totals``; a solitaire game has ``"game": "solitaire"``,
``won`` and ``points_left``.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import stat
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fivecrowns import i18n
from fivecrowns.atomic import atomic_write_text
from fivecrowns.errors import FiveCrownsError, SaveFileError
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.savefile import MAX_NAME_LENGTH, check_autosave, read_bounded
from fivecrowns.ui.settings import data_dir
from fivecrowns.words import name_numbers

__all__ = [
    "BUSY",
    "DataFolderBusy",
    "HistoryRead",
    "KeptAside",
    "append_history",
    "append_solitaire_history",
    "autosave_path",
    "bring_back",
    "choose_kept_game",
    "damaged_games",
    "data_folder_lock",
    "delete_autosave",
    "describe_history",
    "history_path",
    "keep_aside_autosave",
    "kept_aside_path",
    "kept_games",
    "new_game_id",
    "previous_autosave_path",
    "read_autosave",
    "read_history",
    "read_history_counted",
    "read_history_tail",
    "skipped_words",
    "swap_previous_autosave",
    "unfinished_games",
    "write_autosave",
]

SAVE_VERSION = 1


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


def history_path() -> Path:
    return data_dir() / "history.jsonl"


def write_autosave(payload: dict[str, Any], path: Path | None = None) -> None:
    path = path or autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"version": SAVE_VERSION, **payload}))


def read_autosave(path: Path | None = None) -> dict[str, Any]:
    """The saved game, its whole shape checked (:func:`fivecrowns.savefile.check_autosave`);
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

BUSY = N_(
    "Another Five Crowns game is running and saving in {folder}. Only one game at a time "
    "can use it, so nothing was started and nothing was changed. Finish or quit the other "
    "game first. Meanwhile you can see past games with: fivecrowns history"
)


class DataFolderBusy(FiveCrownsError):
    """Another copy of the game holds the data folder; the message says what to do."""


@contextlib.contextmanager
def data_folder_lock(folder: Path | None = None) -> Iterator[None]:
    """Hold the data folder for one game: a second copy raises :class:`DataFolderBusy`.

    why filelock, not fcntl: the same advisory lock (flock) on Linux and macOS and
    msvcrt's on Windows; the system drops it when the process dies, even on kill -9.
    A folder where no lock can be taken (read-only) is used without one: the game
    cannot save there anyway, and it says so.
    """
    import filelock

    folder = folder or data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(folder / "fivecrowns.lock", timeout=0, is_singleton=False)
        lock.acquire()
    except filelock.Timeout:
        raise DataFolderBusy(_(BUSY).format(folder=folder)) from None
    except OSError:
        yield
        return
    try:
        _remove_stale_temporaries(folder)
        yield
    finally:
        lock.release()


def _remove_stale_temporaries(folder: Path) -> None:
    """Remove half-written saves a kill left behind (``.autosave.json.XXXX.tmp``): with the
    lock held no other copy is writing, so every one of them is stale."""
    for stale in folder.glob(".*.json.*.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()


def delete_autosave(path: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        (path or autosave_path()).unlink()


def _now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="minutes")


def new_game_id() -> str:
    """A name for one game, kept in its save and its history record."""
    return uuid.uuid4().hex


def append_history(
    players: list[str], totals: list[int], path: Path | None = None, game_id: str | None = None
) -> None:
    """Record a finished game: date, players, final totals. With ``game_id``, a game
    already recorded last (a kill came before its autosave was deleted, then it was
    resumed and finished again) is not recorded twice."""
    record: dict[str, Any] = {"date": _now(), "players": players, "totals": totals}
    if game_id is not None:
        record["id"] = game_id
    _append_record(record, path)


def append_solitaire_history(
    won: bool,
    points_left: int,
    seed: int | None = None,
    path: Path | None = None,
    game_id: str | None = None,
) -> None:
    """Record a finished solitaire game: date, won or lost, points left in the open hands.
    With ``game_id``, a game already recorded last is not recorded twice (as in
    :func:`append_history`)."""
    record: dict[str, Any] = {
        "date": _now(),
        "game": "solitaire",
        "won": won,
        "points_left": points_left,
    }
    if seed is not None:
        record["seed"] = seed
    if game_id is not None:
        record["id"] = game_id
    _append_record(record, path)


def _append_record(record: dict[str, Any], path: Path | None) -> None:
    path = path or history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    last = _last_line(path)
    if "id" in record and last is not None and _same_game(last, record):
        return  # why: killed after recording but before the autosave was deleted, then resumed
    with path.open("a", encoding="utf-8") as handle:
        # why the newline: a file cut short (or edited) must not glue this record onto its last
        separator = "\n" if last is not None and not last.endswith(b"\n") else ""
        handle.write(separator + json.dumps(record) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def _last_line(path: Path) -> bytes | None:
    """The history file's last line with its newline, or None when it is empty or missing."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            if size == 0:
                return None
            handle.seek(max(0, size - 4096))
            tail = handle.read()
    except OSError:
        return None
    body = tail[:-1] if tail.endswith(b"\n") else tail
    return tail[body.rfind(b"\n") + 1 :]


def _same_game(line: bytes, record: dict[str, Any]) -> bool:
    try:
        last = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(last, dict) and last.get("id") == record["id"]


def read_history(path: Path | None = None) -> list[dict[str, Any]]:
    """Finished games, oldest first; damaged lines are skipped."""
    return read_history_counted(path)[0]


#: The most of the history file that is read: its newest part, about 10,000 games.
HISTORY_TAIL_BYTES = 1_000_000


@dataclass(frozen=True)
class HistoryRead:
    """What reading the history file found: the games (oldest first), how many damaged
    lines were skipped, whether older games were left unread (a very large file), and a
    sentence when the file could not be read at all."""

    games: list[dict[str, Any]]
    skipped: int = 0
    older_not_read: bool = False
    problem: str | None = None


def read_history_counted(path: Path | None = None) -> tuple[list[dict[str, Any]], int]:
    """Finished games, oldest first, and how many damaged lines were skipped.

    A line is damaged unless it is a whole record: a date, and either a solitaire
    result or as many players (names) as totals (whole numbers).
    """
    found = read_history_tail(path)
    return found.games, found.skipped


def read_history_tail(path: Path | None = None) -> HistoryRead:
    """The history, read from the end: only its newest :data:`HISTORY_TAIL_BYTES`, so a
    huge file costs a bounded time and memory. Never raises."""
    path = path or history_path()
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # why: a FIFO would block for ever
            why = "it is not a plain file"
            return HistoryRead([], problem=_(HISTORY_UNREADABLE).format(path=path, why=why))
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            start = max(0, size - HISTORY_TAIL_BYTES)
            handle.seek(start)
            raw = handle.read(HISTORY_TAIL_BYTES)
    except FileNotFoundError:
        return HistoryRead([])
    except OSError as error:
        return HistoryRead([], problem=_(HISTORY_UNREADABLE).format(path=path, why=error.strerror))
    if start > 0:
        raw = raw[raw.find(b"\n") + 1 :]  # the first line read is a part of one
    # why: a damaged byte must cost one line of history, not the whole history.
    text = raw.decode("utf-8", errors="replace")
    games: list[dict[str, Any]] = []
    skipped = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            skipped += 1
            continue
        if _whole_record(record):
            games.append(record)
        else:
            skipped += 1
    return HistoryRead(games, skipped, older_not_read=start > 0)


HISTORY_UNREADABLE = N_("The history file {path} cannot be read: {why}.")


def _whole_record(record: object) -> bool:
    if not isinstance(record, dict) or not isinstance(record.get("date"), str):
        return False
    if record.get("game") == "solitaire":
        return isinstance(record.get("won"), bool) and _whole_number(record.get("points_left"))
    players, totals = record.get("players"), record.get("totals")
    return (
        isinstance(players, list)
        and isinstance(totals, list)
        and len(players) == len(totals) > 0
        and all(isinstance(name, str) and len(name) <= MAX_NAME_LENGTH for name in players)
        and all(_whole_number(total) for total in totals)
    )


def _whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _printable(name: str) -> str:
    """A stored name without control characters: an escape sequence in a history file
    must not move the cursor or recolour the terminal of whoever reads it."""
    return "".join(char if char.isprintable() else "?" for char in name)


def skipped_words(skipped: int) -> str:
    """A sentence about damaged history lines, or "" when there were none."""
    if not skipped:
        return ""
    return ngettext(
        "{count} damaged line in the history file was skipped.",
        "{count} damaged lines in the history file were skipped.",
        skipped,
    ).format(count=skipped)


def describe_history(games: list[dict[str, Any]], last: int = 10) -> list[str]:
    """One spoken sentence per game, newest first.

    >>> game = {"date": "2026-11-22T10:00+00:00", "players": ["Ann", "Bo"], "totals": [80, 95]}
    >>> solo = {"date": "2026-11-22T11:00+00:00", "game": "solitaire", "won": False,
    ...         "points_left": 23}
    >>> for sentence in describe_history([game, solo]):
    ...     print(sentence)
    2026-11-22 11:00: Solitaire lost, 23 points left.
    2026-11-22 10:00: Ann won with 80. Ann 80, Bo 95.
    """
    if not games:
        return [_("No finished games yet.")]
    sentences: list[str] = []
    for record in reversed(games[-last:]):
        if record.get("game") == "solitaire":
            when = str(record["date"]).replace("T", " ")[:16]
            points = int(record["points_left"])
            if record["won"]:
                said = ngettext(
                    "{when}: Solitaire won, {count} point left.",
                    "{when}: Solitaire won, {count} points left.",
                    points,
                )
            else:
                said = ngettext(
                    "{when}: Solitaire lost, {count} point left.",
                    "{when}: Solitaire lost, {count} points left.",
                    points,
                )
            sentences.append(said.format(when=when, count=points))
            continue
        players: list[str] = [_printable(str(p)) for p in record["players"]]
        totals: list[int] = [int(t) for t in record["totals"]]
        best = min(totals)
        winners = [p for p, t in zip(players, totals, strict=True) if t == best]
        when = str(record["date"]).replace("T", " ")[:16]
        scores = name_numbers(players, totals)
        if len(winners) == 1:
            said = _("{when}: {winner} won with {points}. {scores}.")
        else:
            said = _("{when}: {winners} shared the win with {points}. {scores}.")
        sentences.append(
            said.format(
                when=when,
                winner=winners[0],
                winners=i18n.join_list(winners),
                points=best,
                scores=scores,
            )
        )
    return sentences
