"""Ratings at a real `fivecrowns serve` (issue 28, item 3): a rated game of two account holders,
a guest and a hard computer player, with the server killed (kill -9) mid-game and started
again, moves the two accounts' ratings once, before anyone hears the game is over; the guest
and the computer are not kept; records and the leaderboard say the numbers first, bad input
gets a sentence, and no record frame names a card."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from server_support import FAST, Client, ServerProcess, check_no_leak, play_until, replayed

PASSWORD = "correct horse battery"


async def _signed_up(url: str, name: str) -> Client:
    client = await Client(name).connect(url, hello=False)
    await client.send({"type": "sign_up", "v": 1, "name": name, "password": PASSWORD})
    await client.until(lambda m: m["type"] == "welcome")
    return client


def _kept(data: Path) -> tuple[list[tuple[Any, ...]], int]:
    """The ratings kept on disk (name, played, won) and how many rated games."""
    with sqlite3.connect(data / "tables.sqlite3") as db:
        rows = db.execute(
            "SELECT accounts.name, played, won FROM ratings"
            " JOIN accounts ON accounts.id = ratings.player_id ORDER BY accounts.name"
        ).fetchall()
        (games,) = db.execute("SELECT count(*) FROM rated_games").fetchone()
    db.close()
    return rows, int(games)


def test_a_rated_game_through_a_kill_9_moves_each_account_once(data: Path) -> None:
    async def scenario() -> None:
        first = ServerProcess(data, *FAST, "--grace", "30").start()
        try:
            ann = await _signed_up(first.url, "Ann")
            ben = await _signed_up(first.url, "Ben")
            gus = await Client("Gus").connect(first.url)  # a guest
            await ann.send({"type": "create_table", "seats": 4, "bots": ["hard"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            for client in (ben, gus):
                await client.send({"type": "join", "table": ann.table})
                await client.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann, ben, gus], lambda c: c.seq >= 60)
            first.kill9()
        finally:
            first.stop()
        for client in (ann, ben, gus):
            await client.close()
        assert _kept(data) == ([], 0)  # mid-game: nothing rated yet
        second = ServerProcess(data, *FAST, "--grace", "30").start()
        try:
            again = []
            for old in (ann, ben, gus):
                client = Client(old.name)
                client.token, client.seq = old.token, old.seq
                await client.connect(second.url)
                await client.until(lambda m: m["type"] == "snapshot")
                again.append(client)
            ann, ben, gus = again
            await play_until(again, lambda c: c.game_over())
            # each account holder hears the new rating, after the game's end
            heard = {}
            for client in (ann, ben):
                heard[client.name] = await client.until(lambda m: m["type"] == "rating")
                kinds = [json.loads(f)["type"] for f in client.frames]
                over = next(i for i, f in enumerate(client.frames) if '"game_over"' in f)
                assert kinds.index("rating") > over
            game_over = next(e for e in ann.events if e["kind"] == "game_over")
            totals = game_over["data"]["totals"]
            ranks = [1 + sum(1 for t in totals if t < mine) for mine in totals]
            places = {"Ann": ranks[0], "Ben": ranks[ann_seat_of(ben)]}
            if places["Ann"] < places["Ben"]:
                assert heard["Ann"]["change"] > heard["Ben"]["change"]
            elif places["Ann"] > places["Ben"]:
                assert heard["Ann"]["change"] < heard["Ben"]["change"]
            for name in ("Ann", "Ben"):
                if places[name] == 1:
                    assert heard[name]["change"] > 0, (totals, heard)
                if places[name] == max(ranks):
                    assert heard[name]["change"] < 0, (totals, heard)
                assert heard[name]["text"].startswith("Your rating is ")
            # records: your own, another player's, the leaderboard; the guest has none
            await ann.send({"type": "record"})
            mine = await ann.until(lambda m: m["type"] == "record")
            assert mine["rating"] == heard["Ann"]["rating"] and mine["played"] == 1
            assert mine["text"].startswith(f"Rating {mine['rating']:,}, ")
            await gus.send({"type": "record", "player": "ben"})
            theirs = await gus.until(lambda m: m["type"] == "record")
            assert theirs["name"] == "Ben" and " for Ben, " in theirs["text"]
            await gus.send({"type": "leaderboard"})
            board = await gus.until(lambda m: m["type"] == "leaderboard")
            assert board["of"] == 2 and {row["name"] for row in board["rows"]} == {"Ann", "Ben"}
            assert board["lines"][0] == "Leaderboard, page 1 of 1: 2 rated players."
            # past games: Ben's list in the history's words, then the game round by round
            await ben.send({"type": "games"})
            games = await ben.until(lambda m: m["type"] == "games")
            assert games["of"] == 1 and games["lines"][0].startswith("Rated games of Ben, ")
            (row,) = games["games"]
            assert row["players"] == ["Ann", "Bot 2", "Ben", "Gus"]
            assert row["totals"] == totals
            await gus.send({"type": "game", "id": row["id"]})
            rounds = await gus.until(lambda m: m["type"] == "game")
            assert len(rounds["rounds"]) == 11 and len(rounds["lines"]) == 12
            assert [sum(r[seat] for r in rounds["rounds"]) for seat in range(4)] == totals
            assert rounds["lines"][1].startswith("Round 1: Ann ")
            # bad input: a sentence each, nothing changed
            for message, code in (
                ({"type": "record"}, "not_logged_in"),
                ({"type": "record", "player": "Nobody"}, "unknown_player"),
                ({"type": "leaderboard", "page": 4}, "bad_page"),
                ({"type": "leaderboard", "page": 0}, "bad_message"),
                ({"type": "game", "id": "no-such-game"}, "unknown_game"),
                ({"type": "games", "player": "Gus"}, "unknown_player"),
            ):
                await gus.send(message)
                error = await gus.until(lambda m: m["type"] == "error")
                assert error["code"] == code and error["text"].endswith("."), error
            assert _kept(data) == ([("Ann", 1, int(places["Ann"] == 1)),
                                    ("Ben", 1, int(places["Ben"] == 1))], 1)  # fmt: skip
            assert ann.table is not None
            truth = replayed(data, ann.table)
            for client, seat in ((ann, 0), (ben, ann_seat_of(ben)), (gus, ann_seat_of(gus))):
                check_no_leak(client, truth, seat)  # record frames included
            second.kill9()  # right after: the ratings were on disk before the game's end was sent
        finally:
            errors = second.stop()
        assert "Traceback" not in errors, errors
        third = ServerProcess(data, *FAST).start()
        try:
            back = await Client("Ann").connect(third.url, hello=False)
            await back.send({"type": "log_in", "v": 1, "name": "Ann", "password": PASSWORD})
            await back.until(lambda m: m["type"] == "welcome")
            await back.send({"type": "record"})
            record = await back.until(lambda m: m["type"] == "record")
            assert record["played"] == 1 and record["rating"] == heard["Ann"]["rating"]
            await back.close()
            for client in again:
                await client.close()
        finally:
            errors = third.stop()
        assert "Traceback" not in errors, errors
        assert len(_kept(data)[0]) == 2 and _kept(data)[1] == 1  # counted once, not twice

    def ann_seat_of(client: Client) -> int:
        assert client.seat is not None
        return client.seat

    asyncio.run(scenario())
