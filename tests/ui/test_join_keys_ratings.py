"""The ratings keys of `fivecrowns join --keys` (issue 28, item 3), against a real server: A
for your record, P and a typed name for a player's, K for the leaderboard a page at a time;
the server's sentences are said numbers first, and a bad name gets a sentence."""

from __future__ import annotations

import asyncio

from join_support import Player
from server_support import Client, ServerProcess, play_until

PASSWORD = "correct horse battery"


async def _ann_plays_a_rated_game(url: str) -> str:
    """Ann signs up and plays a rated game against an easy computer; the game's number."""
    ann = await Client("Ann").connect(url, hello=False)
    await ann.send({"type": "sign_up", "v": 1, "name": "Ann", "password": PASSWORD})
    await ann.until(lambda m: m["type"] == "welcome")
    await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
    await ann.until(lambda m: m["type"] == "snapshot")
    await ann.send({"type": "start"})
    await play_until([ann], lambda c: c.game_over())
    await ann.until(lambda m: m["type"] == "rating")
    await ann.send({"type": "games"})
    games = await ann.until(lambda m: m["type"] == "games")
    await ann.close()
    return str(games["games"][0]["id"])


def test_records_and_the_leaderboard_by_key(server: ServerProcess) -> None:
    number = asyncio.run(_ann_plays_a_rated_game(server.url))
    ben = Player(server.url, "Ben")  # join --keys plays as a guest
    try:
        ben.wait(r"The lobby of ")
        mark = ben.mark()
        ben.keys("a")
        ben.wait(r"Guests have no rating; log in to an account to be rated\.", after=mark)
        mark = ben.mark()
        ben.keys("p")
        ben.wait(r"A player's record: type their name", after=mark)
        ben.keys(*"ann", "c-m")
        ben.wait(r"Rating [\d,]+ for Ann, 1st of 1\. Played 1, won [01]\.", after=mark)
        mark = ben.mark()
        ben.keys("k")
        ben.wait(r"Leaderboard, page 1 of 1: 1 rated player\.\n1st: Ann, rating", after=mark)
        mark = ben.mark()
        ben.keys("k")  # one page only: the key starts again with the best
        ben.wait(r"Leaderboard, page 1 of 1", after=mark)
        mark = ben.mark()
        ben.keys("g")  # Ben is a guest: he has no games of his own
        ben.wait(r"Guests have no rating; log in to an account to be rated\.", after=mark)
        mark = ben.mark()
        ben.keys("o")
        ben.wait(r"One game: type its number", after=mark)
        ben.keys(*number, "c-m")
        ben.wait(r"\d\d:\d\d: .+\. Ann \d+, Bot 2 \d+\.\nRound 1: Ann \d+, Bot 2 \d+\.", after=mark)
        ben.wait(r"Round 11: Ann \d+, Bot 2 \d+\.", after=mark)
        mark = ben.mark()
        ben.keys("o", *"nope-1", "c-m")
        ben.wait(r"There is no rated game nope-1 here\.", after=mark)
        mark = ben.mark()
        ben.keys("p", *"Zed", "c-m")
        ben.wait(r"There is no account named Zed here\.", after=mark)
    finally:
        ben.close()
