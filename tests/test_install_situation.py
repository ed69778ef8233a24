"""Messages name the install command of the player's situation: repository, pipx or pip."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fivecrowns import install
from fivecrowns.output.base import OutputError


def test_from_the_repository_the_command_is_the_setup_script() -> None:
    assert install.repository_root() == Path(__file__).resolve().parents[1]
    assert install.situation() == "repository"
    assert install.reinstall_command() == "bash scripts/setup"


def test_a_pipx_install_is_told_pipx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install, "repository_root", lambda: None)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    (tmp_path / "pipx_metadata.json").write_text("{}")
    assert install.situation() == "pipx"
    assert install.reinstall_command() == "pipx reinstall fivecrowns"


def test_a_pip_install_is_told_pip_never_a_repository_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(install, "repository_root", lambda: None)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert install.situation() == "pip"
    command = install.reinstall_command()
    assert command.endswith("-m pip install --force-reinstall fivecrowns")
    assert "scripts/" not in command


def test_a_missing_pyttsx3_names_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from fivecrowns.output.tts import Pyttsx3Renderer

    monkeypatch.setattr(install, "repository_root", lambda: None)
    monkeypatch.setattr(sys, "prefix", "/nowhere")
    monkeypatch.setitem(sys.modules, "pyttsx3", None)
    with pytest.raises(OutputError) as caught:
        Pyttsx3Renderer()
    message = str(caught.value)
    assert message.startswith("pyttsx3 is not installed (")
    assert message.endswith("install the game again with: " + install.reinstall_command() + ".")
