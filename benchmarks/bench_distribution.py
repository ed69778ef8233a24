"""Issue 29's distribution overhead: two ``fivecrowns serve`` processes on PostgreSQL and Redis
against one process on SQLite, under the same load of ``bench_server.py`` clients.

    nice -n 10 .venv/bin/python benchmarks/bench_distribution.py \
        --out benchmarks/results/distribution.txt

Each round measures, in turn (so the machine's load falls on both alike):

- ``1 process, SQLite``: ``fivecrowns serve --data DIR`` as bench_server.py starts it;
- ``2 processes, PostgreSQL + Redis``: two ``fivecrowns serve --store postgresql://...
  --bus redis://...`` on one port (SO_REUSEPORT) and one new database; the first owns the
  tables, the second hands each connection the kernel gives it to the first, the socket
  itself (net/server/handoff.py: both are on this machine);
- ``2 processes, SQLite + Redis``: the same on the data folder's SQLite file, shared (what
  two processes cost, without PostgreSQL's part);
- ``2 processes, PostgreSQL + Redis, bytes passed on``: the first again, with handing off
  turned off (``FIVECROWNS_HANDOFF=0``): the second passes each connection's bytes on
  (splice.py), as it does when the owner is on another machine.

    nice -n 10 .venv/bin/python benchmarks/bench_distribution.py --workers 2 \
        --out /tmp/workers.txt   # then appended to benchmarks/results/distribution.txt

With ``--workers N`` it measures instead, in turn, only ``1 process, SQLite`` and
``front + N workers, SQLite``: ``fivecrowns serve --data DIR --workers N``, one process that
keeps the sockets and the lobby and relays each table's traffic to the worker process that
owns the table (net/server/workers.py); its CPU is the front's and the workers' summed.

The clients are bench_server.py's (``--tables`` tables of 4 WebSocket clients, full speed
unless ``--think``), connecting to the one address, so about half of them reach the owner
through the spare. Reported per configuration (median over the rounds): moves per second,
action -> event p50 and p99, and the server CPU per move: every game server process's user +
system CPU time over the window, summed, over the moves. Beside it, the CPU of PostgreSQL (the
postmaster and its backends) and Redis over the same window, per move. PostgreSQL and Redis
are Debian's packages, started here on loopback (tests/support/pg_support.py,
redis_server.py); PostgreSQL with fsync off, as the tests run it (the game's commits do not
wait for the disk anyway: ``synchronous_commit = off``). Linux only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from _serve import LOOPBACK, serving
from _stats import commit, write_report
from bench_server import measure
from pg_support import Postgres
from redis_server import RedisServer, free_port

SQLITE = "1 process, SQLite"
CLUSTER = "2 processes, PostgreSQL + Redis"
SQLITE_CLUSTER = "2 processes, SQLite + Redis"
SPLICED = "2 processes, PostgreSQL + Redis, bytes passed on"


def _options(tables: int) -> list[str]:
    """bench_server.py's server options for ``tables`` tables."""
    return [
        "--bot-delay", "0", "--rate", "1000", "--max-connections", str(tables * 4 + 200),
        "--max-tables", str(tables * 2), "--max-per-address", "0",
    ]  # fmt: skip


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process under it, now (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat[1])
    found, todo = [pid], [pid]
    for _step in range(10_000):  # why bounded: every loop is
        if not todo:
            break
        parent = todo.pop()
        children = [child for child, its in parents.items() if its == parent]
        found += children
        todo += children
    return found


def _postmaster(postgres: Postgres) -> int:
    assert postgres.folder is not None
    return int((postgres.folder / "data" / "postmaster.pid").read_text().split()[0])


