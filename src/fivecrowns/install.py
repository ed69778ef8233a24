"""How this copy of the game was installed, so that messages name the right command.

A player who installed a wheel with pipx or pip has no ``scripts/setup``; someone
playing from the repository has no pipx. Each message that asks the player to
install something names the command for their own situation.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

__all__ = [
    "Situation",
    "reinstall_command",
    "repository_root",
    "situation",
]

Situation = Literal["repository", "pipx", "pip"]


def repository_root() -> Path | None:
    """The source checkout this package runs from (an editable install), or None."""
    root = Path(__file__).resolve().parents[2]
    if (root / "scripts" / "setup").is_file() and (root / "pyproject.toml").is_file():
        return root
    return None


def situation() -> Situation:
    """'repository' (a checkout set up by scripts/setup), 'pipx' or 'pip'."""
    if repository_root() is not None:
        return "repository"
    # pipx writes this file into each application's environment.
    if (Path(sys.prefix) / "pipx_metadata.json").is_file():
        return "pipx"
    return "pip"


def reinstall_command() -> str:
    """The command that installs the game again, with what it needs from PyPI."""
    where = situation()
    if where == "repository":
        return "bash scripts/setup"
    if where == "pipx":
        return "pipx reinstall fivecrowns"
    return f"{Path(sys.executable).name} -m pip install --force-reinstall fivecrowns"
