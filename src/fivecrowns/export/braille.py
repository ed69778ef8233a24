"""BRF and Unicode braille through the real liblouis (never our own translation).

Tables: Unified English Braille, ``en-ueb-g1.ctb`` (grade 1, uncontracted, the
default) or ``en-ueb-g2.ctb`` (grade 2, contracted). A Spanish document (its
``language`` is ``es``) uses Spanish braille: ``es-g1.ctb`` (grade 1, "braille
integral", what Spanish braille readers are taught and Spanish books are printed
in; the default) or ``es-g2.ctb`` (grade 2, contracted: liblouis marks it
forward-only, and no Spanish publisher uses it). Two small tables of ours wrap
``es-g1``: ``tables/es-back.cti`` (back-translation reads punctuation, not lowered
digits) and ``tables/es-cards.cti`` (card tokens such as ``7c`` get the dot 5
that Spanish braille puts between a number and a letter a to j). Each list is
preceded by a display table that fixes how dot patterns become characters:

- BRF: ``en-us-brf.dis``, North American Braille ASCII, upper case, every cell
  in 0x20..0x5F. Why explicit: without a display table the encoding depends on
  the translation table; the UEB tables alone give lower case (liblouis issues
  1374 and 1384 say to always name a display table).
- Unicode: ``unicode.dis``, cells from the U+2800 block, the blank cell U+2800.

Each logical line of the document is wrapped by braille cells (not by print
characters, since capital and number signs make braille longer), then every
wrapped line is translated on its own, so each braille line back-translates
to its print line.

BRF pages: at most 25 lines of at most 40 cells; line 1 of every page holds
the page number at the right margin, lines 2 to 25 the text; a form feed
separates pages; lines end in CR LF.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from fivecrowns.export.document import Document
from fivecrowns.export.errors import ExportError, LiblouisMissingError
from fivecrowns.export.layout import DEFAULT_WIDTH, LineKind, check_width, logical_lines, wrap
from fivecrowns.i18n import gettext as _
from fivecrowns.system_modules import import_system_module

__all__ = [
    "BRF_DISPLAY",
    "BRF_LINES_PER_PAGE",
    "BRF_MAX_CELLS",
    "GRADE_TABLES",
    "LANGUAGE_TABLES",
    "UNICODE_DISPLAY",
    "BrailleLine",
    "LouTranslateProgram",
    "Louis",
    "Translator",
    "braille_lines",
    "export_brf",
    "export_unicode",
    "liblouis_status",
    "load_louis",
    "paginate",
]

GRADE_TABLES = {1: "en-ueb-g1.ctb", 2: "en-ueb-g2.ctb"}
_OUR_TABLES = Path(__file__).with_name("tables")
#: Each language's tables by grade (after the display table); English is GRADE_TABLES.
LANGUAGE_TABLES: dict[str, dict[int, str]] = {
    "en": GRADE_TABLES,
    "es": {
        grade: ",".join(
            [str(_OUR_TABLES / "es-back.cti"), table, str(_OUR_TABLES / "es-cards.cti")]
        )
        for grade, table in ((1, "es-g1.ctb"), (2, "es-g2.ctb"))
    },
}
BRF_DISPLAY = "en-us-brf.dis"
UNICODE_DISPLAY = "unicode.dis"
BRF_MAX_CELLS = 40
BRF_LINES_PER_PAGE = 25

Display = Literal["brf", "unicode"]
_DISPLAY_TABLES: dict[Display, str] = {"brf": BRF_DISPLAY, "unicode": UNICODE_DISPLAY}


class Louis(Protocol):
    """The part of the ``louis`` module's interface that the export uses."""

    def checkTable(self, tables: list[str]) -> None: ...
    def translateString(self, tables: list[str], text: str) -> str: ...
    def backTranslateString(self, tables: list[str], text: str) -> str: ...
    def version(self) -> str: ...


class LouTranslateProgram:
    """liblouis through its ``lou_translate`` program (Debian liblouis-bin), one line a call.

    The fallback when the ``louis`` module cannot be loaded (not installed, or not
    for this Python): the same library and tables, so the same braille.
    """

    def __init__(self, program: str) -> None:
        self.program = program

    def _run(self, arguments: list[str], text: str = "") -> str:
        result = subprocess.run(
            [self.program, *arguments],
            input=text,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
        )
        # why: lou_translate exits 0 even when a table does not compile; stderr tells.
        if result.returncode != 0 or "could not be compiled" in result.stderr:
            raise RuntimeError(result.stderr.strip() or f"{self.program} failed")
        return result.stdout

    def checkTable(self, tables: list[str]) -> None:
        checker = shutil.which("lou_checktable", path=str(Path(self.program).parent))
        if checker is None:
            self._run(["--forward", ",".join(tables)], "check\n")
            return
        result = subprocess.run([checker, ",".join(tables)], capture_output=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"liblouis could not compile {','.join(tables)}")

    def translateString(self, tables: list[str], text: str) -> str:
        return self._line(["--forward", ",".join(tables)], text)

    def backTranslateString(self, tables: list[str], text: str) -> str:
        return self._line(["--backward", ",".join(tables)], text)

    def _line(self, arguments: list[str], text: str) -> str:
        if "\n" in text:
            raise ValueError("lou_translate translates one line at a time")
        return self._run(arguments, text + "\n").removesuffix("\n")

    def version(self) -> str:
        first = self._run(["--version"]).splitlines()[0]  # "lou_translate (Liblouis) 3.24.0"
        return first.rsplit(" ", 1)[-1]


