"""The old import path of :mod:`fivecrowns.core.cards`, kept for bots written outside the game.

Bots name classes as ``package.module:Class`` and import the game's rules from here
(docs/bots.md). Nothing inside the game imports this module: a contract in pyproject.toml
forbids it (docs/design.md, "Old import paths").
"""

from fivecrowns.core.cards import *  # noqa: F403
