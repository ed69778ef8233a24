"""The command layer every terminal front end shares (ui/commands.py)."""

from __future__ import annotations

from typing import Any

from fivecrowns import i18n
from fivecrowns.ui.commands import CommandLayer


class _Link:
    def __init__(self) -> None:
        self.told: list[str] = []

    def tell_language(self, code: str) -> None:
        self.told.append(code)


def test_choosing_a_language_tells_the_link() -> None:
    """The settings menu's language choice reaches a network link (the lobby and a network
    table have one; a local game's link has no tell_language and is left alone)."""
    from fivecrowns.output import Output, RecordingBackend

    class Layer(CommandLayer):
        def __init__(self) -> None:
            super().__init__()
            self.output: Any = Output(RecordingBackend())
            self.link = _Link()

    layer = Layer()
    layer.choose_language("es")
    assert layer.link.told == ["es"]
    assert i18n.current_language() == "es"
