"""Python bindings that only the operating system ships: ``louis`` and ``speechd``.

liblouis's ``louis`` and Speech Dispatcher's ``speechd`` are not on PyPI; Debian
ships them as python3-louis and python3-speechd in the system Python's folder,
which a virtual environment (a pipx install, a wheel in a venv) does not see.
Both are pure Python over a C library or a socket, so they work from any
Python 3. :func:`import_system_module` imports the module normally (this also
covers a ``--system-site-packages`` environment) and, failing that, loads that
one package from the system folders, without putting those folders on
``sys.path`` (so nothing else of the system's Python can shadow our packages).
"""

from __future__ import annotations

import glob
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["SYSTEM_MODULES", "import_system_module", "system_dirs"]

# The modules this applies to, with the packages that ship them (for messages).
SYSTEM_MODULES: dict[str, str] = {"louis": "python3-louis", "speechd": "python3-speechd"}

_PATTERNS = (
    "/usr/lib/python3/dist-packages",  # Debian, Ubuntu
    "/usr/local/lib/python3/dist-packages",
    "/usr/lib/python3.*/site-packages",  # Fedora, Arch, openSUSE
    "/usr/lib64/python3.*/site-packages",
)


def system_dirs() -> list[Path]:
    """The system Python folders that exist here, Debian's first."""
    found: list[Path] = []
    for pattern in _PATTERNS:
        found += [Path(p) for p in sorted(glob.glob(pattern), reverse=True) if Path(p).is_dir()]
    return found


def import_system_module(name: str) -> ModuleType:
    """Import ``name`` from this environment, else from the system's Python folders.

    Raises the first ImportError (or the OSError of a missing C library) when
    neither has it, so the caller's message says what is missing.
    """
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if sys.modules.get(name, False) is None:
            raise  # hidden on purpose (a test sets sys.modules[name] = None)
        first: ImportError = error
    for directory in system_dirs():
        package = directory / name / "__init__.py"
        single = directory / f"{name}.py"
        if package.is_file():
            spec = importlib.util.spec_from_file_location(
                name, package, submodule_search_locations=[str(package.parent)]
            )
        elif single.is_file():
            spec = importlib.util.spec_from_file_location(name, single)
        else:
            continue
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        # why: registered before running it, as the import system does, so that the
        # package's own relative imports (``from . import paths``) find it.
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception:
            for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
                del sys.modules[loaded]
            raise
        return module
    raise first
