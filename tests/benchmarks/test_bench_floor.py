"""benchmarks/bench_floor.py, the floor of the server's stack (issue 29): it records a real game
and sends each client message's frames, byte for byte, to the same seats of a table."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_floor import SEATS, Floor, record
from bench_server import pick_move


def test_the_recording_is_a_whole_game_with_a_snapshot_for_each_mover() -> None:
    script = asyncio.run(record())
    assert len(script.seating) == SEATS and len(script.leaves) == SEATS
    assert len(script.acts) > 100
    frames, size = script.frames_per_act()
    assert 4 <= frames <= 20 and size > 500
    last = json.loads(next(frame for _seat, frame in reversed(script.acts[-1]) if frame))
    assert last["type"] == "snapshot" and last["view"]["game_over"]


def test_the_floor_sends_each_seat_the_recorded_frames_of_each_message() -> None:
    async def scenario() -> None:
        script = await record()
        floor = Floor(script)
        app = web.Application()
        app.router.add_get("/ws", floor.handle_ws)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
        try:
            async with aiohttp.ClientSession() as session:
                sockets = [await session.ws_connect(url) for _ in range(SEATS)]

                async def frames(seat: int, count: int) -> list[Any]:
                    got = []
                    for _ in range(count):
                        message = await asyncio.wait_for(sockets[seat].receive(), 10)
                        got.append(message.data)
                    return got

                async def send(seat: int, message: dict[str, Any], burst: Any) -> list[Any]:
                    await sockets[seat].send_str(json.dumps(message))
                    heard: list[Any] = []
                    for index in range(SEATS):
                        expected = [frame for to, frame in burst if to == index]
                        got = await frames(index, len(expected))
                        for want, have in zip(expected, got, strict=True):
                            if want is not None:
                                assert have.encode() == want  # the very bytes recorded
                        heard += got
                    return heard

                for seat in range(SEATS):
                    await sockets[seat].send_str(json.dumps({"type": "hello", "v": 1, "name": "x"}))
                    assert json.loads((await frames(seat, 1))[0])["type"] == "welcome"
                heard = await send(0, {"type": "create_table", "seats": 4}, script.seating[0])
                table = json.loads(heard[0])["table"]
                for seat in range(1, SEATS):
                    join = {"type": "join", "table": table}
                    await send(seat, join, script.seating[seat])
                await send(0, {"type": "start"}, script.start)
                last = [json.loads(f) for _s, f in script.start if f and b'"snapshot"' in f[:20]]
                for number in range(20):  # the first moves, each from the mover's snapshot
                    snapshot = next(s for s in reversed(last) if s["legal"])
                    action, args = pick_move(snapshot["legal"])
                    act = {"type": "act", "action": action, "args": args, "seq": snapshot["seq"]}
                    mover = snapshot["seat"]
                    heard = await send(mover, act, script.acts[number])
                    last = [json.loads(f) for f in heard if '"snapshot"' in f[:20]]
                assert floor.moves == 20
                for ws in sockets:
                    await ws.close()
        finally:
            await runner.cleanup()

    asyncio.run(scenario())
