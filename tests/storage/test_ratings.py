"""Where ratings are kept (storage/ratings.py): the SQLite store and the memory store do the
same; a rated game is kept once with its ratings, in one transaction; places share ties; the
leaderboard is paged; an older server's file gets the ratings tables from its migration step."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.store import SqliteStore, StoredTable
from fivecrowns.storage.migrations import STEPS, version_of
from fivecrowns.storage.ratings import RatedGame, Rating, RatingStore


def _game(key: str) -> RatedGame:
    return RatedGame(key, 5.0, ("Ann", "Bot 2"), ("a", None), (30, 45))


@pytest.fixture
def store(server_store: Any) -> RatingStore:
    return server_store.ratings


def test_a_game_is_kept_once_with_its_ratings(store: RatingStore) -> None:
    assert store.rating("a") is None
    assert store.record_game(_game("t1:1"), [Rating("a", 1600.0, 400.0, 1, 1)])
    assert store.rating("a") == Rating("a", 1600.0, 400.0, 1, 1)
    # the same game again (a restart): refused whole, the rating as it was
    assert not store.record_game(_game("t1:1"), [Rating("a", 1700.0, 300.0, 2, 2)])
    assert store.rating("a") == Rating("a", 1600.0, 400.0, 1, 1)
    assert store.record_game(_game("t1:2"), [Rating("a", 1650.0, 380.0, 2, 1)])
    assert store.rating("a") == Rating("a", 1650.0, 380.0, 2, 1)


def test_players_said_to_have_the_same_rating_share_a_place(store: RatingStore) -> None:
    for number, mu in enumerate([1500.2, 1499.6, 1500.49, 1500.5, 1498.9]):
        store.record_game(_game(f"g{number}"), [Rating(f"p{number}", mu, 100.0, 1, 0)])
    # 1500.5 is said 1,501; 1500.49, 1500.2 and 1499.6 are all said 1,500; 1498.9 is 1,499
    assert [
        store.rank(Rating(f"p{n}", mu, 1.0))[0]
        for n, mu in enumerate([1500.2, 1499.6, 1500.49, 1500.5, 1498.9])
    ] == [2, 2, 2, 1, 5]


def test_places_share_ties_and_the_leaderboard_is_paged_best_first(store: RatingStore) -> None:
    mus = [1500.0, 1700.0, 1500.0, 1200.0, 1800.0]
    for number, mu in enumerate(mus):
        store.record_game(_game(f"g{number}"), [Rating(f"p{number}", mu, 100.0, 1, 0)])
    assert store.rank(Rating("p1", 1700.0, 100.0)) == (2, 5)
    assert store.rank(Rating("p0", 1500.0, 100.0)) == store.rank(Rating("p2", 1500.0, 1.0))
    assert store.rank(Rating("p0", 1500.0, 100.0)) == (3, 5)
    first, count = store.leaderboard(0, 2)
    assert count == 5 and [r.player_id for r in first] == ["p4", "p1"]
    rest, _count = store.leaderboard(2, 10)
    assert [r.player_id for r in rest] == ["p0", "p2", "p3"]
    assert store.leaderboard(10, 10) == ([], 5)


def test_an_older_file_gets_the_ratings_step_and_its_tables_stay_unrated(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    ratings_step = next(i for i, step in enumerate(STEPS) if "CREATE TABLE ratings" in step)
    db = sqlite3.connect(path, isolation_level=None)
    for number, step in enumerate(STEPS[:ratings_step], start=1):  # the file before ratings
        db.executescript(step)
        db.execute(f"PRAGMA user_version = {number}")
    db.execute(
        "INSERT INTO tables (id, seats, creator_id, creator_name, code, private) "
        "VALUES ('t1', 2, 'p', 'Ann', NULL, 0)"
    )
    db.close()
    store = SqliteStore(path)
    (old,) = store.load()[0]
    assert old.id == "t1" and not old.rated
    store.add_table(StoredTable("t2", 3, "p", "Ann", None, False, rated=True))
    assert {(t.id, t.rated) for t in store.load()[0]} == {("t1", False), ("t2", True)}
    assert store.ratings.record_game(_game("t2:1"), [Rating("p", 1.0, 1.0, 1, 0)])
    store.close()
    again = SqliteStore(path)  # kept on disk
    assert again.ratings.rating("p") == Rating("p", 1.0, 1.0, 1, 0)
    again.close()
    with sqlite3.connect(path) as check:
        assert version_of(check) == len(STEPS)
    check.close()


def test_a_players_games_newest_first_paged_and_one_by_its_key(store: RatingStore) -> None:
    for number in range(5):
        game = RatedGame(
            f"t-{number}", float(number), ("", "Gus"), ("a", None), (number, 9), ((number, 9),)
        )
        store.record_game(game, [Rating("a", 1500.0 + number, 400.0, number + 1, 0)])
    store.record_game(RatedGame("u-1", 9.0, ("", ""), ("b", "c"), (1, 2)), [])
    first, count = store.games_of("a", 0, 2)
    assert count == 5 and [g.key for g in first] == ["t-4", "t-3"]
    rest, _count = store.games_of("a", 2, 10)
    assert [g.key for g in rest] == ["t-2", "t-1", "t-0"]
    assert store.games_of("gus", 0, 10) == ([], 0)  # a guest's name is no account
    kept = store.game("t-3")
    assert kept == RatedGame("t-3", 3.0, ("", "Gus"), ("a", None), (3, 9), ((3, 9),))
    assert store.game("nothing") is None


def test_a_forgotten_player_leaves_the_leaderboard_and_their_games_stay(
    store: RatingStore,
) -> None:
    game = RatedGame("t-1", 1.0, ("", ""), ("a", "b"), (10, 20))
    store.record_game(game, [Rating("a", 1600.0, 100.0, 1, 1), Rating("b", 1400.0, 100.0, 1, 0)])
    store.forget("a")  # a's account is deleted
    assert store.rating("a") is None
    board, count = store.leaderboard(0, 10)
    assert count == 1 and [r.player_id for r in board] == ["b"]
    assert store.rank(Rating("b", 1400.0, 100.0)) == (1, 1)
    assert store.game("t-1") == game  # the game is kept; it names a deleted player when read
    store.forget("nobody")  # nothing to forget: nothing changes
    assert store.leaderboard(0, 10)[1] == 1


def test_an_older_file_forgets_its_deleted_accounts_ratings(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    forgetting = next(i for i, step in enumerate(STEPS) if "DELETE FROM ratings" in step)
    for number, step in enumerate(STEPS[:forgetting], start=1):  # the file before this step
        db.executescript(step)
        db.execute(f"PRAGMA user_version = {number}")
    for account_id, status in (("gone", "deleted"), ("here", "active")):
        db.execute(
            "INSERT INTO accounts (id, name, name_key, password_hash, status, created)"
            " VALUES (?, ?, ?, 'h', ?, 1.0)",
            (account_id, account_id, account_id, status),
        )
        db.execute(
            "INSERT INTO ratings (player_id, mu, sigma, played, won) VALUES (?, 1500, 100, 1, 0)",
            (account_id,),
        )
    db.close()
    store = SqliteStore(path)
    board, count = store.ratings.leaderboard(0, 10)
    assert count == 1 and [r.player_id for r in board] == ["here"]
    store.close()


def test_deleting_an_account_drops_its_rating(server_store: Any) -> None:
    """Every store's own account deletion forgets the rating with everything else (the SQL
    stores in the same transaction, so a process dying halfway leaves nothing on the
    leaderboard; the memory store through the ratings kept beside its accounts)."""
    server_store.ratings.record_game(_game("t-1"), [Rating("a", 1600.0, 100.0, 1, 1)])
    server_store.accounts.delete_account("a")
    ratings = server_store.ratings
    assert ratings.rating("a") is None and ratings.leaderboard(0, 10) == ([], 0)
