"""How long the exports take for a long document (a whole 7-player game's worth of lines).

Run: .venv/bin/python benchmarks/bench_export.py
Prints seconds per export for each format; not part of the test run.
"""

from __future__ import annotations

import time

from fivecrowns.export import CARD_LEGEND, Document, Section, Table, render

PLAYERS = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "you")


def long_document() -> Document:
    sections = []
    for round_number in range(1, 12):
        moves = tuple(
            f"{PLAYERS[turn % 7]} draws from the stock, discards {3 + turn % 11}h."
            for turn in range(60)
        )
        scores = Table(
            columns=("Player", "Points"),
            rows=tuple((name, str(i * round_number)) for i, name in enumerate(PLAYERS)),
            lines=tuple(f"{name} {i * round_number}" for i, name in enumerate(PLAYERS)),
        )
        sections.append(Section(f"Round {round_number}.", (*moves, scores)))
    return Document("Five Crowns game log.", tuple(sections), legend=CARD_LEGEND)


def main() -> None:
    document = long_document()
    lines = sum(len(section.blocks) for section in document.sections)
    print(f"document: {len(document.sections)} sections, {lines} blocks")
    for fmt, width in (("text", 40), ("brf", 40), ("unicode", 40), ("text", 14), ("brf", 14)):
        for grade in (1, 2) if fmt != "text" else (1,):
            start = time.perf_counter()
            out = render(document, fmt, width, grade)
            seconds = time.perf_counter() - start
            print(f"{fmt:8} width {width:2} grade {grade}: {seconds:.3f} s, {len(out)} chars")


if __name__ == "__main__":
    main()
