"""The game server under load: many tables of bot-driven WebSocket clients on loopback.

Run (the committed figures, benchmarks/results/server.txt):

    .venv/bin/python benchmarks/bench_server.py --tables 500 --seconds 45
    .venv/bin/python benchmarks/bench_server.py --tables 100 --seconds 45 --think 1 --jitter
    .venv/bin/python benchmarks/bench_server.py --tables 500 --seconds 45 --think 4 --jitter

Issue 29's human pace (1 client and 3 computer players per table, a move every 2 to 6 s, the
server's garbage collections in the window reported; benchmarks/results/server-2026-11-26-*
and server-2026-11-27-writes-and-human-pace.txt):

    nice -n 10 .venv/bin/python benchmarks/bench_server.py --tables 2000 --bots 3 --think 4 \
        --jitter --bot-delay 4 --seconds 60 --warm-up 15 --stagger 8 --gc-log

The cost per move against the floor of the server's stack: benchmarks/bench_floor.py.

The first is the issue's target (500 tables of 4 at full speed); the paced ones show the
time a table waits for the server at a realistic pace. Run them one after the other on a
machine with nothing else busy (the load average is printed before and after each run).

What it does. It starts ``fivecrowns serve`` as its own process on 127.0.0.1 (SQLite store
in a temporary folder, no bot delay, rate limit raised), then ``--workers`` client processes
(default: one per core), each with its own event loop and a share of the tables. Every table
has 4 real WebSocket clients (aiohttp): the first creates a 4-seat table, three join, and
when every table of every worker is seated, the first starts the game. Each client reads
every frame the server sends it and plays its own turns from the last snapshot's legal
moves (go out when it can, else draw from the stock, else throw the first legal card), so
every move is legal and goes through the server's whole path (validation, the game, the
SQLite log, wording and encoding events, snapshots, sends). A finished game starts again at
a new table of the same four. The clients decode with msgspec only the fields they read
(type, seq, the event's player, the snapshot's seat and legal moves) and keep no game
state: they are as cheap as a real client can be, so that the machine's CPU goes mostly
to the server.

``--think S`` makes every client wait S seconds before each of its moves (not counted in the
latency); ``--jitter`` draws each wait from 0.5 S to 1.5 S (why: with one S for everyone the
tables, all dealt at once, move in step and the server gets every table's move in one burst).

It reports, over a window of ``--seconds`` that opens 3 s after the start:

- action -> event latency: from sending an ``act`` to receiving the event it caused (p50,
  p90, p99, max, mean), measured in the client processes;
- moves per second accepted by the server, and the Little's-law cycle: at full speed each
  table always has one move under way, so tables / (moves per second) is the time one
  move of a table takes, from the act through the server and back to the next act, however
  fast the server is; p99 <= 50 ms at 500 full-speed tables needs about 10,000 moves a
  second, whatever the code;
- server memory per table: the server's resident memory 3 s after the start (every table
  dealt, all clients connected), less its memory before the first connection, over tables;
- server CPU per move: the server process's user+system CPU over the window / its moves;
- client CPU: the client processes' user+system CPU over the window, and per move;
- the machine's load average before and after; wall, user and system time of the whole
  run (server, clients and this process, seating included).

The clients run on the same 2-core machine as the server (and whatever else runs there), so
the figures are pessimistic for a server with cores of its own. Every loop is bounded in
count and time. Output goes to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import random
import resource
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal

import aiohttp
import msgspec

from _serve import cpu_seconds, rss_kib, serving

LOOPBACK = "127.0.0.1"
WARM_UP = 3.0  # seconds from the start before the measured window opens (every table dealt)


class _Data(msgspec.Struct):
    player: int | None = None


class _Frame(msgspec.Struct):
    """The fields of a server message a bench client reads; msgspec skips the rest."""

    type: str
    seq: int = 0
    kind: str = ""
    data: _Data | None = None
    seat: int | None = None
    table: str | None = None
    legal: list[dict[str, Any]] = []


_decode = msgspec.json.Decoder(_Frame).decode
_encode = msgspec.json.Encoder().encode


def pick_move(legal: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The move a benchmark client plays from a snapshot's legal moves, as (action, args):
    go out if it can, else lay down its best melds, else draw from the stock, else the first
    legal discard (profile_server.py plays the same)."""
    move = legal[0]
    for wanted in ("go_out", "lay_down", "draw_stock", "discard"):
        found = [m for m in legal if m["move"] == wanted]
        if found and (wanted != "lay_down" or found[0]["melds"] is None):
            move = found[0]
            break
    args = {k: v for k, v in move.items() if k != "move"}
    if "discard" in args:
        args = {"card": args["discard"]}
    return move["move"], args


