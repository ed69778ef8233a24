"""Cached calls into the solver, and the pool of cards a player cannot see.

Computer players ask the solver the same questions many times in one turn (the
hard level asks "what is my best leftover if I draw this card?" for every kind
of unseen card), so answers are cached by the hand's card codes. The cache is
per process and bounded; it holds only solver answers, never game state.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence

from fivecrowns.core.cards import JOKERS_PER_DECK, Card, Rank, card_from_code
from fivecrowns.core.melds.solver import (
    Arrangement,
    best_arrangement,
    best_with_discard,
    least_leftover,
    least_leftover_with_discard,
)

__all__ = [
    "arrangement",
    "arrangement_with_discard",
    "clear_caches",
    "codes",
    "full_pool",
    "leftover",
    "leftover_with_discard",
]

_CACHE_SIZE = 1 << 16


def codes(cards: Iterable[Card]) -> tuple[int, ...]:
    """The sorted card codes of ``cards``: a hashable key for a hand (order does not matter)."""
    return tuple(sorted(card.code for card in cards))


def _cards(key: tuple[int, ...]) -> list[Card]:
    return [card_from_code(code) for code in key]


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _arrangement(key: tuple[int, ...], wild_rank: Rank) -> Arrangement:
    return best_arrangement(_cards(key), wild_rank)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _arrangement_with_discard(key: tuple[int, ...], wild_rank: Rank) -> Arrangement:
    return best_with_discard(_cards(key), wild_rank)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _leftover(key: tuple[int, ...], wild_rank: Rank) -> int:
    return least_leftover(_cards(key), wild_rank)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _leftover_with_discard(key: tuple[int, ...], wild_rank: Rank) -> int:
    return least_leftover_with_discard(_cards(key), wild_rank)


def arrangement(cards: Sequence[Card], wild_rank: Rank) -> Arrangement:
    """The solver's best arrangement of ``cards`` (no discard)."""
    return _arrangement(codes(cards), wild_rank)


def arrangement_with_discard(cards: Sequence[Card], wild_rank: Rank) -> Arrangement:
    """The solver's best arrangement of a hand after drawing, discard included."""
    return _arrangement_with_discard(codes(cards), wild_rank)


def leftover(cards: Sequence[Card], wild_rank: Rank) -> int:
    """Least leftover points of ``cards`` (no discard)."""
    return _leftover(codes(cards), wild_rank)


def leftover_with_discard(cards: Sequence[Card], wild_rank: Rank) -> int:
    """Least leftover points of a hand after drawing, once the best discard is made."""
    return _leftover_with_discard(codes(cards), wild_rank)


def full_pool(decks: int) -> Counter[Card]:
    """Every card of a ``decks``-deck game, as counts."""
    pool: Counter[Card] = Counter()
    for code in range(55):
        pool[card_from_code(code)] = decks
    pool[card_from_code(55)] = decks * JOKERS_PER_DECK
    return pool


def clear_caches() -> None:
    """Forget every cached solver answer (benchmarks start each game cold)."""
    _arrangement.cache_clear()
    _arrangement_with_discard.cache_clear()
    _leftover.cache_clear()
    _leftover_with_discard.cache_clear()
