"""The game's own sections of the player's settings file: verbosity, delay and keys.

The settings file is ``settings.json`` in the user's config folder, shared with
speech and sound (:mod:`fivecrowns.storage.settings` reads and writes its ``"output"``
section). The game reads two
sections::

    {"play": {"verbosity": "normal", "delay": 1.0},
     "keys": {"draw": ["d", "F5"], "stop_speech": "Ctrl+X"}}

``verbosity`` is brief, normal or full; ``delay`` is the pause in seconds before
each computer player's move; ``keys`` rebinds any action named in docs/keys.md
or docs/solitaire.md (solitaire reads the same file: verbosity and keys).

Where the file is: :mod:`fivecrowns.storage.paths`. This module only reads it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.paths import settings_path
from fivecrowns.ui.keymap import Action, Keymap

__all__ = ["VERBOSITIES", "Settings", "load_settings"]

VERBOSITIES = ("brief", "normal", "full")
#: More key bindings than there are actions in both games, several times over.
MAX_BINDINGS = 500
TOO_MANY_BINDINGS = N_(
    '"keys" in the settings file names {count} actions, more than the {limit} any keymap '
    "could use, so all of them were ignored and the default keys are used."
)


@dataclass
class Settings:
    verbosity: str = "normal"
    delay: float = 1.0
    keymap: Keymap = field(default_factory=Keymap.default)
    problems: list[str] = field(default_factory=list)
    path: Path | None = None
    bindings: dict[str, object] = field(default_factory=dict)  # the file's [keys] table
    key_problems: list[str] = field(default_factory=list)  # the part of problems about keys

    def keymap_for(self, actions: tuple[Action, ...]) -> tuple[Keymap, list[str]]:
        """Another game's keymap (solitaire's) from the same ``[keys]`` table, and the
        sentences it should say: the file's own problems and its bindings' problems."""
        keymap, key_problems = Keymap.from_settings(self.bindings, actions)
        general = [problem for problem in self.problems if problem not in self.key_problems]
        return keymap, general + key_problems


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file; every problem becomes a sentence in ``problems``, never an error."""
    path = path or settings_path()
    settings = Settings(path=path)
    if not path.exists():
        return settings
    from fivecrowns.core.errors import SaveFileError
    from fivecrowns.storage.saves import read_bounded

    try:
        # why bounded: a FIFO or /dev/zero named as the settings file must not hang the game
        data = json.loads(read_bounded(path, "settings file", limit=1_000_000).decode("utf-8"))
    except SaveFileError as error:
        settings.problems.append(_("{problem} Using defaults.").format(problem=error))
        return settings
    except (OSError, ValueError) as error:
        settings.problems.append(
            _("The settings file {path} cannot be read ({why}); using defaults.").format(
                path=path, why=error
            )
        )
        return settings
    except RecursionError:
        # why: json.loads raises RecursionError, not ValueError, on deeply nested arrays.
        settings.problems.append(
            _("The settings file {path} is damaged; using defaults.").format(path=path)
        )
        return settings
    if not isinstance(data, dict):
        settings.problems.append(
            _("The settings file {path} is not a JSON object; using defaults.").format(path=path)
        )
        return settings
    play = data.get("play", {})
    if not isinstance(play, dict):
        settings.problems.append(
            _('"play" in the settings file must be an object; using defaults.')
        )
        play = {}
    verbosity = play.get("verbosity", settings.verbosity)
    if verbosity in VERBOSITIES:
        settings.verbosity = str(verbosity)
    else:
        settings.problems.append(
            _("Verbosity '{verbosity}' is not brief, normal or full; using normal.").format(
                verbosity=verbosity
            )
        )
    delay = play.get("delay", settings.delay)
    if isinstance(delay, int | float) and 0 <= delay <= 10:
        settings.delay = float(delay)
    else:
        settings.problems.append(
            _("Delay '{delay}' is not a number of seconds from 0 to 10; using 1.").format(
                delay=delay
            )
        )
    keys = data.get("keys", {})
    if isinstance(keys, dict) and len(keys) > MAX_BINDINGS:
        # why: each binding is checked against every other; 100,000 took minutes to start
        settings.problems.append(_(TOO_MANY_BINDINGS).format(count=len(keys), limit=MAX_BINDINGS))
    elif isinstance(keys, dict):
        settings.bindings = dict(keys)
        settings.keymap, settings.key_problems = Keymap.from_settings(keys)
        settings.problems += settings.key_problems
    else:
        settings.problems.append(_('"keys" in the settings file must map action names to keys.'))
    return settings
