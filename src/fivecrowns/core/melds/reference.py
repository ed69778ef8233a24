"""Today's solver before issue 15, kept unchanged as the reference the fast one is checked against.

:mod:`fivecrowns.core.melds.solver` must give the identical
:class:`~fivecrowns.core.melds.solver.Arrangement` (the same melds, wilds, leftover and
discard) and the same numbers as this module on every hand; ``tests/core/test_melds_reference.py``
compares them on thousands of random and dense hands, and ``benchmarks/bench_solver.py`` times
both on the same hands. The solver here is the memoised search described in ``docs/solver.md``
("Before issue 15"). The game uses it only as the solver's fallback for a hand its fast form
cannot hold (more than 3 of one card, or more than 31 wilds).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fivecrowns.core.cards import Card, Rank, card_from_code, is_wild
from fivecrowns.core.errors import MeldError
from fivecrowns.core.melds.solver import Arrangement, MeldKind, check_meld

__all__ = [
    "best_arrangement",
    "best_with_discard",
    "going_out_discards",
    "least_leftover",
    "least_leftover_with_discard",
]

_LOWEST = 3

# --- the solver --------------------------------------------------------------

_INFINITY = 1 << 30
_TYPES = 55  # natural (rank, suit) types, indexed by Card.code: (rank - 3) * 5 + suit
_SUITS = 5
_BOOK, _RUN, _DISCARD, _LEFT = 0, 1, 2, 3
_POINTS = tuple(code // _SUITS + _LOWEST for code in range(_TYPES))


def _run_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each set of available higher places (bit i = offset i + 1): (places used, wilds)."""
    table = []
    for available in range(16):
        options = []
        for used in range(1, 16):
            if used & ~available:
                continue
            span = used.bit_length() + 1
            options.append((used, max(3, span) - 1 - bin(used).count("1")))
        options.sort(key=lambda option: (option[0].bit_length(), option[0]))
        table.append(tuple(options))
    return tuple(table)


_RUN_OPTIONS = _run_table()