class Player:
    """One WebSocket client: a reader loop that plays its seat's turns as frames arrive."""

    def __init__(self, bench: Worker, name: str) -> None:
        self.bench = bench
        self.name = name
        self.ws: aiohttp.ClientWebSocketResponse[Literal[False]] | None = None
        self.seq = 0
        self.seat: int | None = None
        self.legal: list[dict[str, Any]] = []  # the last snapshot's legal moves
        self.snapshot_seq = -1
        self.table: str | None = None
        self.sent_at: float | None = None
        self.over = False
        self.waiting = False  # an act is under way (sent, its event not yet back)
        self.thinking = False
        self._waiters: dict[str, asyncio.Future[_Frame]] = {}
        self.reader: asyncio.Future[None] | None = None
        self.acting: asyncio.Future[None] | None = None  # a move sent after thinking

    async def connect(self) -> None:
        self.ws = await self.bench.session.ws_connect(
            self.bench.url, max_msg_size=1 << 20, decode_text=False
        )
        self.reader = asyncio.ensure_future(self.read())
        await self.send({"type": "hello", "v": 1, "name": self.name})
        await self.until("welcome")

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_frame(_encode(message), aiohttp.WSMsgType.TEXT)

    def until(self, kind: str) -> asyncio.Future[_Frame]:
        """The next frame of type ``kind`` (the reader resolves it)."""
        future: asyncio.Future[_Frame] = asyncio.get_running_loop().create_future()
        self._waiters[kind] = future
        return future

    async def read(self) -> None:
        assert self.ws is not None
        ws = self.ws
        for _ in range(100_000_000):  # bounded; ends when the connection closes
            message = await ws.receive()
            if message.type is not aiohttp.WSMsgType.TEXT:
                return
            frame = _decode(message.data)
            self.on_frame(frame)
            waiter = self._waiters.pop(frame.type, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(frame)
            if self.my_turn():
                await self.turn()

    def on_frame(self, frame: _Frame) -> None:
        kind = frame.type
        if kind == "event":
            self.seq = frame.seq
            if frame.kind == "game_over":
                self.over = True
                self.bench.game_over(self)
            sent_at, data = self.sent_at, frame.data
            if sent_at is not None and data is not None and data.player == self.seat is not None:
                if sent_at >= self.bench.window_start:
                    self.bench.latencies.append(time.perf_counter() - sent_at)
                self.sent_at = None
                self.waiting = False
        elif kind == "snapshot":
            self.seq = self.snapshot_seq = frame.seq
            self.seat = frame.seat
            self.legal = frame.legal
        elif kind == "seated":
            self.table = frame.table
        elif kind == "error":
            self.bench.errors += 1
            self.waiting, self.sent_at, self.legal = False, None, []

    def my_turn(self) -> bool:
        return bool(
            self.legal
            and self.snapshot_seq == self.seq
            and not self.waiting
            and not self.thinking
            and not self.over
            and self.bench.playing()
        )

    async def turn(self) -> None:
        if self.bench.think:
            self.thinking = True
            asyncio.get_running_loop().call_later(self.bench.think_time(), self._thought)
            return
        await self.act()

    def _thought(self) -> None:
        self.thinking = False
        if self.my_turn():
            self.acting = asyncio.ensure_future(self.act())

    async def act(self) -> None:
        action, args = pick_move(self.legal)
        self.waiting = True
        self.legal = []
        self.sent_at = time.perf_counter()
        if self.sent_at >= self.bench.window_start and self.bench.playing():
            self.bench.moves += 1
        await self.send({"type": "act", "action": action, "args": args, "seq": self.seq})


class Worker:
    """One client process's tables."""

    def __init__(
        self,
        url: str,
        session: aiohttp.ClientSession,
        think: float,
        jitter: bool,
        bots: tuple[str, ...] = (),
    ):
        self.url = url
        self.session = session
        self.think = think
        self.jitter = jitter
        self.bots = bots  # the computer players' levels at each table (the rest are clients)
        self.random = random.Random(12)
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.games = 0
        self.window_start = float("inf")  # perf_counter time the measured window opens
        self.stop_at = float("inf")  # perf_counter time every client stops
        self.started = False
        self.finished: asyncio.Queue[list[Player]] = asyncio.Queue()
        self.tables: dict[str, list[Player]] = {}

    def think_time(self) -> float:
        if self.jitter:
            return self.think * self.random.uniform(0.5, 1.5)
        return self.think

    def playing(self) -> bool:
        return self.started and time.perf_counter() < self.stop_at

    def game_over(self, player: Player) -> None:
        players = self.tables.get(player.table or "")
        if players is not None and all(p.over for p in players):
            del self.tables[player.table or ""]
            self.finished.put_nowait(players)

    async def seat_table(self, number: int) -> list[Player]:
        players = [Player(self, f"T{number}P{seat}") for seat in range(4 - len(self.bots))]
        for player in players:
            await player.connect()
        await self.sit_down(players)
        return players

    async def sit_down(self, players: list[Player]) -> None:
        """The first player creates a 4-seat table (with its computer players); the others join."""
        first = players[0]
        seated = first.until("seated")
        await first.send({"type": "create_table", "seats": 4, "bots": list(self.bots)})
        await seated
        for player in players[1:]:
            seated = player.until("seated")
            await player.send({"type": "join", "table": first.table})
            await seated
        assert first.table is not None
        self.tables[first.table] = players

    async def new_tables(self) -> None:
        """A finished game: the same four sit down at a new table (bounded by the window)."""
        for _ in range(1_000_000):
            players = await self.finished.get()
            if not self.playing():
                continue
            if time.perf_counter() >= self.window_start:
                self.games += 1  # a game that ended within the measured window
            for player in players:
                left = player.until("left")
                await player.send({"type": "leave"})
                await left
                player.over, player.legal, player.waiting, player.seat = False, [], False, None
            await self.sit_down(players)
            await players[0].send({"type": "start"})


async def _worker_main(
    url: str,
    numbers: list[int],
    think: float,
    jitter: bool,
    pipe: Connection,
    bots: tuple[str, ...] = (),
    stagger: float = 0.0,
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        bench = Worker(url, session, think, jitter, bots)
        gate = asyncio.Semaphore(10)  # why: open connections in waves, not all at once

        async def seat(number: int) -> list[Player]:
            async with gate:
                return await bench.seat_table(number)

        tables = await asyncio.wait_for(asyncio.gather(*(seat(n) for n in numbers)), 600)
        pipe.send("seated")
        ready = asyncio.Event()
        loop.add_reader(pipe.fileno(), ready.set)
        await asyncio.wait_for(ready.wait(), 600)
        loop.remove_reader(pipe.fileno())
        window_start, stop_at = pipe.recv()
        # why perf_counter: CLOCK_MONOTONIC on Linux, the same clock in every process
        bench.window_start, bench.stop_at = window_start, stop_at
        bench.started = True
        renew = asyncio.ensure_future(bench.new_tables())
        spread = random.Random(len(numbers))
        for players in tables:
            if stagger:  # why: games dealt all at once would move in step, a burst at a time
                loop.call_later(spread.uniform(0, stagger), _start_later, players[0])
            else:
                await players[0].send({"type": "start"})
        await asyncio.sleep(max(0.0, window_start - time.perf_counter()))
        cpu_before = time.process_time()
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        cpu = time.process_time() - cpu_before
        renew.cancel()
        everyone = [p for players in tables for p in players]
        for player in everyone:
            if player.ws is not None:
                await player.ws.close()
        for player in everyone:
            if player.reader is not None:
                player.reader.cancel()
    return {
        "latencies": bench.latencies,
        "moves": bench.moves,
        "errors": bench.errors,
        "games": bench.games,
        "cpu_seconds": cpu,
    }


def _start_later(first: Player) -> None:
    first.acting = asyncio.ensure_future(first.send({"type": "start"}))


def _worker(
    url: str,
    numbers: list[int],
    think: float,
    jitter: bool,
    pipe: Connection,
    bots: tuple[str, ...] = (),
    stagger: float = 0.0,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = len(numbers) * 4 + 100
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, needed), hard))
    result = asyncio.run(_worker_main(url, numbers, think, jitter, pipe, bots, stagger))
    pipe.send(result)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(
    url: str,
    pid: int,
    tables: int,
    seconds: float,
    think: float,
    jitter: bool,
    workers: int,
    bots: tuple[str, ...] = (),
    warm_up: float = WARM_UP,
    stagger: float = 0.0,
) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    pipes: list[Connection] = []
    processes = []
    rss_before = rss_kib(pid)
    started = time.perf_counter()
    for index in range(workers):
        mine, theirs = context.Pipe()
        numbers = list(range(index, tables, workers))
        process = context.Process(
            target=_worker, args=(url, numbers, think, jitter, theirs, bots, stagger)
        )
        process.start()
        pipes.append(mine)
        processes.append(process)
    try:
        for pipe in pipes:
            if not pipe.poll(600) or pipe.recv() != "seated":
                raise SystemExit("a client process could not seat its tables")
        seat_seconds = time.perf_counter() - started
        time.sleep(1.0)
        rss_seated = rss_kib(pid)  # every table seated, not yet dealt
        window_start = time.perf_counter() + warm_up
        stop_at = window_start + seconds
        for pipe in pipes:
            pipe.send((window_start, stop_at))
        time.sleep(max(0.0, window_start - time.perf_counter()))
        cpu_before = cpu_seconds(pid)
        rss_dealt = rss_kib(pid)
        time.sleep(max(0.0, stop_at - time.perf_counter()))
        cpu = cpu_seconds(pid) - cpu_before
        window = time.perf_counter() - window_start
        rss_after = rss_kib(pid)
        results = []
        for pipe in pipes:
            if not pipe.poll(120):
                raise SystemExit("a client process did not report")
            results.append(pipe.recv())
    finally:
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
    lat = [value for result in results for value in result["latencies"]]
    moves = sum(result["moves"] for result in results)
    client_cpu = sum(result["cpu_seconds"] for result in results)
    return {
        "tables": tables,
        "connections": tables * (4 - len(bots)),
        "bots_per_table": len(bots),
        "window": (window_start, stop_at),
        "client_processes": workers,
        "think_seconds": think,
        "think_jitter": jitter,
        "seat_seconds": seat_seconds,
        "window_seconds": window,
        "moves": moves,
        "moves_per_second": moves / window,
        "littles_law_ms": 1000 * tables / max(1e-9, moves / window),
        "games_finished": sum(result["games"] for result in results),
        "errors": sum(result["errors"] for result in results),
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
        "client_cpu_ms_per_move": 1000 * client_cpu / max(1, moves),
    }


