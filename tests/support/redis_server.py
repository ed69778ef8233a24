"""A real Redis for the tests: Debian's ``redis-server`` on 127.0.0.1, a free port, a temporary
folder, no persistence; stopped (or killed and started again) by the test itself.

With CI=true a missing ``redis-server`` fails the test (scripts/apt-packages.txt installs
it); otherwise the test is skipped with the reason. Every wait is bounded in time.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["RedisServer", "free_port", "redis_server"]

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


def _program() -> str:
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        message = "redis-server is not installed (Debian package redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + "; CI must have it: scripts/apt-packages.txt")
        pytest.skip(message)
    return found


class RedisServer:
    """One ``redis-server`` process; :meth:`kill9` and :meth:`start` again keep its port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.program = _program()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def start(self, timeout: float = 15.0) -> RedisServer:
        self.proc = subprocess.Popen(
            [
                self.program,
                "--bind",
                LOOPBACK,
                "--port",
                str(self.port),
                "--dir",
                str(self.folder),
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--protected-mode",
                "yes",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"redis-server exited with {self.proc.returncode}")
            try:
                with socket.create_connection((LOOPBACK, self.port), timeout=1.0) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"redis-server did not answer within {timeout} s")

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder).start()
    try:
        yield server
    finally:
        server.stop()
