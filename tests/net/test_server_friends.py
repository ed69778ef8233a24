"""Friends and who is online at a real `fivecrowns serve` (issue 28 item 4): friend requests,
presence told to friends, private messages with an inbox told once, blocks, and a table's
creator removing and banning a player before the start; presence frames reach a seated
player during a game and tell nothing of its cards."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from server_support import (
    FAST,
    Client,
    ServerProcess,
    check_no_leak,
    play_until,
    replayed,
)

PASSWORD = "correct horse battery"


async def _sign_up(url: str, name: str) -> Client:
    client = await Client(name).connect(url, hello=False)
    await client.send({"type": "sign_up", "v": 1, "name": name, "password": PASSWORD})
    await client.until(lambda m: m["type"] == "welcome")
    return client


async def _log_in(url: str, name: str) -> Client:
    client = await Client(name).connect(url, hello=False)
    await client.send({"type": "log_in", "v": 1, "name": name, "password": PASSWORD})
    await client.until(lambda m: m["type"] == "welcome")
    return client


def _of(client: Client, kind: str) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, client.frames) if m["type"] == kind]


async def _answer(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and read up to its answer (a friend frame, an answer or an error)."""
    await client.send(message)
    return await client.until(lambda m: m["type"] in ("friend", "answer", "error", "friends"))


def _rows_about(data: Path, name: str) -> int:
    """The rows of the friends' tables that name the account once called ``name``."""
    with sqlite3.connect(data / "tables.sqlite3") as db:
        (account_id,) = db.execute(
            "SELECT id FROM accounts WHERE name = ? OR (name IS NULL AND status = 'deleted')",
            (name,),
        ).fetchone()
        count = sum(
            db.execute(sql, (account_id, account_id)).fetchone()[0]
            for sql in (
                "SELECT count(*) FROM friends WHERE account_id = ? OR friend_id = ?",
                "SELECT count(*) FROM friend_requests WHERE asker = ? OR asked = ?",
                "SELECT count(*) FROM private_messages WHERE sender = ? OR recipient = ?",
            )
        )
    db.close()
    return int(count)


async def _wait_for(test: Any, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.1)):
        if test():
            return
        await asyncio.sleep(0.1)
    raise TimeoutError("the condition did not come true in time")


def _run(server: ServerProcess, scenario: Any) -> None:
    try:
        asyncio.run(scenario())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors


async def _friends(one: Client, other: Client) -> None:
    asked = await _answer(one, {"type": "friend_ask", "name": other.name.lower()})
    assert asked["what"] == "asked" and asked["name"] == other.name, asked
    asks = await other.until(lambda m: m["type"] == "friend")
    assert asks == {
        "type": "friend",
        "what": "asks",
        "name": one.name,
        "text": f"{one.name} asks to be your friend.",
    }
    answer = {"type": "friend_answer", "name": one.name, "accept": True}
    accepted = await _answer(other, answer)
    assert accepted["text"] == f"{one.name} is your friend now."
    told = await one.until(lambda m: m["type"] == "friend")
    assert told["what"] == "accepted" and told["text"] == f"{other.name} is your friend now."


