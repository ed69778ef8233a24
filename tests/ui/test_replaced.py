"""A seat taken from another device (issue 28, item 2): the client that was replaced says the
server's sentence once and takes nothing up again (else it would take the seat back from the
other device, and that one from it, forever)."""

from __future__ import annotations

from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.ui.join_line import LineClient

REPLACED = {"type": "error", "code": "replaced", "text": "You connected again from elsewhere."}


def test_join_says_it_was_replaced_once_and_stops() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:9/ws", "Ann", say=said.append)
    client.receive({"type": "welcome", "v": 1, "player": "p", "name": "Ann", "token": "t"})
    client.receive(REPLACED)
    assert said == ["You connected again from elsewhere."]
    assert client.connection.stopping and client.done


def test_join_keys_says_it_was_replaced_and_stops() -> None:
    link = WebSocketLink("ws://127.0.0.1:9/ws", "Ann")
    link.receive({"type": "welcome", "v": 1, "player": "p", "name": "Ann", "token": "t"})
    link.receive(REPLACED)
    assert link.connection.stopping
    assert link.notices == ["You connected again from elsewhere."]
    assert link.offline_text() == "You connected again from elsewhere."
    assert not link.has_errors()  # why: no key of the player's was refused