class _Search:
    """Least leftover points over (natural counts, wilds left, discard owed, melded)."""

    def __init__(self, counts: Sequence[int], cheap_wilds: int, jokers: int) -> None:
        self.width = max(1, max(counts, default=0).bit_length())
        self.field = (1 << self.width) - 1
        self.start = sum(count << (code * self.width) for code, count in enumerate(counts))
        self.cheap = cheap_wilds
        self.wilds = cheap_wilds + jokers
        self.memo: dict[int, tuple[int, tuple[int, int, int] | None]] = {}
        self.option_cache: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}

    def terminal(self, wilds: int, owed: int, melded: int) -> int:
        if owed:
            if wilds == 0:
                return _INFINITY
            wilds -= 1
        if wilds == 0 or wilds >= 3 or melded:
            return 0
        cheap = min(wilds, self.cheap)
        return 20 * cheap + 50 * (wilds - cheap)

    def options(self, x: int, code: int) -> list[tuple[int, int, int]]:
        """The melds the lowest card ``code`` can start, in tie-break order: (kind, sub, wilds).

        Cached per search on what they depend on: the counts of the card's
        rank from its suit up, and which higher places of its suit are there.
        """
        width, field = self.width, self.field
        rank_end = (code // _SUITS + 1) * _SUITS
        segment = (x >> (code * width)) & ((1 << ((rank_end - code) * width)) - 1)
        available = 0
        for offset in range(1, 5):
            if code + offset * _SUITS >= _TYPES:
                break
            if (x >> ((code + offset * _SUITS) * width)) & field:
                available |= 1 << (offset - 1)
        key = (code, segment, available)
        known = self.option_cache.get(key)
        if known is not None:
            return known
        one = 1 << (code * width)
        # Books: the other naturals are of this rank, with suits not below this one.
        books = [(one, 1)]
        for other in range(code, rank_end):
            count = (x >> (other * width)) & field
            if other == code:
                count -= 1
            unit = 1 << (other * width)
            grown = []
            for sub, size in books:
                for extra in range(1, count + 1):
                    if size + extra > 5:
                        break
                    grown.append((sub + extra * unit, size + extra))
            books.extend(grown)
        ranked = [(max(0, 3 - size), -size, _BOOK, sub) for sub, size in books]
        # Runs: higher places of this suit, up to 4 above (the lowest card alone is a book).
        for used, need in _RUN_OPTIONS[available]:
            sub = one
            for offset in range(1, 5):
                if used >> (offset - 1) & 1:
                    sub += 1 << ((code + offset * _SUITS) * width)
            ranked.append((need, -1 - used.bit_count(), _RUN, sub))
        ranked.sort()
        found = [(kind, sub, need) for need, _, kind, sub in ranked]
        self.option_cache[key] = found
        return found

    def value(self, x: int, wilds: int, owed: int, melded: int) -> int:
        key = (((x * (self.wilds + 1)) + wilds) << 2) | (owed << 1) | melded
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        if x == 0:
            result = self.terminal(wilds, owed, melded)
            self.memo[key] = (result, None)
            return result
        low = (x & -x).bit_length() - 1
        code = low // self.width
        one = 1 << (code * self.width)
        best = _INFINITY
        move: tuple[int, int, int] | None = None
        for kind, sub, need in self.options(x, code):
            if need <= wilds:
                cost = self.value(x - sub, wilds - need, owed, 1)
                if cost < best:
                    best, move = cost, (kind, sub, need)
                    if cost == 0:
                        break  # nothing beats 0, and the first 0 is the tie-break winner
        if best and owed:
            cost = self.value(x - one, wilds, 0, melded)
            if cost < best:
                best, move = cost, (_DISCARD, one, 0)
        if best:
            cost = _POINTS[code] + self.value(x - one, wilds, owed, melded)
            if cost < best:
                best, move = cost, (_LEFT, one, 0)
        self.memo[key] = (best, move)
        return best

    def codes(self, sub: int) -> list[int]:
        found = []
        for code in range(_TYPES):
            count = (sub >> (code * self.width)) & self.field
            found.extend([code] * count)
        return found


def _split(cards: Iterable[Card], wild_rank: Rank) -> tuple[list[int], list[Card]]:
    counts = [0] * _TYPES
    wilds: list[Card] = []
    for card in cards:
        if is_wild(card, wild_rank):
            wilds.append(card)
        else:
            counts[card.code] += 1
    return counts, wilds


def _wild_pool(wilds: Sequence[Card]) -> list[Card]:
    """Wilds in the order melds use them: jokers first, then the wild rank by suit."""
    return [card for card in wilds if card.is_joker] + sorted(
        card for card in wilds if not card.is_joker
    )


def _search_for(cards: Iterable[Card], wild_rank: Rank) -> tuple[_Search, list[Card]]:
    counts, wilds = _split(cards, wild_rank)
    jokers = sum(1 for card in wilds if card.is_joker)
    return _Search(counts, len(wilds) - jokers, jokers), wilds


def _rebuild(search: _Search, wilds: Sequence[Card], wild_rank: Rank, owed: int) -> Arrangement:
    pool = _wild_pool(wilds)
    x, left, melded = search.start, len(pool), 0
    melds: list[tuple[MeldKind, list[Card]]] = []
    leftover: list[Card] = []
    discard: Card | None = None
    while x:
        search.value(x, left, owed, melded)
        key = (((x * (search.wilds + 1)) + left) << 2) | (owed << 1) | melded
        move = search.memo[key][1]
        assert move is not None
        kind, sub, need = move
        naturals = [card_from_code(code) for code in search.codes(sub)]
        if kind in (_BOOK, _RUN):
            used = pool[len(pool) - left : len(pool) - left + need]
            meld_kind = MeldKind.BOOK if kind == _BOOK else MeldKind.RUN
            melds.append((meld_kind, naturals + used))
            left -= need
            melded = 1
        elif kind == _DISCARD:
            discard = naturals[0]
            owed = 0
        else:
            leftover.append(naturals[0])
        x -= sub
    unused = pool[len(pool) - left :]
    if owed:
        if not unused:
            raise MeldError("There is no card to discard.")
        discard = unused.pop(0)
    if len(unused) >= 3:
        melds.append((MeldKind.BOOK, unused))
    elif unused and melds:
        melds[0] = (melds[0][0], melds[0][1] + unused)
    else:
        leftover.extend(unused)
    built = tuple(check_meld(meld_cards, wild_rank) for _, meld_cards in melds)
    return Arrangement(wild_rank, built, tuple(sorted(leftover)), discard)


def best_arrangement(cards: Iterable[Card], wild_rank: Rank) -> Arrangement:
    """(a) The arrangement of these cards with the least leftover points.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> best_arrangement(parse_cards("3st 4st 5st"), Rank.KING).leftover_points
    0
    """
    search, wilds = _search_for(cards, wild_rank)
    search.value(search.start, search.wilds, 0, 0)
    return _rebuild(search, wilds, wild_rank, 0)


def best_with_discard(cards: Iterable[Card], wild_rank: Rank) -> Arrangement:
    """(b) A hand after drawing: the best arrangement once one card is discarded.

    The solver picks the discard too; the discard does not count.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> found = best_with_discard(parse_cards("3st 4st 5st"), Rank.KING)
    >>> found.discard.token, found.leftover_points
    ('5st', 7)
    """
    hand = list(cards)
    if not hand:
        raise MeldError("A hand after drawing has at least one card to discard.")
    search, wilds = _search_for(hand, wild_rank)
    search.value(search.start, search.wilds, 1, 0)
    return _rebuild(search, wilds, wild_rank, 1)


def least_leftover(cards: Iterable[Card], wild_rank: Rank) -> int:
    """The least leftover points of these cards, without building the arrangement."""
    search, _ = _search_for(cards, wild_rank)
    return search.value(search.start, search.wilds, 0, 0)


def least_leftover_with_discard(cards: Iterable[Card], wild_rank: Rank) -> int:
    """(b) as a number only: the least leftover points of a hand after drawing, once the
    best card is discarded, without building the arrangement (computer players ask it often).

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> least_leftover_with_discard(parse_cards("3st 4st 5st"), Rank.KING)
    7
    """
    hand = list(cards)
    if not hand:
        raise MeldError("A hand after drawing has at least one card to discard.")
    search, _ = _search_for(hand, wild_rank)
    return search.value(search.start, search.wilds, 1, 0)


def going_out_discards(cards: Iterable[Card], wild_rank: Rank) -> tuple[Card, ...]:
    """(c) The distinct cards whose discard lets this hand (after drawing) go out.

    Empty when the hand cannot go out. In card order.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> [card.token for card in going_out_discards(parse_cards("3st 4st 5st 6st"), Rank.KING)]
    ['3st', '6st']
    """
    hand = list(cards)
    search, _ = _search_for(hand, wild_rank)
    if not hand or search.value(search.start, search.wilds, 1, 0) != 0:
        return ()
    found: list[Card] = []
    for card in sorted(set(hand)):
        if is_wild(card, wild_rank):
            # Any wild is as good as any other for going out: an unneeded wild costs nothing.
            if search.value(search.start, search.wilds - 1, 0, 0) == 0:
                found.append(card)
        else:
            without = search.start - (1 << (card.code * search.width))
            if search.value(without, search.wilds, 0, 0) == 0:
                found.append(card)
    return tuple(found)
