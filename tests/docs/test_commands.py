"""Pages that show `fivecrowns` commands say how a newcomer runs them (it is not on PATH)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
COMMAND = re.compile(r"(^\s*(\$ )?fivecrowns [a-z-])|(`fivecrowns [a-z-])", re.MULTILINE)
PAGES = [
    page
    for page in [
        ROOT / "README.md",
        ROOT / "README.es.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "docs" / "es").glob("*.md")),
    ]
    if COMMAND.search(page.read_text(encoding="utf-8"))
]


def test_the_pages_show_commands() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "docs/solver.md", "docs/braille.md", "docs/accessibility.md"} <= names
    # the Spanish pages carry the same commands, so they must say the same about running them
    assert {"README.es.md", "docs/es/braille.md", "docs/es/accessibility.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_a_page_with_fivecrowns_commands_says_how_to_run_them(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert ".venv/bin/fivecrowns" in text and "source .venv/bin/activate" in text
