"""Loading a computer player (ai/loader.py): a level is a built-in name, never a plug-in
(issue 16, item 1: a saved game never chooses code to run).
"""

from __future__ import annotations

import pytest

from ai_support import HOSTILE_LEVELS
from fivecrowns.ai.loader import BotLoadError, load_level


def test_load_level_refuses_every_plugin_spec() -> None:
    for level in HOSTILE_LEVELS:
        with pytest.raises(BotLoadError):
            load_level(level)
    assert load_level("Medium").name == "medium"
