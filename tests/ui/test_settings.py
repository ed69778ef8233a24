"""The settings file as the front end reads it (ui/settings.py): key bindings, verbosity and
delay; a damaged or too deeply nested file gives the defaults and a sentence.
"""

from __future__ import annotations

import json
from pathlib import Path

from fivecrowns.ui.keymap import (
    ACTIONS,
    Keymap,
)
from fivecrowns.ui.settings import load_settings
from gamehelpers import DEEP


def test_rebinding_from_the_settings_file_changes_keys_help_and_menu(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "keys": {"draw": ["k", "F5"], "take": "d", "nonsense": "q", "hint": ["Shift+H"]},
                "play": {"verbosity": "brief", "delay": 0.25},
            }
        )
    )
    settings = load_settings(path)
    keymap = settings.keymap
    assert keymap.get("draw").keys == ("k", "f5")
    assert keymap.action_for("f5").name == "draw"  # type: ignore[union-attr]
    # "d" is no longer draw, so take may have it.
    assert keymap.get("take").keys == ("d",)
    assert "K or F5: Draw from the stock. Take the top card of the stock." in keymap.help_lines()
    assert settings.verbosity == "brief" and settings.delay == 0.25
    assert settings.problems == [
        "There is no action called 'nonsense'. Actions: " + ", ".join(a.name for a in ACTIONS) + "."
    ]


def test_a_clashing_binding_is_refused_and_the_default_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"keys": {"draw": "t"}, "play": {"verbosity": "loud"}}))
    settings = load_settings(path)
    assert settings.keymap.get("draw").keys == ("d",)
    assert settings.problems == [
        "Verbosity 'loud' is not brief, normal or full; using normal.",
        "T already does 'take' (Take the top discard); 'draw' keeps D.",
    ]


def test_a_damaged_settings_file_gives_defaults_and_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    settings = load_settings(path)
    assert settings.keymap == Keymap.default()
    assert settings.problems[0].startswith(f"The settings file {path} cannot be read")


def test_a_deeply_nested_settings_file_gives_defaults_and_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(DEEP)
    settings = load_settings(path)
    assert settings.keymap == Keymap.default()
    assert settings.problems == [f"The settings file {path} is damaged; using defaults."]
