"""The game server under load: many tables of bot-driven WebSocket clients on loopback.

Run: .venv/bin/python benchmarks/bench_server.py [--tables 500] [--seconds 60] [--think 0]

Starts `fivecrowns serve` as its own process on 127.0.0.1 (SQLite store in a temporary
folder, no move delay, rate limit raised), then from this one process opens 4 WebSocket
clients per table: the first creates a 4-seat table, three join, the first starts. Every
client then plays its own turns as fast as it can (go out when it can, else draw from the
stock and throw the first legal card) for ``--seconds``; a finished game starts again at a
new table of the same four. ``--think S`` makes every client wait S seconds before each
of its moves (not counted in the latency), for a load below what the server can take;
``--jitter`` draws each wait uniformly from 0.5 S to 1.5 S instead (why: with the same S
everywhere the tables, all dealt at once, keep moving in step, so the server gets every
table's move in one burst each S seconds and the latency measures the burst, not the load):
at full speed each table always has one move waiting, so by Little's law the latency is
about tables / (moves per second) however fast the server is. It reports

- action -> event latency: from sending an ``act`` to receiving the event it caused
  (p50, p90, p99, max), measured in the client process;
- moves per second accepted by the server;
- server memory per table: the server's resident memory 3 s after every table was dealt
  (all clients connected, every game under way), less its memory before the first
  connection, divided by the tables;
- server CPU per move: the server process's user+system CPU time over the play window,
  divided by the moves in that window;
- the machine's load average before and after, and this client's own CPU time.

The clients run on the same 2-core machine as the server (and whatever else runs there),
so the figures are pessimistic for a server with cores of its own. Every loop is bounded
in count and time. Output goes to stdout; the committed run is benchmarks/results/server.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

LOOPBACK = "127.0.0.1"


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


class Player:
    def __init__(self, bench: Bench, name: str) -> None:
        self.bench = bench
        self.name = name
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.seq = 0
        self.snapshot: dict[str, Any] | None = None
        self.table: str | None = None
        self.sent_at: float | None = None
        self.over = False
        self.waiting = False

    async def connect(self) -> None:
        self.ws = await self.bench.session.ws_connect(self.bench.url, max_msg_size=1 << 20)
        await self.send({"type": "hello", "v": 1, "name": self.name})
        await self.until("welcome")

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(message))

    async def recv(self, timeout: float) -> dict[str, Any]:
        assert self.ws is not None
        message = await asyncio.wait_for(self.ws.receive(), timeout)  # why: see server_support
        if message.type is not aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"{self.name}: connection ended")
        data: dict[str, Any] = json.loads(message.data)
        kind = data["type"]
        if kind == "event":
            self.seq = data["seq"]
            if data["kind"] == "game_over":
                self.over = True
            player = data["data"].get("player") if isinstance(data["data"], dict) else None
            if self.sent_at is not None and player == self.seat_number():
                if self.bench.measuring(self.sent_at):
                    self.bench.latencies.append(time.perf_counter() - self.sent_at)
                self.sent_at = None
                self.waiting = False
        elif kind == "snapshot":
            self.snapshot = data
            self.seq = data["seq"]
        elif kind == "seated":
            self.table = data["table"]
        elif kind == "error":
            self.bench.errors += 1
            self.waiting = False
            self.sent_at = None
            self.snapshot = None
        return data

    def seat_number(self) -> int | None:
        return self.snapshot["seat"] if self.snapshot else None

    async def until(self, kind: str, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for _ in range(100_000):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            data = await self.recv(left)
            if data["type"] == kind:
                return data
        raise TimeoutError(f"{self.name}: no {kind} in {timeout} s")

    def my_turn(self) -> bool:
        snap = self.snapshot
        return bool(snap and snap["legal"] and snap["seq"] == self.seq and not self.waiting)

    async def play(self) -> None:
        for _ in range(1_000_000):
            if time.monotonic() >= self.bench.stop_at or self.over:
                return
            if self.my_turn():
                if self.bench.think:
                    await asyncio.sleep(self.bench.think_time())
                    if not self.my_turn() or time.monotonic() >= self.bench.stop_at:
                        continue
                await self.act()
            try:
                await self.recv(timeout=1.0)
            except TimeoutError:
                continue

    async def act(self) -> None:
        assert self.snapshot is not None
        legal = self.snapshot["legal"]
        move = legal[0]
        for wanted in ("go_out", "lay_down", "draw_stock", "discard"):
            found = [m for m in legal if m["move"] == wanted]
            if found and (wanted != "lay_down" or found[0]["melds"] is None):
                move = found[0]
                break
        args = {k: v for k, v in move.items() if k != "move"}
        if "discard" in args:
            args = {"card": args["discard"]}
        self.waiting = True
        self.sent_at = time.perf_counter()
        await self.send({"type": "act", "action": move["move"], "args": args, "seq": self.seq})
        if self.bench.measuring(self.sent_at):
            self.bench.moves += 1


class Bench:
    def __init__(
        self, url: str, session: aiohttp.ClientSession, think: float = 0.0, jitter: bool = False
    ) -> None:
        self.think = think  # seconds a client waits before each of its moves (0: full speed)
        self.jitter = jitter  # wait 0.5 to 1.5 times ``think``, at random
        self.random = random.Random(12)
        self.url = url
        self.session = session
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.games = 0
        self.window_start = float("inf")  # perf_counter time the measured window opens
        self.stop_at = float("inf")  # monotonic time every client stops

    def think_time(self) -> float:
        if self.jitter:
            return self.think * self.random.uniform(0.5, 1.5)
        return self.think

    def measuring(self, at: float) -> bool:
        return at >= self.window_start

    async def seat_table(self, number: int) -> list[Player]:
        players = [Player(self, f"T{number}P{seat}") for seat in range(4)]
        for player in players:
            await player.connect()
        await self.sit_down(players)
        return players

    async def sit_down(self, players: list[Player]) -> None:
        """The first player creates a 4-seat table; the others join it."""
        first = players[0]
        await first.send({"type": "create_table", "seats": 4})
        await first.until("seated")
        for player in players[1:]:
            await player.send({"type": "join", "table": first.table})
            await player.until("seated")

    async def start(self, players: list[Player]) -> None:
        await players[0].send({"type": "start"})

    async def run_table(self, players: list[Player]) -> None:
        for _ in range(1000):  # games at this table, bounded
            await asyncio.gather(*(player.play() for player in players))
            if time.monotonic() >= self.stop_at:
                return
            if self.measuring(time.perf_counter()):
                self.games += 1
            for player in players:  # the same four sit down at a new table
                await player.send({"type": "leave"})
                player.over, player.snapshot, player.waiting = False, None, False
            for player in players:
                await player.until("left")
            await self.sit_down(players)
            await self.start(players)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def measure(
    url: str, pid: int, tables: int, seconds: float, think: float = 0.0, jitter: bool = False
) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        bench = Bench(url, session, think, jitter)
        rss_before = _rss_kib(pid)
        started = time.monotonic()
        gate = asyncio.Semaphore(20)  # why: open connections in waves, not 2,000 at once
        seated: list[list[Player]] = []
        all_seated = asyncio.Event()

        go = asyncio.Event()

        async def idle(player: Player) -> None:
            # why: a seated client must keep reading, or it misses the server's pings
            for _ in range(100_000):
                if go.is_set():
                    return
                with contextlib.suppress(TimeoutError):
                    await player.recv(timeout=0.5)

        async def table_life(number: int) -> None:
            async with gate:
                players = await bench.seat_table(number)
            seated.append(players)
            if len(seated) == tables:
                all_seated.set()
            await asyncio.gather(*(idle(player) for player in players))
            await bench.start(players)
            await bench.run_table(players)

        lives = asyncio.gather(*(table_life(number) for number in range(tables)))
        await asyncio.wait_for(all_seated.wait(), timeout=600)
        seat_seconds = time.monotonic() - started
        await asyncio.sleep(1.0)
        rss_seated = _rss_kib(pid)  # every table seated, not yet dealt
        go.set()
        await asyncio.sleep(3.0)  # why: let every table deal and make its first moves
        rss_dealt = _rss_kib(pid)
        cpu_before = _cpu_seconds(pid)
        client_cpu_before = time.process_time()
        window_start = time.monotonic()
        bench.window_start = time.perf_counter()
        bench.stop_at = window_start + seconds
        await asyncio.wait_for(lives, timeout=seconds + 120)
        window = time.monotonic() - window_start
        cpu = _cpu_seconds(pid) - cpu_before
        client_cpu = time.process_time() - client_cpu_before
        moves = bench.moves
        rss_after = _rss_kib(pid)
        all_tables = seated
        for players in all_tables:
            for player in players:
                if player.ws is not None:
                    await player.ws.close()
        lat = bench.latencies
        return {
            "tables": tables,
            "connections": tables * 4,
            "think_seconds": think,
            "think_jitter": jitter,
            "seat_seconds": seat_seconds,
            "window_seconds": window,
            "moves": moves,
            "moves_per_second": moves / window,
            "games_finished": bench.games,
            "errors": bench.errors,
            "latency_samples": len(lat),
            "latency_ms": {
                "p50": 1000 * _percentile(lat, 0.50),
                "p90": 1000 * _percentile(lat, 0.90),
                "p99": 1000 * _percentile(lat, 0.99),
                "max": 1000 * max(lat),
                "mean": 1000 * statistics.fmean(lat),
            },
            "server_rss_mib": {
                "before": rss_before / 1024,
                "seated": rss_seated / 1024,
                "dealt": rss_dealt / 1024,
                "after": rss_after / 1024,
            },
            "server_kib_per_table": (rss_dealt - rss_before) / tables,
            "server_cpu_seconds": cpu,
            "server_cpu_ms_per_move": 1000 * cpu / max(1, moves),
            "server_cpu_share": cpu / window,  # of one core, over the play window
            "client_cpu_seconds": client_cpu,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each client waits before a move (default 0: full speed)",
    )
    parser.add_argument(
        "--jitter",
        action="store_true",
        help="wait 0.5 to 1.5 times --think before each move, at random (tables out of step)",
    )
    parser.add_argument(
        "--memory", action="store_true", help="the server keeps nothing on disk (no SQLite)"
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = args.tables * 4 + 200
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, needed), hard))
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "fivecrowns", "serve", "--host", LOOPBACK, "--port", "0"]
        command += ["--memory"] if args.memory else ["--data", folder]
        command += ["--bot-delay", "0", "--rate", "1000"]
        command += ["--max-connections", str(needed), "--max-tables", str(args.tables * 2)]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            found = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
            if found is None:
                raise SystemExit(f"the server did not start: {line!r}")
            url = f"ws://{LOOPBACK}:{found.group(1)}/ws"
            result = asyncio.run(
                measure(url, server.pid, args.tables, args.seconds, args.think, args.jitter)
            )
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    result["store"] = "memory" if args.memory else "sqlite"
    result["load_average_before"] = load_before
    result["load_average_after"] = os.getloadavg()
    result["machine"] = f"{platform.python_implementation()} {platform.python_version()}, "
    result["machine"] += f"{os.cpu_count()} cores, {platform.machine()}"
    lat = result["latency_ms"]
    pace = f", {args.think} s thinking before each move" if args.think else ", full speed"
    if args.think and args.jitter:
        pace = f", 0.5 to 1.5 times {args.think} s thinking before each move (at random)"
    print(
        f"bench_server: {result['tables']} tables, {result['connections']} WebSocket clients{pace}"
    )
    print(f"  machine: {result['machine']}; load average before {load_before[0]:.2f}")
    print(f"  seating all tables took {result['seat_seconds']:.1f} s")
    print(
        f"  action -> event: p50 {lat['p50']:.1f} ms, p90 {lat['p90']:.1f} ms, "
        f"p99 {lat['p99']:.1f} ms, max {lat['max']:.1f} ms ({result['latency_samples']} samples)"
    )
    print(
        f"  moves: {result['moves']} in {result['window_seconds']:.1f} s = "
        f"{result['moves_per_second']:.0f} per second; {result['games_finished']} games finished; "
        f"{result['errors']} errors"
    )
    rss = result["server_rss_mib"]
    print(
        f"  server memory: {rss['before']:.0f} MiB idle, {rss['seated']:.0f} MiB seated, "
        f"{rss['dealt']:.0f} MiB dealt, {rss['after']:.0f} MiB at the end; "
        f"{result['server_kib_per_table']:.0f} KiB per playing table"
    )
    print(
        f"  server CPU: {result['server_cpu_seconds']:.1f} s = "
        f"{result['server_cpu_ms_per_move']:.2f} ms per move, "
        f"{100 * result['server_cpu_share']:.0f}% of one core; "
        f"client CPU {result['client_cpu_seconds']:.1f} s"
    )
    print(f"  load average after {result['load_average_after'][0]:.2f}")
    print("json: " + json.dumps(result))


if __name__ == "__main__":
    main()
