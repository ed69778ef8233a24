"""What one table of the game server holds in memory as it plays game after game.

Run: .venv/bin/python benchmarks/table_memory.py [--games 5]

A real :class:`fivecrowns.net.server.app.Server` in this process (a SQLite store in a
temporary folder, 4 connections without sockets) plays ``--games`` whole games of 4 at one
table, the way the bench clients play (bench_server.pick_move), a new game after each. After
each game it prints the memory Python holds (tracemalloc, after a full collection, beside
what it held with the table seated and dealt), the table's inputs kept and its log's entries.
No timing: bench_server.py's "KiB per playing table" is read when the cards are dealt, so it
cannot show what a table gathers while it plays.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from _serve import in_process_connections, send_and_take
from bench_server import pick_move
from fivecrowns.net.server.app import Server
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.store import SqliteStore

SEATS = 4


async def play(games: int, folder: Path) -> list[dict[str, Any]]:
    limits = Limits(rate=1e6, burst=1_000_000, bot_delay=0.0)
    server = Server(SqliteStore(folder / "server.sqlite"), limits, seed=1)
    conns = in_process_connections(server, SEATS)
    last: list[dict[str, Any]] = [{} for _ in range(SEATS)]

    def send(seat: int, message: dict[str, Any]) -> None:
        send_and_take(server, conns, seat, message, last)

    for seat in range(SEATS):
        send(seat, {"type": "hello", "v": 1, "name": f"P{seat}"})
    send(0, {"type": "create_table", "seats": SEATS})
    room = next(iter(server.rooms.values()))
    for seat in range(1, SEATS):
        send(seat, {"type": "join", "table": room.id})
    send(0, {"type": "start"})
    await asyncio.sleep(0)
    gc.collect()
    start = tracemalloc.take_snapshot()
    rows = []
    for game in range(games):
        if game:
            send(0, {"type": "new_game"})
        for _move in range(10_000):  # bounded: a game has a few hundred moves
            if room.table.is_over:
                break
            mover = next(s for s in range(SEATS) if last[s].get("legal"))
            action, args = pick_move(last[mover]["legal"])
            last[mover] = {}
            send(mover, {"type": "act", "action": action, "args": args, "seq": room.table.seq})
            await asyncio.sleep(0)  # the store's scheduled save runs, as on a server
        await asyncio.sleep(0)
        gc.collect()
        now = tracemalloc.take_snapshot()
        held = sum(stat.size_diff for stat in now.compare_to(start, "filename"))
        rows.append(
            {
                "games": game + 1,
                "kib_held": held / 1024,
                "inputs_kept": len(room.table.inputs),
                "log_entries": len(room.table.log),
                "moves": len(room.table.game.moves) if room.table.game else 0,
            }
        )
    if hasattr(server, "close_workers"):  # why: the same script measures older servers too
        server.close_workers()
    else:
        server.accounts.close()
    server.store.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as folder:
        rows = asyncio.run(play(args.games, Path(folder)))
    for row in rows:
        print(
            f"table_memory: after {row['games']} games: {row['kib_held']:.0f} KiB more than when "
            f"dealt; {row['inputs_kept']} inputs kept, {row['log_entries']} log entries "
            f"(the last game had {row['moves']} moves)"
        )
    print("json: " + json.dumps(rows))


if __name__ == "__main__":
    main()
