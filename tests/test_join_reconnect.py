"""The line client after a dropped connection: it says your hand and moves again, says a
seat given back only once, joins again when its token is forgotten, and says why it stops."""

from __future__ import annotations

import asyncio
from typing import Any

from fivecrowns.client.line import BACK, FORGOTTEN, SEATED, TOO_MANY_DROPS, LineClient


def _snapshot(seq: int) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "seq": seq,
        "legal": [{"move": "draw_stock"}, {"move": "take_discard"}],
        "view": {"round": 2, "phase": "draw", "hand": ["7h", "8h", "Kst", "3c"]},
    }


def test_after_a_reconnection_your_turn_is_said_again() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
    client.receive(_snapshot(40))
    first = list(said)
    assert any(line.startswith("You can:") for line in first)
    client.receive(_snapshot(40))  # the same moment again (after chat, say): nothing repeated
    assert said == first
    client.reconnected()
    client.receive(_snapshot(40))  # the server restarted; nothing moved, but a typed move was lost
    again = said[len(first) :]
    assert again[0] == BACK
    assert any(line.startswith("You can:") for line in again[1:])


def test_a_seat_given_back_after_a_reconnection_is_not_said_twice() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
    seated = {"type": "seated", "table": "3", "seat": 1, "code": None, "creator": False}
    client.receive(seated)
    client.receive(seated)  # the server seats a reconnecting player again
    assert said == [SEATED.format(seat=2, table="3")]
    client.receive({**seated, "seat": 2})  # a different seat is news
    assert said[-1] == SEATED.format(seat=3, table="3")


def test_a_token_the_server_forgot_leads_to_a_new_hello_not_a_dead_end() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
    client.receive({"type": "welcome", "token": "old"})
    client.receive({"type": "seated", "table": "3", "seat": 0, "code": None, "creator": True})
    client.receive({"type": "error", "code": "bad_token", "text": "That token is not known here."})
    assert said[-1] == FORGOTTEN
    assert client.outbox == [{"type": "hello", "v": 1, "name": "Ann", "language": "en"}]
    assert (client.token, client.seat, client.table, client.seq) == (None, None, None, 0)


def test_many_drops_end_with_a_sentence_not_in_silence() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
    client.max_connections = 25
    connections: list[bool] = []

    async def connect(session: object, first_time: bool) -> bool:
        connections.append(first_time)
        return True

    async def listen() -> None:  # the connection drops at once, every time
        return None

    client._connect = connect  # type: ignore[method-assign]
    client._listen = listen  # type: ignore[method-assign]
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    status = asyncio.run(client.run(lines, []))
    assert status == 1
    assert said[-1] == TOO_MANY_DROPS.format(count=25)
    # the old bound ended after tries + 1 = 11 connections, with no word at all
    assert len(connections) == 1 + 25
