"""Exports for braille readers and printers: plain text, BRF, Unicode braille.

Build a :class:`Document` (sections of lines), then lay it out:

- :func:`export_text`: plain ASCII, lines of at most ``width`` characters;
- :func:`export_brf`: Braille Ready Format pages via liblouis;
- :func:`export_unicode`: Unicode braille cells via liblouis.

:func:`render` picks one of them by name. liblouis is loaded only when a braille
format is asked for; if it is missing, :class:`LiblouisMissingError` says how to
install it. The game's own documents (hand, melds, score sheet, log) come from
:mod:`fivecrowns.export.content`.
"""

from __future__ import annotations

from fivecrowns.export.braille import export_brf, export_unicode, liblouis_status
from fivecrowns.export.document import CARD_LEGEND, Block, Document, Section, Table
from fivecrowns.export.errors import ExportError, LiblouisMissingError
from fivecrowns.export.layout import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH, export_text
from fivecrowns.i18n import gettext as _

__all__ = [
    "CARD_LEGEND",
    "DEFAULT_WIDTH",
    "FORMATS",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "Block",
    "Document",
    "ExportError",
    "LiblouisMissingError",
    "Section",
    "Table",
    "export_brf",
    "export_text",
    "export_unicode",
    "liblouis_status",
    "render",
]

FORMATS = ("text", "brf", "unicode")


def render(
    document: Document, fmt: str = "text", width: int = DEFAULT_WIDTH, grade: int = 1
) -> str:
    """The document in format ``fmt`` ("text", "brf" or "unicode") at ``width`` chars or cells.

    >>> render(Document("Scores.", (Section("Totals.", ("Ana 40",)),)))
    'Scores.\\n\\nTotals.\\nAna 40\\n'
    """
    if fmt == "text":
        return export_text(document, width)
    if fmt == "brf":
        return export_brf(document, width, grade)
    if fmt == "unicode":
        return export_unicode(document, width, grade)
    raise ExportError(
        _("There is no export format '{format}': choose text, brf or unicode.").format(format=fmt)
    )
