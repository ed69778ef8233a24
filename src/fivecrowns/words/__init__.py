"""Every sentence about the game, for every front end: events (``announce``), answers to the
information keys (``answers``), a table's own events (``table``), seats (``seats``), and
lists of names and numbers (``lists``). Built on the core and the computer players only."""

from __future__ import annotations

__all__: list[str] = []
