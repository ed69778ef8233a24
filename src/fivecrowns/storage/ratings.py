"""Where the game server keeps players' ratings and rated games, behind a small interface.

:class:`RatingStore` is all the server uses, so a shared database can implement it later
without touching the server. Two stores here: :class:`SqliteRatings` (in the server's SQLite
file, next to its tables and accounts) and :class:`MemoryRatings` (``serve --memory``).

A rating is an OpenSkill pair (``mu``, ``sigma``) with the games played and won; only account
holders have one (guests are unrated, computer players have fixed ones that are never kept).
Each rated game is kept once, by its key (the table and which of its games it was), in the
same transaction as the ratings it moved: a restart that finishes the game again, or sees it
finished twice, never moves a rating twice (:meth:`RatingStore.record_game` says whether it
was new). A kept game holds names, final totals and each round's points, never a card; an
account holder's seat keeps the account's id and no name (the name is looked up when the game
is read, so a deleted account's games name "a deleted player").
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "MemoryRatings",
    "RatedGame",
    "Rating",
    "RatingStore",
    "SqliteRatings",
]


@dataclass(frozen=True, slots=True)
class Rating:
    player_id: str
    mu: float
    sigma: float
    played: int = 0
    won: int = 0


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished rated game: each seat's name (empty for an account holder's seat, whose
    name is its account's) and account id (``None`` for a guest or a computer player), the
    final totals, each round's points, and when it ended (seconds since the epoch)."""

    key: str
    at: float
    names: tuple[str, ...]
    player_ids: tuple[str | None, ...]
    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...] = ()


class RatingStore(Protocol):
    def rating(self, player_id: str) -> Rating | None: ...

    def record_game(self, game: RatedGame, ratings: list[Rating]) -> bool:
        """Keep ``game`` and the new ``ratings`` together, durable on return; ``False`` and
        nothing changed when a game with its key is already kept."""
        ...

    def rank(self, rating: Rating) -> tuple[int, int]:
        """Where ``rating`` stands: its place (1 the best) and how many rated players there
        are; ties share a place."""
        ...

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        """``count`` ratings from place ``start`` (0 the best), best first; and how many."""
        ...

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        """``count`` of the player's rated games from ``start`` (0 the newest), newest first;
        and how many they have."""
        ...

    def game(self, key: str) -> RatedGame | None: ...


def _order(rating: Rating) -> tuple[float, str]:
    return (-rating.mu, rating.player_id)


class MemoryRatings:
    """Ratings that last as long as the server process."""

    def __init__(self) -> None:
        self._ratings: dict[str, Rating] = {}
        self._games: dict[str, RatedGame] = {}

    def rating(self, player_id: str) -> Rating | None:
        return self._ratings.get(player_id)

    def record_game(self, game: RatedGame, ratings: list[Rating]) -> bool:
        if game.key in self._games:
            return False
        self._games[game.key] = game
        for rating in ratings:
            self._ratings[rating.player_id] = rating
        return True

    def rank(self, rating: Rating) -> tuple[int, int]:
        better = sum(1 for r in self._ratings.values() if r.mu > rating.mu)
        return better + 1, len(self._ratings)

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        ordered = sorted(self._ratings.values(), key=_order)
        return ordered[start : start + count], len(ordered)

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        mine = [g for g in reversed(self._games.values()) if player_id in g.player_ids]
        return mine[start : start + count], len(mine)

    def game(self, key: str) -> RatedGame | None:
        return self._games.get(key)


_COLUMNS = "player_id, mu, sigma, played, won"
_GAME_COLUMNS = "key, at, names, player_ids, totals, rounds"


def _game(row: tuple[Any, ...]) -> RatedGame:
    key, at, names, player_ids, totals, rounds = row
    return RatedGame(
        str(key),
        float(at),
        tuple(json.loads(names)),
        tuple(json.loads(player_ids)),
        tuple(json.loads(totals)),
        tuple(tuple(scores) for scores in json.loads(rounds)),
    )


class SqliteRatings:
    """Ratings in the server's SQLite file, through its connection (in autocommit mode,
    brought to the newest version by :func:`fivecrowns.storage.migrations.migrate`)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def rating(self, player_id: str) -> Rating | None:
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM ratings WHERE player_id = ?", (player_id,)
        ).fetchone()
        return None if row is None else Rating(*row)

    def record_game(self, game: RatedGame, ratings: list[Rating]) -> bool:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            cursor = db.execute(
                f"INSERT OR IGNORE INTO rated_games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game.key,
                    game.at,
                    json.dumps(game.names, ensure_ascii=False),
                    json.dumps(game.player_ids),
                    json.dumps(game.totals),
                    json.dumps(game.rounds),
                ),
            )
            if cursor.rowcount == 0:  # why: kept already (a restart finished it again)
                db.execute("ROLLBACK")
                return False
            db.executemany(
                "INSERT OR IGNORE INTO rated_seats (player_id, game_key, at) VALUES (?, ?, ?)",
                [(pid, game.key, game.at) for pid in game.player_ids if pid is not None],
            )
            db.executemany(
                f"INSERT OR REPLACE INTO ratings ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                [(r.player_id, r.mu, r.sigma, r.played, r.won) for r in ratings],
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return True

    def rank(self, rating: Rating) -> tuple[int, int]:
        better, everyone = self._db.execute(
            "SELECT (SELECT COUNT(*) FROM ratings WHERE mu > ?), (SELECT COUNT(*) FROM ratings)",
            (rating.mu,),
        ).fetchone()
        return int(better) + 1, int(everyone)

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM ratings ORDER BY mu DESC, player_id LIMIT ? OFFSET ?",
            (count, start),
        ).fetchall()
        (everyone,) = self._db.execute("SELECT COUNT(*) FROM ratings").fetchone()
        return [Rating(*row) for row in rows], int(everyone)

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        columns = ", ".join(f"g.{name}" for name in _GAME_COLUMNS.split(", "))
        rows = self._db.execute(
            f"SELECT {columns} FROM rated_seats s JOIN rated_games g ON g.key = s.game_key"
            " WHERE s.player_id = ? ORDER BY s.at DESC, g.rowid DESC LIMIT ? OFFSET ?",
            (player_id, count, start),
        ).fetchall()
        (mine,) = self._db.execute(
            "SELECT COUNT(*) FROM rated_seats WHERE player_id = ?", (player_id,)
        ).fetchone()
        return [_game(row) for row in rows], int(mine)

    def game(self, key: str) -> RatedGame | None:
        row = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM rated_games WHERE key = ?", (key,)
        ).fetchone()
        return None if row is None else _game(row)
