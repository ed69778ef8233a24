"""Shared test set-up: no test reads or writes the real player's files."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_and_config_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # why: autosaves, history, errors.log and settings.json otherwise land in the real home folder.
    base: Path = tmp_path_factory.mktemp("fivecrowns-home")
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(base / "config"))
