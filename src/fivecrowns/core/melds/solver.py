# One file (~1,000 lines): it mirrors _melds_c.c function for function; they change together.
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

How the solver works: natural cards are counted per (rank, suit) type, 2 bits
each, in one integer (the *state*); the wilds are one count. It always takes the
lowest natural card left (by rank, then suit in the order stars, hearts, clubs,
spades, diamonds): that card is left over, or discarded, or the lowest natural of
a meld of 3 to 5 cards (a longer meld splits into two shorter ones over the same
cards), and the search is memoised on (the state, wilds left, discard still owed,
any meld made) and stops trying choices at the first that leaves 0 points.
The melds a lowest card can start depend only on a few fields of the state (its
rank from its suit up, its suit's next four ranks), so they come from a table kept
between calls; so does the memo (bounded, cleared when full), since a state's value
does not depend on the hand it came from. When 3 or more cards of the lowest rank
are left, suits of that rank with no card in the next four ranks can only make
books, so swapping their counts changes nothing: the memo keys such states alike
and tries only melds that differ after such swaps (ten 7s and one wild: 0.4 ms,
not 5). The arrangement is rebuilt by following, from the whole hand, the first
choice in tie-break order that keeps the best value.
A meld gets the fewest wilds it needs; wilds that are not needed form a meld of
their own (3 or more) or join the first meld made (1 or 2; it has at most 5
cards, and a book or run of 7 is still a meld), so they cost nothing unless no
meld at all can be made. The oracle tests (tests/support/oracle.py) prove these
shortcuts on thousands of hands, and ``tests/core/test_melds_reference.py`` checks
that this solver gives the identical arrangement as the one before it
(:mod:`fivecrowns.core.melds.reference`).

The search runs compiled when the install built ``fivecrowns.core.melds._melds_c`` (the same
search in C, from ``src/fivecrowns/core/melds/_melds_c.c``; docs/solver.md) and as the pure
Python below otherwise;
both give the identical arrangement, and the tests run every comparison through both.

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

>>> from fivecrowns.core.cards import parse_cards, Rank
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

from fivecrowns.core.cards import (
    JOKER,
    Card,
    Rank,
    card_a,
    card_from_code,
    card_the,
    is_wild,
    points,
    rank_plural,
    rank_the,
    spoken_name,
)
from fivecrowns.core.errors import MeldError
from fivecrowns.i18n import N_, join_list, ngettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "Arrangement",
    "Meld",
    "MeldKind",
    "best_arrangement",
    "best_with_discard",
    "check_meld",
    "clear_caches",
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


# The words of a meld (Spanish: "una familia de 8", "un palo de 5, 6, 7 de copas").
BOOK = N_("a book of {rank}")
BOOK_USING = N_("a book of {rank} using {wilds}")
RUN = N_("a run of {ranks} of {suit}")
RUN_USING = N_("a run of {ranks} of {suit} using {wilds}")
# A run of 4 or more cards in short: "a run of 5 to 9 of spades".
RUN_FROM_TO = N_("a run of {low} to {high} of {suit}")
# TRANSLATORS: a wild card in a run and the place it takes: "a joker for the 6".
STAND_IN = N_("{wild} for {rank}")


def check_meld(cards: Iterable[Card], wild_rank: Rank) -> Meld:
    """The meld these cards make, or :class:`MeldError` saying why they make none.

    The meld's cards come back in a fixed order: a book's naturals by suit and
    then its wilds; a run's cards in the order of the ranks they stand for.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> check_meld(parse_cards("7h jk 5h"), Rank.KING).describe(Rank.KING)
    'a run of 5, 6, 7 of hearts using a joker for the 6'
    >>> check_meld(parse_cards("7h 7h 8h"), Rank.KING)
    Traceback (most recent call last):
    ...
    fivecrowns.core.errors.MeldError: A run cannot hold two 7s.
    """
    hand = list(cards)
    if len(hand) < 3:
        raise MeldError(
            ngettext(
                "A meld needs at least 3 cards; this has {count}.",
                "A meld needs at least 3 cards; this has {count}.",
                len(hand),
            ).format(count=len(hand))
        )
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
            _(
                "These cards are neither a book nor a run: "
                "a book is one rank, and a run is one suit in order."
            )
        )
    seen: set[Rank] = set()
    for card in naturals:
        if card.rank is None:  # a natural always has a rank; this tells mypy so
            continue
        if card.rank in seen:
            raise MeldError(_("A run cannot hold two {rank}.").format(rank=rank_plural(card.rank)))
        seen.add(card.rank)
    if len(hand) > _LONGEST_RUN:
        raise MeldError(
            ngettext(
                "A run cannot be longer than {count} card, 3 to King.",
                "A run cannot be longer than {count} cards, 3 to King.",
                _LONGEST_RUN,
            ).format(count=_LONGEST_RUN)
        )
    low = int(naturals[0].rank or 0)
    high = int(naturals[-1].rank or 0)
    if high - low + 1 > len(hand):
        raise MeldError(
            ngettext(
                "A run needs ranks in order: {low} to {high} needs {count} card, "
                "and there are only {have}.",
                "A run needs ranks in order: {low} to {high} needs {count} cards, "
                "and there are only {have}.",
                high - low + 1,
            ).format(
                low=_spoken_rank(low),
                high=_spoken_rank(high),
                count=high - low + 1,
                have=len(hand),
            )
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
    return card_a(card) if card.is_joker else card_the(card)


def _wilds_words(wilds: Sequence[Card]) -> str:
    """The wilds of a book or a meld of wilds, jokers counted ("the 3 of spades and 2 jokers",
    not "a joker and a joker")."""
    jokers = sum(1 for card in wilds if card.is_joker)
    words = [card_the(card) for card in wilds if not card.is_joker]
    if jokers == 1:
        words.append(_wild_words(JOKER))
    elif jokers:
        words.append(ngettext("{count} joker", "{count} jokers", jokers).format(count=jokers))
    return join_list(words)


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
            counted = _wilds_words(wilds)
            return ngettext(
                "a meld of {count} wild: {cards}", "a meld of {count} wilds: {cards}", len(wilds)
            ).format(count=len(wilds), cards=counted)
        rank = naturals[0].rank
        if self.kind is MeldKind.BOOK and rank is not None:
            if not wilds:
                return _(BOOK).format(rank=rank_plural(rank))
            using = _wilds_words(wilds)
            return _(BOOK_USING).format(rank=rank_plural(rank), wilds=using)
        places = _run_places(naturals, wilds)
        suit = naturals[0].suit
        # why a plain comma: the ranks of a run are counted out in order, not a sentence's list
        ranks = ", ".join(_spoken_rank(place) for place in sorted(places))
        suit_word = suit.word if suit is not None else ""
        stand_ins = [
            _(STAND_IN).format(wild=_wild_words(card), rank=rank_the(Rank(place)))
            for card, place in zip(wilds, places[len(naturals) :], strict=True)
            if not (card.suit == suit and card.rank is not None and int(card.rank) == place)
        ]
        if stand_ins:
            return _(RUN_USING).format(ranks=ranks, suit=suit_word, wilds=join_list(stand_ins))
        return _(RUN).format(ranks=ranks, suit=suit_word)

    def describe_short(self, wild_rank: Rank) -> str:
        """:meth:`describe` without which wild stands for what, and a run of 4 or more cards
        as "a run of 5 to 9 of spades" (computer players' explanations).

        >>> from fivecrowns.core.cards import parse_cards
        >>> check_meld(parse_cards("5sp jk 7sp 8sp 9sp"), Rank.THREE).describe_short(Rank.THREE)
        'a run of 5 to 9 of spades'
        """
        naturals = [card for card in self.cards if not is_wild(card, wild_rank)]
        rank = naturals[0].rank if naturals else None
        if rank is None:
            return self.describe(wild_rank)
        if self.kind is MeldKind.BOOK:
            return _(BOOK).format(rank=rank_plural(rank))
        wilds = [card for card in self.cards if is_wild(card, wild_rank)]
        places = sorted(_run_places(sorted(naturals), _sort_wilds(wilds)))
        suit = naturals[0].suit
        suit_word = suit.word if suit is not None else ""
        if len(places) >= 4:
            low, high = _spoken_rank(places[0]), _spoken_rank(places[-1])
            return _(RUN_FROM_TO).format(low=low, high=high, suit=suit_word)
        ranks = ", ".join(_spoken_rank(place) for place in places)
        return _(RUN).format(ranks=ranks, suit=suit_word)


def _leftover_words(card: Card, wild_rank: Rank) -> str:
    return spoken_name(card, wild_rank)


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
            discard = _leftover_words(self.discard, self.wild_rank)
            parts.append(_("discard {card}").format(card=discard))
        parts.extend(meld.describe(self.wild_rank) for meld in self.melds)
        if not self.melds:
            parts.append(_("no melds"))
        if self.leftover:
            names = join_list([_leftover_words(card, self.wild_rank) for card in self.leftover])
            count = self.leftover_points
            parts.append(
                ngettext(
                    "left over: {cards}, {count} point", "left over: {cards}, {count} points", count
                ).format(cards=names, count=count)
            )
        else:
            parts.append(_("nothing left over, 0 points"))
        # why "; ": the parts are clauses of one spoken answer, each with its own commas
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
_JOKER_CODE = 55
_SUITS = 5
_WIDTH = 2  # bits per natural type in a state: counts 0..3 (a two-deck hand holds at most 2)
_FIELD = (1 << _WIDTH) - 1
_MAX_WILDS = 31  # wilds and cheap wilds each fit 5 bits of a memo key
_BOOK, _RUN, _DISCARD, _LEFT = 0, 1, 2, 3
_POINTS = tuple(code // _SUITS + _LOWEST for code in range(_TYPES))
_ONE = tuple(1 << (code * _WIDTH) for code in range(_TYPES))
_BY_CODE = tuple(card_from_code(code) for code in range(_TYPES + 1))
# why: Card.code is a property over enums (about 0.7 microseconds); the deck's own card
# objects live for the whole process, so their ids are stable keys. Other cards fall back.
_CODE_BY_ID = {id(card): code for code, card in enumerate(_BY_CODE)}
_MEMO_LIMIT = 1 << 17  # about 22 MB when full, option tables included (tracemalloc)
# A memo entry is (value << _PICK_BITS) | pick: the index of the meld option chosen, or one of
# these (an option table holds far fewer than 1,021 options).
_PICK_BITS = 10
_UNKNOWN = (1 << _PICK_BITS) - 1
_DISCARD_PICK = _UNKNOWN - 1
_LEFT_PICK = _UNKNOWN - 2


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


def _key_masks(every_suit: bool) -> tuple[int, ...]:
    """Per lowest card: the bits of a state its melds depend on, counted from its own field.

    Its rank from its own suit up (books), and its suit's next four ranks (runs);
    with ``every_suit``, the next four ranks of every suit of that segment (which
    suits no run can reach).
    """
    masks = []
    for code in range(_TYPES):
        rank_end = (code // _SUITS + 1) * _SUITS
        mask = (1 << ((rank_end - code) * _WIDTH)) - 1
        for suit_code in range(code, rank_end if every_suit else code + 1):
            for offset in range(1, 5):
                if suit_code + offset * _SUITS < _TYPES:
                    mask |= _FIELD << ((suit_code - code + offset * _SUITS) * _WIDTH)
        masks.append(mask)
    return tuple(masks)


_KEY_MASKS = _key_masks(every_suit=False)
_SYMMETRY_MASKS = _key_masks(every_suit=True)

# Option = (sub, wilds needed, kind, natural codes, its index in tie-break order): sub is
# the state's natural cards the meld takes. Both tables are filled as hands need them and
# hold no hand: _OPTIONS depends only on the pattern near the lowest card, _MEMO on a whole
# state (bounded, then cleared).
_Option = tuple[int, int, int, tuple[int, ...], int]
_OPTIONS: dict[int, tuple[tuple[_Option, ...], bool]] = {}
_Symmetry = tuple[tuple[_Option, ...], int]
_SYMMETRY: dict[int, _Symmetry] = {}
_MEMO: dict[int, int] = {}
# Built melds by (kind, natural codes, wild codes): a few thousand kinds come back in play.
_MELDS: dict[tuple[object, ...], Meld] = {}
_MELDS_LIMIT = 1 << 14


# The compiled search (src/fivecrowns/core/melds/_melds_c.c), when this install built it: the
# same search and the same answers, card for card; without it the pure-Python search below runs.
# tests/core/test_melds_compiled.py compares the two (and CI requires the compiled one).
try:
    from fivecrowns.core.melds import _melds_c as _C
except ImportError:  # why: an install without a C compiler still plays (setup.py: optional)
    _C = None  # type: ignore[assignment]  # (the stub types the module; here it is absent)
else:
    _C.setup(_BY_CODE, lambda kind, cards: Meld((MeldKind.BOOK, MeldKind.RUN)[kind], cards))


def _build_options(code: int, y: int) -> tuple[_Option, ...]:
    """The melds the lowest card ``code`` can start, in tie-break order.

    ``y`` is the state shifted so that ``code``'s field is bit 0. Books take
    other naturals of its rank with suits not below its own; runs take up to 4
    higher places of its suit (the card alone is a book). Sorted by fewest wilds,
    then more natural cards, books before runs, then lower other cards.
    """
    rank_end = (code // _SUITS + 1) * _SUITS
    books: list[tuple[int, int, tuple[int, ...]]] = [(1, 1, (code,))]
    for other in range(code, rank_end):
        count = (y >> ((other - code) * _WIDTH)) & _FIELD
        if other == code:
            count -= 1
        unit = 1 << ((other - code) * _WIDTH)
        grown = []
        for sub, size, codes in books:
            for extra in range(1, count + 1):
                if size + extra > 5:
                    break
                grown.append((sub + extra * unit, size + extra, codes + (other,) * extra))
        books.extend(grown)
    ranked: list[tuple[int, int, int, int, tuple[int, ...]]] = [
        (max(0, 3 - size), -size, _BOOK, sub, codes) for sub, size, codes in books
    ]
    available = 0
    for offset in range(1, 5):
        if code + offset * _SUITS >= _TYPES:
            break
        if (y >> (offset * _SUITS * _WIDTH)) & _FIELD:
            available |= 1 << (offset - 1)
    for used, need in _RUN_OPTIONS[available]:
        sub = 1
        codes = (code,)
        for offset in range(1, 5):
            if used >> (offset - 1) & 1:
                sub += 1 << (offset * _SUITS * _WIDTH)
                codes += (code + offset * _SUITS,)
        ranked.append((need, -1 - used.bit_count(), _RUN, sub, codes))
    ranked.sort()
    shift = code * _WIDTH
    return tuple(
        (sub << shift, need, kind, codes, index)
        for index, (need, _, kind, sub, codes) in enumerate(ranked)
    )


def _loose_suits(code: int, y: int) -> list[int]:
    """Fields (from ``code``'s) of its rank whose suit has no card in the next four ranks.

    A card there can only be in a book (a run is at most 5 cards long), so swapping
    the counts of two such suits changes no value: the memo keys them the same.
    """
    rank_end = (code // _SUITS + 1) * _SUITS
    loose = []
    for index in range(rank_end - code):
        higher = 0
        for offset in range(1, 5):
            if code + index + offset * _SUITS < _TYPES:
                higher |= (y >> ((index + offset * _SUITS) * _WIDTH)) & _FIELD
        if not higher:
            loose.append(index)
    return loose


def _symmetry(code: int, y: int, options: tuple[_Option, ...]) -> _Symmetry:
    """For a lowest card with 3 or more cards of its rank left (``y``: the state shifted to
    its field): the options whose results differ once loose suits are swapped (enough for
    the value), and what to add to the state to make its memo key (the loose suits' counts
    sorted, highest first). Ten 7s with one wild took 5 ms before this.
    """
    loose = _loose_suits(code, y)
    counts = [(y >> (index * _WIDTH)) & _FIELD for index in loose]
    delta = 0
    for index, count in zip(loose, sorted(counts, reverse=True), strict=True):
        delta += (count - ((y >> (index * _WIDTH)) & _FIELD)) << (index * _WIDTH)
    loose_bits = sum(_FIELD << (index * _WIDTH) for index in loose)
    other_bits = ~loose_bits
    shifts = [index * _WIDTH for index in loose]
    # why: the sorted loose counts, as one number (how many loose suits hold 0, 1, 2, 3
    # cards), computed once per pattern of the loose fields: this table is most of the cost
    # of a dense hand met for the first time. What a run takes from higher ranks is read
    # off ``rest & other_bits`` (y is fixed), so the signature needs no more.
    multisets: dict[int, int] = {}
    seen = set()
    distinct = []
    for option in options:
        rest = y - (option[0] >> (code * _WIDTH))
        pattern = rest & loose_bits
        multiset = multisets.get(pattern)
        if multiset is None:
            multiset = 0
            for shift in shifts:
                multiset += 1 << (((pattern >> shift) & _FIELD) << 2)
            multisets[pattern] = multiset
        signature = (option[1], rest & other_bits, multiset)
        if signature not in seen:
            seen.add(signature)
            distinct.append(option)
    return tuple(distinct), delta << (code * _WIDTH)


def _lookup(x: int) -> tuple[int, tuple[_Option, ...], bool]:
    """The lowest natural card of state ``x``, its options, and whether 3+ of its rank are left."""
    code = ((x & -x).bit_length() - 1) // _WIDTH
    y = x >> (code * _WIDTH)
    key = ((y & _KEY_MASKS[code]) << 6) | code
    found = _OPTIONS.get(key)
    if found is None:
        segment = y & ((1 << (((code // _SUITS + 1) * _SUITS - code) * _WIDTH)) - 1)
        heavy = sum((segment >> (i * _WIDTH)) & _FIELD for i in range(_SUITS)) >= 3
        found = _OPTIONS[key] = (_build_options(code, y), heavy)
    return code, found[0], found[1]


def _terminal(wilds: int, owed: int, melded: int, cheap: int) -> int:
    """No natural card left: what the wilds left cost (the discard, if owed, is a wild)."""
    if owed:
        if wilds == 0:
            return _INFINITY
        wilds -= 1  # the most expensive: jokers come last among the cheap-first costs below
    if wilds == 0 or wilds >= 3 or melded:
        return 0
    cheap = min(wilds, cheap)
    return 20 * cheap + 50 * (wilds - cheap)


def _tail(wilds: int, owed: int, melded: int, cheap: int) -> int:
    """The low bits of a state's memo key (:func:`_value` and :func:`_rebuild` inline it).

    The wild-rank count (``cheap``) and "any meld made" matter only to a terminal that
    charges for 1 or 2 spare wilds when no meld was made. Wilds are never given back, and
    they stay where they are until a meld is made, so neither can matter once no wild is
    left, nor once a meld is made (then ``cheap`` cannot), nor while 3 or more wilds would
    be spare even after a discard (they make a meld of their own). States that differ only
    there share one key (a hand without wilds has half the states it had).
    """
    if not wilds:
        return owed << 1
    if melded or wilds - owed >= 3:
        return (wilds << 2) | (owed << 1) | 1
    return (cheap << 7) | (wilds << 2) | (owed << 1)


def _value(
    x: int,
    wilds: int,
    owed: int,
    melded: int,
    cheap: int,
    memo: dict[int, int] = _MEMO,
    table: dict[int, tuple[tuple[_Option, ...], bool]] = _OPTIONS,
    masks: tuple[int, ...] = _KEY_MASKS,
    ones: tuple[int, ...] = _ONE,
    scores: tuple[int, ...] = _POINTS,
) -> int:
    """Least leftover points of state (naturals ``x``, wilds left, discard owed, any meld made).

    ``cheap`` is how many of the hand's wilds are of the wild rank (the rest are jokers).
    The memo keeps the value shifted left by ``_PICK_BITS`` over the choice that reached it
    first in tie-break order (see :func:`_picked`), so the arrangement is rebuilt without
    searching again. The memo is probed before each recursive call, and the keyword defaults
    bind module tables as locals: this is the innermost loop.
    """
    if not wilds:  # the key's low bits as _tail makes them, inlined
        tail = owed << 1
    elif melded or wilds - owed >= 3:
        tail = (wilds << 2) | (owed << 1) | 1
    else:
        tail = (cheap << 7) | (wilds << 2) | (owed << 1)
    key = (x << 12) | tail
    known = memo.get(key)
    if known is not None:
        return known >> _PICK_BITS
    if not x:
        best = _terminal(wilds, owed, melded, cheap)
        memo[key] = (best << _PICK_BITS) | _UNKNOWN
        return best
    code = ((x & -x).bit_length() - 1) >> 1  # _WIDTH is 2
    y = x >> (code << 1)
    found = table.get(((y & masks[code]) << 6) | code)
    if found is None:
        _, choices, heavy = _lookup(x)
    else:
        choices, heavy = found
    canonical = key
    if heavy:
        symmetry_key = ((y & _SYMMETRY_MASKS[code]) << 6) | code
        symmetry = _SYMMETRY.get(symmetry_key)
        if symmetry is None:
            symmetry = _SYMMETRY[symmetry_key] = _symmetry(code, y, choices)
        choices, delta = symmetry
        canonical = ((x + delta) << 12) | tail
        known = memo.get(canonical)
        if known is not None:
            # why: the canonical state's choice names its own cards, not this state's
            memo[key] = known | _UNKNOWN
            return known >> _PICK_BITS
    best = _INFINITY
    pick = _LEFT_PICK
    owed_tail = owed << 1
    for choice in choices:
        need = choice[1]
        if need > wilds:
            break  # sorted by wilds needed: no later meld fits either
        rest = x - choice[0]
        left = wilds - need
        known = memo.get((rest << 12) | (((left << 2) | 1) if left else 0) | owed_tail)
        cost = _value(rest, left, owed, 1, cheap) if known is None else known >> _PICK_BITS
        if cost < best:
            best = cost
            pick = choice[4]
            if cost == 0:
                break  # nothing beats 0
    one = ones[code]
    if best and owed:
        known = memo.get(((x - one) << 12) | _tail(wilds, 0, melded, cheap))
        cost = _value(x - one, wilds, 0, melded, cheap) if known is None else known >> _PICK_BITS
        if cost < best:
            best = cost
            pick = _DISCARD_PICK
    if best > scores[code]:  # leaving the card over costs at least its points
        known = memo.get(((x - one) << 12) | tail)
        cost = scores[code] + (
            _value(x - one, wilds, owed, melded, cheap) if known is None else known >> _PICK_BITS
        )
        if cost < best:
            best = cost
            pick = _LEFT_PICK
    memo[key] = (best << _PICK_BITS) | pick
    if canonical != key:
        memo[canonical] = (best << _PICK_BITS) | _UNKNOWN
    return best


class _Hand:
    """A hand as the solver sees it: naturals as one integer of counts, and its wilds."""

    __slots__ = ("cheap", "pool", "start", "wilds")

    def __init__(self, start: int, pool: list[int], cheap: int) -> None:
        self.start = start
        self.pool = pool  # wild codes in the order melds use them: jokers, then by suit
        self.wilds = len(pool)
        self.cheap = cheap

    def value(self, x: int, wilds: int, owed: int, melded: int) -> int:
        if len(_MEMO) > _MEMO_LIMIT:
            _MEMO.clear()  # why: bounded memory; the table refills from the hands asked next
        return _value(x, wilds, owed, melded, self.cheap)


def _code(card: Card) -> int:
    code = _CODE_BY_ID.get(id(card))
    return card.code if code is None else code


def _hand(cards: Iterable[Card], wild_rank: Rank) -> _Hand | None:
    """The solver's form of a hand, or ``None`` when it is outside what the fast form holds
    (more than 3 of one card, or more than 31 wilds), which the reference solver then takes.
    """
    low = (int(wild_rank) - _LOWEST) * _SUITS
    high = low + _SUITS
    x = 0
    jokers = 0
    cheap: list[int] = []
    code_by_id = _CODE_BY_ID
    for card in cards:
        code = code_by_id.get(id(card))  # _code, inlined: once per card of every call
        if code is None:
            code = card.code
        if code == _JOKER_CODE:
            jokers += 1
        elif low <= code < high:
            cheap.append(code)
        else:
            shift = code * _WIDTH
            if (x >> shift) & _FIELD == _FIELD:
                return None
            x += 1 << shift
    if jokers + len(cheap) > _MAX_WILDS:
        return None
    cheap.sort()
    return _Hand(x, [_JOKER_CODE] * jokers + cheap, len(cheap))


def _run_cards(naturals: Sequence[int], wilds: Sequence[int]) -> tuple[Card, ...]:
    """A run's cards in the order of the ranks they stand for (as :func:`check_meld` gives)."""
    length = len(naturals) + len(wilds)
    ranks = [code // _SUITS + _LOWEST for code in naturals]
    start = min(ranks[0], _KING - length + 1)
    taken = set(ranks)
    free = [rank for rank in range(start, start + length) if rank not in taken]
    suit = naturals[0] % _SUITS
    places: list[int] = []
    for code in wilds:
        rank = code // _SUITS + _LOWEST
        if code != _JOKER_CODE and code % _SUITS == suit and rank in free:
            free.remove(rank)
            places.append(rank)
        else:
            places.append(0)
    places = [place or free.pop(0) for place in places]
    ordered = sorted(zip(ranks + places, [*naturals, *wilds], strict=True))
    return tuple(_BY_CODE[code] for _, code in ordered)


def _meld(kind: int, naturals: tuple[int, ...], wilds: list[int]) -> Meld:
    wilds.sort()
    key = (kind, naturals, *wilds)
    found = _MELDS.get(key)
    if found is not None:
        return found
    if kind == _RUN:
        found = Meld(MeldKind.RUN, _run_cards(naturals, wilds))
    else:
        found = Meld(MeldKind.BOOK, tuple(_BY_CODE[code] for code in [*naturals, *wilds]))
    if len(_MELDS) > _MELDS_LIMIT:
        _MELDS.clear()
    _MELDS[key] = found  # why: a Meld is immutable, and the same melds come back hand after hand
    return found


def _search_pick(
    x: int, left: int, owed: int, melded: int, cheap: int, best: int
) -> tuple[int, tuple[_Option, ...]]:
    """The first choice in tie-break order that keeps ``best``, found again by searching (for
    a state whose memo entry came from a state alike under swapped suits), and the options."""
    code, options, _ = _lookup(x)
    for option in options:
        if option[1] > left:
            break
        if _value(x - option[0], left - option[1], owed, 1, cheap) == best:
            return option[4], options
    if owed and _value(x - _ONE[code], left, 0, melded, cheap) == best:
        return _DISCARD_PICK, options
    return _LEFT_PICK, options


def _rebuild(hand: _Hand, wild_rank: Rank, owed: int) -> Arrangement:
    """Follow the choices the tie-break rule makes, from the whole hand down to no card.

    Each state on the way was solved by the search, whose memo entry holds its choice.
    """
    pool = hand.pool
    x, left, melded = hand.start, len(pool), 0
    melds: list[tuple[int, tuple[int, ...], list[int]]] = []
    leftover: list[int] = []
    discard: int | None = None
    cheap = hand.cheap
    memo = _MEMO
    hand.value(x, left, owed, melded)  # why: clears a full memo before, never during, the walk
    while x:
        if not left:  # the key as _value makes it (see _tail), inlined: one per card
            key = (x << 12) | (owed << 1)
        elif melded or left - owed >= 3:
            key = (x << 12) | (left << 2) | (owed << 1) | 1
        else:
            key = (x << 12) | (cheap << 7) | (left << 2) | (owed << 1)
        entry = memo.get(key)
        if entry is None:
            _value(x, left, owed, melded, cheap)
            entry = memo[key]
        pick = entry & _UNKNOWN
        options: tuple[_Option, ...] = ()
        if pick == _UNKNOWN:
            pick, options = _search_pick(x, left, owed, melded, cheap, entry >> _PICK_BITS)
        code = ((x & -x).bit_length() - 1) >> 1  # _WIDTH is 2
        if pick < _LEFT_PICK:
            if not options:
                found = _OPTIONS.get((((x >> (code << 1)) & _KEY_MASKS[code]) << 6) | code)
                options = _lookup(x)[1] if found is None else found[0]
            sub, need, kind, naturals, _ = options[pick]
            used = pool[len(pool) - left : len(pool) - left + need]
            melds.append((kind, naturals, used))
            left -= need
            melded = 1
            x -= sub
        else:
            if pick == _DISCARD_PICK:
                discard = code
                owed = 0
            else:
                leftover.append(code)
            x -= _ONE[code]
    unused = pool[len(pool) - left :]
    if owed:
        if not unused:
            raise MeldError(_("There is no card to discard."))
        discard = unused.pop(0)
    if len(unused) >= 3:
        melds.append((_BOOK, (), unused))
    elif unused and melds:
        kind, naturals, used = melds[0]
        melds[0] = (kind, naturals, used + unused)
    else:
        leftover.extend(unused)
    leftover.sort()
    return Arrangement(
        wild_rank,
        tuple(_meld(kind, naturals, list(used)) for kind, naturals, used in melds),
        tuple(_BY_CODE[code] for code in leftover),
        None if discard is None else _BY_CODE[discard],
    )


def clear_caches(tables: bool = True) -> None:
    """Forget every solved state; with ``tables``, the meld-option tables too.

    The tables depend only on a few fields of a state, never on a whole hand;
    benchmarks clear the solved states to time a hand as if it were the first.
    """
    _MEMO.clear()
    if _C is not None:
        _C.clear(tables)
    if tables:
        _OPTIONS.clear()
        _SYMMETRY.clear()
        _MELDS.clear()


def best_arrangement(cards: Iterable[Card], wild_rank: Rank) -> Arrangement:
    """(a) The arrangement of these cards with the least leftover points.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> best_arrangement(parse_cards("3st 4st 5st"), Rank.KING).leftover_points
    0
    """
    hand_cards = list(cards)
    if _C is not None:
        found = _C.arrange(hand_cards, wild_rank, 0)
        if found is not None:
            return Arrangement(wild_rank, *found)
    hand = _hand(hand_cards, wild_rank)
    if hand is None:
        from fivecrowns.core.melds import reference as melds_reference

        return melds_reference.best_arrangement(hand_cards, wild_rank)
    return _rebuild(hand, wild_rank, 0)


def best_with_discard(cards: Iterable[Card], wild_rank: Rank) -> Arrangement:
    """(b) A hand after drawing: the best arrangement once one card is discarded.

    The solver picks the discard too; the discard does not count.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> found = best_with_discard(parse_cards("3st 4st 5st"), Rank.KING)
    >>> found.discard.token, found.leftover_points
    ('5st', 7)
    """
    hand_cards = list(cards)
    if not hand_cards:
        raise MeldError(_("A hand after drawing has at least one card to discard."))
    if _C is not None:
        found = _C.arrange(hand_cards, wild_rank, 1)
        if found is not None:
            return Arrangement(wild_rank, *found)
    hand = _hand(hand_cards, wild_rank)
    if hand is None:
        from fivecrowns.core.melds import reference as melds_reference

        return melds_reference.best_with_discard(hand_cards, wild_rank)
    return _rebuild(hand, wild_rank, 1)


def least_leftover(cards: Iterable[Card], wild_rank: Rank) -> int:
    """The least leftover points of these cards, without building the arrangement."""
    hand_cards = list(cards)
    if _C is not None:
        least = _C.least(hand_cards, wild_rank, 0)
        if least is not None:
            return least
    hand = _hand(hand_cards, wild_rank)
    if hand is None:
        from fivecrowns.core.melds import reference as melds_reference

        return melds_reference.least_leftover(hand_cards, wild_rank)
    return hand.value(hand.start, hand.wilds, 0, 0)


def least_leftover_with_discard(cards: Iterable[Card], wild_rank: Rank) -> int:
    """(b) as a number only: the least leftover points of a hand after drawing, once the
    best card is discarded, without building the arrangement (computer players ask it often).

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> least_leftover_with_discard(parse_cards("3st 4st 5st"), Rank.KING)
    7
    """
    hand_cards = list(cards)
    if not hand_cards:
        raise MeldError(_("A hand after drawing has at least one card to discard."))
    if _C is not None:
        least = _C.least(hand_cards, wild_rank, 1)
        if least is not None:
            return least
    hand = _hand(hand_cards, wild_rank)
    if hand is None:
        from fivecrowns.core.melds import reference as melds_reference

        return melds_reference.least_leftover_with_discard(hand_cards, wild_rank)
    return hand.value(hand.start, hand.wilds, 1, 0)


def going_out_discards(cards: Iterable[Card], wild_rank: Rank) -> tuple[Card, ...]:
    """(c) The distinct cards whose discard lets this hand (after drawing) go out.

    Empty when the hand cannot go out. In card order.

    >>> from fivecrowns.core.cards import parse_cards, Rank
    >>> [card.token for card in going_out_discards(parse_cards("3st 4st 5st 6st"), Rank.KING)]
    ['3st', '6st']
    """
    hand_cards = list(cards)
    if _C is not None:
        going = _C.going_out(hand_cards, wild_rank, 1)
        if going is not None:
            return going
    hand = _hand(hand_cards, wild_rank)
    if hand is None:
        from fivecrowns.core.melds import reference as melds_reference

        return melds_reference.going_out_discards(hand_cards, wild_rank)
    if not hand_cards or hand.value(hand.start, hand.wilds, 1, 0) != 0:
        return ()
    found: list[int] = []
    seen = set()
    wild_done = False
    for card in hand_cards:
        code = _code(card)
        if code in seen:
            continue
        seen.add(code)
        if is_wild(card, wild_rank):
            # Any wild is as good as any other for going out: an unneeded wild costs nothing.
            if not wild_done:
                wild_done = True
                wild_ok = hand.value(hand.start, hand.wilds - 1, 0, 0) == 0
            if wild_ok:
                found.append(code)
        elif hand.value(hand.start - _ONE[code], hand.wilds, 0, 0) == 0:
            found.append(code)
    found.sort()
    return tuple(_BY_CODE[code] for code in found)
