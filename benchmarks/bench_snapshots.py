"""What a snapshot to everyone after every change costs the server (issue 25 item 2).

Run: nice -n 10 .venv/bin/python benchmarks/bench_snapshots.py [--games N] [--out FILE]
Committed output: benchmarks/results/snapshots.txt. Not part of the tests.

In one process, with no network: tables of 4 computer players (3 ``simple`` and the one
that takes the creator's seat when they leave) play whole games with
:class:`fivecrowns.table.Table`; after each move the snapshot frames are built and encoded
as the server's ``send_snapshots`` builds them (``Room.snapshot_frame``: ``Table.snapshot``
and msgspec), for

- before: only the seat now to play (and every seat at a deal and at game over), as the
  server did before issue 25;
- after: every seat and one spectator after every move, as it does now.

CPU time (``time.process_time``) and wall time (``time.perf_counter``) of building the
frames alone are summed over every move and divided by the moves; the bytes built per move
are counted too (the bytes the server sends per move and per connection). Every loop is
bounded: ``--games`` games of at most a few thousand moves each.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from _stats import commit, write_report
from fivecrowns.net.protocol import Snapshot, encode
from fivecrowns.table import Table

SEATS = 4


def frame(table: Table, seat: int | None) -> bytes:
    return encode(Snapshot(table="t", **table.snapshot(seat)))


def run(games: int) -> str:
    load_before = os.getloadavg()[0]
    moves = 0
    cpu = {"before": 0.0, "after": 0.0}
    wall = {"before": 0.0, "after": 0.0}
    sent = {"before": 0, "after": 0}
    for game in range(games):
        table = Table(SEATS, creator_name="Ann", creator_id="p1")
        for _ in range(SEATS - 1):
            table.add_bot("simple")
        table.start(seed=1000 + game)
        table.leave("p1")  # why: a computer player plays seat 0 from now on, as at a server
        for _step in range(10_000):
            if table.game is None or table.game.is_over:
                break
            before = table.seq
            table.step_bot()
            entries = table.log[before:]
            moves += 1
            game_now = table.game
            current = game_now.current_player if not game_now.is_over else None
            dealt = any(e.kind in ("round_started", "game_over") for e in entries)
            seats_before = [s for s in range(SEATS) if dealt or s == current]
            for policy, viewers in (
                ("before", seats_before),
                ("after", [*range(SEATS), None]),
            ):
                c0, w0 = time.process_time(), time.perf_counter()
                built = [frame(table, viewer) for viewer in viewers]
                cpu[policy] += time.process_time() - c0
                wall[policy] += time.perf_counter() - w0
                sent[policy] += sum(len(b) for b in built)
    lines = [
        "bench_snapshots: the snapshot frames built after each move, before and after issue 25",
        f"  machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}; commit {commit()}",
        f"  {games} games of {SEATS} computer players, {moves} moves",
    ]
    for policy in ("before", "after"):
        lines.append(
            f"  {policy}: CPU {cpu[policy] / moves * 1000:.3f} ms per move, "
            f"wall {wall[policy] / moves * 1000:.3f} ms per move, "
            f"{sent[policy] / moves / 1024:.1f} KiB built per move"
        )
    extra = (cpu["after"] - cpu["before"]) / moves * 1000
    lines.append(f"  added: CPU {extra:.3f} ms per move")
    # why: wall time on a shared machine grows with its load; the CPU time is the figure
    lines.append(f"  load average before {load_before:.2f}, after {os.getloadavg()[0]:.2f}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    text = run(args.games)
    print(text, end="")
    write_report(args.out, text)


if __name__ == "__main__":
    main()
