"""A table's log stays bounded in memory whatever is said at it (issue 26 item 6).

Chat alone grew a table's log for ever (about 0.5 kB a line). The newest entries are kept
(at least ``LOG_KEPT``); the numbers go on, the game plays on, a replay numbers the same,
and a resume from a recent event still gets every event after it.
"""

from __future__ import annotations

import pytest

from fivecrowns.core.codec import move_from_json
from fivecrowns.net.server.limits import Limits
from fivecrowns.table import Table, TableError
from fivecrowns.table.table import LOG_KEPT, LOG_MOST

LINES = 2 * LOG_MOST + 5_000


def _chatty_table() -> Table:
    table = Table(2, creator_name="Ann", creator_id="p1")
    table.add_bot("easy")
    table.start(seed=3)
    for line in range(LINES):
        table.chat(None, "Sam", f"line {line}")
    return table


def test_a_log_of_chat_keeps_only_its_newest_entries_and_its_numbers_go_on() -> None:
    table = _chatty_table()
    assert LOG_KEPT <= len(table.log) <= LOG_MOST
    newest = table.seq
    assert newest > LINES  # numbered as before: nothing is numbered twice
    assert [entry.seq for entry in table.log] == list(
        range(newest - len(table.log) + 1, newest + 1)
    )
    frames = table.frames_since(newest - 100, None)
    assert [frame["seq"] for frame in frames] == list(range(newest - 99, newest + 1))
    assert frames[-1]["text"] == f"Sam says: line {LINES - 1}"
    with pytest.raises(TableError) as refused:
        table.frames_since(1, None)  # dropped long ago: a sentence, not a wrong answer
    assert refused.value.code == "bad_seq"


def test_the_game_plays_on_and_a_replay_numbers_the_same() -> None:
    table = _chatty_table()
    for _step in range(10):  # the computer moves first if it is its turn
        if table.bot_due() is None:
            break
        assert table.step_bot()
    move = move_from_json(table.legal(0)[0])
    entries = table.act("p1", move, table.seq)
    assert entries and entries[0].seq == table.seq - len(entries) + 1
    assert table.game_seq == table.seq
    again = Table.replay(2, "Ann", "p1", table.inputs)
    assert again.seq == table.seq and again.game_seq == table.game_seq
    assert again.snapshot(0) == table.snapshot(0)


def test_a_table_keeps_what_a_server_sends_again_and_little_more() -> None:
    """Issue 29: a table kept up to 20,000 entries (about 6 MB), four times what the game
    server ever sends again; it keeps at least that many, and at most a quarter more."""
    assert Limits().resend_burst <= LOG_KEPT
    assert LOG_MOST <= LOG_KEPT * 5 // 4
    table = _chatty_table()
    assert len(table.log) <= LOG_MOST
