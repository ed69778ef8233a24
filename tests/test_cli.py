"""The conventions of every command: --version, exit statuses 1 and 2, errors.log."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from fivecrowns import cli
from fivecrowns.storage.errorlog import BACKUPS, MAX_BYTES, error_log_path, log_dir, log_error

ROOT = Path(__file__).resolve().parent.parent


def test_version_comes_from_the_installed_metadata_written_once_in_pyproject() -> None:
    written = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = subprocess.run(
        [sys.executable, "-m", "fivecrowns", "--version"], capture_output=True, text=True
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, f"fivecrowns {written}\n", "")
    import fivecrowns

    assert fivecrowns.__version__ == written
    # nowhere else in the package: the version is read, not repeated
    for path in (ROOT / "src" / "fivecrowns").rglob("*.py"):
        assert f'"{written}"' not in path.read_text(encoding="utf-8"), path


def test_a_usage_error_is_status_2_and_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["solve", "--no-such-option"])
    assert caught.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_bug_is_a_sentence_status_1_and_a_log_entry_with_a_timestamp(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecrowns.commands import history

    def broken(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(history, "run", broken)
    assert cli.main(["history"]) == 1
    err = capsys.readouterr().err
    assert (
        err
        == cli.BUG.format(command="history", error="ZeroDivisionError", path=error_log_path())
        + "\n"
    )
    logged = error_log_path().read_text(encoding="utf-8")
    assert re.match(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ERROR fivecrowns history failed\n", logged
    )
    assert "Traceback" in logged and "ZeroDivisionError: division by zero" in logged


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
