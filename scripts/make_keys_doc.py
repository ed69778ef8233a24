"""Rewrite the key tables of docs/keys.md from the keymap table (fivecrowns.ui.keymap).

    .venv/bin/python scripts/make_keys_doc.py

Everything above the marker comment is prose and is kept; the tables after it are
made again. tests/test_ui_keymap.py checks that the page and the table agree.
"""

from __future__ import annotations

from pathlib import Path

from fivecrowns.ui.keymap import Keymap

MARKER = "<!-- The tables below are made from the keymap table"


def main() -> None:
    page = Path(__file__).resolve().parent.parent / "docs" / "keys.md"
    text = page.read_text(encoding="utf-8")
    head, marker, rest = text.partition(MARKER)
    if not marker:
        raise SystemExit(f"{page} has no marker line: {MARKER}")
    comment = marker + rest.split("\n", 1)[0]
    page.write_text(f"{head}{comment}\n\n{Keymap.default().markdown().rstrip()}\n", "utf-8")
    print(f"Wrote the key tables of {page}.")


if __name__ == "__main__":
    main()
