"""The text layout: width, wrapping, tables or one item per line, plain ASCII."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecrowns.export import (
    CARD_LEGEND,
    Document,
    ExportError,
    Section,
    Table,
    export_text,
    render,
)
from fivecrowns.export.layout import table_columns, to_ascii, wrap

SCORES = Table(
    columns=("Round", "Ana", "Ben", "you"),
    rows=(("1", "5", "0", "12"), ("2", "0", "33", "7"), ("Total", "5", "33", "19")),
    lines=(
        "Round 1: Ana 5, Ben 0, you 12",
        "Round 2: Ana 0, Ben 33, you 7",
        "Totals: Ana 5, Ben 33, you 19",
    ),
)
DOC = Document(
    title="Five Crowns score sheet.",
    legend=CARD_LEGEND,
    intro=("Game over.",),
    sections=(Section("Rounds.", (SCORES,)), Section("Winner.", ("Ana, 5 points.",))),
)

word_text = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789:,.", min_size=1, max_size=30),
    min_size=1,
    max_size=15,
).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(text=word_text, width=st.integers(min_value=14, max_value=80))
def test_wrap_keeps_every_line_within_width_and_every_character(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert all(len(line) <= width for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])
    assert "".join(line.replace(" ", "") for line in lines) == text.replace(" ", "")


def test_wrap_breaks_between_words_when_it_can() -> None:
    assert wrap("Round 3: Ana 12, Ben 0, you 7", 16) == ["Round 3: Ana 12,", "  Ben 0, you 7"]


def test_wrap_cuts_a_word_longer_than_the_line() -> None:
    lines = wrap("Winner: Maximiliana-Theodora, 3 points.", 14)
    assert all(len(line) <= 14 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == (
        "Winner:Maximiliana-Theodora,3points."
    )


@pytest.mark.parametrize("width", [14, 20, 30, 40, 60, 80])
def test_every_text_line_is_within_the_width(width: int) -> None:
    text = export_text(DOC, width)
    assert text.endswith("\n")
    assert all(len(line) <= width for line in text.splitlines())
    assert text.isascii()


def test_table_shows_as_columns_when_it_fits() -> None:
    lines = export_text(DOC, 40).splitlines()
    assert "Round  Ana  Ben  you" in lines
    assert "Total    5   33   19" in lines
    assert "Round 1: Ana 5, Ben 0, you 12" not in lines


def test_table_becomes_one_item_per_line_when_too_wide() -> None:
    assert table_columns(SCORES, 19) is None
    lines = export_text(DOC, 19).splitlines()
    assert "Round 1: Ana 5, Ben" in lines
    assert "  0, you 12" in lines
    assert not any(line.startswith("Round  Ana") for line in lines)


def test_legend_comes_right_after_the_title() -> None:
    lines = export_text(DOC, 80).splitlines()
    assert lines[:2] == ["Five Crowns score sheet.", CARD_LEGEND]


def test_text_is_plain_ascii_even_for_accented_names() -> None:
    assert to_ascii("Zoë\u00a0et José ♥") == "Zoe et Jose ?"
    doc = Document("Scores.", (Section("Totals.", ("Zoë 12",)),))
    assert "Zoe 12" in export_text(doc).splitlines()


@pytest.mark.parametrize("width", [0, 13, 81, 200])
def test_width_out_of_range_is_a_clear_sentence(width: int) -> None:
    with pytest.raises(ExportError, match=f"The width {width} is not allowed: choose 14 to 80"):
        export_text(DOC, width)


def test_unknown_format_is_a_clear_sentence() -> None:
    with pytest.raises(ExportError, match="There is no export format 'pdf'"):
        render(DOC, "pdf")


def test_table_row_with_wrong_cell_count_is_refused() -> None:
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        Table(("a", "b", "c"), (("1", "2"),), ("a 1",))
