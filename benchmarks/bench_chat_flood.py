"""Issue 26's "players while attacked", its chat-flood half: other tables' move latency.

    nice -n 10 .venv/bin/python benchmarks/bench_chat_flood.py \
        --out benchmarks/results/chat_flood.txt
    nice -n 10 .venv/bin/python benchmarks/bench_chat_flood.py --src ../main/src  # before

It starts ``fivecrowns serve --memory --bot-delay 0 --rate 1000`` (why the rate: the
players move faster than a person, and must not be slowed by the limit), then ``--tables``
players, each alone with an easy computer player at a table of their own, each waiting
``--think`` seconds before each move (not counted; why: players at full speed would keep
the 2-core machine busy, and the latency would tell of the clients, not the server). Latency is from
sending an ``act`` to receiving the first game event it caused, measured in this process.

The quiet window (``--seconds``) measures it with nothing else going on. Then ``--flooders``
connections (the campaign's 57: 50 spectators at one table, the most a table allows, and 7
at a second), in a process of their own, each send a chat line every 1/20 s (the whole
message rate of a default server, ``--rate 20``), and read what
comes back; the flood window measures the same players' latency again, and counts the chat
lines the flooded tables' players received. The server's CPU time (user + system, from
``/proc``) is given for each window. ``--src`` runs another checkout's code (the "before").
The clients run on the same machine as the server, so the figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import time

import aiohttp

from _serve import cpu_seconds, serving
from _stats import commit, percentile, write_report
from bench_server import pick_move

LOOPBACK = "127.0.0.1"
CHAT_EVERY = 1 / 20  # a flooder's whole message rate under a default server's --rate 20


class Player:
    """One player alone with a computer: plays each turn as soon as its snapshot comes."""

    def __init__(self, url: str, name: str, latencies: list[float], think: float) -> None:
        self.url, self.name, self.latencies, self.think = url, name, latencies, think
        self.sent_at: float | None = None
        self.seq = 0
        self.table = ""
        self.chat_heard = 0
        self.measuring = False
        self.errors: list[str] = []

    async def run(self, session: aiohttp.ClientSession, until: float) -> None:
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            await self._play(session, until)

    async def _play(self, session: aiohttp.ClientSession, until: float) -> None:
        async with session.ws_connect(self.url) as ws:
            await ws.send_str(json.dumps({"type": "hello", "v": 1, "name": self.name}))
            create = {"type": "create_table", "seats": 2, "bots": ["easy"]}
            await ws.send_str(json.dumps(create))
            started = False
            for _frame in range(10_000_000):
                left = until - time.monotonic()
                if left <= 0:
                    return
                try:
                    message = await asyncio.wait_for(ws.receive(), left)
                except TimeoutError:
                    return
                if message.type is not aiohttp.WSMsgType.TEXT:
                    return
                data = json.loads(message.data)
                kind = data["type"]
                if kind == "seated":
                    self.table = data["table"]
                    if not started:
                        started = True
                        await ws.send_str(json.dumps({"type": "start"}))
                elif kind == "event":
                    self.seq = data["seq"]
                    if data["kind"] == "chat" and self.measuring:
                        self.chat_heard += 1
                    elif data["kind"] == "game_over":
                        await ws.send_str(json.dumps({"type": "new_game"}))
                    elif data["kind"] != "chat" and self.sent_at is not None:
                        if self.measuring:
                            self.latencies.append(time.perf_counter() - self.sent_at)
                        self.sent_at = None
                elif kind == "snapshot" and data["legal"] and data["seq"] == self.seq:
                    if self.sent_at is None:
                        await asyncio.sleep(self.think)  # not counted in the latency
                        action, args = pick_move(data["legal"])
                        act = {"type": "act", "action": action, "args": args, "seq": self.seq}
                        self.sent_at = time.perf_counter()
                        await ws.send_str(json.dumps(act))
                elif kind == "error":
                    self.errors.append(data["code"])
                    self.sent_at = None  # why: a refused move is no latency; a snapshot again
                    await asyncio.sleep(0.05)
                    await ws.send_str(json.dumps({"type": "resume", "last_seq": self.seq}))


async def flood(url: str, name: str, table: str, until: float) -> int:
    """Watch ``table`` and chat at the whole message rate until ``until``; lines sent."""
    sent = 0
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"type": "hello", "v": 1, "name": name}))
        await ws.send_str(json.dumps({"type": "watch", "table": table}))

        async def drain() -> None:
            with contextlib.suppress(Exception):
                async for _message in ws:
                    pass

        reader = asyncio.create_task(drain())
        for line in range(10_000_000):
            if time.monotonic() >= until:
                break
            await ws.send_str(json.dumps({"type": "chat", "text": f"flood line {line}"}))
            sent += 1
            await asyncio.sleep(CHAT_EVERY)
        reader.cancel()
    return sent


async def floods(url: str, tables: list[str], count: int, seconds: float) -> int:
    """``count`` flooders, 50 at the first table and the rest at the second."""
    until = time.monotonic() + seconds
    sent = await asyncio.gather(
        *(flood(url, f"Flood {n}", tables[0 if n < 50 else 1], until) for n in range(count))
    )
    return sum(sent)


def summary(latencies: list[float]) -> str:
    ms = [value * 1000 for value in latencies]
    if not ms:
        return "no moves"
    return (
        f"{len(ms)} moves, p50 {percentile(ms, 0.5):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms,"
        f" p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
    )


async def measure(url: str, pid: int, args: argparse.Namespace) -> list[str]:
    quiet: list[float] = []
    flooded: list[float] = []
    total = 3.0 + 2 * args.seconds + 1.0
    end = time.monotonic() + total
    async with aiohttp.ClientSession() as session:
        players = [Player(url, f"Player {n}", quiet, args.think) for n in range(args.tables)]
        tasks = [asyncio.create_task(p.run(session, end)) for p in players]
        await asyncio.sleep(3.0)  # every table dealt
        for player in players:
            player.measuring = True
        cpu = cpu_seconds(pid)
        await asyncio.sleep(args.seconds)
        quiet_cpu = cpu_seconds(pid) - cpu
        for player in players:
            player.latencies = flooded
        # why another process: flooders in this one would slow the measuring clients, not
        # the server, and the latency would tell of this process's event loop
        flooders = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--flood",
            url,
            players[0].table,
            players[1].table,
            str(args.flooders),
            str(args.seconds),
            stdout=asyncio.subprocess.PIPE,
        )
        cpu = cpu_seconds(pid)
        heard_before = [player.chat_heard for player in players[:2]]
        began = time.monotonic()
        out, _err = await flooders.communicate()
        lines = int(out.decode().strip() or 0)
        flood_seconds = time.monotonic() - began
        flood_cpu = cpu_seconds(pid) - cpu
        heard = [p.chat_heard - b for p, b in zip(players[:2], heard_before, strict=True)]
        for task in tasks:
            task.cancel()
    others = flooded  # every player's moves; the two flooded tables are a tenth of them
    return [
        f"quiet ({args.seconds:.0f} s): {summary(quiet)}; server CPU {quiet_cpu:.2f} s",
        f"flood ({args.seconds:.0f} s, {args.flooders} connections, {lines} chat lines sent): "
        f"{summary(others)}; server CPU {flood_cpu:.2f} s",
        f"chat lines heard at the flooded tables: {heard[0]} and {heard[1]} in "
        f"{flood_seconds:.1f} s ({heard[0] / flood_seconds:.1f} and "
        f"{heard[1] / flood_seconds:.1f} a second)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--flooders", type=int, default=57)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.3, help="seconds before each move")
    parser.add_argument("--src", default=None, help="another checkout's src to run instead")
    parser.add_argument("--out", default=None)
    parser.add_argument("--flood", nargs=5, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood is not None:  # the flooders' own process (see measure)
        url, first, second, count, seconds = args.flood
        print(asyncio.run(floods(url, [first, second], int(count), float(seconds))))
        return
    options = ["--memory", "--bot-delay", "0", "--rate", "1000"]
    with serving(options, src=args.src) as server:
        lines = asyncio.run(measure(server.url, server.pid, args))
    head = (
        f"bench_chat_flood.py, commit {commit()}"
        + (f", code from {args.src}" if args.src else "")
        + f", Python {sys.version.split()[0]}, {args.tables} tables of 1 player and 1 easy"
        f" computer, {args.think} s before each move, latency act -> first game event"
    )
    load = "load average after: " + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    lines.append(load + f" ({os.cpu_count()} cores)")
    text = "\n".join([head, *lines]) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