def one_sqlite(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    with serving(["--data", str(folder), *_options(args.tables)], keep_errors=False) as server:
        return measure(server.url, server.pid, args.tables, args.seconds, args.think, True, 2)


def one_workers(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """``serve --workers N`` on the data folder's SQLite file: the front and its workers."""
    options = ["--data", str(folder), "--workers", str(args.workers), *_options(args.tables)]
    with serving(options, keep_errors=False) as server:
        workers = [
            pid
            for pid in _descendants(server.pid)
            if pid != server.pid and b"net.server.workers" in _command_line(pid)
        ]
        assert len(workers) == args.workers, workers
        return measure(
            server.url, server.pid, args.tables, args.seconds, args.think, True, 2, also=workers
        )


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def one_cluster(
    args: argparse.Namespace,
    folder: Path,
    postgres: Postgres | None,
    redis: RedisServer,
    environment: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Two processes on PostgreSQL (a new database) and Redis; on their shared data folder's
    SQLite file and Redis if ``postgres`` is None; ``environment`` added to theirs."""
    port = free_port()
    store = [] if postgres is None else ["--store", postgres.database()]
    command = [
        sys.executable, "-m", "fivecrowns", "serve", "--host", LOOPBACK, "--port", str(port),
        *store, "--bus", redis.url, *_options(args.tables),
    ]  # fmt: skip
    # why one folder without PostgreSQL: the SQLite file in it is what they share
    folders = (folder, folder) if postgres is None else (folder / "one", folder / "two")
    with (
        serving(
            [],
            command=[*command, "--data", str(folders[0])],
            environment=environment,
            keep_errors=False,
        ) as one,
        serving(
            [],
            command=[*command, "--data", str(folders[1])],
            environment=environment,
            keep_errors=False,
        ) as two,
    ):
        assert redis.proc is not None
        services = [redis.proc.pid]
        if postgres is not None:
            services += _descendants(_postmaster(postgres))
        return measure(
            one.url, one.pid, args.tables, args.seconds, args.think, True, 2,
            also=[two.pid], services=services,
        )  # fmt: skip


def _line(name: str, runs: list[dict[str, Any]]) -> str:
    def median(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    cpu = [run["server_cpu_ms_per_move"] for run in runs]
    services = [1000 * run["services_cpu_seconds"] / max(1, run["moves"]) for run in runs]
    p50 = statistics.median(run["latency_ms"]["p50"] for run in runs)
    p99 = statistics.median(run["latency_ms"]["p99"] for run in runs)
    errors = sum(run["errors"] for run in runs)
    return (
        f"{name}: {median('moves_per_second'):.0f} moves per second, action -> event p50 "
        f"{p50:.1f} ms, p99 {p99:.1f} ms; server CPU per move {statistics.median(cpu):.3f} ms "
        f"(rounds: {', '.join(f'{value:.3f}' for value in cpu)}; "
        f"{runs[0]['server_processes']} process(es) summed), PostgreSQL and Redis "
        f"{statistics.median(services):.3f} ms per move; window "
        f"{median('window_seconds'):.0f} s; errors {errors}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of 4 clients (100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window (30)")
    parser.add_argument("--think", type=float, default=0.0, help="seconds before a move (0)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default=None)
    parser.add_argument(
        "--workers", type=int, default=0, help="only 1 process against serve --workers N"
    )
    args = parser.parse_args()
    if args.workers:
        workers_main(args)
        return
    results: dict[str, list[dict[str, Any]]] = {
        SQLITE: [],
        CLUSTER: [],
        SQLITE_CLUSTER: [],
        SPLICED: [],
    }
    header = (
        f"bench_distribution.py, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"commit {commit()}, load {os.getloadavg()[0]:.1f} at start; "
        f"{args.tables} tables of 4 bench_server.py clients in 2 processes, "
        f"{'full speed' if not args.think else f'{args.think:g} s thinking (0.5-1.5x)'}, "
        f"{args.rounds} rounds alternating"
    )
    with tempfile.TemporaryDirectory() as temp:
        postgres = Postgres().start()
        redis = RedisServer(Path(temp)).start()
        try:
            for number in range(args.rounds):
                folder = Path(temp) / f"round-{number}"
                results[SQLITE].append(one_sqlite(args, folder / "sqlite"))
                results[CLUSTER].append(one_cluster(args, folder / "cluster", postgres, redis))
                results[SQLITE_CLUSTER].append(one_cluster(args, folder / "shared", None, redis))
                results[SPLICED].append(
                    one_cluster(
                        args, folder / "spliced", postgres, redis, {"FIVECROWNS_HANDOFF": "0"}
                    )
                )
        finally:
            redis.stop()
            postgres.stop()
    single = statistics.median(run["server_cpu_ms_per_move"] for run in results[SQLITE])
    double = statistics.median(run["server_cpu_ms_per_move"] for run in results[CLUSTER])
    shared = statistics.median(run["server_cpu_ms_per_move"] for run in results[SQLITE_CLUSTER])
    spliced = statistics.median(run["server_cpu_ms_per_move"] for run in results[SPLICED])
    lines = [
        header,
        _line(SQLITE, results[SQLITE]),
        _line(CLUSTER, results[CLUSTER]),
        _line(SQLITE_CLUSTER, results[SQLITE_CLUSTER]),
        _line(SPLICED, results[SPLICED]),
        f"server CPU per move, 2 processes on PostgreSQL and Redis / 1 on SQLite: "
        f"{double / single:.2f}x (target <= 1.3x); 2 on SQLite and Redis / 1 on SQLite: "
        f"{shared / single:.2f}x; 2 on PostgreSQL and Redis, bytes passed on / 1 on SQLite: "
        f"{spliced / single:.2f}x",
        f"load {os.getloadavg()[0]:.1f} at the end",
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    write_report(args.out, text)


def workers_main(args: argparse.Namespace) -> None:
    """1 process against ``serve --workers N``, both on SQLite, alternating."""
    name = f"front + {args.workers} workers, SQLite"
    results: dict[str, list[dict[str, Any]]] = {SQLITE: [], name: []}
    header = (
        f"bench_distribution.py --workers {args.workers}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit()}, "
        f"load {os.getloadavg()[0]:.1f} at start; {args.tables} tables of 4 bench_server.py "
        f"clients, {'full speed' if not args.think else f'{args.think:g} s thinking'}, "
        f"{args.rounds} rounds alternating"
    )
    with tempfile.TemporaryDirectory() as temp:
        for number in range(args.rounds):
            folder = Path(temp) / f"round-{number}"
            results[SQLITE].append(one_sqlite(args, folder / "sqlite"))
            results[name].append(one_workers(args, folder / "workers"))
    single = statistics.median(run["server_cpu_ms_per_move"] for run in results[SQLITE])
    split = statistics.median(run["server_cpu_ms_per_move"] for run in results[name])
    lines = [header]
    for key, runs in results.items():
        cpu = [run["server_cpu_ms_per_move"] for run in runs]
        moves = [run["moves_per_second"] for run in runs]
        lines.append(
            f"{key}: {statistics.median(moves):.0f} moves per second "
            f"(rounds: {', '.join(f'{value:.0f}' for value in moves)}), action -> event p50 "
            f"{statistics.median(run['latency_ms']['p50'] for run in runs):.1f} ms, p99 "
            f"{statistics.median(run['latency_ms']['p99'] for run in runs):.1f} ms; server CPU "
            f"per move {statistics.median(cpu):.3f} ms (rounds: "
            f"{', '.join(f'{value:.3f}' for value in cpu)}; "
            f"{runs[0]['server_processes']} process(es) summed); window "
            f"{statistics.median(run['window_seconds'] for run in runs):.0f} s; errors "
            f"{sum(run['errors'] for run in runs)}"
        )
    lines += [
        f"server CPU per move, front + {args.workers} workers / 1 process: "
        f"{split / single:.2f}x (target <= 1.3x)",
        f"load {os.getloadavg()[0]:.1f} at the end",
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
