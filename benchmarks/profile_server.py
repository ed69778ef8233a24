"""The game server's own CPU per move, without sockets: where it goes, with cProfile.

Run: .venv/bin/python benchmarks/profile_server.py [--tables 50] [--moves 5000] [--profile]

Builds a :class:`fivecrowns.net.server.app.Server` with a SQLite store in a temporary folder
and ``--tables`` tables of 4 connections (real :class:`Connection` objects whose frames
are taken off their queues, not sent), seated and started through ``server.receive`` of
the same JSON messages a WebSocket client sends. Then, table after table in turn, the
player to move sends an ``act`` (``server.receive``, the same path as a WebSocket message:
decode, validate, apply, log, word and encode the events, snapshots) and every frame
queued is taken off as the connection's writer would (a store flush first, as there).
The move chosen is the benchmark client's: go out if it can, else draw from the stock,
else the first legal discard, read from the snapshot the server sent.

It prints the CPU time per move spent inside the server's calls (``receive`` and the
store's save; no network, no clients), the whole process's too, and the frames and bytes
sent per move; with ``--profile`` the top of cProfile's list.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from _serve import in_process_connections
from bench_server import pick_move
from fivecrowns.net.server.app import Server
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.store import SqliteStore


class _Seat:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.snapshot: dict[str, Any] | None = None
        self.seq = 0
        self.table: str | None = None


def _drain(server: Server, seat: _Seat, counts: list[int], spent: list[float]) -> None:
    queue = seat.conn.queue
    if queue:
        started = time.process_time()
        server._save()  # what the connection's writer does before it sends anything
        spent[0] += time.process_time() - started
    while queue:
        data = seat.conn.take()
        if data is None:
            raise SystemExit("the server closed a connection")
        counts[0] += 1
        counts[1] += len(data)
        # why only the start of the frame: the harness reads what it needs, cheaply
        if data.startswith(b'{"type":"event"'):
            seat.seq = json.loads(data)["seq"]
        elif data.startswith(b'{"type":"snapshot"'):
            seat.snapshot = json.loads(data)
            seat.seq = seat.snapshot["seq"]
        elif data.startswith(b'{"type":"seated"'):
            seat.table = json.loads(data)["table"]
        elif data.startswith(b'{"type":"error"'):
            raise SystemExit(f"the server refused a message: {data[:200]!r}")


def _choose(snapshot: dict[str, Any]) -> dict[str, Any]:
    action, args = pick_move(snapshot["legal"])
    return {"type": "act", "action": action, "args": args, "seq": 0}


async def run(
    tables: int, moves: int, profile: bool, folder: Path, dump: Path | None = None
) -> dict[str, Any]:
    limits = Limits(
        rate=1e6, burst=1_000_000, bot_delay=0.0, max_tables=tables * 4, max_per_address=0
    )
    server = Server(SqliteStore(folder / "server.sqlite"), limits, seed=1)
    counts = [0, 0]
    spent = [0.0]  # CPU seconds inside the server's own calls (receive, save)
    everyone: list[list[_Seat]] = []

    def send(seat: _Seat, message: dict[str, Any]) -> None:
        raw = json.dumps(message).encode()
        started = time.process_time()
        server.receive(seat.conn, raw)
        spent[0] += time.process_time() - started

    def seat_up() -> list[_Seat]:
        seats = [_Seat(conn) for conn in in_process_connections(server, 4, server._save)]
        for index, seat in enumerate(seats):
            send(seat, {"type": "hello", "v": 1, "name": f"P{len(everyone)}-{index}"})
        send(seats[0], {"type": "create_table", "seats": 4})
        _drain(server, seats[0], counts, spent)
        for seat in seats[1:]:
            send(seat, {"type": "join", "table": seats[0].table})
        send(seats[0], {"type": "start"})
        for seat in seats:
            _drain(server, seat, counts, spent)
        return seats

    for _ in range(tables):
        everyone.append(seat_up())
    counts[:] = [0, 0]
    spent[0] = 0.0
    profiler = cProfile.Profile() if profile else None
    made = 0
    cpu_start = time.process_time()
    wall_start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    for step in range(moves * 10):  # bounded: most steps make a move
        if made >= moves:
            break
        index = step % len(everyone)
        seats = everyone[index]
        mover = next((s for s in seats if s.snapshot and s.snapshot["legal"]), None)
        if mover is None or mover.snapshot is None:  # game over: a new table of four
            everyone[index] = seat_up()
            continue
        message = _choose(mover.snapshot)
        message["seq"] = mover.seq
        mover.snapshot = None
        send(mover, message)
        made += 1
        for seat in seats:
            _drain(server, seat, counts, spent)
        if step % 64 == 0:
            await asyncio.sleep(0)  # why: let the store's scheduled saves run, as on a server
    if profiler is not None:
        profiler.disable()
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - wall_start
    server.store.close()
    if profiler is not None and dump is not None:
        profiler.dump_stats(dump)
    elif profiler is not None:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)
    return {
        "tables": tables,
        "moves": made,
        "cpu_seconds": cpu,
        "wall_seconds": wall,
        "cpu_ms_per_move": 1000 * cpu / max(1, made),
        "server_cpu_seconds": spent[0],
        "server_cpu_ms_per_move": 1000 * spent[0] / max(1, made),
        "frames_per_move": counts[0] / max(1, made),
        "bytes_per_move": counts[1] / max(1, made),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--dump", type=Path, help="write cProfile's statistics to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        profile = bool(args.profile or args.dump)
        result = asyncio.run(run(args.tables, args.moves, profile, Path(folder), args.dump))
    print(
        f"profile_server: {result['tables']} tables, {result['moves']} moves: "
        f"{result['server_cpu_ms_per_move']:.3f} ms of server CPU per move "
        f"({result['cpu_ms_per_move']:.3f} with this harness's reading; wall "
        f"{result['wall_seconds']:.1f} s, CPU {result['cpu_seconds']:.1f} s); "
        f"{result['frames_per_move']:.1f} frames, "
        f"{result['bytes_per_move']:.0f} bytes per move"
    )
    print("json: " + json.dumps(result))


if __name__ == "__main__":
    main()
