"""The folders are the layers (docs/design.md): the contracts hold, and big modules say why.

scripts/test runs ``lint-imports`` itself; running it here too means a plain ``pytest`` (a
packager's, or one test file's run) also fails on an import that goes up a layer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "fivecrowns"
#: "About 700 lines" (issue 24): a module longer than this says why at its top.
LONGEST = 720
REASON = "One file ("


def _lint_imports() -> str | None:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    return found or shutil.which("lint-imports")


def test_the_layers_contracts_hold() -> None:
    command = _lint_imports()
    if command is None:
        if os.environ.get("CI") == "true":
            pytest.fail("lint-imports (import-linter, a dev dependency) is not installed")
        pytest.skip("import-linter is not installed here: pip install -e '.[dev]'")
    result = subprocess.run(
        [command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "The folders are the layers KEPT" in result.stdout


def _sources() -> list[Path]:
    return sorted(
        path
        for path in PACKAGE.rglob("*")
        if path.suffix in {".py", ".js", ".c"} and "__pycache__" not in path.parts
    )


def test_a_module_over_about_700_lines_says_at_its_top_why_it_is_one_file() -> None:
    sources = _sources()
    assert any(path.name == "game.py" for path in sources)
    silent = []
    for path in sources:
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > LONGEST and REASON not in lines[0]:
            silent.append(f"{path.relative_to(ROOT)} ({len(lines)} lines)")
    assert silent == []


def test_the_old_single_files_are_gone() -> None:
    # ui/session.py became a package; the rules left the package root for core/
    assert (PACKAGE / "ui" / "session").is_dir()
    assert not (PACKAGE / "ui" / "session.py").exists()
    for moved in ("solitaire_ai.py", "melds_reference.py", "savefile.py", "protocol.py"):
        assert not (PACKAGE / moved).exists(), moved
