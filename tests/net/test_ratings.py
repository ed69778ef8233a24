"""Ratings at the server (issue 28, item 3), without a process: a game over at a rated table
moves its account holders' OpenSkill ratings the right way, computer players' ratings stay
fixed, unrated tables and guests change nothing, a game is counted once, and reading records
and the leaderboard gives numbers first and a sentence for bad input."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from fivecrowns.i18n import speaking
from fivecrowns.net.protocol import LeaderboardPage, RatingChanged, ReadLeaderboard, ReadRecord
from fivecrowns.net.protocol import Record as RecordMessage
from fivecrowns.net.server.ratings import (
    BOT_RATINGS,
    NEW_MU,
    PAGE_SIZE,
    Ratings,
    ranks_of,
    seat_players,
    shown,
)
from fivecrowns.net.server.rooms import Room
from fivecrowns.storage.accounts import Account, MemoryAccounts
from fivecrowns.storage.ratings import MemoryRatings, Rating
from fivecrowns.table import Table, TableError


@dataclass
class FakeConn:
    language: str = "en"
    closed: bool = False
    player: Any = None
    sent: list[Any] = field(default_factory=list)

    def send(self, message: Any) -> None:
        self.sent.append(message)


@dataclass
class FakePlayer:
    id: str
    name: str
    conn: Any = None


class FakeLobby:
    """What Ratings asks of the lobby: who is an account holder, and their connections."""

    def __init__(self, accounts: MemoryAccounts) -> None:
        self.accounts = accounts
        self.players: dict[str, FakePlayer] = {}

    def is_member(self, player_id: str) -> bool:
        account = self.accounts.account(player_id)
        return account is not None and account.status == "active"


def _setup(*names: str) -> tuple[Ratings, MemoryRatings, FakeLobby]:
    accounts = MemoryAccounts()
    for name in names:
        accounts.add_account(Account(name.lower(), name, name.lower(), "h", "active", 0.0))
    store = MemoryRatings()
    lobby = FakeLobby(accounts)
    for name in names:
        lobby.players[name.lower()] = FakePlayer(name.lower(), name, FakeConn())
    return Ratings(store, accounts, lobby, clock=lambda: 1.0), store, lobby  # type: ignore[arg-type]


def _played(humans: list[str], bots: list[str], seed: int, rated: bool = True) -> Room:
    """A table of ``humans`` (ids, named after them) and ``bots`` (levels), played to its end
    with a computer standing in for each human."""
    table = Table(len(humans) + len(bots), creator_name=humans[0].title(), creator_id=humans[0])
    for human in humans[1:]:
        table.sit(human.title(), human)
    for level in bots:
        table.add_bot(level)
    table.start(seed)
    for seat, human in enumerate(humans):
        assert table.seats[seat].player_id == human
        table.stand_in(seat)
    for _ in range(10_000):
        if table.is_over:
            break
        table.step_bot()
    assert table.is_over
    room = Room("t1", table, None, False)
    room.rated = rated
    return room


def test_ranks_share_a_place_when_totals_are_equal() -> None:
    assert ranks_of([30, 12, 30, 50]) == [2, 1, 2, 4]
    assert ranks_of([7, 7]) == [1, 1]


def test_two_players_the_winner_goes_up_the_loser_down_and_a_game_counts_once() -> None:
    ratings, store, lobby = _setup("Ann", "Ben")
    room = _played(["ann", "ben"], [], seed=3)
    totals = list(room.table.game.totals)  # type: ignore[union-attr]
    assert totals[0] != totals[1]
    changes = ratings.game_over(room)
    winner, loser = ("ann", "ben") if totals[0] < totals[1] else ("ben", "ann")
    win, lose = store.rating(winner), store.rating(loser)
    assert win is not None and lose is not None
    assert win.mu > NEW_MU > lose.mu
    assert (win.played, win.won, lose.played, lose.won) == (1, 1, 1, 0)
    # the same game again (a restart that ends it again): nothing moves twice
    assert ratings.game_over(room) == []
    assert store.rating(winner) == win
    # each player, told after the fan-out, hears the new rating with the number first
    ratings.tell(changes)
    heard = lobby.players[winner].conn.sent[-1]
    assert isinstance(heard, RatingChanged) and heard.change > 0 and heard.place == 1
    assert heard.text == f"Your rating is {shown(win.mu):,} now, up {heard.change}; 1st of 2."
    sad = lobby.players[loser].conn.sent[-1]
    assert sad.change < 0 and sad.text.startswith(f"Your rating is {shown(lose.mu):,} now, down")


def test_plackett_luce_with_four_players_orders_new_ratings_as_the_places() -> None:
    ratings, store, _lobby = _setup("Ann", "Ben", "Cy", "Dee")
    ids = ["ann", "ben", "cy", "dee"]
    room = _played(ids, [], seed=8)
    totals = list(room.table.game.totals)  # type: ignore[union-attr]
    ratings.game_over(room)
    mus = [store.rating(pid).mu for pid in ids]  # type: ignore[union-attr]
    ranks = ranks_of(totals)
    for a in range(4):
        for b in range(4):
            if ranks[a] < ranks[b]:
                assert mus[a] > mus[b], (totals, mus)
            if ranks[a] == ranks[b]:
                assert mus[a] == pytest.approx(mus[b])
    best = ranks.index(1)
    worst = ranks.index(max(ranks))
    assert mus[best] > NEW_MU > mus[worst]


def test_computer_players_are_fixed_and_a_guest_is_never_kept() -> None:
    ratings, store, _lobby = _setup("Ann")  # "gus" has no account: a guest
    room = _played(["ann", "gus"], ["hard", "easy"], seed=5)
    assert seat_players(room.table) == ["ann", "gus", None, None]
    ratings.game_over(room)
    board, count = store.leaderboard(0, 10)
    assert count == 1 and [r.player_id for r in board] == ["ann"]
    assert store.rating("gus") is None
    assert BOT_RATINGS["hard"] > BOT_RATINGS["medium"] > BOT_RATINGS["easy"]


def test_against_a_fixed_computer_a_win_gains_more_the_stronger_it_is() -> None:
    gains = {}
    for level in ("easy", "hard"):
        ratings, store, _lobby = _setup("Ann")
        room = _played(["ann"], [level], seed=2)
        game = room.table.game
        assert game is not None
        # why forced: whoever won, the same result is scored against each level
        game.totals[:] = [10, 90]  # type: ignore[index]
        ratings.game_over(room)
        gains[level] = store.rating("ann").mu - NEW_MU  # type: ignore[union-attr]
    assert gains["hard"] > gains["easy"] > 0


def test_an_unrated_table_and_a_table_of_guests_change_nothing() -> None:
    ratings, store, _lobby = _setup("Ann", "Ben")
    assert ratings.game_over(_played(["ann", "ben"], [], seed=3, rated=False)) == []
    assert ratings.game_over(_played(["gus", "guy"], ["medium"], seed=3)) == []
    assert store.leaderboard(0, 10) == ([], 0)


def test_a_player_who_left_mid_game_is_rated_by_their_seat() -> None:
    ratings, store, _lobby = _setup("Ann", "Ben")
    table = Table(3, creator_name="Ann", creator_id="ann")
    table.sit("Ben", "ben")
    table.add_bot("medium")
    table.start(4)
    table.stand_in(0)
    table.leave("ben")  # a computer plays on in Ben's place
    for _ in range(10_000):
        if table.is_over:
            break
        table.step_bot()
    room = Room("t2", table, None, False)
    room.rated = True
    assert seat_players(table) == ["ann", "ben", None]
    ratings.game_over(room)
    ben = store.rating("ben")
    assert ben is not None and ben.played == 1


def _record(ratings: Ratings, conn: FakeConn, player: str | None) -> Any:
    ratings.record(conn, ReadRecord(player))  # type: ignore[arg-type]
    return conn.sent[-1]


def test_records_and_the_leaderboard_say_the_number_first_and_bad_input_a_sentence() -> None:
    ratings, store, _lobby = _setup("Ann", "Ben", "Cy")
    room = _played(["ann", "ben"], [], seed=3)
    ratings.game_over(room)
    ann = FakeConn(player=FakePlayer("ann", "Ann"))
    mine = _record(ratings, ann, None)
    kept = store.rating("ann")
    assert kept is not None and isinstance(mine, RecordMessage)
    place = 1 if kept.won else 2
    ordinal = {1: "1st", 2: "2nd"}[place]
    assert mine.text == f"Rating {shown(kept.mu):,}, {ordinal} of 2. Played 1, won {kept.won}."
    theirs = _record(ratings, ann, "  ben ")
    assert theirs.text.startswith("Rating ") and " for Ben, " in theirs.text
    unrated = _record(ratings, ann, "CY")
    assert unrated.rating is None and unrated.text == (
        "Cy has no rating yet: no rated game of theirs has finished."
    )
    with pytest.raises(TableError) as unknown:
        _record(ratings, ann, "Zed")
    assert unknown.value.code == "unknown_player"
    assert str(unknown.value) == "There is no account named Zed here."
    guest = FakeConn(player=FakePlayer("gus", "Gus"))
    with pytest.raises(TableError) as no_account:
        _record(ratings, guest, None)
    assert str(no_account.value) == "Guests have no rating; log in to an account to be rated."
    ratings.leaderboard(ann, ReadLeaderboard(1))
    page = ann.sent[-1]
    assert isinstance(page, LeaderboardPage) and (page.page, page.pages, page.of) == (1, 1, 2)
    assert page.lines[0] == "Leaderboard, page 1 of 1: 2 rated players."
    assert page.lines[1].startswith("1st: ") and page.rows[0].place == 1
    assert page.rows[0].rating >= page.rows[1].rating
    with pytest.raises(TableError) as bad_page:
        ratings.leaderboard(ann, ReadLeaderboard(3))
    assert str(bad_page.value) == "There is no page 3; pages go from 1 to 1."
    with speaking("es"):
        spanish = _record(ratings, ann, None)
    assert spanish.text.startswith("Puntuación ") and ".º de 2." in spanish.text


def test_the_leaderboard_is_paged() -> None:
    ratings, store, _lobby = _setup()
    game_ratings = [Rating(f"p{n:02}", 1000.0 + n, 100.0, 1, 0) for n in range(PAGE_SIZE + 3)]
    for number, rating in enumerate(game_ratings):
        ratings.accounts.add_account(  # type: ignore[attr-defined]
            Account(rating.player_id, f"P{number}", f"p{number}", "h", "active", 0.0)
        )
        store.record_game(_game(f"g{number}"), [rating])
    conn = FakeConn(player=FakePlayer("x", "X"))
    ratings.leaderboard(conn, ReadLeaderboard(2))
    page = conn.sent[-1]
    assert (page.page, page.pages, page.of) == (2, 2, PAGE_SIZE + 3)
    assert [row.place for row in page.rows] == [11, 12, 13]
    assert page.rows[-1].name == "P0"


def _game(key: str) -> Any:
    from fivecrowns.storage.ratings import RatedGame

    return RatedGame(key, 0.0, ("A",), ("a",), (0,))


def test_past_games_are_listed_in_the_history_words_and_read_round_by_round() -> None:
    from fivecrowns.net.protocol import GameRounds, GamesPage, ReadGame, ReadGames
    from fivecrowns.storage.history import describe_history

    ratings, _store, _lobby = _setup("Ann", "Ben")
    room = _played(["ann", "ben", "gus"], ["hard"], seed=6)  # gus: a guest
    ratings.game_over(room)
    game = room.table.game
    assert game is not None
    ben = FakeConn(player=FakePlayer("ben", "Ben"))
    ratings.games(ben, ReadGames(None, 1))
    page = ben.sent[-1]
    assert isinstance(page, GamesPage) and (page.page, page.pages, page.of) == (1, 1, 1)
    (row,) = page.games
    assert row.players == ["Ann", "Ben", "Gus", "Bot 4"] and row.totals == list(game.totals)
    said = describe_history(
        [{"date": row.date, "players": row.players, "totals": row.totals}], last=1
    )[0]
    assert page.lines == [
        "Rated games of Ben, page 1 of 1: 1 game, the newest first.",
        f"Game {row.id}. {said}",
    ]
    ratings.game(ben, ReadGame(row.id))
    rounds = ben.sent[-1]
    assert isinstance(rounds, GameRounds) and len(rounds.rounds) == 11
    assert rounds.rounds == [list(scores) for scores in game.round_scores]
    assert rounds.lines[0] == said
    first = game.round_scores[0]
    assert rounds.lines[1] == (
        f"Round 1: Ann {first[0]}, Ben {first[1]}, Gus {first[2]}, Bot 4 {first[3]}."
    )
    assert len(rounds.lines) == 12
    # a deleted account's games name nobody; the guest's name stays as it was played
    ratings.accounts.delete_account("ann")  # type: ignore[attr-defined]
    ratings.game(ben, ReadGame(row.id))
    assert ben.sent[-1].players[0] == "a deleted player"
    # bad input: a sentence each
    with pytest.raises(TableError) as unknown:
        ratings.game(ben, ReadGame("nope-1"))
    assert str(unknown.value) == (
        "There is no rated game nope-1 here. Its number is in the list of games."
    )
    with pytest.raises(TableError) as bad_page:
        ratings.games(ben, ReadGames(None, 2))
    assert str(bad_page.value) == "There is no page 2; pages go from 1 to 1."
    with pytest.raises(TableError):
        ratings.games(ben, ReadGames("gus", 1))  # a guest has no games kept
    cy = FakeConn(player=FakePlayer("cy", "Cy"))
    with pytest.raises(TableError) as guest:
        ratings.games(cy, ReadGames(None, 1))
    assert guest.value.code == "not_logged_in"
