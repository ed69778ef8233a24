"""Books and runs, and the exact solver that arranges a hand into them.

Terminology (the words of RULES.md, "Melds", "Going out" and "Scoring"):

- *meld*: a book (3 or more cards of one rank, any suits, duplicates allowed) or
  a run (3 or more cards of one suit in consecutive rank order, 3 to King, no
  wrapping, no two cards of one rank).
- *wild*: a joker, or a card of the round's wild rank. A wild stands for any
  card of a meld; any number of wilds may sit side by side and a meld may be
  all wilds. A card of the wild rank may also stand as its natural self, which
  never gives more than using it as a wild, so the solver treats it as a wild
  and :meth:`Meld.describe` names it as itself when it sits at its own place.
- *natural*: a card that is not wild in this round.
- *leftover*: cards in no meld; they score their points (3 to 10 face value,
  Jack 11, Queen 12, King 13, a card of the wild rank 20, a joker 50).
- *mandatory discard*: after drawing, exactly one card must be discarded. The
  discard is not counted, and it is not in a meld: ``3st 4st 5st`` with a
  mandatory discard (Kings wild) leaves 7 points, not 0.

How the solver works: natural cards are counted per (rank, suit) type and the
wilds are one count. It always takes the lowest natural card left (by rank,
then suit in the order stars, hearts, clubs, spades, diamonds): that card is
left over, or discarded, or the lowest natural of a meld of 3 to 5 cards (a
longer meld splits into two shorter ones over the same cards), and the search
is memoised on (the counts left, wilds left, discard still owed, any meld made)
and stops trying choices at the first that leaves 0 points.
A meld gets the fewest wilds it needs; wilds that are not needed form a meld of
their own (3 or more) or join the first meld made (1 or 2; it has at most 5
cards, and a book or run of 7 is still a meld), so they cost nothing unless no
meld at all can be made. The oracle tests (tests/oracle.py) prove these
shortcuts on thousands of hands.

Tie-break rule (the same answer every time, whatever the order of the input):
for the lowest natural card the solver tries the melds it can start in this
order: fewest wilds needed first, then more natural cards, books before runs,
then the meld whose other cards are lower (rank, then suit); after the melds,
discarding the card (when a discard is owed), then leaving it over. It keeps
the first choice that reaches the least leftover points. Jokers go into melds
before cards of the wild rank (so a leftover wild is the cheaper one); cards of
the wild rank are used from the lowest suit up; a wild that must be discarded
is the most expensive unused wild. Wilds a meld does not need join the first
meld made, or form one meld of wilds at the end.

>>> from fivecrowns.cards import parse_cards, Rank
>>> best_arrangement(parse_cards("8c 8c 8sp 5h jk 7h Kd"), Rank.TEN).describe()
... # doctest: +NORMALIZE_WHITESPACE
'a run of 5, 6, 7 of hearts using a joker for the 6; a book of 8s;
 left over: King of diamonds, 13 points'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fivecrowns.cards import Card, Rank, card_from_code, is_wild, points
from fivecrowns.errors import MeldError
from fivecrowns.words import join_words

__all__ = [
    "Arrangement",
    "Meld",
    "MeldKind",
    "best_arrangement",
    "best_with_discard",
    "check_meld",
    "going_out_discards",
    "is_meld",
    "least_leftover",
    "least_leftover_with_discard",
]

_KING = 13
_LOWEST = 3
_LONGEST_RUN = _KING - _LOWEST + 1


class MeldKind(enum.Enum):
    """A book (one rank) or a run (one suit in order); a meld of only wilds counts as a book."""

    BOOK = "book"
    RUN = "run"


# --- validation --------------------------------------------------------------


def _sort_wilds(wilds: Iterable[Card]) -> list[Card]:
    """Cards of the wild rank by suit, then jokers."""
    return sorted(wilds)


def _run_places(naturals: Sequence[Card], wilds: Sequence[Card]) -> list[int]:
    """The rank each card of a run stands for: naturals first, then the wilds in order.

    The run starts at its lowest natural and grows upward; it starts lower only
    when it would run past King. A card of the wild rank that belongs to the
    run's suit takes its own place when that place is free; other wilds fill
    the free places from the lowest up.
    """
    length = len(naturals) + len(wilds)
    ranks = [int(card.rank) for card in naturals if card.rank is not None]
    start = min(min(ranks), _KING - length + 1)
    free = sorted(set(range(start, start + length)) - set(ranks))
    suit = naturals[0].suit
    places: list[int | None] = [None] * len(wilds)
    for index, card in enumerate(wilds):
        if card.rank is not None and card.suit == suit and int(card.rank) in free:
            places[index] = int(card.rank)
            free.remove(int(card.rank))
    for index in range(len(wilds)):
        if places[index] is None:
            places[index] = free.pop(0)
    return ranks + [place for place in places if place is not None]


def _spoken_rank(rank: int) -> str:
    return Rank(rank).word


def _plural(rank: Rank | None) -> str:
    return "wilds" if rank is None else rank.plural


def check_meld(cards: Iterable[Card], wild_rank: Rank) -> Meld:
    """The meld these cards make, or :class:`MeldError` saying why they make none.

    The meld's cards come back in a fixed order: a book's naturals by suit and
    then its wilds; a run's cards in the order of the ranks they stand for.

    >>> from fivecrowns.cards import parse_cards, Rank
    >>> check_meld(parse_cards("7h jk 5h"), Rank.KING).describe(Rank.KING)
    'a run of 5, 6, 7 of hearts using a joker for the 6'
    >>> check_meld(parse_cards("7h 7h 8h"), Rank.KING)
    Traceback (most recent call last):
    ...
    fivecrowns.errors.MeldError: A run cannot hold two 7s.
    """
    hand = list(cards)
    if len(hand) < 3:
        raise MeldError(f"A meld needs at least 3 cards; this has {len(hand)}.")
    naturals = sorted(card for card in hand if not is_wild(card, wild_rank))
    wilds = _sort_wilds(card for card in hand if is_wild(card, wild_rank))
    if not naturals:
        return Meld(MeldKind.BOOK, tuple(wilds))
    ranks = {card.rank for card in naturals}
    if len(ranks) == 1:
        return Meld(MeldKind.BOOK, tuple(naturals + wilds))
    suits = {card.suit for card in naturals}
    if len(suits) > 1:
        raise MeldError(
            "These cards are neither a book nor a run: "
            "a book is one rank, and a run is one suit in order."
        )
    seen: set[Rank] = set()
    for card in naturals:
        if card.rank in seen:
            raise MeldError(f"A run cannot hold two {_plural(card.rank)}.")
        if card.rank is not None:
            seen.add(card.rank)
    if len(hand) > _LONGEST_RUN:
        raise MeldError(f"A run cannot be longer than {_LONGEST_RUN} cards, 3 to King.")
    low = int(naturals[0].rank or 0)
    high = int(naturals[-1].rank or 0)
    if high - low + 1 > len(hand):
        raise MeldError(
            f"A run needs ranks in order: {_spoken_rank(low)} to {_spoken_rank(high)} "
            f"needs {high - low + 1} cards, and there are only {len(hand)}."
        )
    places = _run_places(naturals, wilds)
    ordered = [card for _, card in sorted(zip(places, naturals + wilds, strict=True))]
    return Meld(MeldKind.RUN, tuple(ordered))


def is_meld(cards: Iterable[Card], wild_rank: Rank) -> bool:
    """Whether the cards make a book or a run (see :func:`check_meld`)."""
    try:
        check_meld(cards, wild_rank)
    except MeldError:
        return False
    return True


def _wild_words(card: Card) -> str:
    return "a joker" if card.is_joker else f"the {card.spoken}"


@dataclass(frozen=True)
class Meld:
    """A book or a run: its kind and its cards (see :func:`check_meld` for the order)."""

    kind: MeldKind
    cards: tuple[Card, ...]

    def describe(self, wild_rank: Rank) -> str:
        """Words for speech: "a book of 8s", "a run of 5, 6, 7 of hearts using a joker for the 6".

        A run names the place each wild takes, unless it is a card of the wild
        rank standing as itself.
        """
        naturals = sorted(card for card in self.cards if not is_wild(card, wild_rank))
        wilds = _sort_wilds(card for card in self.cards if is_wild(card, wild_rank))
        if not naturals:
            counted = [_wild_words(card) for card in wilds]
            return f"a meld of {len(wilds)} wilds: {join_words(counted)}"
        if self.kind is MeldKind.BOOK:
            text = f"a book of {_plural(naturals[0].rank)}"
            if wilds:
                text += " using " + join_words([_wild_words(card) for card in wilds])
            return text
        places = _run_places(naturals, wilds)
        ranks = sorted(places)
        suit = naturals[0].suit
        suit_word = suit.word if suit is not None else ""
        text = f"a run of {', '.join(_spoken_rank(rank) for rank in ranks)} of {suit_word}"
        stand_ins = [
            f"{_wild_words(card)} for the {_spoken_rank(place)}"
            for card, place in zip(wilds, places[len(naturals) :], strict=True)
            if not (card.suit == suit and card.rank is not None and int(card.rank) == place)
        ]
        if stand_ins:
            text += " using " + join_words(stand_ins)
        return text


def _leftover_words(card: Card, wild_rank: Rank) -> str:
    if card.is_joker:
        return "joker"
    if card.rank == wild_rank:
        return f"wild {card.spoken}"
    return card.spoken


@dataclass(frozen=True)
class Arrangement:
    """Melds, leftover cards and (after drawing) the discard of one hand."""

    wild_rank: Rank
    melds: tuple[Meld, ...]
    leftover: tuple[Card, ...]
    discard: Card | None = None

    @property
    def leftover_points(self) -> int:
        return sum(points(card, self.wild_rank) for card in self.leftover)

    @property
    def all_melded(self) -> bool:
        """Every card (but the discard) is in a meld: with a discard, the hand can go out."""
        return not self.leftover

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the hand, discard included, in card order."""
        every = [card for meld in self.melds for card in meld.cards] + list(self.leftover)
        if self.discard is not None:
            every.append(self.discard)
        return tuple(sorted(every))

    def describe(self) -> str:
        """Words for speech, most important first, no symbols.

        "discard 9 of clubs; a book of 8s; nothing left over, 0 points"
        """
        parts: list[str] = []
        if self.discard is not None:
            parts.append("discard " + _leftover_words(self.discard, self.wild_rank))
        parts.extend(meld.describe(self.wild_rank) for meld in self.melds)
        if not self.melds:
            parts.append("no melds")
        if self.leftover:
            names = join_words([_leftover_words(card, self.wild_rank) for card in self.leftover])
            parts.append(f"left over: {names}, {self.leftover_points} points")
        else:
            parts.append("nothing left over, 0 points")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The keys of ``fivecrowns solve --json``; ``cards`` here is in card order."""
        return {
            "cards": [card.token for card in self.cards],
            "wild": self.wild_rank.token,
            "leftover_points": self.leftover_points,
            "melds": [[card.token for card in meld.cards] for meld in self.melds],
            "leftover": [card.token for card in self.leftover],
            "discard": None if self.discard is None else self.discard.token,
            "can_go_out": self.all_melded,
        }


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

    >>> from fivecrowns.cards import parse_cards, Rank
    >>> best_arrangement(parse_cards("3st 4st 5st"), Rank.KING).leftover_points
    0
    """
    search, wilds = _search_for(cards, wild_rank)
    search.value(search.start, search.wilds, 0, 0)
    return _rebuild(search, wilds, wild_rank, 0)


def best_with_discard(cards: Iterable[Card], wild_rank: Rank) -> Arrangement:
    """(b) A hand after drawing: the best arrangement once one card is discarded.

    The solver picks the discard too; the discard does not count.

    >>> from fivecrowns.cards import parse_cards, Rank
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

    >>> from fivecrowns.cards import parse_cards, Rank
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

    >>> from fivecrowns.cards import parse_cards, Rank
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
