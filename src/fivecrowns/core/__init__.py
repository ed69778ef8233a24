"""The rules of both games, standard library only: cards, melds, Five Crowns, views, Solitaire.

Every other layer builds on this one and nothing here imports them (docs/design.md)."""

from __future__ import annotations

__all__: list[str] = []
