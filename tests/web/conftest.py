"""The browser tests' fixtures: one Chromium per test module, a server dealt from a fixed seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server_support import ServerProcess
from web_support import SEED, launch


# name=: the function's own name stays free, so a test's argument does not shadow it
@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    """Chromium, launched once for a test module."""
    yield from launch()


@pytest.fixture(name="server")
def server_fixture() -> Iterator[ServerProcess]:
    """A server with the fixed seed, no pause before computer moves and a long grace."""
    process = ServerProcess(
        None, "--bot-delay", "0", "--rate", "200", "--seed", SEED, "--grace", "600"
    ).start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors
