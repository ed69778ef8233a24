"""BRF and Unicode braille through the real liblouis; a missing liblouis said clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from export_support import (
    BRF_ALLOWED,
    brf_pages,
    hide_liblouis,
    hide_louis_module,
    require_liblouis,
    words,
)
from fivecrowns.export import (
    CARD_LEGEND,
    Document,
    ExportError,
    LiblouisMissingError,
    Section,
    Table,
    export_brf,
    export_text,
    export_unicode,
    liblouis_status,
    render,
)
from fivecrowns.export.braille import (
    BRF_DISPLAY,
    GRADE_TABLES,
    BrailleLine,
    LouTranslateProgram,
    Translator,
    load_louis,
    paginate,
)
from fivecrowns.export.layout import LineKind

pytestmark = pytest.mark.real

ROUNDS = Table(
    columns=("Round", "Ana", "Ben", "you"),
    rows=tuple((str(r), str(r * 3), "0", str(r * 7)) for r in range(1, 12)),
    lines=tuple(f"Round {r}: Ana {r * 3}, Ben 0, you {r * 7}" for r in range(1, 12)),
)
LONG = Document(
    title="Five Crowns score sheet. Seed 7.",
    legend=CARD_LEGEND,
    intro=("3 players. Game over after round 11.",),
    sections=(
        Section("Hand.", ("Book of 8s: 8h 8c jk", "Run of hearts: 5h 6h 7h", "Leftover: Qsp, 12")),
        Section("Rounds.", (ROUNDS,)),
        Section("Rounds again.", (ROUNDS,)),
        Section("Totals.", ("Winner: Ben, 0 points.", "Ana 198", "you 462")),
    ),
)


@pytest.fixture(autouse=True)
def _liblouis() -> None:
    require_liblouis()


@pytest.mark.parametrize("grade", [1, 2])
@pytest.mark.parametrize("cells", [14, 20, 40])
def test_brf_pages_lines_and_characters(grade: int, cells: int) -> None:
    data = export_brf(LONG, cells=cells, grade=grade)
    assert set(data) <= BRF_ALLOWED
    pages = brf_pages(data)
    assert len(pages) >= 2
    translator = Translator(grade, "brf")
    for number, lines in enumerate(pages, start=1):
        assert len(lines) <= 25
        assert all(len(line) <= cells for line in lines)
        assert lines[0].strip() and len(lines[0]) == cells, "page number at the right margin"
        assert translator.back_translate(lines[0].strip()) == str(number)
        assert lines[1].strip(), "no page starts with a blank line"


def test_brf_fills_pages_and_keeps_a_heading_with_its_first_line() -> None:
    pages = brf_pages(export_brf(LONG))
    heading = Translator(1, "brf").translate("Rounds again.")
    assert [page[-1] for page in pages].count(heading) == 0
    assert all(len(page) >= 24 for page in pages[:-1])
    lines = [
        BrailleLine(str(i), str(i), LineKind.HEADING if i == 3 else LineKind.ITEM)
        for i in range(1, 7)
    ]
    pages_of_three = paginate(lines, 3)
    assert [[line.text for line in page] for page in pages_of_three] == [
        ["1", "2"],
        ["3", "4", "5"],
        ["6"],
    ]


def test_brf_back_translates_to_the_text_form() -> None:
    for grade in (1, 2):
        translator = Translator(grade, "brf")
        body = [line for page in brf_pages(export_brf(LONG, grade=grade)) for line in page[1:]]
        back = " ".join(translator.back_translate(line) for line in body)
        # Braille never uses print columns, so compare with the text form's sentences.
        text = export_text(LONG, 14)
        assert words(back) == words(text), f"grade {grade}"


def test_unicode_is_braille_cells_and_back_translates() -> None:
    out = export_unicode(LONG, cells=30)
    assert out.endswith("\n")
    lines = out.splitlines()
    assert all(len(line) <= 30 for line in lines)
    assert all("\u2800" <= char <= "\u28ff" for line in lines for char in line)
    translator = Translator(1, "unicode")
    back = " ".join(translator.back_translate(line) for line in lines)
    assert words(back) == words(export_text(LONG, 14))


def test_every_printable_ascii_character_stays_braille_ascii() -> None:
    text = "".join(chr(code) for code in range(0x20, 0x7F))
    for grade in (1, 2):
        data = export_brf(Document(text), grade=grade)
        assert set(data) <= BRF_ALLOWED


def test_display_table_is_needed_for_braille_ascii() -> None:
    """Why en-us-brf.dis is named: the UEB table alone gives lower-case letters (not BRF)."""
    louis = load_louis()
    alone = louis.translateString([GRADE_TABLES[1]], "Hand 10h")
    assert any("a" <= char <= "z" for char in alone)
    with_display = louis.translateString([f"{BRF_DISPLAY},{GRADE_TABLES[1]}"], "Hand 10h")
    assert with_display == ",HAND #AJ;H"


def test_grade_two_contracts() -> None:
    one = Translator(1, "brf").translate("Round three: you and the others")
    two = Translator(2, "brf").translate("Round three: you and the others")
    assert len(two) < len(one)
    assert Translator(2, "brf").back_translate(two).lower() == "round three: you and the others"


def test_unknown_grade_and_too_wide_brf_are_clear_sentences() -> None:
    with pytest.raises(ExportError, match="There is no braille grade 3: choose 1 or 2"):
        export_brf(LONG, grade=3)
    with pytest.raises(ExportError, match="41 cells are too long here: choose 14 to 40"):
        export_brf(LONG, cells=41)


def test_missing_liblouis_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide_liblouis(monkeypatch, tmp_path)
    for fmt in ("brf", "unicode"):
        with pytest.raises(LiblouisMissingError) as caught:
            render(LONG, fmt)
        message = str(caught.value)
        assert "needs liblouis" in message
        assert "sudo apt-get install liblouis-bin liblouis-data python3-louis" in message
        assert "text format works without it" in message
    ok, why = liblouis_status()
    assert not ok and "apt-get install" in why
    assert render(LONG, "text") == export_text(LONG)


def test_missing_tables_say_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    louis = load_louis()

    def no_tables(tables: list[str]) -> None:
        raise RuntimeError("Can't compile table")

    monkeypatch.setattr(louis, "checkTable", no_tables)
    with pytest.raises(LiblouisMissingError, match="liblouis-data"):
        export_brf(LONG)


@pytest.mark.real
def test_without_the_louis_module_the_lou_translate_program_gives_the_same_braille(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_module = [export_brf(LONG, grade=grade) for grade in (1, 2)] + [export_unicode(LONG)]
    hide_louis_module(monkeypatch)
    louis = load_louis()
    if not isinstance(louis, LouTranslateProgram):
        pytest.fail("lou_translate (Debian liblouis-bin) should be found when louis is hidden")
    with_program = [export_brf(LONG, grade=grade) for grade in (1, 2)] + [export_unicode(LONG)]
    assert with_program == with_module
    ok, why = liblouis_status()
    assert ok and why.endswith("through the lou_translate program"), why
    assert Translator(2, "brf").back_translate(",R.D #C").lower() == "round 3"


def test_lou_translate_reports_a_table_it_cannot_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_louis_module(monkeypatch)
    louis = load_louis()
    assert isinstance(louis, LouTranslateProgram)
    with pytest.raises(RuntimeError):
        louis.checkTable(["no-such-table.ctb"])
    with pytest.raises(RuntimeError):
        louis.translateString(["no-such-table.ctb"], "hello")
