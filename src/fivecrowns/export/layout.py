"""Width-aware layout shared by every format: logical lines, word wrap, tables.

A document is first flattened into logical lines (title, legend, intro,
section headings, items; blank lines between sections), each a plain ASCII
sentence (a Spanish document keeps its own letters: á é í ó ú ü ñ ¿ ¡).
Each format then wraps the logical lines to its own width, measured
in its own units: characters for text, braille cells for BRF and Unicode
braille. A wrapped line continues on the next line indented by two spaces.

>>> wrap("Round 3: Ana 12, Ben 0, you 7", 16)
['Round 3: Ana 12,', '  Ben 0, you 7']
>>> from fivecrowns.export.document import Section
>>> export_text(Document("Scores.", (Section("Totals.", ("Ana 40",)),)), width=20)
'Scores.\\n\\nTotals.\\nAna 40\\n'
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from fivecrowns.export.document import Document, Table
from fivecrowns.export.errors import ExportError
from fivecrowns.i18n import gettext as _

__all__ = [
    "DEFAULT_WIDTH",
    "KEPT_LETTERS",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "LineKind",
    "LogicalLine",
    "check_width",
    "export_text",
    "logical_lines",
    "table_columns",
    "to_ascii",
    "wrap",
]

MIN_WIDTH = 14
MAX_WIDTH = 80
DEFAULT_WIDTH = 40
CONTINUATION = "  "
COLUMN_GAP = "  "
#: Letters a language's text keeps (its braille table has them); others become ASCII.
# why: "año" is not "ano"; Spanish braille has its own cells for these letters.
KEPT_LETTERS = {"en": "", "es": "áéíóúüñÁÉÍÓÚÜÑ¿¡"}


class LineKind(enum.Enum):
    TITLE = "title"
    LEGEND = "legend"
    INTRO = "intro"
    HEADING = "heading"
    ITEM = "item"
    BLANK = "blank"


@dataclass(frozen=True)
class LogicalLine:
    """One sentence before wrapping; ``keep_whole`` lines are table rows that must not wrap."""

    text: str
    kind: LineKind
    keep_whole: bool = False


def check_width(width: int) -> int:
    """The width if it is allowed, else an :class:`ExportError` that says the range."""
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ExportError(
            _("The width {width} is not allowed: choose {least} to {most} characters.").format(
                width=width, least=MIN_WIDTH, most=MAX_WIDTH
            )
        )
    return width


def to_ascii(text: str, keep: str = "") -> str:
    """Plain printable ASCII: accents dropped ("Zoë" -> "Zoe"), other symbols become "?";
    the characters in ``keep`` stay as they are.

    >>> to_ascii("Zoë\\tand José")
    'Zoe and Jose'
    >>> to_ascii("Zoë y José, año", keep=KEPT_LETTERS["es"])
    'Zoe y José, año'
    """
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char in keep:
            out.append(char)
            continue
        _plain_char(char, out)
    return "".join(out)


def _plain_char(text: str, out: list[str]) -> None:
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char):
            continue
        if char.isspace():
            out.append(" ")
        elif " " <= char <= "~":
            out.append(char)
        else:
            out.append("?")


def table_columns(table: Table, width: int, keep: str = "") -> list[str] | None:
    """The table as aligned columns (first left, others right), or None if wider than ``width``."""
    cells = [table.columns, *table.rows]
    sizes = [max(len(to_ascii(row[i], keep)) for row in cells) for i in range(len(table.columns))]
    total = sum(sizes) + len(COLUMN_GAP) * (len(sizes) - 1)
    if total > width:
        return None
    lines = []
    for row in cells:
        parts = [to_ascii(row[0], keep).ljust(sizes[0])]
        parts += [
            to_ascii(cell, keep).rjust(size) for cell, size in zip(row[1:], sizes[1:], strict=True)
        ]
        lines.append(COLUMN_GAP.join(parts).rstrip())
    return lines


def logical_lines(
    document: Document, table_lines: Callable[[Table], list[str] | None] | None = None
) -> list[LogicalLine]:
    """The document as sentences in reading order.

    ``table_lines`` may lay a table out as columns (returning None when they do
    not fit); without it, or when it returns None, each row is its own sentence.
    """
    keep = KEPT_LETTERS.get(document.language, "")

    def plain(text: str) -> str:
        return to_ascii(text, keep)

    out = [LogicalLine(plain(document.title), LineKind.TITLE)]
    if document.legend:
        out.append(LogicalLine(plain(document.legend), LineKind.LEGEND))
    out += [LogicalLine(plain(line), LineKind.INTRO) for line in document.intro]
    for section in document.sections:
        out.append(LogicalLine("", LineKind.BLANK))
        out.append(LogicalLine(plain(section.title), LineKind.HEADING))
        for block in section.blocks:
            if isinstance(block, str):
                out.append(LogicalLine(plain(block), LineKind.ITEM))
                continue
            columns = table_lines(block) if table_lines is not None else None
            if columns is None:
                out += [LogicalLine(plain(line), LineKind.ITEM) for line in block.lines]
            else:
                out += [LogicalLine(line, LineKind.ITEM, keep_whole=True) for line in columns]
    return out


def _longest_fit(word: str, prefix: str, width: int, measure: Callable[[str], int]) -> int:
    """How many leading chars of a too-long word fit after ``prefix`` (at least 1, to progress)."""
    size = 1
    while size < len(word) and measure(prefix + word[: size + 1]) <= width:
        size += 1
    return size


def wrap(
    text: str,
    width: int,
    measure: Callable[[str], int] = len,
    continuation: str = CONTINUATION,
) -> list[str]:
    """Greedy word wrap of one sentence; ``measure`` gives a line's size (chars or braille cells).

    The sentence's own leading spaces stay; continuation lines add two more.
    """
    if measure(text) <= width:
        return [text]
    stripped = text.lstrip(" ")
    indent = text[: len(text) - len(stripped)]
    lines: list[str] = []
    current = ""
    prefix = indent
    for word in stripped.split():
        if current:
            candidate = f"{current} {word}"
            if measure(candidate) <= width:
                current = candidate
                continue
            lines.append(current)
            prefix = indent + continuation
        candidate = prefix + word
        if measure(candidate) <= width:
            current = candidate
            continue
        # A word longer than a whole line (a long name on a narrow display) is cut.
        while measure(prefix + word) > width:
            size = _longest_fit(word, prefix, width, measure)
            lines.append(prefix + word[:size])
            word = word[size:]
            prefix = indent + continuation
        current = prefix + word
    if current:
        lines.append(current)
    return lines


def export_text(document: Document, width: int = DEFAULT_WIDTH, columns: bool = True) -> str:
    """Plain ASCII text, every line at most ``width`` characters, ending in a newline.

    Tables show as columns where they fit; ``columns=False`` always gives one
    row per line, the form the braille formats are translated from.
    """
    check_width(width)
    lines: list[str] = []
    keep = KEPT_LETTERS.get(document.language, "")
    layout = (lambda table: table_columns(table, width, keep)) if columns else None
    for line in logical_lines(document, layout):
        lines += [line.text] if line.kind is LineKind.BLANK else wrap(line.text, width)
    return "\n".join(lines) + "\n"
