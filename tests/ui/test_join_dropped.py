"""A dropped player is told at once, not after 30 silent seconds (issue 26, item 18).

A real server process with the usual 30-second grace. Ben (a plain protocol client) made the
table and Ann plays it with ``join --keys``; Ben's connection ends with no leave. Ann hears at
once that it dropped and when a computer will play for Ben, and while it is Ben's turn, N says
so beside "Ben's turn: draw a card." When Ben comes back, Ann hears that too.
"""

from __future__ import annotations

import asyncio
import re
import time

from join_support import Player
from server_support import Client, ServerProcess

DROPPED = (
    r"Ben's connection dropped: a computer plays for Ben in (\d+) seconds unless they are back\."
)


def test_everyone_hears_at_once_that_a_connection_dropped_and_when_a_computer_plays(
    server: ServerProcess,
) -> None:
    loop = asyncio.new_event_loop()

    async def make_table() -> Client:
        ben = Client("Ben")
        await ben.connect(server.url)
        await ben.send({"type": "create_table", "seats": 2})
        await ben.until(lambda m: m["type"] == "snapshot")
        return ben

    ben = loop.run_until_complete(make_table())
    ann = Player(server.url, "Ann", first=[{"type": "join", "table": ben.table}])
    try:
        ann.wait(r"You sit in seat 2 at table")
        loop.run_until_complete(ben.send({"type": "start"}))
        ann.wait(r"New game: ")
        game = ann.play.game
        assert game is not None
        if game.client.current_player == game.at_keyboard:  # Ann's turn first: she plays it
            ann.keys("d", "home", "c-m")
        ann.wait(r"Ben's turn")
        assert game.client.current_player != game.at_keyboard

        mark = ann.mark()
        dropped_at = time.monotonic()
        loop.run_until_complete(ben.close())  # a crash: no leave
        said = ann.wait(DROPPED, timeout=10, after=mark)
        assert time.monotonic() - dropped_at < 10  # at once, not after the 30-second grace
        assert said.group(1) == "30"

        mark = ann.mark()
        ann.keys("n")  # whose turn: Ben's, and why nothing happens
        answer = ann.said_since(mark)
        assert answer.startswith("Ben's turn: draw a card. Ben's connection dropped: "), answer
        seconds = re.search(r"plays for Ben in (\d+) seconds? unless", answer)
        assert seconds is not None and 20 <= int(seconds.group(1)) <= 30, answer

        async def come_back() -> None:
            await ben.connect(server.url)  # the same token: Ben's seat
            await ben.until(lambda m: m["type"] == "snapshot")

        loop.run_until_complete(come_back())
        ann.wait(r"Ben is back and plays again\.", after=mark)
        mark = ann.mark()
        ann.keys("n")
        assert ann.said_since(mark) == "Ben's turn: draw a card."
    finally:
        ann.close()
        loop.run_until_complete(ben.close())
        loop.close()
