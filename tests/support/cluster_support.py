"""Two ``fivecrowns serve --bus`` processes on one port, one data folder and a real Redis
(net/server/cluster.py), for the tests of several processes. Every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from redis import Redis

from redis_server import RedisServer, free_port
from server_support import FAST, ServerProcess

__all__ = ["LEASE", "Cluster", "owner_and_spare", "owner_now"]

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
