"""The conventions of every command (cli.py): --version, exit statuses 1 and 2, a bug said in a
sentence and logged in errors.log (tests/storage/test_errorlog.py has the log itself)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from fivecrowns import cli
from fivecrowns.storage.errorlog import error_log_path

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
