"""Ratings and records at the game server: each finished game at a rated table moves its
account holders' OpenSkill ratings; a player reads their record, another player's, and the
leaderboard (docs/protocol.md, docs/network.md).

- The model is OpenSkill's Plackett-Luce (Weng and Lin 2011), made for free-for-all games of
  any number of players: a Five Crowns game of 2 to 7 seats is one ranking, fewest points
  first, equal totals sharing a place.
- The scale: a new account starts at 1,500 (sigma 500); the number said and ranked is mu,
  rounded. Computer players have fixed reference ratings (:data:`BOT_RATINGS`), never moved
  or kept, so a player's first game against them already means something.
- Only account holders' seats at a rated table are rated. A guest at a rated table counts as
  a new player in the ranking (so beating one counts as beating a newcomer) and is never kept.
  A player who left mid-game is rated by their seat's result (the computer that played on
  for them): leaving a game one is losing does not keep one's rating.
- The update is kept (one SQLite transaction with the game's key) before anyone at the table
  hears the game is over: the server calls :meth:`Ratings.game_over` before it sends the
  last events, and a restart that finishes the same game again moves nothing twice.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import Any

from openskill.models import PlackettLuce

from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import speaking
from fivecrowns.net.protocol import (
    GameRounds,
    GameRow,
    GamesPage,
    LeaderboardPage,
    LeaderboardRow,
    RatingChanged,
    ReadGame,
    ReadGames,
    ReadLeaderboard,
    ReadRecord,
    Record,
)
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.lobby import Lobby
from fivecrowns.net.server.rooms import Room
from fivecrowns.storage.accounts import DELETED_NAME, AccountStore, find_account
from fivecrowns.storage.history import describe_history
from fivecrowns.storage.ratings import RatedGame, Rating, RatingStore, shown
from fivecrowns.table import Table, TableError
from fivecrowns.table.table import SeatKind
from fivecrowns.words import ratings as words
from fivecrowns.words.lists import name_numbers

__all__ = [
    "BOT_RATINGS",
    "BOT_SIGMA",
    "NEW_MU",
    "NEW_SIGMA",
    "PAGE_SIZE",
    "Ratings",
    "shown",
]

NEW_MU = 1500.0
NEW_SIGMA = NEW_MU / 3
#: The fixed ratings of the computer levels. Medium is where a new player starts; the gaps
#: come from the measured win shares in benchmarks/results/ai.md (four-player games, 1,000
#: each): hard won 46.7% against three medium (17.8% each), medium 41.4% against three easy
#: (19.6% each). Plackett-Luce says a player wins with odds exp(mu / c) against each other,
#: c about 2 beta (500) between settled players: hard - medium = 500 ln(46.7 / 17.8), about
#: 480; medium - easy = 500 ln(41.4 / 19.6), about 375. "simple" (the rules core's greedy
#: player) was not measured against the others; it is given easy's rating.
BOT_RATINGS: dict[str, float] = {"easy": 1125.0, "medium": 1500.0, "hard": 1980.0, "simple": 1125.0}
#: why small: a reference rating is known, not guessed; it only weighs how far players move
BOT_SIGMA = 1.0
PAGE_SIZE = 10  # leaderboard rows in one page (why 10: a page is heard whole, not skimmed)

_MODEL = PlackettLuce(mu=NEW_MU, sigma=NEW_SIGMA, beta=NEW_SIGMA / 2)


def ranks_of(totals: list[int]) -> list[int]:
    """Each seat's place, 1 the best (fewest points); equal totals share a place.

    >>> ranks_of([30, 12, 30, 50])
    [2, 1, 2, 4]
    """
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def seat_players(table: Table) -> list[str | None]:
    """The player id rated in each seat of ``table``'s game now ending, ``None`` for a computer
    player (or a seat whose player is not known)."""
    inputs = table.inputs
    begun = max(
        (i for i, c in enumerate(inputs) if c.get("op") in ("start", "new_game")), default=0
    )
    sat: dict[int, str] = {}
    left_now: set[str] = set()
    for index, command in enumerate(inputs):
        if command.get("op") == "sit":
            sat[int(command["seat"])] = str(command["player"])
        elif command.get("op") == "leave" and index > begun:
            left_now.add(str(command["player"]))
    players: list[str | None] = []
    for index, seat in enumerate(table.seats):
        if seat.kind is SeatKind.HUMAN:
            players.append(seat.player_id)
        elif seat.left and sat.get(index) in left_now:
            players.append(sat[index])
        else:
            players.append(None)
    return players


class Ratings:
    """The server's ratings: :meth:`game_over` at the end of each game, and the handlers of
    the client messages that read records (app.py hands them on)."""

    def __init__(
        self,
        store: RatingStore,
        accounts: AccountStore,
        lobby: Lobby,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.lobby = lobby
        self.clock = clock

    # --- a game is over ---------------------------------------------------------------

    def game_over(self, room: Room) -> list[tuple[Rating, int]]:
        """Move the ratings of the game just over at ``room``, if it is rated, and keep them
        (durable on return); the new ratings, each with the rating said before, for
        :meth:`tell` once the game's end is sent."""
        table = room.table
        game = table.game
        if not room.rated or game is None or not game.is_over:
            return []
        ids = seat_players(table)
        rated = [pid if pid is not None and self.lobby.is_member(pid) else None for pid in ids]
        if not any(rated):
            return []
        totals = list(game.totals)
        ranks = ranks_of(totals)
        before: list[Rating | None] = [
            (self.store.rating(pid) or Rating(pid, NEW_MU, NEW_SIGMA)) if pid else None
            for pid in rated
        ]
        teams = [[self._model_rating(table, seat, old)] for seat, old in enumerate(before)]
        after = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
        changed = [
            Rating(
                old.player_id,
                float(new[0].mu),
                float(new[0].sigma),
                old.played + 1,
                old.won + (rank == 1),
            )
            for old, new, rank in zip(before, after, ranks, strict=True)
            if old is not None
        ]
        games = sum(1 for c in table.inputs if c.get("op") in ("start", "new_game"))
        # why no name for an account's seat: it is looked up when read, so a deleted
        # account's games name nobody
        names = tuple("" if pid else name for pid, name in zip(rated, table.names(), strict=True))
        record = RatedGame(
            f"{room.id}-{games}",
            self.clock(),
            names,
            tuple(rated),
            tuple(totals),
            tuple(tuple(scores) for scores in game.round_scores),
        )
        if not self.store.record_game(record, changed):
            return []  # why: kept already (a restart ended the same game again)
        olds = [shown(old.mu) for old in before if old is not None]
        return list(zip(changed, olds, strict=True))

    def tell(self, changes: list[tuple[Rating, int]]) -> None:
        """Each rated player connected hears their new rating."""
        for rating, old in changes:
            self._tell(rating, old)

    def _model_rating(self, table: Table, seat: int, rating: Rating | None) -> Any:
        if rating is not None:
            return _MODEL.rating(mu=rating.mu, sigma=rating.sigma)
        level = table.seats[seat].level
        if (
            table.seats[seat].kind is SeatKind.BOT
            and level is not None
            and not table.seats[seat].left
        ):
            return _MODEL.rating(mu=BOT_RATINGS.get(level, NEW_MU), sigma=BOT_SIGMA)
        return _MODEL.rating()  # a guest (or a player no longer known): a newcomer

    def _tell(self, rating: Rating, old: int) -> None:
        record = self.lobby.players.get(rating.player_id)
        conn = record.conn if record is not None else None
        if conn is None or conn.closed:
            return
        place, count = self.store.rank(rating)
        with speaking(conn.language):
            text = words.rating_changed(old, shown(rating.mu), place, count)
        conn.send(RatingChanged(shown(rating.mu), shown(rating.mu) - old, place, count, text))

    # --- reading records --------------------------------------------------------------

    def record(self, conn: Connection, message: ReadRecord) -> None:
        player = conn.player
        assert player is not None
        player_id, name = self._whose(conn, message.player)
        mine = player_id == player.id
        rating = self.store.rating(player_id)
        if rating is None:
            text = _(words.NOT_RATED_YET).format(name=name)
            if mine:
                text = _(words.YOU_NOT_RATED_YET)
            conn.send(Record(name, None, None, None, 0, 0, text))
            return
        place, count = self.store.rank(rating)
        text = words.record_words(
            None if mine else name, shown(rating.mu), place, count, rating.played, rating.won
        )
        conn.send(Record(name, shown(rating.mu), place, count, rating.played, rating.won, text))

    def leaderboard(self, conn: Connection, message: ReadLeaderboard) -> None:
        page = message.page
        ratings, count = self.store.leaderboard((page - 1) * PAGE_SIZE, PAGE_SIZE)
        pages = max(1, -(-count // PAGE_SIZE))
        if page > pages:
            text = _(words.NO_PAGE).format(page=page, pages=pages)
            raise TableError("bad_page", text)
        rows: list[LeaderboardRow] = []
        lines: list[str] = []
        for rating in ratings:
            place, _count = self.store.rank(rating)
            account = self.accounts.account(rating.player_id)
            name = account.name if account is not None and account.name else DELETED_NAME
            rows.append(LeaderboardRow(place, name, shown(rating.mu), rating.played, rating.won))
            lines.append(
                words.leaderboard_line(place, name, shown(rating.mu), rating.played, rating.won)
            )
        heading = words.leaderboard_heading(page, pages, count) if count else _(words.NO_RATINGS)
        conn.send(LeaderboardPage(page, pages, count, rows, [heading, *lines]))

    # --- past games -----------------------------------------------------------------------

    def games(self, conn: Connection, message: ReadGames) -> None:
        player_id, name = self._whose(conn, message.player)
        page = message.page
        games, count = self.store.games_of(player_id, (page - 1) * PAGE_SIZE, PAGE_SIZE)
        pages = max(1, -(-count // PAGE_SIZE))
        if page > pages:
            raise TableError("bad_page", _(words.NO_PAGE).format(page=page, pages=pages))
        if not count:
            lines = [_(words.NO_GAMES).format(name=name)]
        else:
            lines = [words.games_heading(name, page, pages, count)]
        rows: list[GameRow] = []
        for game in games:
            players = self._names(game)
            date = _date(game.at)
            said = describe_history([_history_record(date, players, game.totals)], last=1)[0]
            lines.append(words.game_line(game.key, said))
            rows.append(GameRow(game.key, date, players, list(game.totals)))
        conn.send(GamesPage(name, page, pages, count, rows, lines))

    def game(self, conn: Connection, message: ReadGame) -> None:
        game = self.store.game(message.id.strip())
        if game is None:
            text = _(words.NO_SUCH_GAME).format(id=message.id.strip()[:48])
            raise TableError("unknown_game", text)
        players = self._names(game)
        date = _date(game.at)
        lines = describe_history([_history_record(date, players, game.totals)], last=1)
        for number, scores in enumerate(game.rounds, start=1):
            points = name_numbers(players, scores)
            lines.append(_(words.ROUND_POINTS).format(round=number, scores=points))
        rounds = [list(scores) for scores in game.rounds]
        conn.send(GameRounds(game.key, date, players, list(game.totals), rounds, lines))

    def _whose(self, conn: Connection, asked: str | None) -> tuple[str, str]:
        """The account id and name a record or a list of games is asked for."""
        player = conn.player
        assert player is not None
        if asked is None:
            if not self.lobby.is_member(player.id):
                raise TableError("not_logged_in", _(words.GUEST_UNRATED))
            return player.id, player.name
        account = find_account(self.accounts, asked)
        if account is None or account.status == "deleted":
            text = _(words.UNKNOWN_PLAYER).format(name=" ".join(asked.split()))
            raise TableError("unknown_player", text)
        return account.id, account.name

    def _names(self, game: RatedGame) -> list[str]:
        names: list[str] = []
        for name, player_id in zip(game.names, game.player_ids, strict=True):
            if player_id is None:
                names.append(name)
                continue
            account = self.accounts.account(player_id)
            names.append(account.name if account is not None and account.name else DELETED_NAME)
        return names


def _date(at: float) -> str:
    """When a game ended, as the history of games says it (UTC, to the minute)."""
    moment = datetime.datetime.fromtimestamp(at, datetime.UTC)
    return moment.isoformat(timespec="minutes")


def _history_record(date: str, players: list[str], totals: tuple[int, ...]) -> dict[str, Any]:
    return {"date": date, "players": players, "totals": list(totals)}
