"""The seats kept for taking back (storage/seats.py): per server, table and name, readable
by their owner only; a damaged or unreadable file is one sentence and nothing is lost.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from fivecrowns.storage.paths import data_dir
from fivecrowns.storage.seats import SavedSeats, seats_path


@pytest.mark.parametrize(
    "content", [b"{not json", b"\xff\xfe\x00", b'{"seats": [{"server": 3}]}', b"[" * 5000]
)
def test_a_damaged_seats_file_is_one_sentence_and_kept_aside(content: bytes) -> None:
    path = seats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    seats = SavedSeats()
    assert seats.find("ws://127.0.0.1:1/ws", "Ann") is None
    problems = seats.take_problems()
    assert len(problems) == 1
    assert problems[0].startswith(f"The file of seats to take back, {path}, could not be read")
    assert "no seat is taken back this time; it was kept as seats-damaged-" in problems[0]
    aside = [p for p in data_dir().iterdir() if p.name.startswith("seats-damaged-")]
    assert [p.read_bytes() for p in aside] == [content]  # nothing lost
    seats.keep("ws://127.0.0.1:1/ws", "7", "Ann", "a-token")  # a new file is started
    assert SavedSeats().find("ws://127.0.0.1:1/ws", "Ann") is not None


def test_an_unreadable_seats_file_is_a_sentence_and_not_written_over() -> None:
    """A seats "file" that cannot be opened for reading (here a folder: even root cannot read
    it as a file) is one sentence, once, and nothing is written in its place."""
    path = seats_path()
    path.mkdir(parents=True)
    (path / "something.txt").write_text("kept", encoding="utf-8")
    seats = SavedSeats()
    assert seats.find("ws://127.0.0.1:1/ws", "Ann") is None
    seats.keep("ws://127.0.0.1:1/ws", "7", "Ann", "a-token")
    seats.forget("ws://127.0.0.1:1/ws", "7", "Ann")
    problems = seats.take_problems()
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"The file of seats to take back, {path}, could not be read (")
    assert problems[0].endswith("so no seat is taken back this time.")
    assert (path / "something.txt").read_text(encoding="utf-8") == "kept"


def test_seats_are_kept_per_server_table_and_name_and_forgotten() -> None:
    seats = SavedSeats()
    seats.keep("ws://127.0.0.1:1/ws", "7", "Ann", "t1")
    seats.keep("ws://127.0.0.1:1/ws", "7", "Ben", "t2")
    seats.keep("ws://127.0.0.1:2/ws", "9", "Ann", "t3")
    found = seats.find("ws://127.0.0.1:1/ws", "Ann")
    assert found is not None and (found.table, found.token) == ("7", "t1")
    assert "t1" not in repr(found)  # a token never reaches a log through a repr
    seats.forget("ws://127.0.0.1:1/ws", "7", "Ann")
    assert seats.find("ws://127.0.0.1:1/ws", "Ann") is None
    found = seats.find("ws://127.0.0.1:1/ws", "Ben")
    assert found is not None and found.token == "t2"
    assert stat.S_IMODE(seats_path().stat().st_mode) == 0o600
    assert seats.take_problems() == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_as_seats_file_is_one_sentence_and_left_as_it_is() -> None:
    """Opening a named pipe for reading waits for a writer for ever (issue 26 item 15): it is
    refused at once with one sentence, and nothing is moved, written or removed."""
    path = seats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    threading.Thread(target=_unblock_a_reader_of, args=(path,), daemon=True).start()
    seats = SavedSeats()
    began = time.monotonic()
    assert seats.find("ws://127.0.0.1:1/ws", "Ann") is None
    assert time.monotonic() - began < 2.0  # it did not wait for a writer
    seats.keep("ws://127.0.0.1:1/ws", "7", "Ann", "a-token")
    seats.forget("ws://127.0.0.1:1/ws", "7", "Ann")
    assert seats.take_problems() == [
        f"The file of seats to take back, {path}, is not an ordinary file, so no seat is taken "
        "back this time; it was left as it is."
    ]
    assert stat.S_ISFIFO(path.stat().st_mode)
    assert [p.name for p in data_dir().iterdir()] == ["seats.json"]


def _unblock_a_reader_of(path: Path) -> None:
    """For 4 s, open the pipe for writing once someone reads it, and close it: a reader that
    waited for a writer gets on (so the test ends either way, bounded)."""
    for _attempt in range(200):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # why: ENXIO while nobody has it open for reading
            time.sleep(0.02)
            continue
        os.close(fd)
        return
