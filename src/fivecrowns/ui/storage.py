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
from pathlib import Path
from typing import Any

from fivecrowns.atomic import atomic_write_text
from fivecrowns.errors import SaveFileError
from fivecrowns.ui.settings import data_dir
from fivecrowns.words import name_numbers

__all__ = [
    "append_history",
    "append_solitaire_history",
    "autosave_path",
    "delete_autosave",
    "describe_history",
    "history_path",
    "keep_aside_autosave",
    "kept_aside_path",
    "previous_autosave_path",
    "read_autosave",
    "read_history",
    "read_history_counted",
    "skipped_words",
    "swap_previous_autosave",
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
    """The saved game; raises :class:`SaveFileError` with a sentence if it is missing or damaged."""
    path = path or autosave_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveFileError(f"There is no saved game to resume in {path.parent}.") from None
    except OSError as error:
        raise SaveFileError(f"The saved game {path} cannot be read: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise SaveFileError(f"The saved game {path} is not text and cannot be resumed.") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        # why: json.loads raises RecursionError, not ValueError, on deeply nested arrays.
        raise SaveFileError(f"The saved game {path} is damaged and cannot be resumed.") from None
    if not isinstance(data, dict) or data.get("version") != SAVE_VERSION:
        raise SaveFileError(
            f"The saved game {path} is not a Five Crowns save this version can read."
        )
    return data


def previous_autosave_path() -> Path:
    """Where an unfinished game is kept when a new game is started without --resume."""
    return kept_aside_path(autosave_path())


def kept_aside_path(path: Path) -> Path:
    """Where the unfinished game saved in ``path`` is kept aside: NAME-previous.json."""
    return path.with_name(f"{path.stem}-previous{path.suffix}")


def keep_aside_autosave(path: Path | None = None) -> Path | None:
    """Move an unfinished saved game aside before a new game saves over it.

    Returns where it was kept, or None when there was no saved game. An older game kept
    aside is replaced: only the latest unfinished game is kept.
    """
    path = path or autosave_path()
    kept = kept_aside_path(path)
    if not path.exists():
        return None
    try:
        os.replace(path, kept)
    except OSError as error:
        raise SaveFileError(
            f"The unfinished game {path} could not be kept aside: {error.strerror}. "
            "Nothing was changed; continue it with --resume."
        ) from None
    return kept


def swap_previous_autosave(path: Path | None = None) -> None:
    """``--resume previous``: the game kept aside becomes the saved game, and the saved
    game (if any) is kept aside in its place, so neither is lost."""
    path = path or autosave_path()
    kept = kept_aside_path(path)
    if not kept.exists():
        raise SaveFileError(f"There is no game kept aside to resume in {kept.parent}.")
    swap = path.with_name(f"{path.stem}-swap{path.suffix}")
    try:
        if path.exists():
            os.replace(path, swap)
        os.replace(kept, path)
        if swap.exists():
            os.replace(swap, kept)
    except OSError as error:
        raise SaveFileError(
            f"The game kept aside in {kept} could not be brought back: {error.strerror}."
        ) from None


def delete_autosave(path: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        (path or autosave_path()).unlink()


def _now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="minutes")


def append_history(players: list[str], totals: list[int], path: Path | None = None) -> None:
    """Record a finished game: date, players, final totals."""
    _append_record({"date": _now(), "players": players, "totals": totals}, path)


def append_solitaire_history(
    won: bool, points_left: int, seed: int | None = None, path: Path | None = None
) -> None:
    """Record a finished solitaire game: date, won or lost, points left in the open hands."""
    record: dict[str, Any] = {
        "date": _now(),
        "game": "solitaire",
        "won": won,
        "points_left": points_left,
    }
    if seed is not None:
        record["seed"] = seed
    _append_record(record, path)


def _append_record(record: dict[str, Any], path: Path | None) -> None:
    path = path or history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_history(path: Path | None = None) -> list[dict[str, Any]]:
    """Finished games, oldest first; damaged lines are skipped."""
    return read_history_counted(path)[0]


def read_history_counted(path: Path | None = None) -> tuple[list[dict[str, Any]], int]:
    """Finished games, oldest first, and how many damaged lines were skipped.

    A line is damaged unless it is a whole record: a date, and either a solitaire
    result or as many players (names) as totals (whole numbers).
    """
    path = path or history_path()
    if not path.exists():
        return [], 0
    try:
        # why: a damaged byte must cost one line of history, not the whole history.
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return [], 0
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
    return games, skipped


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
        and all(isinstance(name, str) for name in players)
        and all(_whole_number(total) for total in totals)
    )


def _whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def skipped_words(skipped: int) -> str:
    """A sentence about damaged history lines, or "" when there were none."""
    if not skipped:
        return ""
    lines = "1 damaged line" if skipped == 1 else f"{skipped} damaged lines"
    return f"{lines} in the history file {'was' if skipped == 1 else 'were'} skipped."


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
        return ["No finished games yet."]
    sentences: list[str] = []
    for record in reversed(games[-last:]):
        if record.get("game") == "solitaire":
            when = str(record["date"]).replace("T", " ")[:16]
            points = int(record["points_left"])
            result = "won" if record["won"] else "lost"
            sentences.append(
                f"{when}: Solitaire {result}, {points} point{'s' if points != 1 else ''} left."
            )
            continue
        players: list[str] = [str(p) for p in record["players"]]
        totals: list[int] = [int(t) for t in record["totals"]]
        best = min(totals)
        winners = [p for p, t in zip(players, totals, strict=True) if t == best]
        won = " and ".join(winners) + (
            " won with " if len(winners) == 1 else " shared the win with "
        )
        when = str(record["date"]).replace("T", " ")[:16]
        scores = name_numbers(players, totals)
        sentences.append(f"{when}: {won}{best}. {scores}.")
    return sentences
