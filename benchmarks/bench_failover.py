"""Issue 29's fail-over target: from ``kill -9`` of the process owning the tables to the next
move accepted at its table (target <= 5 s), and the acknowledged moves lost (target 0).

    nice -n 10 .venv/bin/python benchmarks/bench_failover.py \
        --out benchmarks/results/failover.txt
    nice -n 10 .venv/bin/python benchmarks/bench_failover.py --store postgresql --lease 3 \
        --out benchmarks/results/failover-postgresql.txt

Each run starts a real ``redis-server`` (Debian's package; once for all runs) and two
``fivecrowns serve --bus ... --lease L`` processes on one port and one data folder (the
first owns the tables). A player sits with an easy computer player and plays until its
``--moves``-th event, then, on its own turn, the owner is killed with SIGKILL; the clock
starts. The player connects again with its token and last seq (through the same port: the
survivor, which waits for the lease to expire, takes the tables over and replays them) and
sends its move at once; the clock stops at the first game event that move caused. The
acknowledged moves lost are the events the player had heard that the survivor's snapshot
does not have. The survivor's CPU time (user + system, from ``/proc``) over the same span is
given beside the wall time. The client runs on the same machine, so the figures are
pessimistic; the lease's expiry is most of the time by design (``--lease``). With ``--store
postgresql`` the two processes share a new database of a PostgreSQL started here
(tests/support/pg_support.py) for each run instead of the data folder's SQLite file.

With ``--shares`` (issue 29's share workers, net/server/shares.py) each run starts, on one
PostgreSQL database and one Redis, two fronts (``serve --workers 2 --shares-bus --bus``, one
port) and three share workers (``serve --worker-of``: two hold a share each, one is the
spare), and kills, on the player's turn, either the worker holding the share of the player's
table (``--kill share``: the player's connection stays open; the front links to the spare
once it has taken the share, and puts the player back) or the front owning the cluster lease
(``--kill front``: the player connects again, as above). The clock stops at the first game
event of the move the player sent right after the kill. The acknowledged events lost are the
events the player had heard before the kill that the table PostgreSQL keeps (rebuilt from its
inputs) does not say the same. The CPU time is that of every surviving process.

    nice -n 10 .venv/bin/python benchmarks/bench_failover.py --shares --kill share front \
        --lease 1 3 --out benchmarks/results/failover-shares.txt
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from _serve import cpu_seconds
from _stats import commit, percentile, write_report
from pg_support import Postgres
from redis_server import RedisServer, free_port
from server_support import FAST, TABLE_EVENTS, Client, ServerProcess, play_until

SECRET = "the benchmark's link secret, long enough"


async def _owned(redis: RedisServer, timeout: float = 30.0) -> None:
    from fivecrowns.net.server.lease import connect

    client = connect(redis.url)
    try:
        deadline = time.monotonic() + timeout
        while await client.get("fivecrowns:tables") is None:
            if time.monotonic() > deadline:
                raise TimeoutError("no process took the tables")
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()


async def one_run(
    folder: Path, redis: RedisServer, lease: float, moves: int, store: tuple[str, ...] = ()
) -> tuple[float, float, int]:
    """(seconds from the kill to the next accepted move, survivor CPU seconds meanwhile,
    acknowledged events lost); ``store``: the options naming a shared database, if any."""
    port = free_port()
    options = (*FAST, "--grace", "30", *store, "--bus", redis.url, "--lease", str(lease))
    first = ServerProcess(folder, *options, port=port).start()
    await _owned(redis)
    second = ServerProcess(folder, *options, port=port).start()
    try:
        ann = Client("Ann")
        await ann.connect(first.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann], lambda c: c.seq >= moves and c.my_turn(), 120)
        heard = ann.seq
        await ann.close()
        assert second.proc is not None
        cpu = cpu_seconds(second.proc.pid)
        started = time.monotonic()
        first.kill9()
        again = Client("Ann")
        again.token, again.seq = ann.token, heard
        for _attempt in range(200):  # why: a connection made while the lease expires may drop
            try:
                await again.connect(first.url)
                snapshot = await again.until(lambda m: m["type"] == "snapshot", 30)
                break
            except (ConnectionError, OSError, TimeoutError):
                await again.close()
                await asyncio.sleep(0.05)
        else:
            raise TimeoutError("never connected again")
        lost = max(0, heard - int(snapshot["seq"]))
        if not again.my_turn():
            await again.until(lambda m: again.my_turn(), 30)
        await again.act(again.choose())
        await again.until(lambda m: m["type"] == "event" and m["kind"] not in TABLE_EVENTS, 30)
        took = time.monotonic() - started
        spent = cpu_seconds(second.proc.pid) - cpu
        await again.close()
        return took, spent, lost
    finally:
        first.stop()
        second.stop()


def _share_worker(redis: RedisServer, store: str, lease: float) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "fivecrowns", "serve", "--worker-of", redis.url]
    options = ["--workers", "2", "--store", store, "--lease", str(lease), *FAST]
    proc = subprocess.Popen(
        [*command, *options, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "FIVECROWNS_LINK_SECRET": SECRET},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not re.search(r"listens on 127\.0\.0\.1:\d+", line):
        proc.kill()
        raise RuntimeError(f"a share worker did not start: {line!r}")
    return proc


async def _holders(redis: RedisServer, count: int, timeout: float = 30.0) -> dict[int, int]:
    """The process id holding each of ``count`` shares, once each is held."""
    from fivecrowns.net.server.lease import connect
    from fivecrowns.net.server.shares import share_key

    client = connect(redis.url)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            values = [await client.get(share_key(index)) for index in range(count)]
            if all(values):
                return {
                    i: int(str(v).split(" ")[1].rsplit("/", 1)[1]) for i, v in enumerate(values)
                }
            await asyncio.sleep(0.05)
        raise TimeoutError("the shares were not taken")
    finally:
        await client.aclose()


def _lost(store: str, table: str, seat: int | None, heard: list[dict[str, Any]]) -> int:
    """The events heard that the table PostgreSQL keeps does not say the same."""
    import json

    import psycopg

    from fivecrowns.table import Table

    with psycopg.connect(store) as db:
        row = db.execute(
            "SELECT seats, creator_id, creator_name FROM tables WHERE id = %s", (table,)
        ).fetchone()
        assert row is not None
        inputs = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT command FROM inputs WHERE table_id = %s ORDER BY idx", (table,)
            ).fetchall()
        ]
    truth = Table.replay(row[0], row[2], row[1], inputs)
    kept = {frame["seq"]: frame for frame in truth.frames_since(0, seat)}
    return sum(1 for event in heard if kept.get(event["seq"], {}).get("text") != event["text"])


async def shares_run(
    folder: Path, redis: RedisServer, store: str, lease: float, moves: int, kill: str
) -> tuple[float, float, int]:
    """One run of ``--shares``: (seconds from the kill to the next accepted move, CPU seconds
    of the survivors meanwhile, acknowledged events lost)."""
    workers = [_share_worker(redis, store, lease) for _ in range(2)]
    fronts: list[ServerProcess] = []
    try:
        held = await _holders(redis, 2)
        workers.append(_share_worker(redis, store, lease))  # the spare
        port = free_port()
        options = ("--workers", "2", "--store", store, "--shares-bus", redis.url)
        cluster = ("--bus", redis.url, "--lease", str(lease), "--grace", "30")
        os.environ["FIVECROWNS_LINK_SECRET"] = SECRET
        fronts.append(ServerProcess(folder / "a", *FAST, *options, *cluster, port=port).start())
        await _owned(redis)
        fronts.append(ServerProcess(folder / "b", *FAST, *options, *cluster, port=port).start())
        url = fronts[0].url
        ann = Client("Ann")
        await ann.connect(url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann], lambda c: c.seq >= moves and c.my_turn(), 120)
        assert ann.table is not None
        heard, events = ann.seq, list(ann.events)
        if kill == "share":
            victim = held[int(ann.table, 16) % 2]
        else:  # the front holding the cluster lease: the first (the second started after)
            assert fronts[0].proc is not None
            victim = fronts[0].proc.pid
        survivors = [w.pid for w in workers if w.pid != victim]
        survivors += [f.proc.pid for f in fronts if f.proc is not None and f.proc.pid != victim]
        cpu = sum(cpu_seconds(pid) for pid in survivors)
        started = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        if kill == "share":
            await ann.act(ann.choose())  # why at once: the front keeps it for the next holder
        else:
            await ann.close()
            again = Client("Ann")
            again.token, again.seq = ann.token, heard
            for _attempt in range(200):
                try:
                    await again.connect(url)
                    await again.until(lambda m: m["type"] == "snapshot", 30)
                    break
                except (ConnectionError, OSError, TimeoutError, AssertionError):
                    await again.close()
                    again = Client("Ann")
                    again.token, again.seq = ann.token, heard
                    await asyncio.sleep(0.05)
            else:
                raise TimeoutError("never connected again")
            ann = again
            if not ann.my_turn():
                await ann.until(lambda m: ann.my_turn(), 30)
            await ann.act(ann.choose())
        await ann.until(lambda m: m["type"] == "event" and m["kind"] not in TABLE_EVENTS, 30)
        took = time.monotonic() - started
        spent = sum(cpu_seconds(pid) for pid in survivors) - cpu
        await ann.close()
        return took, spent, _lost(store, ann.table, ann.seat, events)
    finally:
        for front in fronts:
            front.stop()
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                try:
                    worker.wait(15)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait(10)


async def shares_main(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory() as temp:
        redis = RedisServer(Path(temp)).start()
        postgres = Postgres().start()
        lines = [
            f"bench_failover.py --shares, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"commit {commit()}, load {os.getloadavg()[0]:.1f} at start, {args.runs} runs "
            f"each, killed after {args.moves} events; 2 fronts, 3 share workers for 2 shares, "
            "one PostgreSQL, one Redis, the client: all on this machine",
            "command: nice -n 10 .venv/bin/python benchmarks/bench_failover.py "
            + " ".join(sys.argv[1:]),
            f"machine: {os.cpu_count()} cores, {_cpu_model()}",
        ]
        try:
            for kill in args.kill:
                for lease in args.lease:
                    times, cpus, lost = [], [], 0
                    for run in range(args.runs):
                        await _flush(redis)
                        took, spent, missing = await shares_run(
                            Path(temp) / f"{kill}-{lease}-{run}",
                            redis,
                            postgres.database(),
                            lease,
                            args.moves,
                            kill,
                        )
                        times.append(took)
                        cpus.append(spent)
                        lost += missing
                    lines.append(
                        f"kill -9 of the {kill}{' worker' if kill == 'share' else ''}, --lease "
                        f"{lease:g}: to the next accepted move: median "
                        f"{percentile(times, 0.5):.2f} s, max {max(times):.2f} s "
                        f"(runs: {', '.join(f'{t:.2f}' for t in times)}); survivors' CPU "
                        f"meanwhile: median {percentile(cpus, 0.5):.2f} s, max "
                        f"{max(cpus):.2f} s; acknowledged events lost: {lost}"
                    )
                    # why at each line: a run cut short (a quiet slot's end) keeps what it has
                    write_report(args.out, "\n".join([*lines, "(not finished)"]) + "\n")
        finally:
            redis.stop()
            postgres.stop()
        lines.append(f"load {os.getloadavg()[0]:.1f} at the end")
        return "\n".join(lines) + "\n"


def _cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "CPU unknown"


async def _flush(redis: RedisServer) -> None:
    """A new run's Redis holds no lease of the last run's (why: its database is new too)."""
    from fivecrowns.net.server.lease import connect

    client = connect(redis.url)
    try:
        await client.flushall()
    finally:
        await client.aclose()


async def main_async(args: argparse.Namespace) -> str:
    if args.shares:
        return await shares_main(args)
    with tempfile.TemporaryDirectory() as temp:
        redis = RedisServer(Path(temp)).start()
        postgres = Postgres().start() if args.store == "postgresql" else None
        lines = [
            f"bench_failover.py, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"commit {commit()}, load {os.getloadavg()[0]:.1f} at start, "
            f"{args.runs} runs per lease, the owner killed after {args.moves} events, "
            f"store: {args.store}"
        ]
        try:
            for lease in args.lease:
                times, cpus, lost = [], [], 0
                for run in range(args.runs):
                    store = () if postgres is None else ("--store", postgres.database())
                    took, spent, missing = await one_run(
                        Path(temp) / f"server-{lease}-{run}", redis, lease, args.moves, store
                    )
                    times.append(took)
                    cpus.append(spent)
                    lost += missing
                lines.append(
                    f"--lease {lease:g}: kill -9 to the next accepted move: median "
                    f"{percentile(times, 0.5):.2f} s, max {max(times):.2f} s "
                    f"(runs: {', '.join(f'{t:.2f}' for t in times)}); survivor CPU meanwhile: "
                    f"median {percentile(cpus, 0.5):.2f} s, max {max(cpus):.2f} s; "
                    f"acknowledged events lost: {lost}"
                )
        finally:
            redis.stop()
            if postgres is not None:
                postgres.stop()
        lines.append(f"load {os.getloadavg()[0]:.1f} at the end")
        return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--lease", type=float, nargs="+", default=[1.0, 3.0])
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--out", default=None)
    parser.add_argument("--shares", action="store_true", help="fronts and share workers")
    parser.add_argument("--kill", nargs="+", choices=("share", "front"), default=["share"])
    args = parser.parse_args()
    text = asyncio.run(main_async(args))
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
