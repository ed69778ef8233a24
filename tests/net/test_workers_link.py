"""The link between the front of ``serve --workers`` and a worker: batches bounded in size
and split when they would pass the bound, a bigger one refused, an event's number read
from the start of its frame, and a turn's frames carried as one operation that reaches each
connection in order (net/server/workers.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import msgspec
import pytest

from fivecrowns.net.protocol import EventFrame, Snapshot, encode
from fivecrowns.net.server import workers
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.workers import (
    Done,
    Frames,
    Front,
    LinkError,
    Seat,
    Worker,
    _event_seq,
    _framed,
    _read_batch,
    _take_batches,
)


def _batches(data: bytes) -> list[bytes]:
    async def read() -> list[bytes]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        found = []
        for _ in range(1000):
            body = await _read_batch(reader)
            if body is None:
                return found
            found.append(body)
        raise AssertionError("too many batches")

    return asyncio.run(read())


def test_a_batch_that_would_pass_the_bound_is_split_and_read_back_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "LINK_MOST", 300)
    ops: list[Any] = [
        Frames([number, number + 1], [bytes([65 + number]) * 60, b""]) for number in range(20)
    ]
    ops.append(Done(7))
    batches = _batches(_framed(ops))
    assert len(batches) > 1
    assert all(len(body) <= 300 for body in batches)
    decoder = msgspec.msgpack.Decoder(list[workers.ToFront])
    assert [op for body in batches for op in decoder.decode(body)] == ops


def test_one_operation_past_the_bound_is_a_link_error_not_a_silent_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "LINK_MOST", 100)
    with pytest.raises(LinkError):
        _framed([Frames([1], [b"x" * 200])])


def test_a_batch_announced_bigger_than_the_bound_ends_the_link() -> None:
    header = workers._LENGTH.pack(workers.LINK_MOST + 1)
    with pytest.raises(LinkError):
        _batches(header + b"\0" * 16)


def test_a_cut_batch_is_the_end_of_the_link() -> None:
    assert _batches(workers._LENGTH.pack(10) + b"abc") == []


def test_an_events_number_is_read_from_its_frame_and_other_frames_have_none() -> None:
    frame = encode(EventFrame(seq=1234, kind="chat", data={"text": "a,b"}, text="Ann says: a,b"))
    assert _event_seq(frame) == 1234
    snapshot = encode(
        Snapshot(
            table="t",
            seq=9,
            seat=None,
            started=False,
            seats=[],
            view=None,
            legal=[],
            watchers=[],
            spectator_chat=True,
        )
    )
    assert _event_seq(snapshot) == -1
    assert _event_seq(b'{"type":"event","seq":x,') == -1


def _deliveries(ops: list[Any]) -> list[tuple[int, bytes]]:
    """What the front sends: each frame to its connection, ``b""`` the frame before again."""
    found: list[tuple[int, bytes]] = []
    for op in ops:
        assert op.frames[0], "an operation begins with a whole frame"
        frame = b""
        for conn_id, data in zip(op.conns, op.frames, strict=True):
            frame = data or frame
            found.append((conn_id, frame))
    return found


def test_a_turns_frames_past_the_bound_are_split_each_part_beginning_with_a_whole_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "LINK_MOST", 400)
    conns = list(range(60))
    frames = [bytes([65 + number % 26]) * 30 if number % 3 == 0 else b"" for number in conns]
    batches = _batches(_framed([Frames(conns, frames)]))
    assert len(batches) > 1
    assert all(len(body) <= 400 for body in batches)
    decoder = msgspec.msgpack.Decoder(list[workers.ToFront])
    ops = [op for body in batches for op in decoder.decode(body)]
    assert _deliveries(ops) == _deliveries([Frames(conns, frames)])


class _Writer:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        self.written.append(data)


class _Conn:
    def __init__(self) -> None:
        self.got: list[bytes] = []

    def send_raw(self, data: bytes) -> None:
        self.got.append(data)


def _event(seq: int, text: str) -> bytes:
    return encode(EventFrame(seq=seq, kind="draw", data={"seat": 0}, text=text))


def test_a_turns_frames_cross_as_one_operation_and_each_connection_gets_its_own_in_order() -> None:
    mover, others = _event(41, "You drew the 7 of stars."), _event(41, "Ann drew from the stock.")
    later = _event(42, "Ann discarded the 3 of spades.")
    hands = [b'{"type":"snapshot","seat":%d}' % seat for seat in range(3)]
    sent = [(1, mover), (2, others), (3, others), (1, later), (2, later), (3, later)]
    sent += [(seat + 1, hand) for seat, hand in enumerate(hands)]

    async def turn() -> list[bytes]:
        writer = _Writer()
        server = SimpleNamespace(_save=lambda: True, lobby=SimpleNamespace(dirty=False))
        worker = Worker(cast(Any, server), cast(Any, writer), Limits())
        seats = {conn_id: Seat(worker, conn_id, Limits()) for conn_id in (1, 2, 3)}
        for conn_id, frame in sent:
            seats[conn_id].send_raw(frame)
        await asyncio.sleep(0)  # why: the worker writes its batch at the end of the turn
        return writer.written

    written = asyncio.run(turn())
    assert len(written) == 1
    ops = msgspec.msgpack.Decoder(list[workers.ToFront]).decode(_batches(written[0])[0])
    assert len(ops) == 1 and isinstance(ops[0], Frames)
    assert ops[0].frames.count(b"") == 3  # a frame sent again to the next one crosses once
    conns = {conn_id: _Conn() for conn_id in (1, 2, 3)}
    front = SimpleNamespace(_by_id=conns, _heard={})
    Front._from_worker(cast(Any, front), cast(Any, None), ops[0])
    for conn_id, conn in conns.items():
        assert conn.got == [frame for to, frame in sent if to == conn_id]
    # the last event each was sent (what puts it back if its worker dies), not the snapshot
    heard = {conn: _event_seq(frame) for conn, frame in front._heard.items()}
    assert heard == {conns[1]: 42, conns[2]: 42, conns[3]: 42}


def test_a_worker_takes_every_whole_batch_come_so_far_and_keeps_a_cut_one() -> None:
    first, second = _framed([Done(1)]), _framed([Done(2), Done(3)])
    pending = bytearray(first + second + second[:5])
    decoder = msgspec.msgpack.Decoder(list[workers.ToFront])
    assert [decoder.decode(body) for body in _take_batches(pending)] == [
        [Done(1)],
        [Done(2), Done(3)],
    ]
    assert pending == second[:5]
    assert _take_batches(pending) == []
    pending += second[5:]
    assert [decoder.decode(body) for body in _take_batches(pending)] == [[Done(2), Done(3)]]
    assert pending == b""


def test_a_batch_announced_bigger_than_the_bound_is_refused_by_a_worker_too() -> None:
    with pytest.raises(LinkError):
        _take_batches(bytearray(workers._LENGTH.pack(workers.LINK_MOST + 1) + b"\0" * 16))
