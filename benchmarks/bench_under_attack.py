"""Issue 26's "players while attacked": a connection-slot attack and a chat flood at once.

    nice -n 10 .venv/bin/python benchmarks/bench_under_attack.py \
        --out benchmarks/results/under_attack.md

It starts ``fivecrowns serve`` (its default limits; ``--bot-delay 0`` only, so the games go
at the players' pace) as a real process in a temporary folder, on 127.0.0.1. ``--tables``
players, each alone with an easy computer player at a table of their own, play whole games,
waiting ``--think`` seconds before each move (not counted). A move's latency is from sending
its ``act`` to receiving the first game event it caused, measured in this process.

The quiet window (``--seconds``) measures them with nothing else going on. Then another
process attacks, from loopback addresses of its own (127.0.1.N and 127.0.2.N: the real
players are at 127.0.3.N and the newcomer at 127.0.0.1, as others on the internet are):

- the connection-slot attack, from ``--slot-addresses`` addresses: at each, WebSockets that
  say hello and idle (they answer pings, so no deadline closes them), WebSockets that never
  say hello, and more upgrades than the address may hold (refused 429); besides these,
  ``--half-open`` TCP connections that send nothing and ``--slowloris`` that send a half
  HTTP request a header line at a time. Whatever the server closes is opened again at once.
- the chat flood: ``--flooders`` connections (50 spectators at one extra table, the most a
  table allows, and the rest at a second), each sending a chat line every 1/20 s (the whole
  message rate of a default server), from as few addresses as the per-address limit allows.

The attack window measures the same players again (the two flooded tables are apart and not
counted), and a newcomer from 127.0.0.1 connects, makes a table, and plays a whole round.
``--pairs`` quiet and attacked windows alternate (why: the load of a shared machine drifts).
Beside each window's wall time: the server's CPU time (user + system, /proc/PID/stat), how
long its event loop waited, runnable, for a core (/proc/PID/schedstat: latency that is the
machine's, not the server's), this process's CPU and the machine's busy share (/proc/stat).
``--attacker-nice`` runs the attack nicer than the server; ``--control`` attacks nothing
but keeps the flooders' wakeups and about their CPU (the machine's share of the result);
``--profile FILE`` runs the server under cProfile; ``--asyncio-debug`` has it log every
callback over 100 ms. Every loop is bounded in count and time. The clients share the
machine with the server, so the figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from _serve import cpu_seconds, serving
from _stats import commit, percentile, write_report
from bench_chat_flood import Player
from bench_server import pick_move

LOOPBACK = "127.0.0.1"
CHAT_EVERY = 1 / 20  # a flooder's whole message rate under a default server's --rate 20
PER_ADDRESS = 20  # the server's default --max-per-address
SPECTATORS = 50  # the most one table allows
LOOPS = 1_000_000  # the bound on every loop below that also stops on a clock


def _machine_busy() -> tuple[int, int]:
    """The whole machine's busy and total CPU ticks so far (/proc/stat)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return sum(ticks) - idle, sum(ticks)


def _busy_since(before: tuple[int, int]) -> float:
    busy, total = _machine_busy()
    return (busy - before[0]) / max(1, total - before[1])


def _session(address: str) -> aiohttp.ClientSession:
    """A client session whose connections come from ``address`` (a loopback one)."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0)
    return aiohttp.ClientSession(connector=connector)


# --- the attack (its own process: attackers here would slow the measuring clients) -------


class Tally:
    """What the attack did, counted."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def add(self, what: str, count: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + count


