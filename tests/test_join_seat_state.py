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
from fivecrowns.client.line import LineClient
from fivecrowns.client.websocket import WebSocketLink
from server_support import FAST, ServerProcess
from test_join import TypedClient

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
        ann.until(lambda line: line.startswith("Dee's connection dropped"))
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
