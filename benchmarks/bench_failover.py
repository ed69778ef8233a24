"""Issue 29's fail-over target: from ``kill -9`` of the process owning the tables to the next
move accepted at its table (target <= 5 s), and the acknowledged moves lost (target 0).

    nice -n 10 .venv/bin/python benchmarks/bench_failover.py \
        --out benchmarks/results/failover.txt

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
pessimistic; the lease's expiry is most of the time by design (``--lease``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from _serve import cpu_seconds
from _stats import commit, percentile, write_report
from redis_server import RedisServer, free_port
from server_support import FAST, TABLE_EVENTS, Client, ServerProcess, play_until


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
    folder: Path, redis: RedisServer, lease: float, moves: int
) -> tuple[float, float, int]:
    """(seconds from the kill to the next accepted move, survivor CPU seconds meanwhile,
    acknowledged events lost)."""
    port = free_port()
    options = (*FAST, "--grace", "30", "--bus", redis.url, "--lease", str(lease))
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


async def main_async(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory() as temp:
        redis = RedisServer(Path(temp)).start()
        lines = [
            f"bench_failover.py, commit {commit()}, load {os.getloadavg()[0]:.1f} at start, "
            f"{args.runs} runs per lease, the owner killed after {args.moves} events"
        ]
        try:
            for lease in args.lease:
                times, cpus, lost = [], [], 0
                for run in range(args.runs):
                    took, spent, missing = await one_run(
                        Path(temp) / f"server-{lease}-{run}", redis, lease, args.moves
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
        lines.append(f"load {os.getloadavg()[0]:.1f} at the end")
        return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--lease", type=float, nargs="+", default=[1.0, 3.0])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    text = asyncio.run(main_async(args))
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
