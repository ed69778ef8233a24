"""Floods one client can send a real `fivecrowns serve` process (issue 26 items 6 and 7).

- Item 6: chat is limited per table, not only per connection (57 connections made 484 lines
  a second, every one spoken to screen-reader players); sequence numbers go far past the
  1,000,000 a flood once reached.
- Item 7: a ``resume`` is charged per event sent again: asking for the whole log in a loop
  is refused with when to ask again, and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from fivecrowns.net.protocol import ProtocolError, decode_client
from server_support import FAST, Client, ServerProcess, play_until

SPECTATORS = 12
LINES_EACH = 8


def test_chat_is_limited_per_table_whoever_sends_it(data: Path) -> None:
    async def scenario() -> None:
        server = ServerProcess(data, *FAST, "--grace", "30").start()
        ann = Client("Ann")
        watchers = [Client(f"Watcher {n}") for n in range(SPECTATORS)]
        try:
            await ann.connect(server.url)
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            for watcher in watchers:
                await watcher.connect(server.url)
                await watcher.send({"type": "watch", "table": ann.table})
                await watcher.until(lambda m: m["type"] == "snapshot")
            began = time.monotonic()
            for line in range(LINES_EACH):  # 96 lines from 12 connections, at once
                for watcher in watchers:
                    await watcher.send({"type": "chat", "text": f"flood {line}"})
            answers = 0
            for watcher in watchers:
                name = watcher.name
                for _ in range(LINES_EACH):  # each line is answered: its event, or a sentence
                    await watcher.until(_answer_to(name))
                    answers += 1
            took = time.monotonic() - began
            await _read_until_quiet(ann)
            heard = [e for e in ann.events if e["kind"] == "chat"]
            assert answers == SPECTATORS * LINES_EACH
            # a table's burst, and its rate for the time the flood took (3 lines a second)
            assert 0 < len(heard) <= 12 + 3 * took + 1, (len(heard), took)
            refused = [e for w in watchers for e in w.errors]
            assert {e["code"] for e in refused} <= {"chat_busy", "chat_rate"}
            busy = [e for e in refused if e["code"] == "chat_busy"]
            assert busy[0]["text"] == "This table's chat is busy; wait a moment, then say it again."
        finally:
            for client in (ann, *watchers):
                await client.close()
            errors = server.stop()
        assert "Traceback" not in errors

    asyncio.run(scenario())


def _answer_to(name: str) -> Callable[[dict[str, Any]], bool]:
    """A chat line's answer: its event, or an error saying why it was not said."""
    return lambda m: (
        m["type"] == "error" or (m["type"] == "event" and m["data"].get("name") == name)
    )


async def _read_until_quiet(client: Client) -> None:
    for _ in range(10_000):
        try:
            await client.recv(timeout=1.0)
        except TimeoutError:
            return


def test_one_connection_chats_at_most_its_own_rate(data: Path) -> None:
    async def scenario() -> None:
        server = ServerProcess(data, *FAST, "--grace", "30").start()
        ann = Client("Ann")
        try:
            await ann.connect(server.url)
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            for line in range(10):
                await ann.send({"type": "chat", "text": f"line {line}"})
            for _ in range(10):
                await ann.until(lambda m: m["type"] == "error" or m.get("kind") == "chat")
            said = [e for e in ann.events if e["kind"] == "chat"]
            assert 5 <= len(said) <= 6  # its burst (and at most one more, a second later)
            assert ann.errors[0]["code"] == "chat_rate"
            assert ann.errors[0]["text"] == "You are chatting too fast; wait a moment."
        finally:
            await ann.close()
            errors = server.stop()
        assert "Traceback" not in errors

    asyncio.run(scenario())


def test_resume_from_0_in_a_loop_is_charged_per_event_and_refused_with_when(data: Path) -> None:
    async def scenario() -> None:
        server = ServerProcess(data, *FAST, "--grace", "30").start()
        ann = Client("Ann")
        try:
            await ann.connect(server.url)
            await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "start"})
            await play_until([ann], lambda c: c.seq >= 120, 150)
            # why her turn: the computer waits for her, so no other frame comes meanwhile
            await play_until([ann], lambda c: c.my_turn(), 30)
            sent_again = 0
            refused: list[dict[str, object]] = []
            began = time.monotonic()
            assert ann.ws is not None
            for _attempt in range(120):  # 120 whole logs asked for: over 14,000 events
                await ann.send({"type": "resume", "last_seq": 0})
                for _frame in range(100_000):  # read raw: the same events come again
                    answer = json.loads(await asyncio.wait_for(ann.ws.receive_str(), 10))
                    if answer["type"] == "event":
                        sent_again += 1
                    elif answer["type"] == "error":
                        refused.append(answer)
                        break
                    elif answer["type"] == "snapshot":
                        break
            took = time.monotonic() - began
            # a game's worth at once (5,000 events), then 200 a second
            assert sent_again <= 5000 + 200 * took + 2000, (sent_again, took)
            assert refused and {e["code"] for e in refused} == {"resend_later"}
            text = str(refused[0]["text"])
            assert text.startswith("That is too much to send again now; ask again in ")
            assert text.endswith((" second.", " seconds."))
            # refused changed nothing: a resume with nothing to send is still answered
            await ann.send({"type": "resume", "last_seq": 0})
            await ann.send({"type": "chat", "text": "still here"})
            for _frame in range(100_000):
                answer = json.loads(await asyncio.wait_for(ann.ws.receive_str(), 10))
                if answer.get("kind") == "chat":
                    break
        finally:
            await ann.close()
            errors = server.stop()
        assert "Traceback" not in errors

    asyncio.run(scenario())


