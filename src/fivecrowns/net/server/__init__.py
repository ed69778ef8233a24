"""The game server: lobby, tables, persistence, over WebSocket (``fivecrowns serve``)."""

from __future__ import annotations

__all__: list[str] = []
