"""Five Crowns Solitaire: its rules (``rules``) and the player that suggests moves (``player``)."""

from __future__ import annotations

__all__: list[str] = []
