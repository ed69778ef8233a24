"""Computer players wait for a listener who is behind (issue 25, net/server/listeners.py).

A real server (aiohttp on loopback, in this process so that the test can set the caps short)
and real WebSocket clients: Ann's page says its news is behind, and the computer's next move
waits; says it caught up, and the move comes at once; says "behind" and never "caught up", and
the wait ends at the cap a move and a turn. A spectator's "behind", a malformed "listening"
and a flood of them are refused with a sentence and hold nobody. Computers that do not wait
(``--bot-delay 0``) never wait for anyone.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, cast

from aiohttp import web

from fivecrowns.net.server.app import Server, make_app
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.listeners import behind
from fivecrowns.net.server.rooms import Room, attach, detach
from fivecrowns.table import Table
from server_support import LOOPBACK, Client

DELAY = 0.2  # seconds a computer waits before each move here
MOVE = 3.0  # the cap a move: a computer's move waits at most this long for a listener
TURN = 4.0  # the cap a turn
# why round_pause_moves 1: a new round's first move waits as any other, so the figures below
# are the listeners' waits alone
LIMITS = Limits(
    bot_delay=DELAY,
    round_pause_moves=1.0,
    listen_move=MOVE,
    listen_turn=TURN,
    rate=1000.0,
    burst=2000,
)
# why this much: the machine is shared; a wait for a listener is seconds, far above it
SLACK = 1.0


@asynccontextmanager
async def ann_and_a_computer(limits: Limits = LIMITS) -> AsyncIterator[tuple[Client, str]]:
    """A server, and Ann at a started table of two with an easy computer player in seat 2."""
    server = Server(limits=limits, seed=8167234455913)
    runner = web.AppRunner(make_app(server), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0)
    await site.start()
    url = f"ws://{LOOPBACK}:{runner.addresses[0][1]}/ws"
    ann = Client("Ann")
    try:
        await ann.connect(url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "seated")
        await ann.send({"type": "start"})
        await ann.until(lambda m: m["type"] == "snapshot" and m["started"])
        yield ann, url
    finally:
        await ann.close()
        await runner.cleanup()


#: The events that are a player's move (a round's deal, its scores, a turn's start are not).
MOVES = {"drew_from_stock", "took_discard", "discarded", "went_out", "laid_down"}


def computer_move(message: dict[str, Any]) -> bool:
    return (
        message["type"] == "event"
        and message["kind"] in MOVES
        and message["data"].get("player") == 1
    )


async def ann_ends_her_turn(ann: Client) -> float:
    """Wait for Ann's turn (the computer may move first) and play it; returns when the server
    told her the move that ended it (from then on the computer is due)."""
    if ann.snapshot is None:  # why: the test client forgets it after a refusal; ask again
        await ann.send({"type": "resume", "last_seq": ann.seq})
    for _ in range(200):  # bounded: a turn is two or three moves
        if ann.my_turn():
            break
        await ann.recv(timeout=20)
    assert ann.my_turn(), "never Ann's turn"
    for _ in range(10):  # a draw, perhaps a lay-down, a discard or going out
        await ann.act(ann.choose())
        # why not the first snapshot: one for a spectator's coming may be on its way first
        await ann.until(
            lambda m: (m["type"] == "snapshot" and not ann.waiting) or m["type"] == "error"
        )
        assert not ann.errors, ann.errors
        if not ann.my_turn():
            return time.monotonic()
    raise AssertionError("Ann's turn never ended")


async def computer_turn(ann: Client) -> list[float]:
    """When each move of the computer's turn reached Ann, until it is her turn again or the
    round ends (then its next turn, in the new round, is a turn of its own)."""
    times: list[float] = []
    for _ in range(200):  # bounded: a turn is a few moves and their snapshots
        message = await ann.recv(timeout=TURN + 10)
        if computer_move(message):
            times.append(time.monotonic())
        if ann.my_turn() or (message["type"] == "event" and message["kind"] == "round_scored"):
            return times
    raise AssertionError("the computer's turn never ended")


def test_a_page_behind_holds_the_computer_until_it_catches_up() -> None:
    async def scenario() -> None:
        async with ann_and_a_computer() as (ann, _url):
            await ann.send({"type": "listening", "behind": True})
            ended = await ann_ends_her_turn(ann)
            await asyncio.sleep(0.8)  # her page says the news a while, then has caught up
            caught_up = time.monotonic()
            await ann.send({"type": "listening", "behind": False})
            moves = await computer_turn(ann)
            assert moves, "the computer did not move"
            assert moves[0] >= caught_up, "the computer moved while Ann's page was behind"
            # at once: far sooner than the cap of MOVE seconds, its own pause aside
            assert moves[0] - caught_up < DELAY + SLACK, moves[0] - caught_up
            assert moves[0] - ended < MOVE, moves[0] - ended
            assert not ann.errors, ann.errors

    asyncio.run(scenario())


def test_a_page_that_never_catches_up_holds_each_move_and_turn_only_to_the_cap() -> None:
    async def scenario() -> None:
        async with ann_and_a_computer() as (ann, _url):
            await ann.send({"type": "listening", "behind": True})
            ended = await ann_ends_her_turn(ann)
            moves = await computer_turn(ann)
            assert len(moves) >= 2, moves  # a draw and a discard at least
            # the first move waited its pause and the whole cap of a move, no more
            first = moves[0] - ended
            assert DELAY + MOVE - 0.1 <= first < DELAY + MOVE + SLACK, first
            # the second only what was left of the turn's cap (TURN - MOVE), not a whole MOVE
            second = moves[1] - moves[0]
            assert DELAY + (TURN - MOVE) - 0.1 <= second < DELAY + MOVE - 0.5, second
            # and the turn waited TURN seconds at most, however many moves it had
            whole = moves[-1] - ended
            assert whole < TURN + DELAY * len(moves) + SLACK, whole
            # the next turn waits afresh: a page still behind holds it to the cap again
            ended = await ann_ends_her_turn(ann)
            moves = await computer_turn(ann)
            assert moves and moves[0] - ended >= DELAY + MOVE - 0.1, moves[0] - ended

    asyncio.run(scenario())


def test_a_spectators_behind_is_refused_and_holds_nobody() -> None:
    async def scenario() -> None:
        async with ann_and_a_computer() as (ann, url):
            cy = Client("Cy")
            try:
                await cy.connect(url)
                await cy.send({"type": "watch", "table": ann.table})
                await cy.until(lambda m: m["type"] == "seated")
                await cy.send({"type": "listening", "behind": True})
                refusal = await cy.until(lambda m: m["type"] == "error")
                assert refusal["code"] == "listening_not_seated", refusal
                assert "watching" in refusal["text"], refusal
                ended = await ann_ends_her_turn(ann)
                moves = await computer_turn(ann)
                assert moves and moves[0] - ended < DELAY + SLACK, moves[0] - ended
            finally:
                await cy.close()

    asyncio.run(scenario())


def test_a_page_behind_holds_nobody_once_its_connection_is_gone() -> None:
    async def scenario() -> None:
        async with ann_and_a_computer() as (ann, url):
            cy = Client("Cy")  # watches, to see when the computer moves
            try:
                await cy.connect(url)
                await cy.send({"type": "watch", "table": ann.table})
                await cy.until(lambda m: m["type"] == "seated")
                await ann.send({"type": "listening", "behind": True})
                await ann_ends_her_turn(ann)
                await ann.close()  # her page is gone, still "behind"
                gone = time.monotonic()
                await cy.until(computer_move, timeout=MOVE + 10)
                assert time.monotonic() - gone < DELAY + SLACK, time.monotonic() - gone
            finally:
                await cy.close()

    asyncio.run(scenario())


def test_a_malformed_or_flooding_listening_is_refused_with_a_sentence_and_changes_nothing() -> None:
    # why a slow refill: at 5 a second, a machine busy for 0.2 s mid-flood lets one "behind" in
    limits = replace(LIMITS, listening_rate=0.5)

    async def scenario() -> None:
        async with ann_and_a_computer(limits) as (ann, _url):
            for bad in (
                {"type": "listening"},
                {"type": "listening", "behind": "yes"},
                {"type": "listening", "behind": True, "cards": ["7h"]},
            ):
                await ann.send(bad)
                refusal = await ann.until(lambda m: m["type"] == "error")
                assert refusal["code"] == "bad_message", refusal
                assert refusal["text"].endswith("."), refusal
            ann.errors.clear()
            # a flood: the first ones are taken (all "caught up"), the rest refused, each with
            # its sentence; the "behind" among the refused changes nothing
            burst = limits.listening_burst
            for _ in range(burst):
                await ann.send({"type": "listening", "behind": False})
            for _ in range(5):
                await ann.send({"type": "listening", "behind": True})
            for _ in range(5):
                refusal = await ann.until(lambda m: m["type"] == "error")
                assert refusal["code"] == "listening_too_often", refusal
                assert "too often" in refusal["text"], refusal
            ann.errors.clear()
            ended = await ann_ends_her_turn(ann)
            moves = await computer_turn(ann)
            assert moves and moves[0] - ended < DELAY + SLACK, moves[0] - ended
            # in the lobby there is nothing to hold
            await ann.send({"type": "leave"})
            await ann.until(lambda m: m["type"] == "left")
            await asyncio.sleep(1 / limits.listening_rate + 0.05)  # a token again
            await ann.send({"type": "listening", "behind": True})
            refusal = await ann.until(lambda m: m["type"] == "error")
            assert refusal["code"] == "listening_no_table", refusal
            assert refusal["text"].endswith("at no table."), refusal

    asyncio.run(scenario())


def test_computers_that_do_not_wait_never_wait_for_a_listener() -> None:
    limits = Limits(bot_delay=0.0, listen_move=MOVE, listen_turn=TURN, rate=1000.0, burst=2000)

    async def scenario() -> None:
        async with ann_and_a_computer(limits) as (ann, _url):
            await ann.send({"type": "listening", "behind": True})
            ended = await ann_ends_her_turn(ann)
            moves = await computer_turn(ann)
            assert moves and moves[-1] - ended < SLACK, moves[-1] - ended
            assert not ann.errors, ann.errors

    asyncio.run(scenario())


def test_who_is_behind_is_a_live_seated_connection_at_the_table_and_seat_it_said_it_at() -> None:
    room = Room("t1", Table(2, creator_name="Ann", creator_id="p-ann"), None, False)
    conn = Connection(cast(Any, None), Limits())  # no socket: only its place and its word
    attach(conn, room, 0)
    assert not behind(room)
    conn.behind = ("t1", 0)
    assert behind(room)
    conn.closed = True  # its connection is ending
    assert not behind(room)
    conn.closed = False
    conn.behind = ("t2", 0)  # said at another table
    assert not behind(room)
    conn.behind = ("t1", 0)
    detach(conn)  # left the table (or dropped): what it said is forgotten
    assert conn.behind is None
    attach(conn, room, 0)  # back in the same seat before the start: holds nobody
    assert not behind(room)
    detach(conn)
    attach(conn, room, None)  # watching
    conn.behind = ("t1", 0)
    assert not behind(room)
