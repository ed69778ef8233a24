"""What a player may ask about without using a turn: the names of the information keys.

The terminal's keys, the protocol's ``ask`` message and the table's answers
(:mod:`fivecrowns.table.info`) all use these names. Standard library only, so a client
that only speaks the protocol loads nothing else of the game to know them.
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["QUESTIONS", "Question"]

#: What an ``ask`` may ask about: the settings names of the terminal's information keys.
Question = Literal[
    "hand",
    "hint",
    "round",
    "piles",
    "scores",
    "round_detail",
    "melds",
    "counts",
    "whose_turn",
    "why",
    "review",
    "review_all",
]
#: The same names in a tuple (:func:`fivecrowns.table.info.answer` answers each).
QUESTIONS: tuple[str, ...] = get_args(Question)