@pytest.mark.parametrize("workers", [(), ("--workers", "2")], ids=["one", "workers"])
def test_friends_see_presence_change_and_a_message_sent_while_away_is_told_once(
    data: Path, workers: tuple[str, ...]
) -> None:
    """(Also behind ``serve --workers``: presence comes from the workers' word.)"""
    server = ServerProcess(data, *FAST, *workers).start()

    async def scenario() -> None:
        ann = await _sign_up(server.url, "Ann")
        bob = await _sign_up(server.url, "Bob")
        await _friends(ann, bob)
        # each hears where the other is at once, and Bob's list says it
        presence = await bob.until(lambda m: m["type"] == "presence")
        assert presence["name"] == "Ann" and presence["presence"] == "lobby"
        presence = await ann.until(lambda m: m["type"] == "presence")
        assert presence["name"] == "Bob" and presence["presence"] == "lobby"
        listing = await _answer(bob, {"type": "friends"})
        assert listing["friends"] == [{"name": "Ann", "presence": "lobby"}]
        assert listing["text"] == "Friends: Ann, in the lobby."
        # Ann sits down: Bob hears she plays; Bob goes: Ann hears he is offline
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        playing = await bob.until(lambda m: m["type"] == "presence")
        assert playing["text"] == "Ann is playing at a table." and playing["presence"] == "playing"
        await bob.close()
        offline = await ann.until(lambda m: m["type"] == "presence")
        assert offline["text"] == "Bob is offline."
        # a message while Bob is away waits in his inbox
        kept = await _answer(ann, {"type": "tell", "name": "Bob", "text": "See you at eight."})
        assert kept["text"] == "Bob is not connected; they hear it when they come back."
        # the game starts while Bob comes back: Ann, seated, hears his presence mid-game
        await ann.send({"type": "start"})
        bob = await _log_in(server.url, "Bob")
        inbox = await bob.until(lambda m: m["type"] == "inbox")
        assert inbox["text"] == "1 private message while you were away:"
        (line,) = inbox["messages"]
        assert line["sender"] == "Ann" and line["text"] == "See you at eight."
        assert line["said"] == "Ann, privately: See you at eight."
        # told once: the next log-in has no inbox
        await bob.close()
        bob = await _log_in(server.url, "Bob")
        await _answer(bob, {"type": "friends"})
        assert _of(bob, "inbox") == []
        # a message to a friend who is connected comes at once
        sent = await _answer(bob, {"type": "tell", "name": "Ann", "text": "Good luck!"})
        assert sent["text"] == "Sent to Ann."
        await play_until([ann], lambda c: c.seq > 30 or c.game_over(), timeout=120)
        await bob.close()
        await play_until([ann], lambda c: c.seq > 60 or c.game_over(), timeout=120)
        assert ann.table is not None
        truth = replayed(data, ann.table)
        while ann.seq < truth.seq:  # why: the frames up to what the truth knows
            await ann.recv()
        private = _of(ann, "private_message")
        assert [m["message"]["said"] for m in private] == ["Bob, privately: Good luck!"]
        heard = [m["presence"] for m in _of(ann, "presence")]
        assert heard[:4] == ["lobby", "offline", "lobby", "offline"], heard
        assert heard.count("offline") >= 3, heard
        # the leak check reads the presence and message frames a seated player got too
        check_no_leak(ann, truth, 0)
        # Ann's connection drops mid-game: her friend hears she is away, then back playing
        bob = await _log_in(server.url, "Bob")
        await bob.until(lambda m: m["type"] == "presence" and m["name"] == "Ann")
        await ann.close()
        away = await bob.until(lambda m: m["type"] == "presence")
        assert away["text"] == "Ann is away; their connection dropped."
        ann = await _log_in(server.url, "Ann")
        back = await bob.until(lambda m: m["type"] == "presence")
        assert back["text"] == "Ann is playing at a table."
        for client in (ann, bob):
            await client.close()

    _run(server, scenario)


