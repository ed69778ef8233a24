"""scripts/setup: Python 3.11+ checked first, a .venv of another Python made again, quiet.

Runs the real script in a copy of the project in a temporary folder, with the pyenv
Pythons of the machine image (CI has them; without them the tests skip outside CI).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.real

ROOT = Path(__file__).resolve().parents[2]


def _python(version: str) -> str:
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(pyenv.glob(f"{version}.*/bin/python{version}"))
    on_path = shutil.which(f"python{version}")
    candidates = [str(p) for p in found] + ([on_path] if on_path else [])
    for candidate in candidates:
        result = subprocess.run([candidate, "-V"], capture_output=True, text=True, check=False)
        if result.returncode == 0 and result.stdout.startswith(f"Python {version}."):
            return candidate
    if os.environ.get("CI") == "true":
        pytest.fail(f"Python {version} must be installed in CI (the machine image's pyenv has it)")
    pytest.skip(f"Python {version} is not installed")


def _copy_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    for name in (
        "pyproject.toml",
        "setup.py",
        "constraints.txt",
        "README.md",
        "LICENSE",
        "MANIFEST.in",
    ):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "scripts", project / "scripts")
    shutil.copytree(
        ROOT / "src",
        project / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so"),
    )
    return project


def _without_dpkg(tmp_path: Path) -> str:
    """A PATH like this one but without dpkg-query, as on a system that is not Debian."""
    folder = tmp_path / "bin-without-dpkg"
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if not Path(directory).is_dir():
            continue
        for program in Path(directory).iterdir():
            target = folder / program.name
            if program.name != "dpkg-query" and not target.exists():
                target.symlink_to(program)
    return str(folder)


def _setup(project: Path, python: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": python, "PATH": path or os.environ["PATH"]}
    env.pop("FIVECROWNS_VENV", None)
    return subprocess.run(
        ["bash", "scripts/setup"], cwd=project, env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip


def test_python_3_10_gets_one_sentence_saying_what_to_install(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    result = _setup(project, _python("3.10"))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("setup: Five Crowns needs Python 3.11 or newer and ")
    assert "is Python 3.10." in lines[0] and lines[0].endswith("and run this again.")
    assert not (project / ".venv").exists()  # nothing made before the check


@pytest.mark.slow
def test_a_venv_made_by_python_3_10_is_made_again_with_3_11_quietly(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    subprocess.run([_python("3.10"), "-m", "venv", str(project / ".venv")], check=True)
    # without dpkg (not Debian), what to install is said in words
    result = _setup(project, _python("3.11"), _without_dpkg(tmp_path))
    assert result.returncode == 0, result.stderr + (project / ".setup.log").read_text()
    assert result.stdout == ""
    said = result.stderr.splitlines()
    assert said[0].startswith("setup: this is not a Debian system, so install these yourself")
    assert "Speech Dispatcher, which speaks for Orca and for the game; " in said[0]
    assert "tmux" not in said[0]  # only the tests need it
    assert said[1].startswith("setup: making .venv again with Python 3.11.")
    assert "(it was made with 3.10." in said[1]
    assert len(said) <= 5, said  # quiet: the details are in the log
    assert "Successfully installed" in (project / ".setup.log").read_text()
    version = subprocess.run(
        [str(project / ".venv" / "bin" / "fivecrowns"), "--version"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert version.stdout.startswith("fivecrowns ")
    # playing needs no development tools
    assert not (project / ".venv" / "bin" / "pytest").exists()
    # run again: nothing to do, nothing said
    again = _setup(project, _python("3.11"))
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_a_failing_step_shows_the_end_of_the_log(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    # a pin that cannot exist: pip fails, and the player sees why
    with (project / "constraints.txt").open("a") as constraints:
        constraints.write("prompt-toolkit==0.0.0\n")
    result = _setup(project, _python("3.11"))
    assert result.returncode == 1
    assert "setup: this step failed:" in result.stderr
    assert f"the whole log is {project / '.setup.log'}" in result.stderr
    assert "prompt-toolkit==0.0.0" in result.stderr or "prompt_toolkit" in result.stderr
