"""Starting and stopping ``fivecrowns serve`` for a benchmark, or serving connections in the
benchmark's own process without sockets, and reading a process's CPU time and memory from
/proc (Linux).

The scripts run as ``python benchmarks/bench_x.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fivecrowns.net.server.app import Server
    from fivecrowns.net.server.connection import Connection

__all__ = [
    "LOOPBACK",
    "NoSocket",
    "Served",
    "cpu_seconds",
    "in_process_connections",
    "peak_mb",
    "rss_kib",
    "send_and_take",
    "serving",
]

LOOPBACK = "127.0.0.1"
_LISTENING = re.compile(r"ws://127\.0\.0\.1:(\d+)/ws")


@dataclass
class Served:
    """A running server: its process, its ``ws://`` address, and (once stopped) its stderr."""

    process: subprocess.Popen[str]
    url: str
    errors: str = ""

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def http(self) -> str:
        """The web page's address."""
        return self.url.replace("ws://", "http://").removesuffix("ws")


@contextmanager
def serving(
    options: Sequence[str],
    *,
    src: str | None = None,
    environment: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    command: Sequence[str] | None = None,
    keep_errors: bool = True,
) -> Iterator[Served]:
    """``fivecrowns serve --host 127.0.0.1 --port 0 OPTIONS`` (or ``command``, which must
    print its ``ws://127.0.0.1:PORT/ws`` address on its first line, as serve does), stopped
    with SIGTERM (then SIGKILL after 30 s) when the block ends; ``src`` is put first on the
    server's PYTHONPATH, to measure another checkout's code; with ``keep_errors`` False the
    server's stderr is this terminal's, not ``Served.errors``."""
    env = {**os.environ, **(environment or {}), "PYTHONUNBUFFERED": "1"}
    if src is not None:
        env["PYTHONPATH"] = src
    if command is None:
        command = [sys.executable, "-m", "fivecrowns", "serve", "--host", LOOPBACK, "--port", "0"]
        command = [*command, *options]
    stderr = subprocess.PIPE if keep_errors else None
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env, cwd=cwd
    )
    served = Served(process, "")
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # why no loop: the first line is the listening one
        found = _LISTENING.search(line)
        if found is None:
            raise SystemExit(f"the server did not start: {line!r}")
        served.url = f"ws://{LOOPBACK}:{found.group(1)}/ws"
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            _, errors = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            _, errors = process.communicate(timeout=10)
        served.errors = errors or ""


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a running process (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def rss_kib(pid: int) -> int:
    """A running process's resident memory now, in KiB."""
    return _status(pid, "VmRSS")


def peak_mb(pid: int) -> float:
    """A running process's peak resident memory, in MB (VmHWM)."""
    return _status(pid, "VmHWM") / 1024


class NoSocket:
    """Stands in for aiohttp's WebSocketResponse of a connection served in this process: the
    benchmark takes its frames off its queue itself (``Connection.take``); nothing is sent."""

    async def close(self, **_: Any) -> None:
        pass


def in_process_connections(
    server: Server, count: int, saved: Callable[[], bool] | None = None
) -> list[Connection]:
    """``count`` connections to ``server``, a Server in this process, each on a
    :class:`NoSocket`; ``saved``: what each one's writer would call before it sends (the
    server's ``_save``), if the benchmark counts it."""
    # why imported here: a script that starts its own server process (bench_floor.py's floor
    # server) must not load the game's server for it
    from fivecrowns.net.server.connection import Connection

    if saved is None:
        return [Connection(NoSocket(), server.limits) for _ in range(count)]  # type: ignore[arg-type]
    return [Connection(NoSocket(), server.limits, saved) for _ in range(count)]  # type: ignore[arg-type]


def send_and_take(
    server: Server,
    conns: Sequence[Connection],
    seat: int,
    message: dict[str, Any],
    last: list[dict[str, Any]],
) -> list[tuple[int, bytes, dict[str, Any]]]:
    """``message`` from ``conns[seat]``, handled whole by ``server``; then every frame queued on
    each connection, taken off: (the connection's index, its bytes, the frame decoded). Each
    connection's newest snapshot is kept in ``last``; a refusal ends the benchmark."""
    server.receive(conns[seat], json.dumps(message).encode())
    taken: list[tuple[int, bytes, dict[str, Any]]] = []
    for index, conn in enumerate(conns):
        while conn.queue:
            data = conn.take()
            assert data is not None
            frame = json.loads(data)
            if frame["type"] == "error":
                raise SystemExit(f"the server refused {message}: {data!r}")
            if frame["type"] == "snapshot":
                last[index] = frame
            taken.append((index, data, frame))
    return taken
