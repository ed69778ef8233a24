"""The dependency scheme: ranges in pyproject.toml for users, exact pins in constraints.txt.

constraints.txt's top comment tells a contributor how to add a dependency; these tests hold
every contributor to it.
"""

from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][A-Za-z0-9.+!-]*)$")


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for number, raw in enumerate((ROOT / "constraints.txt").read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = PIN.match(line)
        assert match, f"constraints.txt line {number} is not name==version: {raw!r}"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"constraints.txt pins {name} twice"
        pins[name] = match.group(2)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    texts = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        texts += extra
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    return [Requirement(text) for text in [*texts, *build]]


def test_every_requirement_is_a_range_with_an_exact_pin_inside_it() -> None:
    pins = _pins()
    for requirement in _requirements():
        name = canonicalize_name(requirement.name)
        if name == "fivecrowns":
            continue  # the dev extra includes the progress extra by naming the project
        specifiers = list(requirement.specifier)
        assert specifiers, f"{requirement} has no version range"
        assert all(s.operator not in ("==", "===") for s in specifiers), (
            f"{requirement}: pyproject.toml takes ranges; the exact pin goes in constraints.txt"
        )
        assert name in pins, f"{requirement} has no pin in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]}, outside {requirement}"
        )


def test_tqdm_is_only_in_the_progress_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(Requirement(t).name == "tqdm" for t in project["dependencies"])
    assert [Requirement(t).name for t in project["optional-dependencies"]["progress"]] == ["tqdm"]


def test_the_environment_scripts_setup_made_holds_exactly_the_pinned_versions() -> None:
    if not (Path(sys.prefix) / ".fivecrowns-stamp").is_file():
        pytest.skip("this Python environment was not made by scripts/setup")
    pins = _pins()
    for distribution in metadata.distributions():
        name = canonicalize_name(distribution.metadata["Name"])
        # why: venv puts its own pip (and, before 3.12, setuptools) in; setup upgrades pip only.
        if name in ("fivecrowns", "pip", "setuptools"):
            continue
        assert name in pins, f"{name} is installed but not pinned in constraints.txt"
        assert pins[name] == distribution.version, (
            f"{name} {distribution.version} is installed, constraints.txt pins {pins[name]}"
        )