async def _idle_websocket(
    session: aiohttp.ClientSession, url: str, hello: bool, until: float, tally: Tally
) -> None:
    """Hold a WebSocket (with or without hello) until ``until``; open it again if closed."""
    for number in range(LOOPS):
        if time.monotonic() >= until:
            return
        try:
            async with session.ws_connect(url, autoping=True) as ws:
                tally.add("websockets opened")
                if hello:
                    name = f"Idle {id(ws) % 100000}"
                    await ws.send_str(json.dumps({"type": "hello", "v": 1, "name": name}))
                for _frame in range(LOOPS):
                    left = until - time.monotonic()
                    if left <= 0:
                        return
                    try:
                        message = await asyncio.wait_for(ws.receive(), left)
                    except TimeoutError:
                        return
                    if message.type is not aiohttp.WSMsgType.TEXT:
                        break
                tally.add("websockets closed by the server")
        except aiohttp.WSServerHandshakeError as refused:
            tally.add(f"upgrades refused {refused.status}")
            await asyncio.sleep(0.5 + 0.1 * (number % 5))  # why: a refused one tries again
        except (aiohttp.ClientError, OSError):
            tally.add("websockets failed")
            await asyncio.sleep(0.5)


async def _raw(port: int, address: str, slow: bool, until: float, tally: Tally) -> None:
    """A TCP connection that sends nothing (``slow``: a half HTTP request, a header line a
    second, slowloris); opened again whenever the server closes it, until ``until``."""
    kind = "slowloris" if slow else "half-open"
    for _ in range(LOOPS):
        if time.monotonic() >= until:
            return
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(LOOPBACK, port, local_addr=(address, 0)), 10
            )
        except (OSError, TimeoutError):
            tally.add(f"{kind} connects failed")
            await asyncio.sleep(0.5)
            continue
        tally.add(f"{kind} opened")
        try:
            if slow:
                writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for line in range(LOOPS):
                left = until - time.monotonic()
                if left <= 0:
                    return
                try:
                    if await asyncio.wait_for(reader.read(4096), min(left, 1.0)) == b"":
                        break
                except TimeoutError:
                    if slow:
                        writer.write(f"X-Slow-{line}: 1\r\n".encode())
            tally.add(f"{kind} closed by the server")
        except OSError:
            tally.add(f"{kind} closed by the server")
        finally:
            writer.close()


async def _flooder(
    session: aiohttp.ClientSession, url: str, name: str, table: str, until: float, tally: Tally
) -> None:
    """Watch ``table`` and chat at the whole message rate until ``until``."""
    try:
        async with session.ws_connect(url) as ws:
            await ws.send_str(json.dumps({"type": "hello", "v": 1, "name": name}))
            await ws.send_str(json.dumps({"type": "watch", "table": table}))

            async def drain() -> None:
                with contextlib.suppress(Exception):
                    async for message in ws:
                        if message.type is aiohttp.WSMsgType.TEXT and '"error"' in message.data:
                            tally.add("chat lines refused")

            reader = asyncio.create_task(drain())
            for line in range(LOOPS):
                if time.monotonic() >= until:
                    break
                await ws.send_str(json.dumps({"type": "chat", "text": f"flood line {line}"}))
                tally.add("chat lines sent")
                await asyncio.sleep(CHAT_EVERY)
            reader.cancel()
    except (aiohttp.ClientError, OSError):
        tally.add("flooders failed")


async def _burner(until: float, work: float, tally: Tally) -> None:
    """The control: a flooder's wakeups and about its CPU (``work`` seconds a wake), with no
    connection to the server."""
    for line in range(LOOPS):
        if time.monotonic() >= until:
            return
        json.dumps({"type": "chat", "text": f"flood line {line}"})
        stop = time.perf_counter() + work
        while time.perf_counter() < stop:
            pass
        tally.add("control wakes")
        await asyncio.sleep(CHAT_EVERY)


async def attack(url: str, tables: list[str], args: argparse.Namespace) -> None:
    """Start every attacker, say ``ready`` on stdout once they are all under way, and print
    the tally as JSON at the end (``--seconds`` later)."""
    port = int(url.rsplit(":", 1)[1].removesuffix("/ws"))
    until = time.monotonic() + args.ramp + args.seconds + 3.0  # through the whole window
    tally = Tally()
    sessions: list[aiohttp.ClientSession] = []
    jobs: list[Any] = []
    slot_addresses = [f"127.0.1.{n + 1}" for n in range(args.slot_addresses)]
    for address in slot_addresses:
        session = _session(address)
        sessions.append(session)
        # as many as an address may hold (half idle after hello, half without one), and 5 more
        for number in range(PER_ADDRESS + 5):
            jobs.append(_idle_websocket(session, url, number % 2 == 0, until, tally))
    for number in range(args.half_open):
        address = slot_addresses[number % len(slot_addresses)]
        jobs.append(_raw(port, address, False, until, tally))
    for number in range(args.slowloris):
        address = slot_addresses[number % len(slot_addresses)]
        jobs.append(_raw(port, address, True, until, tally))
    flood_addresses = [f"127.0.2.{n + 1}" for n in range(-(-args.flooders // PER_ADDRESS))]
    flood_sessions = [_session(address) for address in flood_addresses]
    sessions.extend(flood_sessions)
    for number in range(args.flooders):
        session = flood_sessions[number // PER_ADDRESS]
        table = tables[0 if number < SPECTATORS else 1]
        jobs.append(_flooder(session, url, f"Flood {number}", table, until, tally))
    if args.control:  # why: the same load on the machine, none on the server
        for job in jobs:
            job.close()  # never started
        jobs = [_burner(until, args.control_work / 1e6, tally) for _ in range(args.flooders)]
    tasks = [asyncio.create_task(job) for job in jobs]
    await asyncio.sleep(args.ramp)  # why: every attacker connected before the window opens
    print("ready " + json.dumps(tally.counts), flush=True)
    await asyncio.wait(tasks, timeout=args.seconds + 30.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for session in sessions:
        await session.close()
    tally.add("attacker CPU ms", round(time.process_time() * 1000))
    print(json.dumps(tally.counts), flush=True)


# --- the measuring side ------------------------------------------------------------------


async def newcomer(url: str, timeout: float) -> dict[str, Any]:
    """A new real client: connect, say hello, make a table with an easy computer player,
    start, and play a whole round; how long each part took, or where it failed."""
    began = time.monotonic()
    found: dict[str, Any] = {"connected": None, "seated": None, "round": None, "moves": 0}
    deadline = began + timeout
    try:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=5))
            await ws.send_str(json.dumps({"type": "hello", "v": 1, "name": "Newcomer"}))
            create = {"type": "create_table", "seats": 2, "bots": ["easy"]}
            await ws.send_str(json.dumps(create))
            seq = 0
            for _frame in range(100_000):
                left = deadline - time.monotonic()
                if left <= 0:
                    found["failed"] = f"no whole round within {timeout:.0f} s"
                    break
                message = await asyncio.wait_for(ws.receive(), left)
                if message.type is not aiohttp.WSMsgType.TEXT:
                    found["failed"] = f"the connection ended ({message.type.name})"
                    break
                data = json.loads(message.data)
                if data["type"] == "welcome":
                    found["connected"] = time.monotonic() - began
                elif data["type"] == "seated" and found["seated"] is None:
                    found["seated"] = time.monotonic() - began
                    await ws.send_str(json.dumps({"type": "start"}))
                elif data["type"] == "event":
                    seq = data["seq"]
                    if data["kind"] == "round_scored":
                        found["round"] = time.monotonic() - began
                        break
                elif data["type"] == "snapshot" and data["legal"] and data["seq"] == seq:
                    action, args = pick_move(data["legal"])
                    act = {"type": "act", "action": action, "args": args, "seq": seq}
                    await ws.send_str(json.dumps(act))
                    found["moves"] += 1
                elif data["type"] == "error":
                    found["failed"] = f"error {data['code']}: {data['text']}"
                    break
            await ws.close()
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        found["failed"] = f"{type(error).__name__}: {error}"
    return found


def summary(latencies: list[float]) -> tuple[str, float | None]:
    ms = [value * 1000 for value in latencies]
    if not ms:
        return "no moves", None
    p99 = percentile(ms, 0.99)
    text = (
        f"{len(ms)} moves, p50 {percentile(ms, 0.5):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms,"
        f" p99 {p99:.1f} ms, max {max(ms):.1f} ms"
    )
    return text, p99


class Window:
    """One measuring window: the server's CPU and run-queue wait, this process's CPU, and
    the whole machine's busy share, from its start to :meth:`close`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.latencies: list[float] = []
        self._cpu, self._wait = cpu_seconds(pid), _run_queue_wait(pid)
        self.began, self._mine, self._machine = (
            time.monotonic(),
            time.process_time(),
            _machine_busy(),
        )
        self.text = ""

    def close(self, name: str) -> str:
        cpu, wait = cpu_seconds(self.pid) - self._cpu, _run_queue_wait(self.pid) - self._wait
        wall, mine = time.monotonic() - self.began, time.process_time() - self._mine
        self.text = (
            f"{name} ({wall:.1f} s wall; server CPU {cpu:.2f} s, its event loop waited"
            f" {wait:.2f} s for a core; measuring clients' CPU {mine:.2f} s; machine busy"
            f" {_busy_since(self._machine):.0%}): {summary(self.latencies)[0]}"
        )
        return self.text


def _run_queue_wait(pid: int) -> float:
    """Seconds the server's main thread (its event loop) has waited, runnable, for a core
    (/proc/PID/schedstat): on a busy machine, latency that is not the server's doing."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


async def measure(url: str, pid: int, args: argparse.Namespace) -> list[str]:
    lines: list[str] = []
    quiet_all: list[float] = []
    attacked_all: list[float] = []
    flooded: list[float] = []  # the two flooded tables' own moves: apart, not counted
    end = time.monotonic() + 5.0 + args.pairs * (2 * args.seconds + args.ramp + 30.0)
    # why an address each: one address may make 10 tables; players are at many addresses
    sessions = [_session(f"127.0.3.{n + 1}") for n in range(args.tables + 2)]
    try:
        players = [Player(url, f"Player {n}", [], args.think) for n in range(args.tables + 2)]
        for player in players[:2]:
            player.latencies = flooded
        tasks = [asyncio.create_task(p.run(s, end)) for p, s in zip(players, sessions, strict=True)]
        await asyncio.sleep(5.0)  # every table dealt
        if not all(player.table for player in players):
            raise SystemExit("not every player got a table")
        for pair in range(args.pairs):
            quiet = Window(pid)
            for player in players[2:]:
                player.latencies = quiet.latencies
                player.measuring = True
            await asyncio.sleep(args.seconds)
            for player in players:
                player.measuring = False
            lines.append(f"- pair {pair + 1}, " + quiet.close("quiet"))
            attacker = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--attack",
                url,
                players[0].table,
                players[1].table,
                *sys.argv[1:],
                stdout=asyncio.subprocess.PIPE,
            )
            assert attacker.stdout is not None
            ready = (await asyncio.wait_for(attacker.stdout.readline(), args.ramp + 60)).decode()
            attacked = Window(pid)
            for player in players[2:]:
                player.latencies = attacked.latencies
            for player in players:
                player.measuring = True
            arrival = await newcomer(url, args.seconds - 1.0)
            await asyncio.sleep(max(0.0, args.seconds - (time.monotonic() - attacked.began)))
            for player in players:
                player.measuring = False
            lines.append(f"- pair {pair + 1}, " + attacked.close("attacked"))
            out, _err = await asyncio.wait_for(attacker.communicate(), args.seconds + 60)
            tally = json.loads(out.decode().strip().splitlines()[-1])
            ratio = _ratio(quiet.latencies, attacked.latencies)
            lines.append(f"- pair {pair + 1}, attacked p99 / quiet p99: {ratio}")
            lines.append(f"- pair {pair + 1}, the newcomer: {_arrival(arrival)}")
            lines.append(
                f"- pair {pair + 1}, the attack when the window opened: {ready[6:].strip()}"
            )
            lines.append(f"- pair {pair + 1}, the attack in all: {json.dumps(tally)}")
            quiet_all += quiet.latencies
            attacked_all += attacked.latencies
            await asyncio.sleep(3.0)  # why: the attack's sockets closed before the next window
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for session in sessions:
            await session.close()
    lines += [
        f"- all quiet windows: {summary(quiet_all)[0]}",
        f"- all attacked windows: {summary(attacked_all)[0]}",
        f"- all attacked p99 / all quiet p99: {_ratio(quiet_all, attacked_all)} (target at most 2)",
        f"- the flooded tables' own moves while attacked (not counted): {summary(flooded)[0]}",
    ]
    return lines


def _ratio(quiet: list[float], attacked: list[float]) -> str:
    quiet_p99, attacked_p99 = summary(quiet)[1], summary(attacked)[1]
    if quiet_p99 is None or attacked_p99 is None:
        return "none (no moves)"
    return f"{attacked_p99 / quiet_p99:.2f}"


def _arrival(arrival: dict[str, Any]) -> str:
    if arrival.get("round") is None:
        return f"did not play a whole round: {arrival.get('failed')} ({arrival})"
    return (
        f"connected in {arrival['connected']:.2f} s, seated in {arrival['seated']:.2f} s,"
        f" played a whole round ({arrival['moves']} moves) in {arrival['round']:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="measured tables")
    parser.add_argument("--seconds", type=float, default=30.0, help="each window")
    parser.add_argument("--pairs", type=int, default=3, help="quiet and attacked windows")
    parser.add_argument("--think", type=float, default=0.3, help="seconds before each move")
    parser.add_argument("--slot-addresses", type=int, default=3)
    parser.add_argument("--half-open", type=int, default=300)
    parser.add_argument("--slowloris", type=int, default=300)
    parser.add_argument("--flooders", type=int, default=57)
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds the attack ramps up")
    parser.add_argument("--attacker-nice", type=int, default=0, help="more niceness for it")
    parser.add_argument(
        "--control", action="store_true", help="no attack: the flooders' wakeups and CPU only"
    )
    parser.add_argument("--control-work", type=float, default=80.0, help="us of CPU a wake")
    parser.add_argument("--profile", default=None, help="run the server under cProfile to this")
    parser.add_argument("--asyncio-debug", action="store_true", help="log slow callbacks")
    parser.add_argument("--src", default=None, help="another checkout's src to run instead")
    parser.add_argument("--out", default=None)
    parser.add_argument("--attack", nargs=3, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack is not None:  # the attackers' own process (see measure)
        url, first, second = args.attack
        os.nice(args.attacker_nice)
        asyncio.run(attack(url, [first, second], args))
        return
    env: dict[str, str] = {}
    if args.asyncio_debug:  # why: asyncio then logs each callback that held the loop 100 ms
        env["PYTHONASYNCIODEBUG"] = "1"
    profile = ["-m", "cProfile", "-o", str(Path(args.profile).resolve())] if args.profile else []
    with tempfile.TemporaryDirectory(prefix="under-attack-") as folder:
        command = [sys.executable, *profile, "-m", "fivecrowns", "serve"]
        command += ["--host", LOOPBACK, "--port", "0"]
        command += ["--data", str(Path(folder) / "data"), "--bot-delay", "0"]
        with serving((), command=command, src=args.src, environment=env, cwd=folder) as server:
            lines = asyncio.run(measure(server.url, server.pid, args))
        errors = server.errors
    tracebacks = errors.count("Traceback")
    if args.asyncio_debug:
        slow = re.findall(r"took (\d+\.\d+) seconds", errors)
        print("slow callbacks (s):", sorted(float(v) for v in slow)[-20:])
        print("\n".join(line for line in errors.splitlines() if "took" in line)[-4000:])
    lines.append(f"- server log: {len(errors.splitlines())} lines, {tracebacks} tracebacks")
    head = (
        f"bench_under_attack.py, commit {commit()}"
        + (f", code from {args.src}" if args.src else "")
        + f", Python {sys.version.split()[0]}, {args.tables} measured tables of 1 player and"
        f" 1 easy computer, {args.think} s before each move, latency act -> first game event;"
        f" attack: {args.slot_addresses} slot addresses, {args.half_open} half-open,"
        f" {args.slowloris} slowloris, {args.flooders} chat flooders"
        + (
            f" (CONTROL: no attack; {args.flooders} tasks with the flooders' wakeups and"
            f" {args.control_work:.0f} us of CPU each, no connection)"
            if args.control
            else ""
        )
    )
    load = "- load average after: " + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    lines.append(load + f" ({os.cpu_count()} cores)")
    text = "\n".join([head, *lines]) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
