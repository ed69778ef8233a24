"""Everything the game writes to disk: the data folder and its paths, settings, saves and their
schemas, autosave, history, seat tokens, locks, atomic writes and the error log."""

from __future__ import annotations

__all__: list[str] = []
