"""The Orca tests run once per CI run: with the first Python only (scripts/test), never skipped
there. Why: they check the web page, which no Python version changes, and they are the slowest
and most load-bound tests (a real screen reader over a whole round, tests/web/test_orca.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORCA_TESTS = "tests/web/test_orca.py"


def collected(*options: str) -> list[str]:
    """The test ids pytest would run in the Orca tests' file with these options."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            *options,
            ORCA_TESTS,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_orca_tests_are_marked_so_the_other_pythons_leave_them_out() -> None:
    assert collected(), "the first Python collects the Orca tests"
    assert collected("-m", "not orca") == []


def test_scripts_test_leaves_them_out_on_the_other_pythons_only() -> None:
    script = (ROOT / "scripts" / "test").read_text()
    runs = [line for line in script.splitlines() if re.search(r"bin/pytest\"? ", line)]
    first = [line for line in script.splitlines() if re.match(r'.*echo "== pytest"; pytest ', line)]
    assert first and all("not orca" not in line for line in first), "the first runs them"
    assert runs and all('-m "not orca"' in line for line in runs), "the others leave them out"
