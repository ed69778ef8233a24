"""Issue 26 item 1: how far clients that never read grow the server's memory.

Fifty players each make a table of seven seats (six computer players), so the table list
is about 30 KB. Then four raw WebSocket clients say hello and ask for the list 19 times a
second for ``--seconds``, never reading a byte. The server's resident memory is sampled
once a second; the report gives it before the attack and at its highest.

    .venv/bin/python benchmarks/bench_slow_reader.py --seconds 60
    PYTHONPATH=/path/to/old/checkout/src .venv/bin/python benchmarks/bench_slow_reader.py \
        --before-limits

The second form measures another checkout's server with the same attack (the server runs
as ``python -m fivecrowns serve``, so PYTHONPATH chooses its code). Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from server_support import Client, RawClient, ServerProcess, server_memory

ASKS_PER_SECOND = 19
RUDE_CLIENTS = 4
TABLES = 50


async def attack(seconds: float, options: list[str]) -> str:
    server = ServerProcess(None, "--bot-delay", "0", *options).start()
    rude: list[RawClient] = []
    creators: list[Client] = []
    try:
        for number in range(TABLES):
            creator = Client(f"Player {number:02d} with long name")  # 24, the most
            await creator.connect(server.url)
            await creator.send({"type": "create_table", "seats": 7, "bots": ["expert"] * 6})
            await creator.until(lambda message: message["type"] == "seated")
            creators.append(creator)
        watcher = Client("Eve")
        await watcher.connect(server.url)
        await watcher.send({"type": "list_tables"})
        await watcher.until(lambda message: message["type"] == "tables" and message["tables"])
        listing = len(watcher.frames[-1])
        before = highest = server_memory(server)
        for _ in range(RUDE_CLIENTS):
            client = RawClient(server.url)
            client.upgrade()
            client.send({"type": "hello", "v": 1, "name": "Rude"})
            rude.append(client)
        began = time.monotonic()
        asks = 0
        while time.monotonic() - began < seconds:  # bounded by --seconds
            for client in rude:
                # the server may have dropped it: that is the fix working
                with contextlib.suppress(OSError):
                    client.send({"type": "list_tables"})
            asks += 1
            await asyncio.sleep(1 / ASKS_PER_SECOND)
            if asks % ASKS_PER_SECOND == 0:
                highest = max(highest, server_memory(server))
        for client in [*creators, watcher]:
            await client.close()
        return (
            f"table list {listing / 1024:.1f} KB, {RUDE_CLIENTS} clients that never read, "
            f"{asks} asks each in {seconds:.0f} s: server RSS {before / 2**20:.0f} MB before, "
            f"{highest / 2**20:.0f} MB at its highest"
        )
    finally:
        for client in rude:
            client.close()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--before-limits",
        action="store_true",
        help="a server older than --max-per-address (issue 26): start it without that option",
    )
    args = parser.parse_args()
    # why: 55 connections come from 127.0.0.1, over the default of 20 per address
    options = [] if args.before_limits else ["--max-per-address", "0"]
    print(asyncio.run(attack(args.seconds, options)))


if __name__ == "__main__":
    main()
