"""A finished game's record is written off the server's event loop, and no record is lost or
reordered (issue 29: the record's fsync waited for the disk on the loop, holding every table's
moves meanwhile)."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.limits import Limits
from fivecrowns.storage.accounts import DELETED_NAME, forget_name_in_history
from fivecrowns.storage.history import HistoryWriter, read_history
from inprocess_support import play_a_game_of_two


async def _play_a_game(server: Server) -> list[int]:
    """Ann and Ben play a whole game of two; the final totals."""
    play_a_game_of_two(server)
    room = next(iter(server.rooms.values()))
    assert room.table.game is not None
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
