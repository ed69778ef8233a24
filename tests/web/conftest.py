"""The browser tests' fixtures: one Chromium per test module, a server dealt from a fixed seed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_support import Serve, ServerProcess
from web_support import SEED, launch


# name=: the function's own name stays free, so a test's argument does not shadow it
@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    """Chromium, launched once for a test module."""
    yield from launch()


#: What a test's own server is started with unless it says otherwise: the fixed seed, no pause
#: before computer moves, and room for a test's quick keys.
FAST = ("--bot-delay", "0", "--rate", "200", "--seed", SEED)


@pytest.fixture(name="serve")
def serve_fixture() -> Iterator[Serve]:
    """Starts a server of the test's own (``data``: its folder, ``None``: in memory; ``port``:
    a given one, to start again where a stopped one was) with ``FAST`` unless the arguments
    say otherwise (a later option wins); each is stopped after the test, and must not have
    written a traceback."""
    started: list[ServerProcess] = []

    def serve(*extra: str, data: Path | None = None, port: int | None = None) -> ServerProcess:
        args = (*FAST, *extra)
        process = ServerProcess(data, *args, port=port or 0)
        started.append(process.start())
        return process

    yield serve
    # why all before asserting: one server's traceback must not leave the others running
    errors = [process.stop() for process in started]
    for error in errors:
        assert "Traceback" not in error, error


@pytest.fixture(name="server")
def server_fixture(serve: Serve) -> ServerProcess:
    """A server with the fixed seed, no pause before computer moves and a long grace."""
    return serve("--grace", "600")
