"""Where the game server keeps players' ratings and rated games, behind a small interface.

:class:`RatingStore` is all the server uses, so a shared database can implement it later
without touching the server. Two stores here: :class:`SqlRatings` (in the server's SQLite
file, next to its tables and accounts, or in PostgreSQL) and :class:`MemoryRatings`
(``serve --memory``).

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
import math
import sqlite3
from dataclasses import dataclass
from typing import Any, Protocol

from fivecrowns.storage.sql import Sql, SqliteSql

__all__ = [
    "MemoryRatings",
    "RatedGame",
    "Rating",
    "RatingStore",
    "SqlRatings",
    "SqliteRatings",
    "shown",
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
        are; players with the same :func:`shown` rating share a place."""
        ...

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        """``count`` ratings from place ``start`` (0 the best), best first; and how many."""
        ...

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        """``count`` of the player's rated games from ``start`` (0 the newest), newest first;
        and how many they have."""
        ...

    def game(self, key: str) -> RatedGame | None: ...

    def forget(self, player_id: str) -> None:
        """Drop the player's rating (their account is deleted): they leave the leaderboard
        and its count; the games kept stay, naming a deleted player."""
        ...


def shown(mu: float) -> int:
    """The rating a player hears and reads: ``mu`` rounded, a half up. Places go by it, so
    two players said to have the same rating share a place (:meth:`RatingStore.rank`)."""
    return math.floor(mu + 0.5)


def _higher(rating: Rating) -> float:
    """The least ``mu`` shown higher than ``rating``'s (shown(mu) > s exactly when
    mu >= s + 0.5)."""
    return shown(rating.mu) + 0.5


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
        better = sum(1 for r in self._ratings.values() if r.mu >= _higher(rating))
        return better + 1, len(self._ratings)

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        ordered = sorted(self._ratings.values(), key=_order)
        return ordered[start : start + count], len(ordered)

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        mine = [g for g in reversed(self._games.values()) if player_id in g.player_ids]
        return mine[start : start + count], len(mine)

    def game(self, key: str) -> RatedGame | None:
        return self._games.get(key)

    def forget(self, player_id: str) -> None:
        self._ratings.pop(player_id, None)


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


class SqlRatings:
    """Ratings in the server's database (SQLite or PostgreSQL, :mod:`fivecrowns.storage.sql`),
    brought to the newest version by its migrations. Every answer is read from the database,
    so several server processes sharing it agree on every rating."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql

    def _counts(self, sql: str, values: tuple[Any, ...] = ()) -> tuple[int, ...]:
        row = self._sql.execute(sql, values).fetchone()
        assert row is not None  # why: a SELECT of counts always has its one row
        return tuple(int(value) for value in row)

    def rating(self, player_id: str) -> Rating | None:
        row = self._sql.execute(
            f"SELECT {_COLUMNS} FROM ratings WHERE player_id = ?", (player_id,)
        ).fetchone()
        return None if row is None else Rating(*row)

    def record_game(self, game: RatedGame, ratings: list[Rating]) -> bool:
        sql = self._sql
        with sql.transaction():
            cursor = sql.execute(
                f"INSERT INTO rated_games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (key) DO NOTHING",
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
                return False
            sql.executemany(
                "INSERT INTO rated_seats (player_id, game_key, at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [(pid, game.key, game.at) for pid in game.player_ids if pid is not None],
            )
            sql.executemany(
                f"INSERT INTO ratings ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, played = excluded.played, won = excluded.won",
                [(r.player_id, r.mu, r.sigma, r.played, r.won) for r in ratings],
            )
        return True

    def rank(self, rating: Rating) -> tuple[int, int]:
        better, everyone = self._counts(
            "SELECT (SELECT COUNT(*) FROM ratings WHERE mu >= ?), (SELECT COUNT(*) FROM ratings)",
            (_higher(rating),),
        )
        return better + 1, everyone

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        rows = self._sql.execute(
            f"SELECT {_COLUMNS} FROM ratings ORDER BY mu DESC, player_id LIMIT ? OFFSET ?",
            (count, start),
        ).fetchall()
        (everyone,) = self._counts("SELECT COUNT(*) FROM ratings")
        return [Rating(*row) for row in rows], everyone

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        columns = ", ".join(f"g.{name}" for name in _GAME_COLUMNS.split(", "))
        order = self._sql.insertion_order
        rows = self._sql.execute(
            f"SELECT {columns} FROM rated_seats s JOIN rated_games g ON g.key = s.game_key"
            f" WHERE s.player_id = ? ORDER BY s.at DESC, g.{order} DESC LIMIT ? OFFSET ?",
            (player_id, count, start),
        ).fetchall()
        (mine,) = self._counts("SELECT COUNT(*) FROM rated_seats WHERE player_id = ?", (player_id,))
        return [_game(row) for row in rows], mine

    def game(self, key: str) -> RatedGame | None:
        row = self._sql.execute(
            f"SELECT {_GAME_COLUMNS} FROM rated_games WHERE key = ?", (key,)
        ).fetchone()
        return None if row is None else _game(row)

    def forget(self, player_id: str) -> None:
        self._sql.execute("DELETE FROM ratings WHERE player_id = ?", (player_id,))


class SqliteRatings(SqlRatings):
    """Ratings in the server's SQLite file, through its connection (in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__(SqliteSql(db))
