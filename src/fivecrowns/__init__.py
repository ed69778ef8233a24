"""Five Crowns for everyone: rules core, solver, and front ends.

The package root imports nothing: the core modules (``cards``, ``melds``,
``game``, ``views``) import only the standard library. The version is written
once, in pyproject.toml; ``__version__`` reads it from the installed metadata.
"""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    if name == "__version__":
        from fivecrowns.cli import installed_version

        return installed_version()
    raise AttributeError(f"module 'fivecrowns' has no attribute {name!r}")
