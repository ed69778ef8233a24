"""Every word the player meets, in the player's language (English or Spanish).

Standard library only (:mod:`gettext`), so the core may use it. The catalogs are
``fivecrowns/locale/<code>/LC_MESSAGES/fivecrowns.po`` (the translations, edited by
people) and the ``.mo`` compiled from them; ``scripts/i18n`` extracts, updates and
compiles them with Babel, and ``docs/i18n.md`` says how to write a translatable sentence.

The rules, in short:

- A sentence is one whole message with named placeholders, translated before it is
  filled: ``_("{name} drew from the stock.").format(name=name)``.
- A sentence that depends on a number goes through :func:`ngettext` with the number,
  even in English: ``ngettext("{count} card", "{count} cards", n).format(count=n)``.
- A module-level template is marked with :func:`N_` (which only marks it) and
  translated where it is used, with ``_(TEMPLATE)``: a module is imported once, but
  the language can change while the game runs (and a server words one event in
  several languages).
- The same English word with two meanings gets a context: ``pgettext("suit", "stars")``.

The language is the process's (:func:`set_language`, from ``--language``, the settings
file or the system locale), or, inside ``with speaking(code):``, the one a server is
wording a sentence for. That is a :class:`contextvars.ContextVar`, so asyncio tasks and
worker threads started from a task each keep their own.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # why: Babel is loaded only when a number or list is worded
    from babel import Locale

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "CatalogMissing",
    "current_language",
    "format_number",
    "gettext",
    "join_list",
    "language_from_environment",
    "locale_dir",
    "ngettext",
    "normalise_language",
    "npgettext",
    "pgettext",
    "set_language",
    "speaking",
]

DOMAIN = "fivecrowns"
DEFAULT_LANGUAGE = "en"
#: The languages the game speaks; English is the source language and needs no catalog.
LANGUAGES = ("en", "es")
#: Each language's name in itself, for menus and ``--help``.
LANGUAGE_NAMES = {"en": "English", "es": "español"}

_process_language = DEFAULT_LANGUAGE
_language: ContextVar[str | None] = ContextVar("fivecrowns_language", default=None)


class CatalogMissing(Exception):
    """A language's compiled catalog is missing or cannot be read (a broken install)."""


def locale_dir() -> Path:
    return Path(__file__).with_name("locale")


def normalise_language(code: str | None) -> str | None:
    """``"es_ES.UTF-8"`` → ``"es"``; ``None`` for a language the game does not speak.

    >>> normalise_language("es_MX.UTF-8"), normalise_language("EN"), normalise_language("fr")
    ('es', 'en', None)
    """
    if not code:
        return None
    base = code.replace("-", "_").split("_")[0].split(".")[0].split("@")[0].lower()
    return base if base in LANGUAGES else None


def language_from_environment(environ: dict[str, str] | None = None) -> str | None:
    """The language the system asks for, from the variables gettext itself reads.

    ``LANGUAGE`` may list several (``es:en``): the first the game speaks wins.
    """
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for part in value.split(":"):
            if part in ("C", "POSIX") or part.startswith(("C.", "POSIX.")):
                return DEFAULT_LANGUAGE
            found = normalise_language(part)
            if found:
                return found
        # why: gettext stops at the first variable that is set, even to a language we lack
        if variable != "LANGUAGE":
            return None
    return None


def set_language(code: str) -> None:
    """The process's language: every sentence from now on, unless :func:`speaking` says other.

    Raises :class:`CatalogMissing` (and changes nothing) when the catalog cannot be read.
    """
    global _process_language
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}")
    _translations(code)
    _process_language = code


def current_language() -> str:
    return _language.get() or _process_language


class _Speaking:
    """The block of :func:`speaking`. why a class, not ``@contextmanager``: the game server
    enters one for every message and every frame it words, and a generator's was a good part
    of the glue around a move (issue 29)."""

    __slots__ = ("_code", "_token")

    def __init__(self, code: str) -> None:
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {code!r}")
        self._code = code
        self._token: Token[str | None] | None = None

    def __enter__(self) -> None:
        self._token = _language.set(self._code)

    def __exit__(self, *_exc: object) -> None:
        if self._token is not None:
            _language.reset(self._token)
            self._token = None


