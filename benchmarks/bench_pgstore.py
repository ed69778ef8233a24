"""Issue 29 item 3: what a move costs the server in its store, SQLite against PostgreSQL.

    nice -n 10 .venv/bin/python benchmarks/bench_pgstore.py --out benchmarks/results/pgstore.txt

A move, for the store, is what the server does between a move and its answer: one
``append_input`` and one ``flush`` (one transaction). Each round times ``--moves`` of them on
a fresh store of each kind, in turn, in one run (``--rounds`` rounds, alternating, so the
machine's load falls on all alike):

- ``sqlite``: :class:`SqliteStore` as ``fivecrowns serve`` opens it (WAL, synchronous=NORMAL:
  a commit survives a killed process, not a power cut; no fsync per commit);
- ``postgresql``: :class:`PgStore` as shipped, on a PostgreSQL started here
  (tests/support/pg_support.py) on 127.0.0.1 with its defaults (fsync on); each flush is one
  query string (SET LOCAL synchronous_commit = off; INSERT ...), one implicit transaction in
  one round trip (a commit survives a killed game server; only a crash of PostgreSQL's
  machine may lose its last fraction of a second), the closest to SQLite's guarantee;
- ``postgresql-transaction``: the same flush as psycopg's ``transaction()``: four round trips
  (psycopg's pipeline mode, tried, cost more CPU than these);
- ``postgresql-waiting-for-disk``: the same with ``synchronous_commit = on``, PostgreSQL's
  default: each commit waits for its WAL to be flushed to disk (survives a power cut).

For each: wall time per move, the game server's CPU per move (this process, user + system),
and the PostgreSQL backend's CPU per move (its /proc/PID/stat; PostgreSQL's background writers
are left out). Linux only; runs as root too (PostgreSQL runs as the postgres user then).
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

from _serve import cpu_seconds
from _stats import commit, write_report

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from fivecrowns.net.server.pgstore import PgStore
from fivecrowns.net.server.store import SqliteStore, StoredTable
from pg_support import Postgres

KINDS = ("sqlite", "postgresql", "postgresql-transaction", "postgresql-waiting-for-disk")
# a typical move's input, as the server stores it
MOVE = {"op": "move", "seat": 1, "move": {"kind": "discard", "card": "7 of hearts"}}


class _WaitingForDisk(PgStore):
    """Each commit waits for its WAL on disk (PostgreSQL's default): survives a power cut."""

    _commit_setting = "SET LOCAL synchronous_commit = on"


class _Transaction(PgStore):
    """The flush as psycopg's transaction: four round trips (BEGIN, SET, INSERT, COMMIT)."""

    def flush(self) -> None:
        if not self._pending:
            return
        db = self._connection()
        with db.transaction(), db.cursor() as cursor:
            cursor.execute(self._commit_setting)
            cursor.executemany(
                "INSERT INTO inputs (table_id, idx, command) VALUES (%s, %s, %s)", self._pending
            )
        self._pending = []


def _round(kind: str, moves: int, postgres: Postgres, folder: Path) -> dict[str, float]:
    store: Any
    backend = None
    if kind == "sqlite":
        store = SqliteStore(Path(tempfile.mkdtemp(dir=folder)) / "tables.sqlite3")
    else:
        store = {
            "postgresql": PgStore,
            "postgresql-transaction": _Transaction,
            "postgresql-waiting-for-disk": _WaitingForDisk,
        }[kind](postgres.database())
        backend = store._connection().info.backend_pid
    store.add_table(StoredTable("t1", 4, "p1", "Ann", None, False))
    backend_before = cpu_seconds(backend) if backend else 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for index in range(moves):
        store.append_input("t1", index, MOVE)
        store.flush()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    backend_cpu = (cpu_seconds(backend) - backend_before) if backend else 0.0
    store.close()
    return {"wall": wall / moves, "cpu": cpu / moves, "backend": backend_cpu / moves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-pgstore-"))
    postgres = Postgres(fsync=True).start()
    results: dict[str, list[dict[str, float]]] = {kind: [] for kind in KINDS}
    try:
        for _ in range(args.rounds):
            for kind in KINDS:
                results[kind].append(_round(kind, args.moves, postgres, folder))
    finally:
        postgres.stop()
    load = os.getloadavg()
    lines = [
        "bench_pgstore: the store's cost of one move (append_input + flush, one transaction)",
        f"commit {commit()}; {args.rounds} rounds of {args.moves} moves per kind, alternating; "
        f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; "
        f"os.nice {os.nice(0)}",
        "median over rounds (min-max), milliseconds per move:",
        f"{'kind':<26}{'wall':>22}{'server CPU':>22}{'PostgreSQL backend CPU':>26}",
    ]
    for kind in KINDS:
        cells = []
        for key in ("wall", "cpu", "backend"):
            values = [1000 * r[key] for r in results[kind]]
            cells.append(f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")
        lines.append(f"{kind:<26}{cells[0]:>22}{cells[1]:>22}{cells[2]:>26}")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
