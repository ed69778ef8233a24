"""A computer player thinking never holds up the other tables.

The server runs in this process (so the test can give it a slow bot) on loopback, with
real WebSocket clients. The slow bot keeps its thread busy, holding the GIL in a Python
loop, until the test lets it go: if bots still thought on the event loop, no other table
could be answered meanwhile and the test would fail.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from aiohttp import web

from fivecrowns.ai.base import Decision
from fivecrowns.core.views import PlayerView
from fivecrowns.net.server.app import Server, make_app
from fivecrowns.net.server.limits import Limits
from server_support import LOOPBACK, Client
from server_support import wait_until as _wait

THINK_LIMIT = 20.0  # seconds the slow bot thinks at most, should the test fail to release it


class SlowBot:
    """Thinks (a busy Python loop) until released, then plays its first legal move."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()
        self.decisions = 0

    def decide(self, view: PlayerView) -> Decision:
        self.thinking.set()
        deadline = time.monotonic() + THINK_LIMIT
        spins = 0
        while not self.release.is_set() and time.monotonic() < deadline:
            spins += sum(range(200))  # why: CPU-bound, holding the GIL like a real search
        self.thinking.clear()
        self.decisions += 1
        return Decision(view.legal_moves()[0], "slow")


def test_another_tables_move_is_answered_while_a_slow_bot_thinks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow = SlowBot()
    monkeypatch.setattr("fivecrowns.table.table.load_bot", lambda level, seed=0: slow)

    async def scenario() -> None:
        server = Server(limits=Limits(bot_delay=0.0, rate=1000.0, burst=2000))
        runner = web.AppRunner(make_app(server), handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, 0)
        await site.start()
        url = f"ws://{LOOPBACK}:{runner.addresses[0][1]}/ws"
        clients: list[Client] = []
        try:
            # table B: two humans, no bots
            ben, cy = Client("Ben"), Client("Cy")
            clients += [ben, cy]
            for client in (ben, cy):
                await client.connect(url)
            await ben.send({"type": "create_table", "seats": 2})
            await ben.until(lambda m: m["type"] == "seated")
            await cy.send({"type": "join", "table": ben.table})
            await cy.until(lambda m: m["type"] == "seated")
            await ben.send({"type": "start"})
            await ben.until(lambda m: m["type"] == "snapshot" and m["started"])
            await cy.until(lambda m: m["type"] == "snapshot" and m["started"])
            # table A: Ann and the slow bot; Ann plays until the bot is thinking
            ann = Client("Ann")
            clients.append(ann)
            await ann.connect(url)
            await ann.send({"type": "create_table", "seats": 2, "bots": ["hard"]})
            await ann.until(lambda m: m["type"] == "seated")
            await ann.send({"type": "start"})
            for _ in range(10):
                if slow.thinking.is_set():
                    break
                if ann.my_turn():
                    await ann.act(ann.choose())
                try:
                    await ann.recv(timeout=0.5)
                except TimeoutError:
                    continue
            await _wait(slow.thinking.is_set, 10)
            # while it thinks, table B plays a move and hears it back
            for client in (ben, cy):
                await client.send({"type": "resume", "last_seq": client.seq})
                await client.until(lambda m: m["type"] == "snapshot")
            mover = ben if ben.my_turn() else cy
            assert mover.my_turn()
            sent = time.monotonic()
            await mover.act(mover.choose())
            await mover.until(
                lambda m: m["type"] == "event" and m["data"].get("player") == mover.seat, 10
            )
            answered = time.monotonic() - sent
            still_thinking = slow.thinking.is_set()
            slow.release.set()
            assert still_thinking, f"table B was answered only after the bot ({answered:.2f} s)"
            assert slow.decisions == 0
            # and the bot's move, once decided, is played and heard at its own table
            await _wait(lambda: slow.decisions >= 1, 10)
            await ann.until(lambda m: m["type"] == "event" and m["data"].get("player") == 1, 10)
        finally:
            slow.release.set()
            for client in clients:
                await client.close()
            await runner.cleanup()

    asyncio.run(scenario())
