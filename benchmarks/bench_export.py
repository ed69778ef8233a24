"""How long the exports take: a synthetic long document, and a real 7-player game log.

Run: .venv/bin/python benchmarks/bench_export.py
Prints the best of 3 runs, in seconds, per format, width and grade (not part of the tests).
A fresh translator (empty cache) is used for every run, so the liblouis calls are counted.
"""

from __future__ import annotations

import time

from fivecrowns.commands.export import build_document, play_seeded_game
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


def best_of(runs: int, document: Document, fmt: str, width: int, grade: int) -> tuple[float, int]:
    best = float("inf")
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(render(document, fmt, width, grade))
        best = min(best, time.perf_counter() - start)
    return best, size


def measure(name: str, document: Document) -> None:
    lines = sum(len(section.blocks) for section in document.sections)
    print(f"{name}: {len(document.sections)} sections, {lines} blocks")
    for fmt, width in (("text", 40), ("brf", 40), ("unicode", 40), ("text", 14), ("brf", 14)):
        for grade in (1, 2) if fmt != "text" else (1,):
            seconds, size = best_of(3, document, fmt, width, grade)
            print(f"  {fmt:8} width {width:2} grade {grade}: {seconds:.3f} s, {size} chars")


def main() -> None:
    measure("synthetic log", long_document())
    start = time.perf_counter()
    game = play_seeded_game(11, 7)
    print(f"playing the seed 11, 7-player game: {time.perf_counter() - start:.2f} s")
    measure("real game log (seed 11, 7 players)", build_document(game, "log"))


if __name__ == "__main__":
    main()