def run_server(
    command: list[str] | None,
    *,
    tables: int,
    seconds: float,
    think: float,
    jitter: bool,
    workers: int,
    memory: bool = False,
    bots: tuple[str, ...] = (),
    bot_delay: float = 0.0,
    warm_up: float = WARM_UP,
    stagger: float = 0.0,
    gc_log: bool = False,
) -> dict[str, Any]:
    """Start a server (``fivecrowns serve`` if ``command`` is None, else ``command``, which
    prints its ``ws://127.0.0.1:PORT/ws`` address on its first line), measure it with the
    bench clients (:func:`measure`), and stop it."""
    needed = tables * 4 + 200
    with tempfile.TemporaryDirectory() as folder:
        options = ["--memory"] if memory else ["--data", folder]
        options += ["--bot-delay", str(bot_delay), "--rate", "1000"]
        options += ["--max-connections", str(needed), "--max-tables", str(tables * 2)]
        options += ["--max-per-address", "0"]  # why: every client here comes from loopback
        environment: dict[str, str] = {}
        gc_path = Path(folder) / "gc.json"
        if gc_log:  # the server notes each garbage collection (net/server/collector.py)
            environment["FIVECROWNS_GC_LOG"] = str(gc_path)
        with serving(
            options, command=command, environment=environment, keep_errors=False
        ) as server:
            result = measure(
                server.url, server.pid, tables, seconds, think, jitter, workers, bots, warm_up,
                stagger,
            )  # fmt: skip
        if gc_log:
            result["gc"] = _collections(gc_path, *result["window"])
        return result