def load_louis() -> Louis:
    """The ``louis`` module, else the ``lou_translate`` program, else
    :class:`LiblouisMissingError` saying how to install liblouis."""
    try:
        # Imported on each call (cheap once loaded) so a test can hide it via sys.modules.
        module: Louis = import_system_module("louis")
        return module
    except (ImportError, OSError) as error:
        # OSError: the bindings are there but the C library (liblouis20) is not.
        program = shutil.which("lou_translate")
        if program is not None:
            return LouTranslateProgram(program)
        raise LiblouisMissingError(
            _("Braille export needs liblouis, which could not be loaded ({error}).").format(
                error=error
            )
        ) from error


def liblouis_status() -> tuple[bool, str]:
    """(True, which liblouis and how it is reached) when the UEB tables work, else (False, why)."""
    try:
        Translator(1, "brf")
        louis = load_louis()
    except LiblouisMissingError as error:
        return False, str(error)
    if isinstance(louis, LouTranslateProgram):
        return True, _("liblouis {version} through the lou_translate program").format(
            version=louis.version()
        )
    return True, _("liblouis {version} through the louis module").format(version=louis.version())


class Translator:
    """One liblouis table list (display table + the language's grade), with a small cache."""

    def __init__(self, grade: int, display: Display, language: str = "en") -> None:
        if grade not in GRADE_TABLES:
            raise ExportError(
                _("There is no braille grade {grade}: choose 1 or 2.").format(grade=grade)
            )
        self.grade = grade
        self.display = display
        self.language = language
        grades = LANGUAGE_TABLES.get(language, GRADE_TABLES)
        self.tables = [f"{_DISPLAY_TABLES[display]},{grades[grade]}"]
        self._louis = load_louis()
        try:
            self._louis.checkTable(self.tables)
        except RuntimeError as error:
            raise LiblouisMissingError(
                _(
                    "liblouis could not load its braille tables {tables}; "
                    "the table package (liblouis-data) may be missing."
                ).format(tables=self.tables[0])
            ) from error
        self._cache: dict[str, str] = {}

    def translate(self, text: str) -> str:
        """Print text to braille in this display's characters (one line in, one line out)."""
        braille = self._cache.get(text)
        if braille is None:
            braille = str(self._louis.translateString(self.tables, text))
            self._cache[text] = braille
        return braille

    def back_translate(self, braille: str) -> str:
        """Braille back to print, as liblouis reads it."""
        return str(self._louis.backTranslateString(self.tables, braille))

    def cells(self, text: str) -> int:
        return len(self.translate(text))


@dataclass(frozen=True)
class BrailleLine:
    """One output line: its braille, the print text it came from, and its kind."""

    braille: str
    text: str
    kind: LineKind


def braille_lines(document: Document, translator: Translator, cells: int) -> list[BrailleLine]:
    """The document wrapped to ``cells`` braille cells and translated line by line.

    Tables are always one row per line in braille: translation changes the
    length of every cell, so print columns would not line up.
    """
    out: list[BrailleLine] = []
    for line in logical_lines(document):  # the document's own language keeps its letters
        if line.kind is LineKind.BLANK:
            out.append(BrailleLine("", "", line.kind))
            continue
        for piece in wrap(line.text, cells, measure=translator.cells):
            out.append(BrailleLine(translator.translate(piece), piece, line.kind))
    return out


def paginate(lines: list[BrailleLine], per_page: int) -> list[list[BrailleLine]]:
    """Lines cut into pages of ``per_page`` lines; no page starts blank or ends on a heading."""
    pages: list[list[BrailleLine]] = []
    page: list[BrailleLine] = []
    for line in lines:
        if not page and line.kind is LineKind.BLANK:
            continue
        page.append(line)
        if len(page) == per_page:
            carried: list[BrailleLine] = []
            while len(page) > 1 and page[-1].kind is LineKind.HEADING:
                carried.insert(0, page.pop())
            pages.append(page)
            page = carried
    if page:
        pages.append(page)
    return pages or [[]]


def _braille_cells(cells: int, maximum: int) -> int:
    check_width(cells)
    if cells > maximum:
        raise ExportError(
            _(
                "Braille lines of {cells} cells are too long here: choose 14 to {maximum} cells."
            ).format(cells=cells, maximum=maximum)
        )
    return cells


def export_brf(
    document: Document,
    cells: int = BRF_MAX_CELLS,
    grade: int = 1,
    lines_per_page: int = BRF_LINES_PER_PAGE,
) -> str:
    """Braille Ready Format: Braille ASCII pages for an embosser or notetaker.

    Returns the file's characters (all ASCII); write them unchanged (no newline
    translation): lines end in CR LF and a form feed separates pages.
    """
    _braille_cells(cells, BRF_MAX_CELLS)
    if not 2 <= lines_per_page <= BRF_LINES_PER_PAGE:
        raise ExportError(
            _("A BRF page has 2 to {most} lines, not {lines}.").format(
                most=BRF_LINES_PER_PAGE, lines=lines_per_page
            )
        )
    translator = Translator(grade, "brf", document.language)
    pages = paginate(braille_lines(document, translator, cells), lines_per_page - 1)
    out = []
    for number, page in enumerate(pages, start=1):
        header = translator.translate(str(number)).rjust(cells)
        out.append("".join(f"{line}\r\n" for line in [header, *(b.braille for b in page)]))
    return "\f".join(out)


def export_unicode(document: Document, cells: int = DEFAULT_WIDTH, grade: int = 1) -> str:
    """Unicode braille (U+2800 block), one line per display line, ``cells`` cells at most."""
    _braille_cells(cells, 80)
    translator = Translator(grade, "unicode", document.language)
    return "\n".join(line.braille for line in braille_lines(document, translator, cells)) + "\n"
