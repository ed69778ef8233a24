"""Ratings in the typed client, `fivecrowns join` (issue 28, item 3): record, record NAME and
top [PAGE] say the server's sentences, numbers first; bad input gets a sentence; create ...
unrated makes a table that moves no rating."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fivecrowns.ui.join_line import LineClient
from join_support import TypedClient
from server_support import FAST, Client, ServerProcess, play_until

PASSWORD = "correct horse battery"


def test_create_unrated_and_top_with_a_bad_page_typed() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
    (rated,) = client.command("create 3 easy")
    (unrated,) = client.command("create 3 easy unrated private")
    assert "rated" not in rated and rated["bots"] == ["easy"]  # rated: the server's default
    assert unrated["rated"] is False and unrated["bots"] == ["easy"] and unrated["private"]
    assert client.command("top") == [{"type": "leaderboard", "page": 1}]
    assert client.command("top 2") == [{"type": "leaderboard", "page": 2}]
    assert client.command("record") == [{"type": "record"}]
    assert client.command("record Ann Lee") == [{"type": "record", "player": "Ann Lee"}]
    assert client.command("games") == [{"type": "games", "page": 1}]
    assert client.command("games Ann Lee 3") == [{"type": "games", "page": 3, "player": "Ann Lee"}]
    assert client.command("game ab12-1") == [{"type": "game", "id": "ab12-1"}]
    assert client.command("game") == []
    assert said.pop() == "Say which game, by its number in the list of games: game a1b2c3d4-1."
    assert client.command("top two") == [] and said == [
        "two is not a page number; type top, or top 2 for the second page."
    ]


def test_records_and_the_leaderboard_typed_after_a_rated_game(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST).start()
    try:

        async def play() -> None:
            ann = await Client("Ann").connect(server.url, hello=False)
            await ann.send({"type": "sign_up", "v": 1, "name": "Ann", "password": PASSWORD})
            await ann.until(lambda m: m["type"] == "welcome")
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann], lambda c: c.game_over())
            await ann.until(lambda m: m["type"] == "rating")
            await ann.close()

        asyncio.run(play())
        ben = TypedClient(server.url, "Ben", "--sign-up")
        ben.type(PASSWORD)
        ben.until(lambda line: line.startswith("Logged in as Ben."))
        ben.type("record")
        ben.until(lambda line: line.startswith("You have no rating yet."))
        ben.type("record ann")
        line = ben.until(lambda line: line.startswith("Rating "))
        assert " for Ann, 1st of 1. Played 1, won " in line, line
        ben.type("top")
        ben.until(lambda line: line == "Leaderboard, page 1 of 1: 1 rated player.")
        line = ben.until(lambda line: line.startswith("1st: Ann, rating "))
        ben.type("top 2")
        ben.until(lambda line: line == "There is no page 2; pages go from 1 to 1.")
        ben.type("games ann")
        ben.until(lambda line: line.startswith("Rated games of Ann, page 1 of 1: 1 game"))
        line = ben.until(lambda line: line.startswith("Game "))
        number = line.split()[1].rstrip(".")
        ben.type(f"game {number}")
        ben.until(lambda line: line.startswith("Round 11: Ann "))
        ben.type("record Zed")
        ben.until(lambda line: line == "There is no account named Zed here.")
        ben.type("q")
        _out, err = ben.proc.communicate(timeout=30)
        assert ben.proc.returncode == 0, err
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