def _collections(path: Path, start: float, stop: float) -> dict[str, Any]:
    """The server's garbage collections during the window: count and longest, by generation."""
    if not path.exists():
        return {"error": "the server wrote no collection log"}
    noted = json.loads(path.read_text(encoding="utf-8"))
    found: dict[str, Any] = {"promotions": noted["promotions"], "deep": noted["deep"]}
    for generation in (0, 1, 2):
        entries = [
            entry
            for entry in noted["gc"]
            if entry["generation"] == generation and start <= entry["at"] <= stop
        ]
        times = [entry["ms"] for entry in entries]
        cpu = [entry.get("cpu_ms", 0.0) for entry in entries]
        found[f"gen{generation}"] = {
            "count": len(times),
            "max_ms": max(times, default=0.0),
            "total_ms": sum(times),
            "max_cpu_ms": max(cpu, default=0.0),
            "total_cpu_ms": sum(cpu),
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=500, help="tables of 4 (default 500)")
    parser.add_argument("--seconds", type=float, default=45.0, help="measured window (45)")
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
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="client processes, each with its own event loop (default: one per core)",
    )
    parser.add_argument(
        "--memory", action="store_true", help="the server keeps nothing on disk (no SQLite)"
    )
    parser.add_argument(
        "--bots",
        type=int,
        default=0,
        help="computer players at each table of 4 (default 0); the other seats are clients",
    )
    parser.add_argument("--bot-level", default="easy", help="their level (default easy)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, help="seconds before each computer move (0)"
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=WARM_UP,
        help=f"seconds from the start before the window opens (default {WARM_UP:g})",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="start each table's game at a random moment within this many seconds (default 0)",
    )
    parser.add_argument(
        "--gc-log",
        action="store_true",
        help="report the server's garbage collections in the window (FIVECROWNS_GC_LOG)",
    )
    args = parser.parse_args()
    if args.tables < 1 or args.workers < 1 or args.seconds <= 0:
        parser.error("--tables, --workers and --seconds must be positive")
    if not 0 <= args.bots <= 3:
        parser.error("--bots must be 0 to 3 (a table needs a client)")
    workers = min(args.workers, args.tables)
    wall_start = time.perf_counter()
    load_before = os.getloadavg()
    result = run_server(
        None,
        tables=args.tables,
        seconds=args.seconds,
        think=args.think,
        jitter=args.jitter,
        workers=workers,
        memory=args.memory,
        bots=(args.bot_level,) * args.bots,
        bot_delay=args.bot_delay,
        warm_up=args.warm_up,
        stagger=args.stagger,
        gc_log=args.gc_log,
    )
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    result["store"] = "memory" if args.memory else "sqlite"
    result["load_average_before"] = load_before
    result["load_average_after"] = os.getloadavg()
    result["whole_run"] = {
        "wall_seconds": time.perf_counter() - wall_start,
        "user_seconds": mine.ru_utime + children.ru_utime,
        "system_seconds": mine.ru_stime + children.ru_stime,
    }
    result["machine"] = f"{platform.python_implementation()} {platform.python_version()}, "
    result["machine"] += f"{os.cpu_count()} cores, {platform.machine()}"
    _report(result, args.think, args.jitter)


