"""Issue 26 item 8: the server's time from start to listening with a big SQLite store.

    nice -n 10 .venv/bin/python benchmarks/bench_startup.py --out benchmarks/results/startup.txt
    nice -n 10 .venv/bin/python benchmarks/bench_startup.py --src ../main/src   # another tree
    nice -n 10 .venv/bin/python benchmarks/bench_startup.py --open 20000   # every table open

The store is written directly through :class:`SqliteStore` (no server makes it), once, and
kept in the temp folder for the next runs (``--cache`` names another folder):
``--players`` anonymous players (the rows a ``hello`` stored before, each a hex id, a name
and a SHA-256 token hash) and ``--tables`` tables, of which the first ``--open`` are
unfinished (set again at each run, so one store serves every ``--open``; the default 1,000
is the server's default ``--max-tables``, the most it holds at once) and the rest finished.
Every table is a real game of 2 seats (its creator and an easy computer player) with
``--moves`` moves played, its inputs made by :class:`fivecrowns.table.Table` (so a replay is
real work); each finished table is one the server closed (``finished = 1``), as a long-lived
server accumulates.

Each run starts ``fivecrowns serve --port 0`` on that store in a fresh process and times it
from the spawn to the line saying where it listens (recovery happens before it: aiohttp's
startup runs before the socket opens); the CPU time (user + system) and the peak memory are
read from ``/proc`` at that moment. An empty store is timed the same way, for the
interpreter and imports. ``--src`` runs another checkout's code (its ``src`` first on
``PYTHONPATH``) on the same store: the "before" figures. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _serve import cpu_seconds, peak_mb, serving
from _stats import commit, write_report
from fivecrowns.core.codec import move_from_json
from fivecrowns.net.server.store import SqliteStore, StoredPlayer, StoredTable
from fivecrowns.table import Table


def one_game_inputs(moves: int, creator: str) -> list[dict[str, Any]]:
    """The inputs of a 2-seat table (``creator`` and an easy computer) after ``moves`` moves."""
    table = Table(2, creator_name="Ann", creator_id=creator)
    table.add_bot("easy")
    table.start(seed=7)
    for _move in range(moves):
        if table.is_over:
            break
        if table.bot_due() is not None:
            table.step_bot()
            continue
        legal = table.legal(0)
        table.act(creator, move_from_json(legal[0]))
    return table.inputs


def make_store(path: Path, players: int, tables: int, moves: int) -> None:
    """The store a long-lived server leaves, written by :class:`SqliteStore` itself: its
    players, then its tables with their inputs, every one finished (``main`` sets how many
    are not, at each run)."""
    store = SqliteStore(path)
    db = store._db  # why: one commit a row (the server's way) would take many minutes here
    db.execute("PRAGMA synchronous=OFF")
    template = one_game_inputs(moves, "CREATOR")
    texts = [json.dumps(command, separators=(",", ":")) for command in template]
    batch = 10_000
    for first in range(0, players, batch):
        db.execute("BEGIN")
        for n in range(first, min(players, first + batch)):
            token_hash = hashlib.sha256(f"token {n}".encode()).hexdigest()
            store.add_player(StoredPlayer(f"{n:016x}", f"Visitor {n}", token_hash))
        db.execute("COMMIT")
    batch = 500
    for first in range(0, tables, batch):
        numbers = range(first, min(tables, first + batch))
        db.execute("BEGIN")
        for number in numbers:
            creator = f"{number:016x}"  # one of the players above
            store.add_table(StoredTable(f"{number:08x}", 2, creator, "Ann", None, False))
        db.execute("COMMIT")
        for number in numbers:
            creator = f"{number:016x}"
            for index, text in enumerate(texts):
                store.append_input(
                    f"{number:08x}", index, json.loads(text.replace("CREATOR", creator))
                )
        store.flush()  # one transaction for the batch's inputs, as the server's flush
        db.execute("BEGIN")
        for number in numbers:
            store.finish_table(f"{number:08x}")  # as the server's sweep closes a table
        db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()


def cached_store(folder: Path, players: int, tables: int, moves: int) -> float:
    """Make the store in ``folder`` unless a whole one is there; seconds it took (0 if none)."""
    done = folder / "complete"
    if done.exists():
        return 0.0
    for leftover in folder.glob("tables.sqlite3*"):  # a build that was stopped half-way
        leftover.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    make_store(folder / "tables.sqlite3", players, tables, moves)
    done.write_text("made by benchmarks/bench_startup.py\n")
    return time.perf_counter() - began


def time_start(data: Path, src: str | None) -> dict[str, float]:
    began = time.perf_counter()
    with serving(["--data", str(data)], src=src) as server:
        wall = time.perf_counter() - began  # why here: serve prints its address once listening
        cpu, peak = cpu_seconds(server.pid), peak_mb(server.pid)
    return {"wall_s": wall, "cpu_s": cpu, "peak_mb": peak}


def summary(runs: list[dict[str, float]]) -> str:
    parts = []
    for key, unit in (("wall_s", "s wall"), ("cpu_s", "s CPU"), ("peak_mb", "MB peak")):
        values = [run[key] for run in runs]
        parts.append(f"{statistics.median(values):.2f} {unit} (min {min(values):.2f})")
    return ", ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--open", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--src", default=None, help="another checkout's src to run instead")
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="the folder of the store, made once and reused (default: one in the temp folder "
        "named after --players, --tables and --moves)",
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    name = f"fivecrowns-bench-startup-{args.players}-{args.tables}-{args.moves}"
    folder = args.cache or Path(tempfile.gettempdir()) / name
    store = folder / "tables.sqlite3"
    made = cached_store(folder, args.players, args.tables, args.moves)
    with tempfile.TemporaryDirectory() as temp:
        with sqlite3.connect(store) as db:  # why here: one store made once serves every --open
            db.execute(
                "UPDATE tables SET finished = CASE WHEN rowid <= ? THEN 0 ELSE 1 END", (args.open,)
            )
            db.execute("DELETE FROM set_aside")
        empty = Path(temp) / "empty"
        empty.mkdir()
        bare = [time_start(empty, args.src) for _run in range(args.runs)]
        big = [time_start(folder, args.src) for _run in range(args.runs)]
        size = store.stat().st_size / 1e6
    lines = [
        f"bench_startup.py, commit {commit()}"
        + (f", code from {args.src}" if args.src else "")
        + f", Python {sys.version.split()[0]}, {args.runs} runs each (median, min)",
        f"store: {args.players:,} anonymous players, {args.tables:,} tables "
        f"({args.open:,} unfinished, each {args.moves} moves into a 2-seat game), "
        f"{size:.0f} MB" + (f", made in {made:.0f} s" if made else ""),
        f"empty store:  {summary(bare)}",
        f"big store:    {summary(big)}",
        "time to listen = spawn to the listening line; CPU and peak memory from /proc then",
    ]
    load = "load average after: " + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    lines.append(load + f" ({os.cpu_count()} cores)")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
