"""The backup docs/operations.md gives works: SQLite's online backup of ``tables.sqlite3``
taken while the server plays holds every move a player had heard by then, and a server
started on the copy brings the table back and lets the players reconnect and play on."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from server_support import FAST, Client, ServerProcess, play_until, replayed


def test_a_backup_taken_while_playing_keeps_every_move_heard_and_serves_again(
    tmp_path: Path,
) -> None:
    live, copy = tmp_path / "live", tmp_path / "copy"
    copy.mkdir()
    first = ServerProcess(live, *FAST).start()

    async def play_then_back_up() -> tuple[Client, int]:
        ann = Client("Ann")
        await ann.connect(first.url)
        await ann.send({"type": "create_table", "seats": 3, "bots": ["easy", "simple"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann], lambda c: c.seq >= 40)
        heard = ann.seq
        # what `sqlite3 tables.sqlite3 ".backup copy.sqlite3"` does, while the server runs
        with (
            sqlite3.connect(live / "tables.sqlite3") as source,
            sqlite3.connect(copy / "tables.sqlite3") as target,
        ):
            source.backup(target)
        await ann.close()
        return ann, heard

    try:
        ann, heard = asyncio.run(play_then_back_up())
    finally:
        errors = first.stop()
    assert "Traceback" not in errors, errors
    assert ann.table is not None
    assert replayed(copy, ann.table).seq >= heard  # every move Ann heard is in the copy

    second = ServerProcess(copy, *FAST).start()

    async def play_on() -> None:
        again = Client("Ann")
        again.token, again.seq = ann.token, 0
        await again.connect(second.url)
        await again.until(lambda m: m["type"] == "snapshot")
        told_again = {event["seq"]: event for event in again.events}
        assert ann.events and all(told_again[event["seq"]] == event for event in ann.events)
        await play_until([again], lambda c: c.seq >= heard + 10)
        assert again.errors == []
        await again.close()

    try:
        asyncio.run(play_on())
    finally:
        errors = second.stop()
    assert "Traceback" not in errors, errors
