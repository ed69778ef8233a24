"""Computer players. They read only :mod:`fivecrowns.views` and answer with moves."""

from __future__ import annotations

__all__: list[str] = []
