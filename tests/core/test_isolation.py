"""The core (``fivecrowns.core``: cards, melds, moves, game, codec, views, solitaire) imports
only the standard library; pyproject.toml's import-linter contract checks the other layers."""

from __future__ import annotations

import json
import subprocess
import sys

CORE = [
    "fivecrowns.core.cards",
    "fivecrowns.core.errors",
    "fivecrowns.core.melds.solver",
    "fivecrowns.core.melds.reference",
    "fivecrowns.core.moves",
    "fivecrowns.core.game",
    "fivecrowns.core.codec",
    "fivecrowns.core.views",
    "fivecrowns.core.solitaire.rules",
    "fivecrowns.core.solitaire.player",
    # the gettext functions every sentence goes through (standard library gettext only)
    "fivecrowns.i18n",
]
# melds' own search compiled from src/fivecrowns/core/melds/_melds_c.c (CPython's C API only),
# when built
CORE_COMPILED = {"fivecrowns.core.melds._melds_c"}
# the core's packages (their __init__ modules hold only a docstring)
CORE_PACKAGES = {
    "fivecrowns",
    "fivecrowns.core",
    "fivecrowns.core.melds",
    "fivecrowns.core.solitaire",
}
FORBIDDEN_PREFIXES = (
    "fivecrowns.ui",
    "fivecrowns.words",
    "fivecrowns.storage",
    "fivecrowns.table",
    "fivecrowns.net",
    "fivecrowns.output",
    "fivecrowns.export",
    "fivecrowns.ai",
    "prompt_toolkit",
    "accessible_output2",
    "pyttsx3",
    "miniaudio",
    "louis",
    "speechd",
)


def test_core_imports_no_ui_speech_or_sound_module() -> None:
    script = (
        "import importlib, json, sys\n"
        f"for name in {CORE!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError as error:\n"
        "        if error.name != name: raise\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert "fivecrowns.core.cards" in loaded
    offenders = [name for name in loaded if name.startswith(FORBIDDEN_PREFIXES)]
    assert offenders == []


def test_core_imports_only_the_standard_library() -> None:
    # The list above names known offenders; this catches any other third-party module.
    script = (
        "import importlib, json, sys\n"
        "before = set(sys.modules)\n"
        f"for name in {CORE!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert set(CORE) <= set(loaded)
    outside = [
        name
        for name in loaded
        if name.split(".")[0] not in sys.stdlib_module_names
        and name not in {*CORE, *CORE_PACKAGES, *CORE_COMPILED}
    ]
    assert outside == []