def speaking(code: str) -> AbstractContextManager[None]:
    """Word the sentences made inside the block in ``code`` (a server wording per viewer)."""
    return _Speaking(code)


@cache
def _translations(code: str) -> _gettext.NullTranslations:
    if code == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    try:
        return _gettext.translation(DOMAIN, localedir=locale_dir(), languages=[code])
    except (OSError, ValueError) as error:  # why: a missing or damaged .mo is a broken install
        raise CatalogMissing(
            f"The {LANGUAGE_NAMES[code]} words are missing from this installation "
            f"({error}); reinstall fivecrowns."
        ) from error


def gettext(message: str) -> str:
    return _translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translations(current_language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _translations(current_language()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:  # the name every gettext extractor knows
    """Mark ``message`` for the catalog without translating it (a module-level template)."""
    return message


# CLDR locales for Babel: British English joins "a, b and c" without the serial comma, as
# every English sentence of the game did before there were catalogs.
_CLDR_LOCALE = {"en": "en_GB", "es": "es"}


def join_list(items: Sequence[str]) -> str:
    """ "a, b and c" by the language's rules (Babel's CLDR list patterns); empty items dropped.

    >>> join_list(["7", "8", "9"]), join_list(["Ana"]), join_list([])
    ('7, 8 and 9', 'Ana', '')
    >>> with speaking("es"):
    ...     join_list(["7", "8", "9"]), join_list(["Ana", "Inés"]), join_list(["Ana", "Hilda"])
    ('7, 8 y 9', 'Ana e Inés', 'Ana e Hilda')
    """
    kept = [item for item in items if item]
    if len(kept) < 2:
        return kept[0] if kept else ""
    language = current_language()
    # Babel's format_list with the standard style, its patterns read once per language (why:
    # finding them for every list was most of wording one, and the game server words a hand
    # as a list for every round dealt at its tables, issue 29; tests/test_i18n.py compares)
    patterns = _list_patterns(language)
    if len(kept) == 2 and "2" in patterns:
        text = patterns["2"].format(*kept)
    else:
        text = patterns["start"].format(kept[0], kept[1])
        for item in kept[2:-1]:
            text = patterns["middle"].format(text, item)
        text = patterns["end"].format(text, kept[-1])
    last = kept[-1]
    # why by hand: CLDR's Spanish pattern is always "{0} y {1}", but Spanish writes "e"
    # before an /i/ sound ("Ana e Inés"), that is i- or hi- not followed by a vowel
    if language == "es" and text.endswith(" y " + last) and _starts_with_i_sound(last):
        text = text[: -len(last) - 3] + " e " + last
    return text


@cache
def _list_patterns(language: str) -> dict[str, str]:
    """CLDR's standard list patterns for ``language`` ("{0}, {1}", "{0} and {1}"...)."""
    patterns = _cldr_locale(language).list_patterns["standard"]
    return {key: patterns[key] for key in ("2", "start", "middle", "end") if key in patterns}


@cache
def _cldr_locale(language: str) -> Locale:
    """Babel's locale for ``language``, parsed once (why: parsing it for every number or
    list, as a locale name passed to Babel does, cost most of wording one, issue 29)."""
    from babel import Locale

    return Locale.parse(_CLDR_LOCALE[language])


def _starts_with_i_sound(word: str) -> bool:
    """Whether a Spanish word starts with the vowel sound /i/ (Inés, Hilda; not hielo).

    >>> [_starts_with_i_sound(w) for w in ("Inés", "ínfimo", "Hilda", "hielo", "Ana", "Yolanda")]
    [True, True, True, False, False, False]
    """
    low = word.lower()
    if low.startswith("h"):
        low = low[1:]
    return low[:1] in ("i", "í") and low[1:2] not in ("a", "e", "o", "u", "á", "é", "ó", "ú")


def format_number(number: float) -> str:
    """A number as the language writes it: 12,500 in English, 12.500 in Spanish.

    >>> format_number(12500), format_number(1500)
    ('12,500', '1,500')
    >>> with speaking("es"):
    ...     format_number(12500), format_number(1500), format_number(2.5)
    ('12.500', '1.500', '2,5')
    """
    from babel.numbers import format_decimal

    return format_decimal(number, locale=_cldr_locale(current_language()))


_ = gettext
