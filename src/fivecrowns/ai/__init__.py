"""Computer players. They read only :mod:`fivecrowns.core.views` and answer with moves.

A bot has ``decide(view) -> Decision`` (a move and a sentence saying why); the
built-in levels are ``easy``, ``medium``, ``hard`` and ``simple`` (tokens; :func:`level_name`
says one in the player's language). Get one with
:func:`load_bot`, by level name or by ``package.module:ClassName``. See
``docs/bots.md``.
"""

from __future__ import annotations

from fivecrowns.ai.base import Bot, BotError, Decision, Player, allowed_discards
from fivecrowns.ai.loader import LEVELS, BotLoadError, level_name, load_bot, parse_bot_list

__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "BotLoadError",
    "Decision",
    "Player",
    "allowed_discards",
    "level_name",
    "load_bot",
    "parse_bot_list",
]
