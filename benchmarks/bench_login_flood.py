"""Issue 28's log-in flood: other tables' move latency while log-ins flood the server.

    nice -n 10 .venv/bin/python benchmarks/bench_login_flood.py \
        --out benchmarks/results/login_flood.txt

It starts ``fivecrowns serve --memory --bot-delay 0 --rate 1000`` and the players of
bench_chat_flood.py: ``--tables`` players, each alone with an easy computer player, each
waiting ``--think`` seconds before each move (not counted). Latency is from sending an
``act`` to receiving the first game event it caused, measured in this process.

Quiet windows measure it with nothing else going on; flood windows, taken in turn with
them (``--rounds`` of each, ``--seconds`` of each kind in all), measure it while, in a
process of its own (started once, before the windows), ``--addresses`` loopback addresses
(127.0.4.N, as many addresses on the internet) each open ``--per-address`` connections
(all at once, or spread over the window's first ``--ramp`` seconds) that send ``log_in``
after ``log_in``, a new name and a wrong password each time, as fast as the answers come:
every try that the limits let through costs an argon2id hash (an unknown name is checked
against a hash made for nothing, the same work). One log-in before the windows starts the
server's hashing workers (a server starts them at its first log-in). After each flood
window the server hashes the log-ins left waiting; that time is not measured. The answers
are counted by code (``no_match``: hashed; ``too_many_log_ins``, ``busy``: refused without
a hash). The CPU time (user + system, from ``/proc``) of the server and its hashing workers
is given for each kind of window beside its wall time, and this process's own at the end,
with the load average before and after. The server notes its garbage collections
(``FIVECROWNS_GC_LOG``): the full ones after its start are counted, with the longest (a
flood's closed connections, left for the collector, once brought one of about 100 ms due).
The clients run on the same machine as the server, so the figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

from _serve import LOOPBACK, cpu_seconds, serving
from _stats import commit, percentile, write_report
from bench_chat_flood import Player, summary


async def log_ins(
    address: str, port: int, count: int, until: float, ramp: tuple[float, int, int]
) -> Counter[str]:
    """``count`` connections from ``address``, each trying log-ins until ``until``; the
    answers by code."""
    answers: Counter[str] = Counter()
    connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(number: int) -> None:
            url = f"ws://{LOOPBACK}:{port}/ws"
            spread, place, addresses = ramp  # why: each connection its own moment
            await asyncio.sleep(spread * (number * addresses + place) / (count * addresses))
            with contextlib.suppress(aiohttp.ClientError, ConnectionError, TimeoutError):
                async with session.ws_connect(url) as ws:
                    for attempt in range(10_000_000):
                        if time.monotonic() >= until:
                            return
                        name = f"F{address.rsplit('.', 1)[1]}x{number}x{attempt}"
                        message = {"type": "log_in", "v": 1, "name": name, "password": "wrong one"}
                        await ws.send_str(json.dumps(message))
                        reply = await asyncio.wait_for(ws.receive(), until - time.monotonic())
                        if reply.type is not aiohttp.WSMsgType.TEXT:
                            answers["closed"] += 1
                            return
                        answers[json.loads(reply.data).get("code", "?")] += 1

        await asyncio.gather(*(one(number) for number in range(count)))
    return answers


async def flood(
    port: int, addresses: int, per_address: int, seconds: float, ramp: float
) -> Counter[str]:
    until = time.monotonic() + seconds
    found = await asyncio.gather(
        *(
            log_ins(f"127.0.4.{n + 1}", port, per_address, until, (ramp, n, addresses))
            for n in range(addresses)
        )
    )
    total: Counter[str] = Counter()
    for answers in found:
        total.update(answers)
    return total


def tree_cpu(pid: int) -> float:
    """CPU time of the server and its child processes (its hashing workers)."""
    total = cpu_seconds(pid)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    total += cpu_seconds(int(entry.name))
    return total


async def settle(pid: int, bound: float = 30.0) -> float:
    """Wait until the server and its workers use less than a quarter of a core (the log-ins
    a flood left waiting are hashed), at most ``bound`` seconds; how long it took."""
    began = time.monotonic()
    while time.monotonic() - began < bound:
        cpu = tree_cpu(pid)
        await asyncio.sleep(0.5)
        if tree_cpu(pid) - cpu < 0.125:
            break
    return time.monotonic() - began


class Flooders:
    """The flood's own process, started once (its start-up is in no window): each
    :meth:`window` floods for so many seconds and returns the answers by code.

    why another process: a flood from this one would slow the measuring clients, not the
    server, and the latency would tell of this process's event loop."""

    def __init__(self, port: int, args: argparse.Namespace) -> None:
        self.command = [sys.executable, __file__, "--flood", str(port)]
        self.command += [str(args.addresses), str(args.per_address)]
        self.proc: asyncio.subprocess.Process | None = None
        self.ramp = args.ramp

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        assert self.proc.stdout is not None
        await self.proc.stdout.readline()  # "ready": aiohttp is imported

    async def window(self, seconds: float) -> Counter[str]:
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{seconds} {self.ramp}\n".encode())
        await self.proc.stdin.drain()
        return Counter(json.loads((await self.proc.stdout.readline()).decode() or "{}"))

    async def stop(self) -> None:
        assert self.proc is not None and self.proc.stdin
        self.proc.stdin.close()
        await self.proc.wait()


async def flood_process(port: int, addresses: int, per_address: int) -> None:
    """The flood's process: a flood of the seconds on each line of stdin, then its answers as
    a line of JSON on stdout; it ends at the end of stdin."""
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    for _window in range(1000):  # bounded: a run has a few windows
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line.strip():
            return
        seconds, ramp = (float(word) for word in line.split())
        found = await flood(port, addresses, per_address, seconds, ramp)
        print(json.dumps(dict(found)), flush=True)


