"""Clients of a game server: today the line-by-line terminal client (``fivecrowns join``)."""

from __future__ import annotations

__all__: list[str] = []
