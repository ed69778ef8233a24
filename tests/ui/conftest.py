"""The ui tests' fixtures: the server the ``join`` clients play on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server_support import FAST, ServerProcess


# name=: the function's own name stays free, so a test's argument does not shadow it
@pytest.fixture(name="server")
def join_server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fast server with a 30-second grace for a dropped connection."""
    process = ServerProcess(tmp_path / "server", *FAST, "--grace", "30").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors
