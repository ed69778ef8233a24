"""The line client after a dropped connection: it says your hand and moves again."""

from __future__ import annotations

from typing import Any

from fivecrowns.client.line import BACK, LineClient


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
