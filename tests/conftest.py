"""Shared test set-up: no test reads or writes the real player's files."""

from __future__ import annotations

from collections.abc import Iterator
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


@pytest.fixture(autouse=True)
def _english_unless_a_test_asks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # why: the transcripts the tests compare are English; a developer whose system speaks
    # Spanish must get the same results, and a test that sets the language must not leak it.
    from fivecrowns import i18n

    # LANGUAGE comes first (fivecrowns.i18n.language_from_environment); LANG stays, since
    # tmux and the terminal need its UTF-8 encoding
    monkeypatch.setenv("LANGUAGE", "en")
    i18n.set_language("en")
    yield
    # why again after: the package's doctests (src/) run without this fixture, so a test
    # that left Spanish on (set_language, a command's --language es) made them fail
    i18n.set_language("en")
