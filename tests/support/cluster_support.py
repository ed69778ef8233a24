"""Two ``fivecrowns serve --bus`` processes on one port, one data folder and a real Redis
(net/server/cluster.py), for the tests of several processes. Every wait is bounded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from redis import Redis

from redis_server import RedisServer, free_port
from server_support import FAST, Client, ServerProcess

__all__ = ["LEASE", "Cluster", "back_past_a_paused_process", "owner_and_spare", "owner_now"]

LEASE = "1"  # seconds: a short lease, so the test's fail-over is quick


def owner_now(redis_url: str, timeout: float = 20.0) -> str:
    """The lease's value once some process holds it."""
    # why the blocking client: callers may be inside an event loop (Playwright's)
    with Redis.from_url(redis_url, decode_responses=True) as redis:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = redis.get("fivecrowns:tables")
            if value is not None:
                return str(value)
            time.sleep(0.05)
    raise AssertionError("no process took the tables")


@contextmanager
def owner_and_spare(
    data: Path,
    redis: RedisServer,
    *options: str,
    lease: str = LEASE,
    owner_options: tuple[str, ...] = (),
    spare_options: tuple[str, ...] = (),
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two processes on ports of their own (so a connection to the spare's surely starts
    there), the first the owner of the tables; both stopped after, and, when the body ended
    well, neither may have printed a traceback."""
    common = (*FAST, *options, "--bus", redis.url, "--lease", lease)
    owner = ServerProcess(data, *common, *owner_options).start()
    try:
        owner_now(redis.url)  # why before the spare starts: the first owns
        spare = ServerProcess(data, *common, *spare_options).start()
    except BaseException:
        owner.stop()
        raise
    try:
        yield owner, spare
    finally:
        errors = owner.stop() + spare.stop()
    assert "Traceback" not in errors, errors


class Cluster:
    """Two serve processes on one port and one data folder; the first owns the tables. As a
    context manager: both stopped after, and no traceback printed when the body ended well."""

    def __init__(self, data: Path, redis: RedisServer, *extra: str) -> None:
        self.port = free_port()
        options = (*FAST, "--grace", "30", *extra, "--bus", redis.url, "--lease", LEASE)
        self.first = ServerProcess(data, *options, port=self.port).start()
        self.owner = owner_now(redis.url)  # why before the second starts: the first owns
        self.second = ServerProcess(data, *options, port=self.port).start()
        self.url = self.first.url
        assert self.second.url == self.url  # one address

    def stop(self) -> str:
        return self.first.stop() + self.second.stop()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        errors = self.stop()
        if kind is None:
            assert "Traceback" not in errors, errors


async def back_past_a_paused_process(
    url: str, old: Client, fan: int = 6, rounds: int = 10, wait: float = 4.0
) -> Client:
    """``old``'s player connected again (its token and last seq) at a cluster's one address
    while one of its processes is paused (SIGSTOP), welcomed by a live one.

    why several handshakes at once: the kernel hands each new connection to one of the
    processes listening on the port (SO_REUSEPORT), the paused one too, whose handshake is
    never answered. One try at a time, each miss cost ``wait`` seconds, and seven or eight
    misses in a row (about one run in 200 at one chance in two) kept the player away for
    longer than the grace (30 s): a computer stood in, the computers (no bot delay)
    finished the game, and the finished table was forgotten, so the hello found no seat
    (welcome, table_gone, then no snapshot: issue 29's flake). Now ``fan`` handshakes go at
    once and the first answered is kept (the others closed unanswered, so only one says
    hello): a round misses only if all of them reach the paused process. Bounded: ``rounds``
    rounds of ``wait`` seconds."""
    for _round in range(rounds):
        tries = [Client(old.name) for _ in range(fan)]
        pending = {
            asyncio.ensure_future(client.connect(url, hello=False)): client for client in tries
        }
        answered: Client | None = None
        waiting = set(pending)
        deadline = time.monotonic() + wait
        try:
            for _answer in range(fan):  # why: a refused handshake ends first; wait for the next
                left = deadline - time.monotonic()
                if answered is not None or not waiting or left <= 0:
                    break
                done, waiting = await asyncio.wait(
                    waiting, timeout=left, return_when=asyncio.FIRST_COMPLETED
                )
                for task in done:
                    if answered is None and task.exception() is None:
                        answered = pending[task]
        finally:
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            for client in tries:
                if client is not answered:
                    await client.close()
        if answered is not None:
            answered.token, answered.seq = old.token, old.seq
            await answered.say_hello()
            return answered
    raise AssertionError(f"no live process answered in {rounds} rounds of {fan} tries")
