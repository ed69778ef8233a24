"""The network clients say each seat as the server last said it (a playtest's leftovers).

- The plain ``join`` line client's table list said seat names only: now a seat whose player
  left, one whose connection dropped and a computer player are said in the words of the
  ``--keys`` lobby ("Ann (left; a computer player plays in their place)").
- ``join --keys`` built its list of seats once, when the game started, so a client that came
  (or came back) after someone left, and every client after a seat changed, heard "Ann
  (medium)" or a plain "Ann": the game's session now follows the seats of the newest
  snapshot, whatever happens to them.

Real server processes on loopback, a real ``fivecrowns join`` process for the line client.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivecrowns import i18n
from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.ui.join_line import LineClient
from fivecrowns.ui.session import Seat
from join_support import Player, TypedClient
from server_support import FAST, ServerProcess

LEFT = "{name} (left; a computer player plays in their place)"
DROPPED = "{name} (connection dropped; a computer player plays until they are back)"

#: A table list as the server sends it: a seat of each kind the protocol has.
SEATS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ann", "level": None, "standin": False, "left": False},
    {"kind": "bot", "name": "Bot 2", "level": "easy", "standin": False, "left": False},
    {"kind": "bot", "name": "Ben", "level": "medium", "standin": False, "left": True},
    {"kind": "human", "name": "Dee", "level": "medium", "standin": True, "left": False},
    {"kind": "empty", "name": None, "level": None, "standin": False, "left": False},
]


@pytest.fixture(name="server")
def grace_server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fast server that lets a computer stand in one second after a connection drops."""
    process = ServerProcess(tmp_path / "server", *FAST, "--grace", "1").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors


def _listed(language: str) -> list[str]:
    said: list[str] = []
    with i18n.speaking(language):
        client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
        table = {"id": "a1", "seats": SEATS, "round": 4, "started": True, "over": False}
        client.receive({"type": "tables", "tables": [table]})
    return said


def test_the_line_clients_table_list_says_who_left_who_dropped_and_the_computer_players() -> None:
    assert _listed("en") == [
        "Table a1: Ann, Bot 2 (computer, easy), Ben (left; a computer player plays in their "
        "place), Dee (connection dropped; a computer player plays until they are back) and "
        "empty seat, round 4."
    ]
    assert _listed("es") == [
        "Mesa a1: Ann, Bot 2 (jugador automático, fácil), Ben (se fue; un jugador automático "
        "juega en su lugar), Dee (se cortó su conexión; un jugador automático juega hasta que "
        "vuelva) y asiento libre; ronda 4."
    ]


def test_the_line_client_lists_a_seat_left_and_a_dropped_one_as_the_server_says_them(
    server: ServerProcess,
) -> None:
    ann = TypedClient(server.url, "Ann")
    ben = WebSocketLink(server.url, "Ben")
    dee = WebSocketLink(server.url, "Dee")
    try:
        ann.until(lambda line: line.startswith("No open tables"))
        ann.type("create 4 easy")
        seated = ann.until(lambda line: line.startswith("You sit in seat 1 at table"))
        table = seated.removeprefix("You sit in seat 1 at table ").rstrip(".")
        ben.connect([{"type": "join", "table": table}])
        ann.until(lambda line: line == "Ben sat down in seat 3.")
        dee.connect([{"type": "join", "table": table}])
        ann.until(lambda line: line == "Dee sat down in seat 4.")
        ann.type("list")
        ann.until(
            lambda line: (
                line == f"Table {table}: Ann, Bot 2 (computer, easy), Ben and "
                "Dee, waiting to start."
            )
        )
        ann.type("start")
        ann.until(lambda line: line == "The game starts.")
        ben.send({"type": "leave"})
        ann.until(lambda line: line.startswith("Ben left the table; a computer player plays"))
        dee.close()  # for good: after the one-second grace a computer plays for Dee
        # why the stand-in's own words: the drop itself is said at once, before it comes
        ann.until(
            lambda line: line.startswith("Dee's connection dropped: a computer plays for Dee until")
        )
        ann.type("list")
        listed = ann.until(lambda line: line.startswith(f"Table {table}: "))
        players = (
            f"Ann, Bot 2 (computer, easy), {LEFT.format(name='Ben')} and "
            f"{DROPPED.format(name='Dee')}"
        )
        assert re.fullmatch(rf"Table {table}: {re.escape(players)}, round \d+\.", listed), listed
        ann.type("q")
        ann.proc.wait(timeout=10)
    finally:
        ben.close()
        dee.close()
        if ann.proc.poll() is None:
            ann.proc.kill()
        ann.proc.wait(timeout=10)


