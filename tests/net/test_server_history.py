"""A finished game's record is written off the server's event loop, and no record is lost or
reordered (issue 29: the record's fsync waited for the disk on the loop, holding every table's
moves meanwhile)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits
from fivecrowns.storage.accounts import DELETED_NAME, forget_name_in_history
from fivecrowns.storage.history import HistoryWriter, read_history


class _Socket:
    async def close(self, **_: Any) -> None:
        pass


def _frames(conn: Connection) -> list[dict[str, Any]]:
    frames = []
    for _ in range(len(conn.queue)):
        raw = conn.take()
        if raw is not None:
            frames.append(json.loads(raw))
    return frames


def _send(server: Server, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
    server.receive(conn, json.dumps(message))
    frames = _frames(conn)
    assert not [frame for frame in frames if frame["type"] == "error"], frames
    return frames


def _move(legal: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    for wanted in ("go_out", "draw_stock", "discard"):
        for move in legal:
            if move["move"] == wanted:
                args = {k: v for k, v in move.items() if k != "move"}
                return wanted, {"card": args["discard"]} if "discard" in args else args
    return legal[0]["move"], {}


async def _play_a_game(server: Server) -> list[int]:
    """Ann and Ben play a whole game of two; the final totals."""
    ann, ben = (Connection(_Socket(), server.limits) for _ in range(2))  # type: ignore[arg-type]
    _send(server, ann, {"type": "hello", "v": 1, "name": "Ann"})
    _send(server, ben, {"type": "hello", "v": 1, "name": "Ben"})
    seated = _send(server, ann, {"type": "create_table", "seats": 2})
    _send(server, ben, {"type": "join", "table": seated[0]["table"]})
    _send(server, ann, {"type": "start"})
    room = next(iter(server.rooms.values()))
    last: dict[Connection, dict[str, Any]] = {}
    for _step in range(5000):  # bounded: a game of two has a few hundred moves
        if room.table.is_over:
            break
        for conn in (ann, ben):
            for frame in _frames(conn):
                assert frame["type"] != "error", frame
                if frame["type"] == "snapshot":
                    last[conn] = frame
        mover = next(conn for conn in (ann, ben) if last.get(conn, {}).get("legal"))
        snapshot = last.pop(mover)
        action, args = _move(snapshot["legal"])
        act = {"type": "act", "action": action, "args": args, "seq": snapshot["seq"]}
        server.receive(mover, json.dumps(act))
    assert room.table.is_over and room.table.game is not None
    await asyncio.sleep(0)  # the store's scheduled save runs
    return list(room.table.game.totals)


def test_a_finished_game_is_recorded_by_a_thread_beside_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is fsynced in another thread than the loop's, and it is there once the
    server's workers are closed (as when it stops)."""
    history = tmp_path / "history.jsonl"
    synced_in: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced_in.append(threading.get_ident())
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)

    async def scenario() -> tuple[list[int], int]:
        server = Server(
            limits=Limits(bot_delay=0.0, rate=1e6, burst=1_000_000), history=history, seed=3
        )
        totals = await _play_a_game(server)
        server.close_workers()
        return totals, threading.get_ident()

    totals, loop_thread = asyncio.run(scenario())
    assert [(game["players"], game["totals"]) for game in read_history(history)] == [
        (["Ann", "Ben"], totals)
    ]
    assert synced_in and loop_thread not in synced_in


def test_records_keep_their_order_and_none_is_lost_when_the_writer_closes(
    tmp_path: Path,
) -> None:
    history = tmp_path / "history.jsonl"
    writer = HistoryWriter(history)
    for game in range(40):
        writer.append(["Ann", "Ben"], [game, 100 - game])
        if game == 19:  # a rewrite of the file comes between two appends, in its turn
            writer.run(lambda path: forget_name_in_history(path, "Ann"))
    writer.close()
    games = read_history(history)
    assert [game["totals"][0] for game in games] == list(range(40))
    assert [game["players"][0] for game in games] == [DELETED_NAME] * 20 + ["Ann"] * 20
    writer.append(["Cy", "Di"], [1, 2])  # after closing: written at once, not lost
    assert read_history(history)[-1]["players"] == ["Cy", "Di"]


def test_a_record_that_cannot_be_written_is_logged_and_the_next_one_still_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the history's folder should be")
    writer = HistoryWriter(blocked / "history.jsonl")
    failed = writer.append(["Ann"], [3])
    assert isinstance(failed.exception(timeout=30), OSError)
    writer.path = tmp_path / "history.jsonl"
    writer.append(["Ben"], [4])
    writer.close()
    assert [game["players"] for game in read_history(writer.path)] == [["Ben"]]
    assert "The history file could not be written" in caplog.text
