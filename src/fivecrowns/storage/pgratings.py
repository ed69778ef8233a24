"""Ratings in PostgreSQL: :class:`fivecrowns.storage.ratings.RatingStore` for a server whose
tables are in PostgreSQL (:mod:`fivecrowns.net.server.pgstore`).

The same rows and the same behaviour as :class:`fivecrowns.storage.ratings.SqliteRatings`, in
PostgreSQL's SQL, through the store's connection (psycopg 3, autocommit). Every answer is read
from the database, so several server processes sharing it agree on every rating.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg

from fivecrowns.storage.ratings import _COLUMNS, _GAME_COLUMNS, RatedGame, Rating, _game

__all__ = ["PgRatings"]


class PgRatings:
    """Ratings in the server's PostgreSQL database. ``connect`` gives the store's open
    connection (why a function: the store opens a new one when its connection was lost)."""

    def __init__(self, connect: Any) -> None:
        self._connect = connect

    def _execute(self, sql: str, values: tuple[Any, ...] = ()) -> psycopg.Cursor[Any]:
        db: psycopg.Connection[Any] = self._connect()
        return db.execute(sql, values)

    def _counts(self, sql: str, values: tuple[Any, ...] = ()) -> tuple[int, ...]:
        row = self._execute(sql, values).fetchone()
        assert row is not None  # why: a SELECT of counts always has its one row
        return tuple(int(value) for value in row)

    def rating(self, player_id: str) -> Rating | None:
        row = self._execute(
            f"SELECT {_COLUMNS} FROM ratings WHERE player_id = %s", (player_id,)
        ).fetchone()
        return None if row is None else Rating(*row)

    def record_game(self, game: RatedGame, ratings: list[Rating]) -> bool:
        db: psycopg.Connection[Any] = self._connect()
        with db.transaction(), db.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO rated_games ({_GAME_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)"
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
            cursor.executemany(
                "INSERT INTO rated_seats (player_id, game_key, at) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                [(pid, game.key, game.at) for pid in game.player_ids if pid is not None],
            )
            cursor.executemany(
                f"INSERT INTO ratings ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, played = excluded.played, won = excluded.won",
                [(r.player_id, r.mu, r.sigma, r.played, r.won) for r in ratings],
            )
        return True

    def rank(self, rating: Rating) -> tuple[int, int]:
        better, everyone = self._counts(
            "SELECT (SELECT COUNT(*) FROM ratings WHERE mu > %s), (SELECT COUNT(*) FROM ratings)",
            (rating.mu,),
        )
        return better + 1, everyone

    def leaderboard(self, start: int, count: int) -> tuple[list[Rating], int]:
        rows = self._execute(
            f"SELECT {_COLUMNS} FROM ratings ORDER BY mu DESC, player_id LIMIT %s OFFSET %s",
            (count, start),
        ).fetchall()
        (everyone,) = self._counts("SELECT COUNT(*) FROM ratings")
        return [Rating(*row) for row in rows], everyone

    def games_of(self, player_id: str, start: int, count: int) -> tuple[list[RatedGame], int]:
        columns = ", ".join(f"g.{name}" for name in _GAME_COLUMNS.split(", "))
        rows = self._execute(
            f"SELECT {columns} FROM rated_seats s JOIN rated_games g ON g.key = s.game_key"
            " WHERE s.player_id = %s ORDER BY s.at DESC, g.n DESC LIMIT %s OFFSET %s",
            (player_id, count, start),
        ).fetchall()
        (mine,) = self._counts(
            "SELECT COUNT(*) FROM rated_seats WHERE player_id = %s", (player_id,)
        )
        return [_game(row) for row in rows], mine

    def game(self, key: str) -> RatedGame | None:
        row = self._execute(
            f"SELECT {_GAME_COLUMNS} FROM rated_games WHERE key = %s", (key,)
        ).fetchone()
        return None if row is None else _game(row)