def test_a_block_stops_messages_requests_and_seats_and_the_creator_removes_and_bans(
    data: Path,
) -> None:
    server = ServerProcess(data, *FAST).start()

    async def scenario() -> None:
        ann = await _sign_up(server.url, "Ann")
        bob = await _sign_up(server.url, "Bob")
        cy = await _sign_up(server.url, "Cy")
        dee = await Client("Dee").connect(server.url)  # a guest
        await _friends(ann, bob)
        # bad input: a clear sentence each, and nothing changes
        unknown = await _answer(ann, {"type": "friend_ask", "name": "Zed"})
        assert unknown["text"] == "No account here is named Zed."
        guest = await _answer(dee, {"type": "friends"})
        assert guest["code"] == "not_logged_in"
        not_friend = await _answer(cy, {"type": "tell", "name": "Ann", "text": "hi"})
        assert not_friend["text"] == (
            "Only friends send private messages, and Ann is not your friend."
        )
        too_long = await _answer(ann, {"type": "tell", "name": "Bob", "text": "x" * 301})
        assert too_long["code"] == "bad_message"
        # Ann blocks Bob: no more friends, messages or requests (a request looks sent)
        blocked = await _answer(ann, {"type": "block", "name": "Bob"})
        assert blocked["what"] == "blocked"
        refused = await _answer(bob, {"type": "tell", "name": "Ann", "text": "hello?"})
        assert refused["code"] == "not_friends"
        looks_sent = await _answer(bob, {"type": "friend_ask", "name": "Ann"})
        assert looks_sent["what"] == "asked"
        listing = await _answer(ann, {"type": "friends"})
        assert listing["friends"] == [] and listing["asking"] == []
        assert listing["blocked"] == ["Bob"]
        assert [m for m in _of(ann, "friend") if m["what"] == "asks"] == []
        # ... nor sit at her table; Cy and the guest Dee may
        await ann.send({"type": "create_table", "seats": 4})
        await ann.until(lambda m: m["type"] == "seated")
        table = ann.table
        no_seat = await _answer(bob, {"type": "join", "table": table})
        assert no_seat["code"] == "not_welcome"
        assert no_seat["text"] == "You cannot sit at this table; pick another."
        for client in (cy, dee):
            await client.send({"type": "join", "table": table})
            await client.until(lambda m: m["type"] == "seated")
        # only the creator removes, by seat; Dee is removed and banned, Cy only removed
        not_creator = await _answer(cy, {"type": "kick", "seat": 2})
        assert not_creator["code"] == "not_creator"
        removed = await _answer(ann, {"type": "kick", "seat": dee.seat, "ban": True})
        assert removed["text"] == "Dee is removed from the table, and may not sit here again."
        told = await dee.until(lambda m: m["type"] == "error")
        assert told["code"] == "removed"
        await dee.until(lambda m: m["type"] == "left")
        again = await _answer(dee, {"type": "join", "table": table})
        assert again["code"] == "not_welcome"
        removed = await _answer(ann, {"type": "kick", "seat": cy.seat})
        assert removed["text"] == "Cy is removed from the table."
        await cy.until(lambda m: m["type"] == "left")
        await cy.send({"type": "join", "table": table})
        await cy.until(lambda m: m["type"] == "seated")
        empty = await _answer(ann, {"type": "kick", "seat": 3})
        assert empty["text"] == "Seat 4 has no person in it to remove."
        for _ in range(2):
            await ann.send({"type": "add_bot", "level": "easy"})
        await ann.send({"type": "start"})
        await ann.until(lambda m: m["type"] == "snapshot" and m["started"])
        late = await _answer(ann, {"type": "kick", "seat": cy.seat})
        assert late["code"] == "started"
        # unblocked, Bob may ask again, and this time Ann hears it
        await _answer(ann, {"type": "unblock", "name": "Bob"})
        await _answer(bob, {"type": "friend_ask", "name": "Ann"})
        asks = await ann.until(lambda m: m["type"] == "friend" and m["what"] == "asks")
        assert asks["name"] == "Bob"
        # a flood of messages is refused like a flood of chat
        await _friends(cy, bob)
        answers = [
            await _answer(cy, {"type": "tell", "name": "Bob", "text": f"{n}"}) for n in range(12)
        ]
        assert any(a.get("code") == "too_fast" for a in answers), answers
        # Cy deletes the account: the friends' rows about Cy go with it
        await asyncio.sleep(1.5)  # why: the chat allowance fills again
        await cy.send({"type": "leave"})
        await cy.until(lambda m: m["type"] == "left")
        await cy.send({"type": "delete_account", "password": PASSWORD})
        await cy.until(lambda m: m["type"] == "logged_out")
        await _wait_for(lambda: _rows_about(data, "Cy") == 0)
        listing = await _answer(bob, {"type": "friends"})
        assert [f["name"] for f in listing["friends"]] == []
        for client in (ann, bob, cy, dee):
            await client.close()

    _run(server, scenario)
