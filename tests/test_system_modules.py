"""Debian-only bindings (louis, speechd) are found from an environment that cannot see them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivecrowns.system_modules import SYSTEM_MODULES, import_system_module, system_dirs


def _system_copy(name: str) -> Path | None:
    for directory in system_dirs():
        if (directory / name / "__init__.py").is_file():
            return directory / name
    return None


@pytest.mark.real
@pytest.mark.parametrize("name", sorted(SYSTEM_MODULES))
def test_a_binding_only_the_system_has_is_loaded_from_the_system_folder(name: str) -> None:
    found = _system_copy(name)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SYSTEM_MODULES[name]} must be installed in CI")
        pytest.skip(f"the {name} module is not installed ({SYSTEM_MODULES[name]})")
    # A fresh interpreter with no site-packages of the system: only our finder can reach it.
    code = (
        "import sys; from fivecrowns.system_modules import import_system_module as load; "
        f"module = load({name!r}); print(module.__file__); "
        "print(any('dist-packages' in p or p.startswith('/usr/lib/python3') for p in sys.path))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": os.environ["PATH"]},
    )
    location, system_on_path = result.stdout.split()
    assert Path(location).parent == found
    assert system_on_path == "False"  # one package loaded, the system folder never on sys.path


def test_a_module_hidden_on_purpose_stays_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "louis", None)
    with pytest.raises(ImportError):
        import_system_module("louis")


def test_a_module_nobody_has_raises_the_import_error() -> None:
    with pytest.raises(ImportError, match="no_such_binding"):
        import_system_module("no_such_binding")
