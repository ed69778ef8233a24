"""The floor of the game server's own stack: what a move costs with nothing but aiohttp.

Run (the committed figures, benchmarks/results/server-floor-*.txt):

    nice -n 10 .venv/bin/python benchmarks/bench_floor.py --tables 100 --seconds 20 --rounds 3

It alternates, in one run, ``fivecrowns serve`` (the real server, SQLite store) and the floor
server below, each driven by the same clients of benchmarks/bench_server.py (100 full-speed
tables of 4 by default), and prints each server's CPU per move (user+system CPU of the server
process from /proc over the measured window, over its moves) beside the window's wall time,
and the ratio real / floor of each pair and of the medians.

The floor (``bench_floor.py serve``) is a bare aiohttp WebSocket server with one process's
event loop. At its start it records a game: a real :class:`fivecrowns.net.server.app.Server`
in this process (memory store, a fixed seed, 4 connections without sockets) plays a whole
game the way a bench client does (bench_server.pick_move), and for every client message
(create, join, start, each act, leave) it keeps the frames the server sent, to which seat, in
order. Serving, for every message a client sends, the floor decodes it with the real
protocol decoder (``decode_client``) and sends that message's recorded frames, byte for byte,
to the same seats' connections of the client's table (the ``welcome`` and ``seated`` frames
are made afresh, same fields and sizes, since they name the player and the table). So the
clients get the same frames, sizes and connections as from the real server, and nothing else
happens: no game, no wording, no views, no store, no queue or writer task. The difference is
what the server's own code costs per move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from _serve import in_process_connections, send_and_take
from bench_server import LOOPBACK, pick_move, run_server
from fivecrowns.net.protocol import (
    PROTOCOL_VERSION,
    Act,
    CreateTable,
    Hello,
    Join,
    Leave,
    Seated,
    Start,
    Welcome,
    decode_client,
    encode,
)

SEATS = 4
RECORD_SEED = 1

#: One recorded burst: the frames one client message made, as (seat, frame); a frame of
#: ``None`` is the ``seated`` frame of that seat, made afresh for each table.
Burst = list[tuple[int, bytes | None]]


@dataclass
class Script:
    """A recorded table: the bursts of its create, joins and start, each act, and leaves."""

    seating: list[Burst] = field(default_factory=list)  # create, then each join, in seat order
    start: Burst = field(default_factory=list)
    acts: list[Burst] = field(default_factory=list)
    leaves: list[Burst] = field(default_factory=list)  # seat 0's leave first, as bench clients

    def frames_per_act(self) -> tuple[float, float]:
        frames = sum(len(burst) for burst in self.acts)
        size = sum(len(frame or b"") for burst in self.acts for _seat, frame in burst)
        return frames / len(self.acts), size / len(self.acts)


async def record(seed: int = RECORD_SEED) -> Script:
    """Play one whole game of 4 on a real server in this process; keep what each seat got."""
    from fivecrowns.net.server.app import Server
    from fivecrowns.net.server.limits import Limits
    from fivecrowns.net.server.store import MemoryStore

    limits = Limits(rate=1e6, burst=1_000_000, bot_delay=0.0)
    server = Server(MemoryStore(), limits, seed=seed)
    conns = in_process_connections(server, SEATS)
    last: list[dict[str, Any]] = [{} for _ in range(SEATS)]

    def send(seat: int, message: dict[str, Any]) -> Burst:
        taken = send_and_take(server, conns, seat, message, last)
        # why None for "seated": the floor server makes its own (a table id of its own)
        return [
            (index, None if frame["type"] == "seated" else data) for index, data, frame in taken
        ]

    for seat in range(SEATS):
        send(seat, {"type": "hello", "v": PROTOCOL_VERSION, "name": f"T0P{seat}"})
    script = Script()
    script.seating.append(send(0, {"type": "create_table", "seats": SEATS}))
    room = next(iter(server.rooms.values()))
    for seat in range(1, SEATS):
        script.seating.append(send(seat, {"type": "join", "table": room.id}))
    script.start = send(0, {"type": "start"})
    for _move in range(10_000):  # bounded: a game has a few hundred moves
        if room.table.is_over:
            break
        mover = next(s for s in range(SEATS) if last[s].get("legal"))
        action, args = pick_move(last[mover]["legal"])
        message = {"type": "act", "action": action, "args": args, "seq": room.table.seq}
        last[mover] = {}
        script.acts.append(send(mover, message))
    if not room.table.is_over:
        raise SystemExit("the recorded game did not end")
    for seat in range(SEATS):
        script.leaves.append(send(seat, {"type": "leave"}))
    return script


@dataclass
class FloorTable:
    id: str
    conns: list[web.WebSocketResponse | None]
    step: int = 0  # messages of this table handled since it was made
    acts: int = 0
    leaves: int = 0


class Floor:
    """The floor server: each client message answered with its recorded frames."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.tables: dict[str, FloorTable] = {}
        self.moves = 0

    async def handle_ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=65536, heartbeat=20.0, compress=False)
        await ws.prepare(request)
        table: FloorTable | None = None
        async for message in ws:
            if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break
            decoded = decode_client(message.data)
            if isinstance(decoded, Hello):
                token = secrets.token_urlsafe(24)
                welcome = Welcome(PROTOCOL_VERSION, secrets.token_hex(8), decoded.name, token)
                await ws.send_frame(encode(welcome), WSMsgType.TEXT)
                continue
            if isinstance(decoded, CreateTable):
                table = FloorTable(secrets.token_hex(4), [ws] + [None] * (SEATS - 1))
                self.tables[table.id] = table
                burst = self.script.seating[0]
            elif isinstance(decoded, Join):
                table = self.tables[decoded.table or ""]
                seat = table.conns.index(None)
                table.conns[seat] = ws
                burst = self.script.seating[seat]
            elif table is None:
                raise SystemExit(f"the floor got {decoded!r} from a client at no table")
            elif isinstance(decoded, Start):
                burst = self.script.start
            elif isinstance(decoded, Act):
                burst = self.script.acts[table.acts]
                table.acts += 1
                self.moves += 1
            elif isinstance(decoded, Leave):
                burst = self.script.leaves[table.leaves]
                table.leaves += 1
                if table.leaves == SEATS:
                    del self.tables[table.id]
            else:
                raise SystemExit(f"the floor has no recording of {decoded!r}")
            await self.send(table, burst)
            if isinstance(decoded, Leave):
                table = None
        return ws

    async def send(self, table: FloorTable, burst: Burst) -> None:
        for seat, frame in burst:
            ws = table.conns[seat]
            if ws is None or ws.closed:
                continue
            if frame is None:
                seated = Seated(table.id, seat, None, seat == 0, False)
                frame = encode(seated)
            await ws.send_frame(frame, WSMsgType.TEXT)


