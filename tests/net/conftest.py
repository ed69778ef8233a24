"""The net tests' fixtures: a fast server process on loopback and its data folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server_support import FAST, ServerProcess


# name=: the function's own name stays free, so a test's argument does not shadow it
@pytest.fixture(name="data")
def data_fixture(tmp_path: Path) -> Path:
    """The server's data folder (its database and history file), new for each test."""
    return tmp_path / "server"


@pytest.fixture(name="server")
def server_fixture(data: Path) -> Iterator[ServerProcess]:
    """A fast server on ``data``, with a one-second grace for a dropped connection."""
    process = ServerProcess(data, *FAST, "--grace", "1").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors
