"""The link between the front of ``serve --workers`` and a worker: batches bounded in size
and split when they would pass the bound, a bigger one refused, and an event's number read
from the start of its frame (net/server/workers.py)."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from fivecrowns.net.protocol import EventFrame, Snapshot, encode
from fivecrowns.net.server import workers
from fivecrowns.net.server.workers import Done, Frames, LinkError, _event_seq, _framed, _read_batch


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
    ops = [Frames(bytes([65 + number]) * 60, [number, number + 1]) for number in range(20)]
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
        _framed([Frames(b"x" * 200, [1])])


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
