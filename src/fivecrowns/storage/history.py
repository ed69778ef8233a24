"""The history of finished games, in the user's data folder.

One JSON object per line, appended when a game ends: a main game has ``players`` and
``totals``; a solitaire game has ``"game": "solitaire"``, ``won`` and ``points_left``.
The game, the solitaire game and the server (``fivecrowns serve``) all append here.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import stat
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from fivecrowns import i18n
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.paths import data_dir
from fivecrowns.storage.saves import MAX_NAME_LENGTH
from fivecrowns.words.lists import name_numbers

__all__ = [
    "HistoryRead",
    "HistoryWriter",
    "append_history",
    "append_solitaire_history",
    "describe_history",
    "history_path",
    "new_game_id",
    "read_history",
    "read_history_counted",
    "read_history_tail",
    "skipped_words",
]


log = logging.getLogger(__name__)
T = TypeVar("T")


def history_path() -> Path:
    return data_dir() / "history.jsonl"


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


class HistoryWriter:
    """A server's history file, written by one worker thread in the order asked: each
    finished game's record (:meth:`append`) and any other change to the file (:meth:`run`,
    such as a deleted account's name forgotten).

    why a thread: a record is fsynced (a finished game must survive a crash), and an fsync
    waits for the disk, milliseconds to seconds on a busy one; on the server's event loop it
    held every table's moves meanwhile (issue 29). why one: the records keep their order, and
    a rewrite of the file never races an append. :meth:`close` waits for every write asked
    for, so none is lost when the server stops. The terminal game appends at once
    (:func:`append_history`): it has nobody else to keep waiting."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="history")

    def append(self, players: list[str], totals: list[int]) -> Future[None]:
        """Record a finished game (:func:`append_history`) after every write asked before."""
        players, totals = list(players), list(totals)  # why: the caller's lists may change
        return self.run(lambda path: append_history(players, totals, path))

    def run(self, work: Callable[[Path], T]) -> Future[T]:
        """``work(path)`` after every write asked before; its result, or its error (an
        ``OSError`` is also logged as a warning: a full disk must not stop a server)."""
        try:
            future = self._pool.submit(work, self.path)
        except RuntimeError:  # why: closed (the server is stopping): written now, not lost
            future = Future()
            try:
                future.set_result(work(self.path))
            except Exception as error:
                future.set_exception(error)
        future.add_done_callback(_told)
        return future

    def close(self) -> None:
        """Wait for every write asked for; later ones are made at once, in the caller."""
        self._pool.shutdown(wait=True)


def _told(future: Future[Any]) -> None:
    error = future.exception()
    if isinstance(error, OSError):
        log.warning("The history file could not be written: %s", error)
    elif error is not None:
        log.error("The history file could not be written", exc_info=error)


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
