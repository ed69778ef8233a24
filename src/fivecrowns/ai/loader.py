"""Find a computer player by level name or by ``package.module:ClassName``."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from fivecrowns.ai.base import Player
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_, ngettext, pgettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "LEVELS",
    "RETIRED_LEVELS",
    "BotLoadError",
    "is_plugin_spec",
    "level_name",
    "load_bot",
    "load_level",
    "parse_bot_list",
    "retired_note",
]


class BotLoadError(FiveCrownsError, ValueError):
    """A bot name or ``module:Class`` that cannot be loaded; the message says why."""


def _levels() -> dict[str, Callable[..., Player]]:
    from fivecrowns.ai.easy import EasyBot
    from fivecrowns.ai.hard import HardBot
    from fivecrowns.ai.medium import MediumBot
    from fivecrowns.ai.simple import SimplePlayer

    return {
        "easy": EasyBot,
        "medium": MediumBot,
        "hard": HardBot,
        "simple": SimplePlayer,
    }


#: The built-in levels, weakest first ("simple" is the plain greedy player of the rules core).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "simple")

#: Levels the game no longer offers, and the level that plays in their place, so a save, a
#: kept table or a typed ``--ai`` that names one still plays (:func:`retired_note` says so).
#: why expert went: it played no stronger than hard (docs/bots.md, "An honest expert").
RETIRED_LEVELS: dict[str, str] = {"expert": "hard"}

RETIRED = N_(
    "The {old} level plays as {new} now: measured over 1,000 duplicate deals it was no stronger."
)


def retired_note(level: str | None) -> str | None:
    """The sentence for a retired level (``None`` for any other): what plays instead.

    >>> retired_note("expert")
    'The expert level plays as hard now: measured over 1,000 duplicate deals it was no stronger.'
    >>> retired_note("hard") is None
    True
    """
    new = RETIRED_LEVELS.get((level or "").strip().lower())
    if new is None:
        return None
    return _(RETIRED).format(old=level_name((level or "").strip().lower()), new=level_name(new))


#: A player for ``simulate`` and the benchmarks that plays exactly what the hint says; it
#: is not a level to play against (it plays as the strongest level, whose name it keeps).
HINT = "hint"


def level_name(level: str) -> str:
    """A level's name for people, in the current language: ``"hard"`` → "hard" ("difícil").

    The level itself (``--ai hard``, a save, the protocol) stays the English token; a name
    that is not a built-in level (a plug-in's ``module:Class``) is said as it is.

    >>> level_name("expert"), level_name("mybots:Clever")
    ('expert', 'mybots:Clever')
    """
    # why literal calls: the extractor reads a context only from a pgettext call; the web
    # page's levelWord (web/app.js) says the same words from the same catalog entries
    names = {
        "easy": pgettext("computer level", "easy"),
        "medium": pgettext("computer level", "medium"),
        "hard": pgettext("computer level", "hard"),
        "expert": pgettext("computer level", "expert"),
        "simple": pgettext("computer level", "simple"),
        "hint": pgettext("computer level", "hint"),
    }
    return names.get(level, level)


def load_level(name: str, seed: int = 0) -> Player:
    """A new bot of a built-in level only: never imports or calls anything a name chooses.

    Use this for a level read from a file (a save, a network message): stored data
    must not choose code. Raises :class:`BotLoadError` for any other name.

    >>> try:
    ...     load_level("code:interact")
    ... except BotLoadError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    'code:interact' is not a built-in computer player level: ...
    """
    levels = _levels()
    key = name.strip().lower() if isinstance(name, str) else ""
    level = levels.get(RETIRED_LEVELS.get(key, key))
    if level is None:
        raise BotLoadError(
            # TRANSLATORS: {levels} are the option values, which stay in English.
            _("'{name}' is not a built-in computer player level: use {levels}.").format(
                name=name, levels=", ".join(LEVELS)
            )
        )
    if "seed" in inspect.signature(level).parameters:
        return level(seed=seed)
    return level()


def is_plugin_spec(spec: str) -> bool:
    """True for a ``package.module:ClassName`` spec (a plug-in), False for a level name.

    >>> is_plugin_spec("mybots.greedy:Greedy"), is_plugin_spec("medium")
    (True, False)
    """
    return ":" in spec


def load_bot(spec: str, seed: int = 0) -> Player:
    """A new bot from a level name (``easy`` ... ``hard``, ``simple``; ``hint`` plays what the
    hint says; a retired level plays as its replacement) or ``module:Class``.

    The class is called with ``seed=seed`` when its constructor takes a ``seed``
    argument, else with no arguments. Raises :class:`BotLoadError` with a
    sentence naming the problem.

    >>> load_bot("medium").name
    'medium'
    >>> try:
    ...     load_bot("nobody")
    ... except BotLoadError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    'nobody' is not a computer player: use easy, medium, hard, simple, or ...
    """
    text = spec.strip()
    if text.lower() in _levels() or text.lower() in RETIRED_LEVELS:
        return load_level(text, seed)
    if text.lower() == HINT:
        from fivecrowns.ai.advice import HintBot

        return HintBot(seed=seed)
    if ":" not in text:
        raise BotLoadError(
            # TRANSLATORS: {levels} are the option values, which stay in English.
            _(
                "'{spec}' is not a computer player: use {levels}, or package.module:ClassName."
            ).format(spec=spec, levels=", ".join(LEVELS))
        )
    module_name, _colon, class_name = text.partition(":")
    if not module_name or not class_name:
        raise BotLoadError(
            _("'{spec}' is not of the form package.module:ClassName.").format(spec=spec)
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise BotLoadError(
            _("Cannot import module '{module}' for '{spec}': {error}.").format(
                module=module_name, spec=spec, error=error
            )
        ) from None
    found = getattr(module, class_name, None)
    if found is None or not callable(found):
        raise BotLoadError(
            _("Module '{module}' has no class '{name}'.").format(
                module=module_name, name=class_name
            )
        )
    factory: Callable[..., Any] = found
    try:
        takes_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        takes_seed = False
    try:
        bot = factory(seed=seed) if takes_seed else factory()
    except Exception as error:  # a plug-in's own failure, reported as a sentence
        raise BotLoadError(
            _("Could not create '{spec}': {error}.").format(spec=spec, error=error)
        ) from None
    if not callable(getattr(bot, "decide", None)):
        raise BotLoadError(
            _("'{spec}' has no decide(view) method, so it cannot play.").format(spec=spec)
        )
    player: Player = bot
    return player


def parse_bot_list(text: str, players: int | None = None) -> list[str]:
    """Split ``easy,medium,hard`` into one spec per seat; one name fills every seat.

    >>> try:
    ...     parse_bot_list("hard,medium", 4)
    ... except BotLoadError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    --ai names 2 computer players but there are 4 seats: ...
    >>> parse_bot_list("medium", 3)
    ['medium', 'medium', 'medium']
    """
    specs = [part.strip() for part in text.split(",")]
    if any(not part for part in specs):
        raise BotLoadError(
            _("--ai '{text}' has an empty name: separate names with single commas.").format(
                text=text
            )
        )
    if players is not None and len(specs) == 1:
        return specs * players
    if players is not None and len(specs) != players:
        raise BotLoadError(
            ngettext(
                "--ai names {count} computer player but there are {players} seats: "
                "give one name for every seat, or one name for all.",
                "--ai names {count} computer players but there are {players} seats: "
                "give one name for every seat, or one name for all.",
                len(specs),
            ).format(count=len(specs), players=players)
        )
    return specs
