"""Make Debian-only Python bindings importable inside the virtual environment.

``louis`` (liblouis) and ``speechd`` (Speech Dispatcher) are not on PyPI; Debian
ships them as python3-louis and python3-speechd under dist-packages, which a
virtual environment does not see. Both are pure Python over a C library, so a
symbolic link to each package directory is enough. Missing ones are skipped.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

MODULES = ("louis", "speechd", "speechd_config")
SYSTEM_DIRS = (Path("/usr/lib/python3/dist-packages"), Path("/usr/local/lib/python3/dist-packages"))


def main() -> None:
    site = Path(sysconfig.get_paths()["purelib"])
    for name in MODULES:
        for system_dir in SYSTEM_DIRS:
            source = system_dir / name
            if not source.is_dir():
                continue
            target = site / name
            if target.is_symlink() and target.resolve() == source.resolve():
                break
            if target.is_symlink():
                target.unlink()
            if not target.exists():
                target.symlink_to(source)
            break


if __name__ == "__main__":
    main()