def _report(result: dict[str, Any], think: float, jitter: bool) -> None:
    lat = result["latency_ms"]
    pace = f", {think} s thinking before each move" if think else ", full speed"
    if think and jitter:
        pace = f", 0.5 to 1.5 times {think} s thinking before each move (at random)"
    print(
        f"bench_server: {result['tables']} tables, {result['connections']} WebSocket clients "
        f"in {result['client_processes']} processes and {result['bots_per_table']} computer "
        f"players per table{pace}"
    )
    load_before, load_after = result["load_average_before"], result["load_average_after"]
    print(f"  machine: {result['machine']}; load average before {load_before[0]:.2f}")
    print(f"  seating all tables took {result['seat_seconds']:.1f} s")
    print(
        f"  action -> event: p50 {lat['p50']:.1f} ms, p90 {lat['p90']:.1f} ms, "
        f"p99 {lat['p99']:.1f} ms, max {lat['max']:.1f} ms, mean {lat['mean']:.1f} ms "
        f"({result['latency_samples']} samples)"
    )
    print(
        f"  moves: {result['moves']} in {result['window_seconds']:.1f} s = "
        f"{result['moves_per_second']:.0f} per second; {result['games_finished']} games finished; "
        f"{result['errors']} errors"
    )
    print(
        f"  Little's law: {result['tables']} tables / {result['moves_per_second']:.0f} moves per "
        f"second = {result['littles_law_ms']:.1f} ms per move of a table, act to next act "
        f"(p50 above: {lat['p50']:.1f} ms of it)"
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
        f"{100 * result['server_cpu_share']:.0f}% of one core"
    )
    print(
        f"  client CPU: {result['client_cpu_seconds']:.1f} s = "
        f"{result['client_cpu_ms_per_move']:.2f} ms per move"
    )
    whole = result["whole_run"]
    print(
        f"  whole run: wall {whole['wall_seconds']:.1f} s, user {whole['user_seconds']:.1f} s, "
        f"system {whole['system_seconds']:.1f} s (server, clients and this process)"
    )
    collections = result.get("gc")
    if collections is not None and "error" not in collections:
        print(
            "  server garbage collections in the window: "
            + "; ".join(
                f"generation {g}: {collections[f'gen{g}']['count']}, longest "
                f"{collections[f'gen{g}']['max_ms']:.1f} ms wall, "
                f"{collections[f'gen{g}']['max_cpu_ms']:.1f} ms CPU"
                for g in (0, 1, 2)
            )
            + f" (full collections by the collector since the start: {collections['deep']})"
        )
    print(f"  load average after {load_after[0]:.2f}")
    print("json: " + json.dumps(result))


if __name__ == "__main__":
    main()
