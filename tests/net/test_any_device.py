"""Your seat from any device (issue 28, item 2), at a real `fivecrowns serve`: logged in
from another device you take your seat back mid-game; the old connection is told once that
it was replaced; what you missed while no device was connected is told once (the events after
the last one your old connection was sent, in order, none twice), and no computer player keeps
your seat. Every frame of every device is checked for another seat's cards."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from server_support import Client, ServerProcess, no_leaks

PASSWORD = "correct horse battery"


async def _log_in(url: str, name: str = "Ann") -> Client:
    """A new device: it logs in with the password and knows no event of the table."""
    client = await Client(name).connect(url, hello=False)
    await client.send({"type": "log_in", "v": 1, "name": name, "password": PASSWORD})
    await client.until(lambda m: m["type"] in ("welcome", "error"))
    assert not client.errors, client.errors
    return client


async def _read_seated(client: Client) -> list[dict[str, Any]]:
    """The frames a device taking its seat gets, up to the snapshot: ``seated``, the events it
    missed, the snapshot. (Read raw: :class:`Client` expects events from 1.)"""
    assert client.ws is not None
    frames: list[dict[str, Any]] = []
    for _frame in range(5_000):
        message = await asyncio.wait_for(client.ws.receive(), 10)
        data: dict[str, Any] = json.loads(message.data)
        client.frames.append(message.data)
        frames.append(data)
        if data["type"] == "snapshot":
            client.snapshot, client.seq = data, data["seq"]
            return frames
    raise AssertionError("no snapshot")


def _event_seqs(frames: list[dict[str, Any]]) -> list[int]:
    return [frame["seq"] for frame in frames if frame["type"] == "event"]


def test_a_logged_in_seat_taken_from_other_devices_hears_what_it_missed_once(
    data: Path,
) -> None:
    # why a grace of a second and slow computer moves: Ann's stand-in plays while no device
    # of hers is connected, a few moves, not the whole game
    server = ServerProcess(
        data, "--bot-delay", "0.3", "--rate", "1000", "--grace", "1", "--seed", "77"
    ).start()

    async def scenario() -> None:
        first = await Client("Ann").connect(server.url, hello=False)
        await first.send({"type": "sign_up", "v": 1, "name": "Ann", "password": PASSWORD})
        await first.until(lambda m: m["type"] == "welcome")
        await first.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await first.until(lambda m: m["type"] == "seated")
        eve = await Client("Eve").connect(server.url)  # watches: sees the table move on
        await eve.send({"type": "watch", "table": first.table})
        await eve.until(lambda m: m["type"] == "seated")
        await first.send({"type": "start"})
        await first.until(lambda m: m["type"] == "snapshot" and bool(m["legal"]))
        await first.act(first.choose())
        await first.until(lambda m: m["type"] == "event")
        heard = first.seq
        # the first device drops; the stand-in and the computer play on meanwhile
        await first.close()
        await eve.until(lambda m: m["type"] == "event" and m["seq"] >= heard + 4, timeout=30)
        # a second device logs in: seated, the missed events once and in order, the snapshot
        second = await _log_in(server.url)
        frames = await _read_seated(second)
        assert frames[0]["type"] == "seated" and frames[0]["seat"] == 0
        assert frames[0]["started"] is True
        missed = _event_seqs(frames)
        assert missed == list(range(heard + 1, heard + 1 + len(missed))), (heard, missed)
        assert len(missed) >= 4 and missed[-1] <= frames[-1]["seq"]
        kinds = [frame["kind"] for frame in frames if frame["type"] == "event"]
        assert "stand_in" in kinds
        # the seat is Ann's again: no computer player stays in it
        await second.until(
            lambda m: m["type"] == "snapshot" and not m["seats"][0]["standin"], timeout=20
        )
        # a third device takes it while the second is connected: the second is told once
        third = await _log_in(server.url)
        told = await second.until(lambda m: m["type"] == "error")
        assert told["code"] == "replaced"
        assert told["text"] == "You connected again from elsewhere; this one closes."
        assert second.ws is not None
        closed = await asyncio.wait_for(second.ws.receive(), 10)
        assert closed.type.name in ("CLOSE", "CLOSING", "CLOSED")
        last_of_second = max([second.seq, *_event_seqs([json.loads(f) for f in second.frames])])
        frames_third = await _read_seated(third)
        # nothing the second device was sent is told again
        assert all(seq > last_of_second for seq in _event_seqs(frames_third))
        for device in (second, third):
            replaced = [f for f in device.frames if '"replaced"' in f]
            assert len(replaced) == (1 if device is second else 0)
            no_leaks(0, [json.loads(frame) for frame in device.frames])
        no_leaks(None, [json.loads(frame) for frame in eve.frames])
        for client in (third, eve):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
