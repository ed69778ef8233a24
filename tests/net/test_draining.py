"""The one wait while a client reads what it was sent (net/server/draining.py), used by the
server's connections and by a spare passing bytes on."""

from __future__ import annotations

import asyncio

import pytest

from fivecrowns.net.server import draining


class _Transport:
    def __init__(self, unread: int) -> None:
        self.unread = unread
        self.closing = False

    def get_write_buffer_size(self) -> int:
        return self.unread

    def is_closing(self) -> bool:
        return self.closing


def test_read_closed_and_never_read_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(draining, "DRAIN_POLL", 0.001)
    monkeypatch.setattr(draining, "DRAIN_POLLS", 20)

    async def scenario() -> None:
        reader = _Transport(10**6)
        waiting = asyncio.ensure_future(draining.drained(reader, 100))  # type: ignore[arg-type]
        await asyncio.sleep(0.005)
        assert not waiting.done()
        reader.unread = 100  # it has read all but the low mark
        assert await waiting is True
        closed = _Transport(10**6)
        closed.closing = True
        assert await draining.drained(closed, 100) is False  # type: ignore[arg-type]
        # a client that reads nothing: after the last look, None (the caller drops it)
        assert await draining.drained(_Transport(10**6), 100) is None  # type: ignore[arg-type]

    asyncio.run(scenario())
