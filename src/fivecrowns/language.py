"""Which language the game speaks, and argparse's own words in it.

The choice, first found wins: ``--language`` on the command line, ``"language"`` in the
``output`` section of settings.json (the Settings menu writes it), the system locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from fivecrowns import i18n
from fivecrowns.i18n import N_

__all__ = ["ARGPARSE_WORDS", "choose_language", "requested_language", "start"]

# argparse words its help and errors with the gettext functions of its own module; these
# are those sentences (Python 3.11 to 3.13), so the catalog translates them too.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(heading)s:"),
    N_(" (default: %(default)s)"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
)
ARGPARSE_PLURALS = (i18n.ngettext("expected %s argument", "expected %s arguments", 1),)


def requested_language(arguments: Sequence[str]) -> str | None:
    """The value of ``--language`` in the arguments, before argparse has read them.

    >>> requested_language(["play", "--language", "es"]), requested_language(["--language=en"])
    ('es', 'en')
    >>> requested_language(["play"]) is None
    True
    """
    for index, argument in enumerate(arguments):
        if argument == "--":
            break
        if argument == "--language" and index + 1 < len(arguments):
            return arguments[index + 1]
        if argument.startswith("--language="):
            return argument.partition("=")[2]
    return None


def choose_language(requested: str | None) -> str:
    """The request if the game speaks it, else the setting, else the system's, else English."""
    if requested in i18n.LANGUAGES:
        return requested
    from fivecrowns.storage.settings import load_settings

    settings, _problem = load_settings()
    if settings.language in i18n.LANGUAGES:
        return settings.language
    return i18n.language_from_environment() or i18n.DEFAULT_LANGUAGE


def start(arguments: Sequence[str]) -> str | None:
    """Set the process's language from the arguments, settings and system; translate argparse.

    Returns a sentence when the chosen language's catalog cannot be read (English is used).
    """
    code = choose_language(requested_language(arguments))
    problem = None
    try:
        i18n.set_language(code)
    except i18n.CatalogMissing as error:
        problem = str(error)
        i18n.set_language(i18n.DEFAULT_LANGUAGE)
    # why: argparse looks these names up in its own module at each call, so its usage,
    # help and error words follow the game's language (Python ships no Spanish argparse)
    argparse._ = i18n.gettext  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
    return problem