def serve(port: int) -> None:
    script = asyncio.run(record())
    floor = Floor(script)
    app = web.Application()
    app.router.add_get("/ws", floor.handle_ws)

    async def ready(app: web.Application) -> None:
        pass

    app.on_startup.append(ready)
    runner = web.AppRunner(app, handle_signals=True)

    async def main() -> None:
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, port)
        await site.start()
        bound = runner.addresses[0][1]
        # the line bench_server.py waits for, as ``fivecrowns serve`` prints it
        print(f"floor server on ws://{LOOPBACK}:{bound}/ws", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        import signal

        loop.add_signal_handler(signal.SIGTERM, stop.set)
        loop.add_signal_handler(signal.SIGINT, stop.set)
        await stop.wait()
        await runner.cleanup()

    asyncio.run(main())


def compare(tables: int, seconds: float, rounds: int, workers: int) -> dict[str, Any]:
    """``rounds`` pairs of runs, real then floor, each with the same clients and settings."""
    here = Path(__file__).resolve().parent
    floor_command = [sys.executable, str(here / "bench_floor.py"), "serve", "--port", "0"]
    runs: list[dict[str, Any]] = []
    for number in range(rounds):
        for kind in ("real", "floor"):
            load = os.getloadavg()[0]
            wall = time.perf_counter()
            result = run_server(
                None if kind == "real" else floor_command,
                tables=tables,
                seconds=seconds,
                think=0.0,
                jitter=False,
                workers=workers,
            )
            result["kind"] = kind
            result["round"] = number + 1
            result["load_before"] = load
            result["run_wall_seconds"] = time.perf_counter() - wall
            runs.append(result)
            _line(result)
    real = [r["server_cpu_ms_per_move"] for r in runs if r["kind"] == "real"]
    floor = [r["server_cpu_ms_per_move"] for r in runs if r["kind"] == "floor"]
    pairs = [r / f for r, f in zip(real, floor, strict=True)]
    return {
        "tables": tables,
        "seconds": seconds,
        "runs": runs,
        "real_ms_per_move": real,
        "floor_ms_per_move": floor,
        "ratios": pairs,
        "median_ratio": statistics.median(real) / statistics.median(floor),
    }


def _line(result: dict[str, Any]) -> None:
    lat = result["latency_ms"]
    print(
        f"  round {result['round']} {result['kind']:>5}: "
        f"server CPU {result['server_cpu_seconds']:.2f} s in {result['window_seconds']:.1f} s "
        f"wall = {result['server_cpu_ms_per_move']:.3f} ms per move "
        f"({result['moves']} moves, {result['moves_per_second']:.0f}/s, "
        f"{100 * result['server_cpu_share']:.0f}% of a core); "
        f"p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms; {result['errors']} errors; "
        f"load {result['load_before']:.2f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command")
    serving = sub.add_parser("serve", help="run the floor server (bench_server.py starts it)")
    serving.add_argument("--port", type=int, default=0)
    sub.add_parser("record", help="print the recorded game's frames per move")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs, real then floor")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.command == "serve":
        serve(args.port)
        return
    script = asyncio.run(record())
    frames, size = script.frames_per_act()
    print(
        f"bench_floor: the recorded game has {len(script.acts)} moves, {frames:.1f} frames and "
        f"{size:.0f} bytes per move"
    )
    if args.command == "record":
        return
    if args.tables < 1 or args.seconds <= 0 or args.rounds < 1:
        parser.error("--tables, --seconds and --rounds must be positive")
    print(
        f"bench_floor: {args.tables} full-speed tables of 4, {args.seconds:.0f} s windows, "
        f"{args.rounds} rounds of real then floor; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    started = time.perf_counter()
    result = compare(args.tables, args.seconds, args.rounds, min(args.workers, args.tables))
    ratios = ", ".join(f"{ratio:.2f}" for ratio in result["ratios"])
    print(
        f"  real / floor, server CPU per move: {ratios} (each round); "
        f"{result['median_ratio']:.2f} of the medians "
        f"({statistics.median(result['real_ms_per_move']):.3f} / "
        f"{statistics.median(result['floor_ms_per_move']):.3f} ms)"
    )
    print(
        f"  whole run: wall {time.perf_counter() - started:.0f} s; "
        f"load average after {os.getloadavg()[0]:.2f}"
    )
    print("json: " + json.dumps(result))


if __name__ == "__main__":
    main()
