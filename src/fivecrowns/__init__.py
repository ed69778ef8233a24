"""Five Crowns for everyone: rules core, solver, and front ends.

The package root imports nothing. Its folders are the layers, each importing only from
the ones below it (docs/design.md): ``core`` (the rules, standard library only), ``ai``,
``words``, ``storage``, ``output`` and ``export``, ``table``, ``net``, ``ui``, then the
command line. ``cards``, ``game``, ``melds`` and ``views`` here are old import paths kept
for bots written outside the game. The version is written once, in pyproject.toml;
``__version__`` reads it from the installed metadata.
"""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    if name == "__version__":
        from fivecrowns.cli import installed_version

        return installed_version()
    raise AttributeError(f"module 'fivecrowns' has no attribute {name!r}")