def _counts(player: Player) -> str:
    mark = player.mark()
    player.keys("c")
    return player.said_since(mark)


def _seat(player: Player, name: str) -> Seat:
    """The seat ``name`` as the player's game session has it now."""
    game = player.play.game
    assert game is not None
    return next(seat for seat in game.seats if seat.name == name)


def _note(player: Player, name: str, expected: str) -> None:
    """The screen's note beside ``name`` is ``expected`` ("went out" if they went out: a
    computer player playing for them may go out at any time)."""
    game = player.play.game
    assert game is not None
    index, line = next((i, s) for i, s in enumerate(game.table().seats) if s.name == name)
    went_out = game.client.view.went_out == index
    assert line.note == ("went out" if went_out else expected), (name, line.note)


def _until(player: Player, done: Any, what: str, timeout: float = 20.0) -> None:
    """Take the news until ``done()``; bounded in time."""
    deadline = time.monotonic() + timeout
    while not done():
        game = player.play.game
        seats = game.seats if game is not None else None
        assert time.monotonic() < deadline, f"{player.link.name}: {what} did not come: {seats}"
        player.play.news()
        player.link.wait_for(lambda: False, 0.02)


def test_the_keys_session_follows_the_seats_as_they_change_and_a_late_spectator_hears_them(
    server: ServerProcess,
) -> None:
    ann = Player(server.url, "Ann")
    ben = WebSocketLink(server.url, "Ben")
    dee = WebSocketLink(server.url, "Dee")
    cy: Player | None = None
    dee_again: WebSocketLink | None = None
    try:
        ann.wait(r"No open tables")
        ann.link.send({"type": "create_table", "seats": 4, "bots": ["easy"], "private": False})
        table = ann.wait(r"You sit in seat 1 at table (\w+)\.").group(1)
        ben.connect([{"type": "join", "table": table}])
        dee.connect([{"type": "join", "table": table}])
        ann.wait(r"Dee sat down in seat 4\.")
        ann.keys("s")
        ann.wait(r"New game: Ann, Bot 2 \(easy\), Ben and Dee\. Press F1")
        assert re.search(r"Ben, \d+ cards; Dee, \d+ cards", _counts(ann))
        _note(ann, "Ben", "")

        # Ben leaves mid-game: a computer player plays in his place, for good
        ben.send({"type": "leave"})
        ann.wait(r"Ben left the table; a computer player plays in their place\.")
        _until(ann, lambda: _seat(ann, "Ben").left, "Ben's new seat")
        counts = _counts(ann)
        assert re.search(r"Ben \(a computer player plays for them\), \d+ cards", counts), counts
        assert "(computer, medium)" not in counts
        _note(ann, "Ben", "left; a computer player plays in their place")

        # Dee's connection drops: a computer plays for her until she is back
        token = dee.token
        dee.close()
        ann.wait(r"Dee's connection dropped")
        _until(ann, lambda: _seat(ann, "Dee").standin, "Dee's stand-in")
        assert re.search(r"Dee \(a computer player plays for them\), \d+ cards", _counts(ann))
        _note(ann, "Dee", "connection dropped; a computer player plays until they are back")

        # Cy comes to watch after that: the game's players, as they are now
        cy = Player(server.url, "Cy")
        cy.wait(r"The lobby of")
        cy.link.send({"type": "watch", "table": table})
        said = cy.wait(r"You are watching a game in progress: [^\n]*").group(0)
        assert said.startswith(
            f"You are watching a game in progress: Ann, Bot 2 (easy), "
            f"{LEFT.format(name='Ben')} and {DROPPED.format(name='Dee')}."
        ), said
        assert "Ben (medium)" not in cy.said()

        # Dee comes back with her token: she plays again, and is said as a person again
        dee_again = WebSocketLink(server.url, "Dee")
        dee_again.connection.token = token
        dee_again.connect()
        ann.wait(r"Dee is back and plays again\.")
        _until(ann, lambda: not _seat(ann, "Dee").standin, "Dee's return")
        _note(ann, "Dee", "")
        counts = _counts(ann)
        assert re.search(r"Dee, \d+ cards", counts) and "Dee (a computer" not in counts
        # Ben stays a computer player in his place
        assert re.search(r"Ben \(a computer player plays for them\), \d+ cards", counts)
        for player in (ann, cy):
            assert "Traceback" not in player.said()
    finally:
        ann.close()
        ben.close()
        dee.close()
        if dee_again is not None:
            dee_again.close()
        if cy is not None:
            cy.close()
