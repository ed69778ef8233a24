"""Issue 28's log-in flood: other tables' move latency while log-ins flood the server.

    nice -n 10 .venv/bin/python benchmarks/bench_login_flood.py \
        --out benchmarks/results/login_flood.txt

It starts ``fivecrowns serve --memory --bot-delay 0 --rate 1000`` and the players of
bench_chat_flood.py: ``--tables`` players, each alone with an easy computer player, each
waiting ``--think`` seconds before each move (not counted). Latency is from sending an
``act`` to receiving the first game event it caused, measured in this process.

The quiet window (``--seconds``) measures it with nothing else going on. Then, in a process
of its own, ``--addresses`` loopback addresses (127.0.4.N, as many addresses on the
internet) each hold ``--per-address`` connections that send ``log_in`` after ``log_in``, a
new name and a wrong password each time, as fast as the answers come: every try that the
limits let through costs an argon2id hash (an unknown name is checked against a hash made
for nothing, the same work). The flood window measures the same players' latency again, and
counts the answers by code (``no_match``: hashed; ``too_many_log_ins``, ``busy``: refused
without a hash). The server's CPU time (user + system, from ``/proc``) is given for each
window beside its wall time. The clients run on the same machine as the server, so the
figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import time
from collections import Counter

import aiohttp

from _serve import LOOPBACK, cpu_seconds, serving
from _stats import commit, write_report
from bench_chat_flood import Player, summary


async def log_ins(address: str, port: int, count: int, until: float) -> Counter[str]:
    """``count`` connections from ``address``, each trying log-ins until ``until``; the
    answers by code."""
    answers: Counter[str] = Counter()
    connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(number: int) -> None:
            url = f"ws://{LOOPBACK}:{port}/ws"
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


async def flood(port: int, addresses: int, per_address: int, seconds: float) -> Counter[str]:
    until = time.monotonic() + seconds
    found = await asyncio.gather(
        *(log_ins(f"127.0.4.{n + 1}", port, per_address, until) for n in range(addresses))
    )
    total: Counter[str] = Counter()
    for answers in found:
        total.update(answers)
    return total


async def measure(url: str, port: int, pid: int, args: argparse.Namespace) -> list[str]:
    quiet: list[float] = []
    flooded: list[float] = []
    end = time.monotonic() + 3.0 + 2 * args.seconds + 5.0
    async with aiohttp.ClientSession() as session:
        players = [Player(url, f"Player {n}", quiet, args.think) for n in range(args.tables)]
        tasks = [asyncio.create_task(p.run(session, end)) for p in players]
        await asyncio.sleep(3.0)  # every table dealt
        for player in players:
            player.measuring = True
        cpu, began = cpu_seconds(pid), time.monotonic()
        await asyncio.sleep(args.seconds)
        quiet_cpu, quiet_wall = cpu_seconds(pid) - cpu, time.monotonic() - began
        for player in players:
            player.latencies = flooded
        # why another process: a flood from this one would slow the measuring clients, not
        # the server, and the latency would tell of this process's event loop
        flooders = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--flood",
            str(port),
            str(args.addresses),
            str(args.per_address),
            str(args.seconds),
            stdout=asyncio.subprocess.PIPE,
        )
        cpu, began = cpu_seconds(pid), time.monotonic()
        out, _err = await flooders.communicate()
        flood_cpu, flood_wall = cpu_seconds(pid) - cpu, time.monotonic() - began
        answers = json.loads(out.decode().strip() or "{}")
        for task in tasks:
            task.cancel()
    tried = sum(answers.values())
    codes = ", ".join(f"{code} {count}" for code, count in sorted(answers.items()))
    return [
        f"quiet ({quiet_wall:.1f} s wall): {summary(quiet)}; server CPU {quiet_cpu:.2f} s",
        f"flood ({flood_wall:.1f} s wall, {args.addresses} addresses x {args.per_address} "
        f"connections, {tried} log-ins answered: {codes}): {summary(flooded)}; "
        f"server CPU {flood_cpu:.2f} s",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--per-address", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.3, help="seconds before each move")
    parser.add_argument("--out", default=None)
    parser.add_argument("--flood", nargs=4, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood is not None:  # the flood's own process (see measure)
        port, addresses, per_address, seconds = args.flood
        found = asyncio.run(flood(int(port), int(addresses), int(per_address), float(seconds)))
        print(json.dumps(dict(found)))
        return
    options = ["--memory", "--bot-delay", "0", "--rate", "1000"]
    with serving(options) as server:
        port = int(server.url.rsplit(":", 1)[1].split("/")[0])
        lines = asyncio.run(measure(server.url, port, server.pid, args))
    head = (
        f"bench_login_flood.py, commit {commit()}, Python {sys.version.split()[0]}, "
        f"{args.tables} tables of 1 player and 1 easy computer, {args.think} s before each "
        "move, latency act -> first game event"
    )
    load = "load average after: " + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    lines.append(load + f" ({os.cpu_count()} cores)")
    text = "\n".join([head, *lines]) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
