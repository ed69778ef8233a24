"""Arranging a hand into books and runs: the solver (``solver``), its compiled search
(``_melds_c``, built from ``_melds_c.c`` when a C compiler is there) and the slow, plain
reference it is checked against and falls back to (``reference``)."""

from __future__ import annotations

__all__: list[str] = []
