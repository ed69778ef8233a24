"""A ``join --keys`` client killed mid-game and started again during its player's turn is told
where the game is (issue 26, item 17).

The playtest heard, after the restart, the table creator's lobby help ("You made this table:
press B to add a computer player...") and "New game: Ann and Cy." in the middle of a round;
"Your turn" was not said again; and L answered "Nothing has happened since your last turn."
though a computer had played in Ann's seat while she was away. A real server process with a
short grace and slow computer players; a spectator follows the table to restart Ann's client
at the start of her turn, after the computer standing in for her has moved.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.storage.seats import SavedSeats
from join_support import Player, start_with_an_easy_computer
from server_support import Client, ServerProcess

MOVES = ("drew_from_stock", "took_discard", "discarded", "laid_down", "went_out")


def _keeping_link(url: str) -> WebSocketLink:
    """A link as ``join --keys`` makes it: its seats kept in the data folder (seats.json)."""
    link = WebSocketLink(url, "Ann")
    link.take_back_from(SavedSeats(), [])
    return link


def _ann_moved_by_a_stand_in_and_her_turn_began(events: list[dict[str, Any]]) -> bool:
    """After the stand-in came for seat 1 (Ann), it moved there, and her next turn began."""
    stand_in = next((i for i, e in enumerate(events) if e["kind"] == "stand_in"), None)
    if stand_in is None:
        return False
    later = events[stand_in + 1 :]
    moved = next(
        (i for i, e in enumerate(later) if e["kind"] in MOVES and e["data"].get("player") == 0),
        None,
    )
    if moved is None:
        return False
    return any(
        e["kind"] == "turn_started" and e["data"].get("player") == 0 for e in later[moved + 1 :]
    )


def test_a_keys_client_started_again_in_its_turn_hears_where_the_game_is(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path / "server", "--bot-delay", "2", "--grace", "0.5", "--rate", "1000"
    ).start()
    ann = Player(server.url, "Ann", link=_keeping_link(server.url))
    again: Player | None = None
    loop = asyncio.new_event_loop()
    cy = Client("Cy")
    try:
        start_with_an_easy_computer(ann)
        table = ann.link.table

        async def watch() -> None:
            await cy.connect(server.url)
            await cy.send({"type": "watch", "table": table})
            await cy.until(lambda m: m["type"] == "snapshot")

        loop.run_until_complete(watch())
        ann.link.close()  # a crash: the connection ends with no leave

        async def until_her_turn_again() -> None:
            await cy.until(
                lambda m: _ann_moved_by_a_stand_in_and_her_turn_began(cy.events), timeout=90
            )

        loop.run_until_complete(until_her_turn_again())
        again = Player(server.url, "Ann", link=_keeping_link(server.url))
        again.wait(r"You are back in your seat, in a game in progress: Ann and .+\. Round \d+")
        game = again.play.game
        assert game is not None and game.client.current_player == 0
        again.wait(r"Your turn: draw a card\.")
        said = again.said()
        assert "You made this table" not in said and "New game" not in said, said

        mark = again.mark()
        again.keys("l")  # what happened since her last turn: the stand-in's moves too
        told = again.said_since(mark)
        stood_in = "While you were away, a computer played for you. Ann "
        assert stood_in in told, told
        assert not told.rstrip().endswith("played for you."), told  # always with its moves
        assert "Nothing has happened" not in told
    finally:
        ann.close()
        if again is not None:
            again.close()
        loop.run_until_complete(cy.close())
        loop.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors
