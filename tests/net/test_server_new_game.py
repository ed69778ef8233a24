"""A new game at the same network table after game over, through a real server process.

After game over every seat gets a fresh snapshot without asking (the final totals and
"game over" in it). Only the table's creator may start a new game; it keeps the seats,
deals anew, is listed again, and a server killed with kill -9 brings the new game back.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from server_support import (
    FAST,
    Client,
    ServerProcess,
    play_until,
)


def test_the_creator_starts_a_new_game_with_the_same_seats(data: Path) -> None:
    first = ServerProcess(data, *FAST, "--grace", "30").start()

    async def scenario() -> None:
        ann, ben = Client("Ann"), Client("Ben")
        try:
            await ann.connect(first.url)
            await ann.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ben.connect(first.url)
            await ben.send({"type": "join", "table": ann.table})
            await ben.until(lambda m: m["type"] == "snapshot")
            # not before the game is over (asked before the start: why not during the game,
            # the client helper forgets its snapshot on an error and would wait for its turn)
            await ann.send({"type": "new_game"})
            error = await ann.until(lambda m: m["type"] == "error")
            assert error["code"] == "not_over"
            ann.errors.clear()
            await ann.send({"type": "start"})
            await play_until([ann, ben], lambda c: c.game_over(), 240)
            # the snapshot after game over comes by itself: totals and game over in it
            for client in (ann, ben):
                shot = await client.until(lambda m: m["type"] == "snapshot")
                assert shot["view"]["game_over"] is True and shot["legal"] == []
                over = next(e for e in client.events if e["kind"] == "game_over")
                assert shot["view"]["totals"] == over["data"]["totals"]
            await ben.send({"type": "new_game"})
            error = await ben.until(lambda m: m["type"] == "error")
            assert error["code"] == "not_creator"
            assert error["text"] == (
                "Only Ann, who made this table, can start a new game here. To play again "
                "yourself, create a table in the lobby."
            )
            before = ann.seq
            await ann.send({"type": "new_game"})
            told = await ben.until(lambda m: m["type"] == "event" and m["kind"] == "new_game")
            assert told["text"] == "A new game starts, with the same players."
            assert told["seq"] == before + 1  # the table's numbering goes on: no gap, no reuse
            for client in (ann, ben):
                shot = await client.until(
                    lambda m: m["type"] == "snapshot" and m["view"]["round"] == 1
                )
                assert shot["view"]["game_over"] is False
                assert shot["view"]["totals"] == [0, 0, 0]
                assert [s["name"] for s in shot["seats"]] == ["Ann", "Bot 2", "Ben"]
            dan = Client("Dan")
            await dan.connect(first.url)
            await dan.send({"type": "list_tables"})
            listing = await dan.until(lambda m: m["type"] == "tables")
            assert any(info["id"] == ann.table for info in listing["tables"])
            await dan.close()
            await play_until([ann, ben], lambda c: c.seq > before + 30, 60)
            first.kill9()
        finally:
            first.stop()
            await ann.close()
            await ben.close()
        # the new game comes back after kill -9: the table was no longer finished
        second = ServerProcess(data, *FAST, "--grace", "30").start()
        try:
            again = Client("Ann")
            again.token, again.seq = ann.token, ann.seq
            await again.connect(second.url)
            shot = await again.until(lambda m: m["type"] == "snapshot")
            assert shot["table"] == ann.table and shot["view"]["game_over"] is False
            assert again.errors == []
            await again.close()
        finally:
            errors = second.stop()
            assert "Traceback" not in errors, errors

    asyncio.run(scenario())
