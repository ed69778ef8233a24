"""The old import path of the game, its moves and events, and their JSON, kept for bots written
outside the game: :mod:`fivecrowns.core.game`, :mod:`fivecrowns.core.moves` and
:mod:`fivecrowns.core.codec` hold them now.

Bots name classes as ``package.module:Class`` and import the game's rules from here
(docs/bots.md). Nothing inside the game imports this module: a contract in pyproject.toml
forbids it (docs/design.md, "Old import paths").
"""

from fivecrowns.core.codec import *  # noqa: F403
from fivecrowns.core.game import *  # noqa: F403
from fivecrowns.core.moves import *  # noqa: F403
