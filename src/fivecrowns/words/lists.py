"""Small wording helpers shared by speech (``words.announce``) and exports (``export.content``).

Standard library only; the words layer and every layer above it may use them. Lists of
words are joined by :func:`fivecrowns.i18n.join_list` ("7, 8 and 9", "7, 8 y 9").
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["name_numbers", "seats_lowest_first"]


def seats_lowest_first(totals: Sequence[int]) -> list[int]:
    """Seats ordered by total, lowest first; a tie keeps seat order.

    >>> seats_lowest_first([30, 12, 30, 5])
    [3, 1, 0, 2]
    """
    return sorted(range(len(totals)), key=lambda seat: (totals[seat], seat))


def name_numbers(
    names: Sequence[str], numbers: Sequence[int], seats: Sequence[int] | None = None
) -> str:
    """ "Ana 12, Ben 0, Cy 7": each seat's name and number, in seat order or in ``seats``' order.

    >>> name_numbers(["Ana", "Ben", "Cy"], [12, 0, 7])
    'Ana 12, Ben 0, Cy 7'
    >>> name_numbers(["Ana", "Ben", "Cy"], [12, 0, 7], seats_lowest_first([12, 0, 7]))
    'Ben 0, Cy 7, Ana 12'
    """
    if seats is None:
        return ", ".join(f"{name} {number}" for name, number in zip(names, numbers, strict=True))
    return ", ".join(f"{names[seat]} {numbers[seat]}" for seat in seats)
