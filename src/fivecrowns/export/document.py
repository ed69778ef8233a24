"""What an export holds, before it is laid out: a document of sections of lines.

A :class:`Document` is format-free: each renderer (plain text, BRF, Unicode
braille) lays the same document out for its own width. Any content can be
exported by building a document: the game's hand, melds, score sheet and log
(:mod:`fivecrowns.export.content`), or a solitaire board later.

>>> doc = Document(
...     title="Five Crowns. Score sheet.",
...     sections=(Section("Totals", ("Ana 40", "Ben 22")),),
... )
>>> doc.sections[0].blocks
('Ana 40', 'Ben 22')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fivecrowns.i18n import N_, current_language
from fivecrowns.i18n import gettext as _

__all__ = ["CARD_LEGEND", "Block", "Document", "Section", "Table", "card_legend"]

# One logical line; a narrow width wraps it, but it stays a single sentence.
# TRANSLATORS: the card tokens (st, h, c, sp, d, jk) stay as they are: they are typed back in.
CARD_LEGEND = N_("Key: st stars, h hearts, c clubs, sp spades, d diamonds, jk joker.")


def card_legend() -> str:
    """The legend line in the current language."""
    return _(CARD_LEGEND)


@dataclass(frozen=True)
class Table:
    """Rows of cells under column names, with the same rows as whole sentences.

    Plain text shows the columns when they fit the width; otherwise, and in
    braille always, it shows ``lines``: one row per line, most important word
    first ("Round 3: Ana 12, Ben 0, you 7").
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"A table row has {len(row)} cells for {len(self.columns)} columns."
                )


Block = str | Table


@dataclass(frozen=True)
class Section:
    """A titled group of lines ("Round 3.", "Totals.") and tables."""

    title: str
    blocks: tuple[Block, ...] = ()


@dataclass(frozen=True)
class Document:
    """A title, an optional one-line legend, a few intro lines, then sections in order.

    ``language`` is the language it is written in (the current one when it is made):
    it picks the braille tables and which letters the layout keeps.
    """

    title: str
    sections: tuple[Section, ...] = ()
    legend: str | None = None
    intro: tuple[str, ...] = ()
    language: str = field(default_factory=current_language)

    def with_sections(self, *more: Section) -> Document:
        """A copy with more sections at the end."""
        return Document(self.title, self.sections + more, self.legend, self.intro, self.language)