@pytest.mark.parametrize("seq", [1_000_001, 2**40, 2**53 - 1])
def test_sequence_numbers_go_far_past_a_million(seq: int) -> None:
    """The protocol refused every act, resume and hello past seq 1,000,000: a table whose
    log a flood had taken there could not be played, resumed or reconnected to."""
    for raw in (
        {"type": "act", "action": "draw_stock", "seq": seq},
        {"type": "resume", "last_seq": seq},
        {"type": "hello", "v": 1, "name": "Ann", "token": "t", "last_seq": seq},
    ):
        decode_client(msgspec.json.encode(raw))


def test_sequence_numbers_stay_whole_numbers_a_browser_reads_exactly() -> None:
    with pytest.raises(ProtocolError):
        decode_client(msgspec.json.encode({"type": "resume", "last_seq": 2**53}))


async def _ann_plays_and_sam_watches(ann: Client, sam: Client, url: str) -> None:
    """Ann makes a table of two with an easy computer player; Sam watches it."""
    await ann.connect(url)
    await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
    await ann.until(lambda m: m["type"] == "snapshot")
    await sam.connect(url)
    await sam.send({"type": "watch", "table": ann.table})
    await sam.until(lambda m: m["type"] == "snapshot")


def test_the_creator_turns_spectators_chat_off_and_a_restart_keeps_it(data: Path) -> None:
    async def scenario() -> None:
        server = ServerProcess(data, *FAST, "--grace", "30").start()
        ann, sam = Client("Ann"), Client("Sam")
        try:
            await _ann_plays_and_sam_watches(ann, sam, server.url)
            await sam.send({"type": "spectator_chat", "allowed": False})  # not his table
            refused = await sam.until(lambda m: m["type"] == "error")
            assert refused["code"] == "not_creator"
            await ann.send({"type": "spectator_chat", "allowed": False})
            told = await sam.until(lambda m: m.get("kind") == "spectator_chat")
            assert told["text"] == "Spectators' chat is off: only the players can chat here."
            shot = await sam.until(lambda m: m["type"] == "snapshot")
            assert shot["spectator_chat"] is False
            await sam.send({"type": "chat", "text": "hello"})
            quiet = await sam.until(lambda m: m["type"] == "error")
            assert quiet["code"] == "spectators_quiet"
            assert quiet["text"] == (
                "Only the players can chat at this table: its creator turned spectators' chat off."
            )
            await ann.send({"type": "chat", "text": "players still can"})
            said = await sam.until(lambda m: m.get("kind") == "chat")
            assert said["text"] == "Ann says: players still can"
            await ann.close()
            await sam.close()
        finally:
            errors = server.stop()
        assert "Traceback" not in errors
        again = ServerProcess(data, *FAST, "--grace", "30").start()
        back = Client("Ann")
        back.token = ann.token
        try:
            await back.connect(again.url)
            shot = await back.until(lambda m: m["type"] == "snapshot")
            assert shot["spectator_chat"] is False  # replayed from the table's inputs
            await back.send({"type": "spectator_chat", "allowed": True})
            told = await back.until(lambda m: m.get("kind") == "spectator_chat")
            assert told["text"] == "Spectators can chat here again."
        finally:
            await back.close()
            errors = again.stop()
        assert "Traceback" not in errors

    asyncio.run(scenario())


def test_a_player_mutes_spectators_chat_for_themself(data: Path) -> None:
    """Muted chat still comes, numbered as before (no gap, nothing to resume), without words:
    a client speaks nothing for it. Only the one who muted it hears it so."""

    async def scenario() -> None:
        server = ServerProcess(data, *FAST, "--grace", "30").start()
        ann, sam = Client("Ann"), Client("Sam")
        try:
            await _ann_plays_and_sam_watches(ann, sam, server.url)
            await ann.send({"type": "mute_chat", "who": "spectators"})
            answer = await ann.until(lambda m: m["type"] == "answer")
            assert answer["text"] == "Spectators' chat is silent for you; players' chat is spoken."
            before = ann.seq
            await sam.send({"type": "chat", "text": "watching you"})
            muted = await ann.until(lambda m: m.get("kind") == "chat")
            assert muted["text"] == "" and muted["data"]["text"] == "watching you"
            own = await sam.until(lambda m: m.get("kind") == "chat")
            assert own["text"] == "Sam says: watching you"  # Sam did not mute anyone
            await ann.send({"type": "chat", "text": "mine"})
            spoken = await ann.until(lambda m: m.get("kind") == "chat")
            assert spoken["text"] == "Ann says: mine"
            await ann.until(lambda m: m["type"] == "snapshot")  # the one after her line
            await ann.send({"type": "resume", "last_seq": before})  # sent again: still muted
            ann.seq = before
            again = await ann.until(lambda m: m.get("kind") == "chat")
            assert again["text"] == ""
            await ann.until(lambda m: m["type"] == "snapshot")
            await ann.send({"type": "mute_chat", "who": "nobody"})
            await ann.until(lambda m: m["type"] == "answer")
            await sam.send({"type": "chat", "text": "back"})
            spoken = await ann.until(lambda m: m.get("kind") == "chat" and m["seq"] > before + 2)
            assert spoken["text"] == "Sam says: back"
        finally:
            for client in (ann, sam):
                await client.close()
            errors = server.stop()
        assert "Traceback" not in errors

    asyncio.run(scenario())
