"""errors.log (storage/errorlog.py): it rotates and keeps a few files, it is in the
platform's log folder unless told otherwise, and a folder that cannot be written costs only
the log.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fivecrowns.storage.errorlog import BACKUPS, MAX_BYTES, log_dir, log_error


def test_the_log_rotates_and_keeps_a_few_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIVECROWNS_LOG_DIR", str(tmp_path))
    assert log_dir() == tmp_path
    try:
        raise ValueError("x" * 20_000)
    except ValueError as error:
        for _ in range(3 * MAX_BYTES // 20_000):
            assert log_error("a long error", error) == tmp_path / "errors.log"
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["errors.log"] + [f"errors.log.{n}" for n in range(1, BACKUPS + 1)]
    assert all(path.stat().st_size <= MAX_BYTES for path in tmp_path.iterdir())


def test_without_overrides_the_log_is_in_the_platform_log_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import platformdirs

    monkeypatch.delenv("FIVECROWNS_LOG_DIR", raising=False)
    monkeypatch.delenv("FIVECROWNS_DATA_DIR", raising=False)
    assert log_dir() == Path(platformdirs.user_log_dir("fivecrowns", appauthor=False))


def test_an_unwritable_log_folder_costs_only_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("x")
    monkeypatch.setenv("FIVECROWNS_LOG_DIR", str(blocked / "sub"))
    assert log_error("anything", RuntimeError("x")) is None