async def warm_up(url: str) -> None:
    """One log-in before the windows: the server starts its hashing workers at its first."""
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        message = {"type": "log_in", "v": 1, "name": "Warm up", "password": "not this one"}
        await ws.send_str(json.dumps(message))
        await asyncio.wait_for(ws.receive(), 60.0)


async def measure(url: str, port: int, pid: int, args: argparse.Namespace) -> list[str]:
    """Quiet and flood windows in turn, ``--rounds`` of each: the other helpers' load on a
    shared machine changes from one minute to the next, and windows taken in turn meet the
    same load (one quiet window, then one flood window, gave p99 ratios of 0.8 and 11)."""
    quiet: list[float] = []
    flooded: list[float] = []
    window = args.seconds / args.rounds
    walls = {"quiet": 0.0, "flood": 0.0, "settle": 0.0}
    cpus = {"quiet": 0.0, "flood": 0.0}
    answers: Counter[str] = Counter()
    end = time.monotonic() + 3600.0  # a bound; the players are stopped when measured
    flooders = Flooders(port, args)
    await flooders.start()
    await warm_up(url)
    async with aiohttp.ClientSession() as session:
        players = [Player(url, f"Player {n}", quiet, args.think) for n in range(args.tables)]
        tasks = [asyncio.create_task(p.run(session, end)) for p in players]
        await asyncio.sleep(3.0)  # every table dealt
        for _round in range(args.rounds):
            for kind, latencies in (("quiet", quiet), ("flood", flooded)):
                for player in players:
                    player.latencies, player.measuring = latencies, True
                cpu, began = tree_cpu(pid), time.monotonic()
                if kind == "quiet":
                    await asyncio.sleep(window)
                else:
                    answers.update(await flooders.window(window))
                cpus[kind] += tree_cpu(pid) - cpu
                walls[kind] += time.monotonic() - began
            for player in players:
                player.measuring = False  # why: the log-ins left waiting are no quiet
            walls["settle"] += await settle(pid)
        for task in tasks:
            task.cancel()
    await flooders.stop()
    tried = sum(answers.values())
    codes = ", ".join(f"{code} {count}" for code, count in sorted(answers.items()))
    ratio = percentile(flooded, 0.99) / percentile(quiet, 0.99) if quiet and flooded else 0.0
    return [
        f"quiet ({args.rounds} windows, {walls['quiet']:.1f} s wall): {summary(quiet)}; "
        f"server CPU (with its hashing workers) {cpus['quiet']:.2f} s",
        f"flood ({args.rounds} windows, {walls['flood']:.1f} s wall, {args.addresses} addresses"
        f" x {args.per_address} connections, {tried} log-ins answered: {codes}): "
        f"{summary(flooded)}; server CPU (with its hashing workers) {cpus['flood']:.2f} s",
        f"p99 flood / quiet: {ratio:.2f} (target: at most 2); {walls['settle']:.1f} s unmeasured"
        " after the flood windows while the server hashed the log-ins left waiting",
    ]


def full_collections(path: Path) -> str:
    """The server's full garbage collections after its start-up one, from its log."""
    if not path.exists():
        return "the server wrote no collection log"
    noted = json.loads(path.read_text(encoding="utf-8"))["gc"]
    full = [entry for entry in noted if entry["generation"] == 2][1:]  # why [1:]: start-up's
    middle = [entry["ms"] for entry in noted if entry["generation"] == 1]
    text = f"server's full garbage collections after start-up: {len(full)}"
    if full:
        worst = max(full, key=lambda entry: entry["ms"])
        text += (
            f" (longest {worst['ms']:.0f} ms wall, {worst['cpu_ms']:.0f} ms CPU, "
            f"{worst['collected']} objects collected)"
        )
    longest = f"{max(middle):.1f} ms" if middle else "none"
    return text + f"; middle ones: {len(middle)}, longest {longest}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--per-address", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0, help="of each kind, in all")
    parser.add_argument("--rounds", type=int, default=4, help="quiet and flood windows in turn")
    parser.add_argument(
        "--ramp", type=float, default=0.0, help="seconds over which the flood's connections open"
    )
    parser.add_argument("--think", type=float, default=0.3, help="seconds before each move")
    parser.add_argument("--out", default=None)
    parser.add_argument("--flood", nargs=3, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood is not None:  # the flood's own process (see measure)
        port, addresses, per_address = (int(value) for value in args.flood)
        asyncio.run(flood_process(port, addresses, per_address))
        return
    options = ["--memory", "--bot-delay", "0", "--rate", "1000"]
    before = "load average before: " + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    with tempfile.TemporaryDirectory() as folder:
        gc_path = Path(folder) / "gc.json"
        with serving(options, environment={"FIVECROWNS_GC_LOG": str(gc_path)}) as server:
            port = int(server.url.rsplit(":", 1)[1].split("/")[0])
            lines = asyncio.run(measure(server.url, port, server.pid, args))
        lines.append(full_collections(gc_path))
    head = (
        f"bench_login_flood.py, commit {commit()}, Python {sys.version.split()[0]}, "
        f"{args.tables} tables of 1 player and 1 easy computer, {args.think} s before each "
        f"move, latency act -> first game event; the flood's connections open over "
        f"{args.ramp} s"
    )
    own = os.times()
    lines.append(f"this process's CPU {own.user + own.system:.2f} s (the measuring players)")
    load = "load average after: " + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    lines.append(load + f" ({os.cpu_count()} cores)")
    text = "\n".join([before, head, *lines]) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
