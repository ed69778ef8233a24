"""The line client after a dropped connection: it says your hand and moves again, says a
seat given back only once, joins again when its token is forgotten, and says why it stops."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from fivecrowns.ui.join_line import BACK, FORGOTTEN, SEATED, TOO_MANY_DROPS, LineClient


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
    link = client.connection
    assert link.outbox == [{"type": "hello", "v": 1, "name": "Ann", "language": "en"}]
    assert (link.token, link.seat, link.table, client.seq) == (None, None, None, 0)


def test_many_drops_end_with_a_sentence_not_in_silence() -> None:
    said: list[str] = []
    client = LineClient("ws://127.0.0.1:1/ws", "Ann", say=said.append)
    client.connection.retry = dataclasses.replace(client.connection.retry, drops=25)
    connections: list[bool] = []

    async def connect(session: object, *, again: bool, then: object = None) -> bool:
        connections.append(not again)
        return True

    async def listen() -> None:  # the connection drops at once, every time
        return None

    client.connection.connect = connect  # type: ignore[method-assign]
    client.connection.listen = listen  # type: ignore[method-assign]
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    status = asyncio.run(client.run(lines, []))
    assert status == 1
    assert said[-1] == TOO_MANY_DROPS.format(count=25)
    # the old bound ended after tries + 1 = 11 connections, with no word at all
    assert len(connections) == 1 + 25


def test_both_join_clients_share_one_reconnection_policy() -> None:
    """The plain client gave up after ten attempts (22.5 s), before the server's 30-second
    grace ended; it now follows the same policy as ``--keys``: the same object, not a copy."""
    from fivecrowns.net.client.retry import RECONNECT
    from fivecrowns.net.client.websocket import WebSocketLink

    line = LineClient("ws://127.0.0.1:1/ws", "Ann")
    keys = WebSocketLink("ws://127.0.0.1:1/ws", "Ann")
    assert line.connection.retry is RECONNECT and keys.connection.retry is RECONNECT
    assert line.connection.retry.drops == RECONNECT.drops == 200
    assert (RECONNECT.window, RECONNECT.longest_pause, RECONNECT.attempts) == (300.0, 5.0, 400)


def _fake_clock(monkeypatch: Any, on_sleep: Any = None) -> list[float]:
    """Minutes of retrying in a moment: the line client's clock and pauses are fake; each
    pause is kept in the returned list (its last item is the clock)."""
    from types import SimpleNamespace

    from fivecrowns.net.client import connection as line

    pauses: list[float] = [1000.0]

    async def sleep(seconds: float) -> None:
        pauses.insert(-1, seconds)
        pauses[-1] += seconds
        if on_sleep is not None:
            on_sleep(pauses[-1] - 1000.0)

    # why module attributes, not time.monotonic itself: aiohttp's event loop keeps real time
    monkeypatch.setattr(line, "time", SimpleNamespace(monotonic=lambda: pauses[-1]))
    monkeypatch.setattr(line, "asyncio", SimpleNamespace(sleep=sleep))
    return pauses


def test_the_line_client_keeps_trying_for_minutes_then_says_so(monkeypatch: Any) -> None:
    import aiohttp

    from fivecrowns.net.client.retry import RECONNECT
    from join_support import _free_port

    pauses = _fake_clock(monkeypatch)
    said: list[str] = []
    client = LineClient(f"ws://127.0.0.1:{_free_port()}/ws", "Ann", say=said.append)
    client.connection.token = "a-token"  # as after a first welcome

    async def again() -> bool:
        async with aiohttp.ClientSession() as session:
            return await client.connection.reconnect(session)

    assert asyncio.run(again()) is False
    waited = pauses[:-1]
    assert sum(waited) >= RECONNECT.window - RECONNECT.longest_pause  # not 22.5 s: 5 minutes
    assert max(waited) <= RECONNECT.longest_pause and len(waited) <= RECONNECT.attempts
    assert said == [
        "The connection dropped; trying again for up to 5 minutes.",
        "The server did not answer for 5 minutes, so this client stopped trying. "
        "Start join again to take your seat back while the server keeps it.",
    ]


def test_the_line_client_is_back_when_the_server_is_after_the_old_22_seconds(
    monkeypatch: Any, tmp_path: Any
) -> None:
    """The server is down for 40 (fake) seconds, then runs again on the same port: the line
    client, which used to give up at 22.5 s, is connected again."""
    import aiohttp

    from join_support import _free_port
    from server_support import FAST, ServerProcess

    port = _free_port()
    server = ServerProcess(tmp_path / "server", *FAST, port=port)

    def on_sleep(elapsed: float) -> None:
        if elapsed >= 40 and server.proc is None:
            server.start()

    _fake_clock(monkeypatch, on_sleep)
    said: list[str] = []
    client = LineClient(f"ws://127.0.0.1:{port}/ws", "Ann", say=said.append)

    async def again() -> bool:
        async with aiohttp.ClientSession() as session:
            try:
                return await client.connection.reconnect(session)
            finally:
                if client.connection.ws is not None:
                    await client.connection.ws.close()

    try:
        assert asyncio.run(again()) is True
    finally:
        server.stop()
    assert said == [
        "The connection dropped; trying again for up to 5 minutes.",
        BACK,
    ]


def test_both_join_clients_say_one_hello_after_a_drop() -> None:
    """The hello is the shared connection's: a seat comes back with the token and the last
    event heard; a spectator also names the table it watched (a server started again keeps
    seats, not who watched what), the line client's too."""
    from fivecrowns.net.client.websocket import WebSocketLink

    line = LineClient("ws://127.0.0.1:1/ws", "Ann", say=lambda text: None)
    keys = WebSocketLink("ws://127.0.0.1:1/ws", "Ann")
    for client in (line, keys):
        client.receive({"type": "welcome", "token": "t"})
        client.receive({"type": "seated", "table": "3", "seat": None, "code": "xy"})
        client.receive({"type": "event", "seq": 4, "kind": "chat", "text": "", "data": {}})
        assert client.connection.hello() == {
            "type": "hello",
            "v": 1,
            "name": "Ann",
            "language": "en",
            "token": "t",
            "last_seq": 4,
            "watch": "3",
            "watch_code": "xy",
        }
