"""Suits, ranks, cards, the deck, the card notation, and point values.

Notation (from braille playing cards): rank then suit. Ranks ``3``-``10``, ``J``,
``Q``, ``K``; suits ``st`` stars, ``h`` hearts, ``c`` clubs, ``sp`` spades,
``d`` diamonds; ``jk`` is a joker. Input is case-insensitive and also accepts
long forms ("7 of hearts", "Queen of stars", "joker").

>>> parse_card("10H").token
'10h'
>>> parse_card("queen of stars").spoken
'Queen of stars'
>>> format_cards(parse_cards("qsp 10h JK"))
'Qsp 10h jk'
>>> points(parse_card("7h"), Rank.SEVEN)
20
"""

from __future__ import annotations

import enum
import functools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fivecrowns.errors import CardParseError

__all__ = [
    "ALL_RANKS",
    "ALL_SUITS",
    "JOKER",
    "JOKERS_PER_DECK",
    "Card",
    "Rank",
    "Suit",
    "card_from_code",
    "cards_per_deck",
    "format_cards",
    "is_wild",
    "new_deck",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "points",
    "shuffled_deck",
    "spoken_name",
    "wild_rank_for_round",
]


class Suit(enum.Enum):
    """The five suits, in the order used for sorting and for the deck."""

    STARS = "st"
    HEARTS = "h"
    CLUBS = "c"
    SPADES = "sp"
    DIAMONDS = "d"

    @property
    def token(self) -> str:
        return self.value

    @property
    def word(self) -> str:
        """The spoken plural, as in "7 of hearts"."""
        return self.name.lower()

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]


class Rank(enum.IntEnum):
    """The eleven ranks; the value is the face value used for runs and points."""

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def token(self) -> str:
        return _FACE_TOKENS.get(self, str(int(self)))

    @property
    def word(self) -> str:
        """Spoken singular: "7", "Queen"."""
        return _FACE_WORDS.get(self, str(int(self)))

    @property
    def plural(self) -> str:
        """Spoken plural: "7s", "Queens"."""
        return self.word + "s"

    @property
    def points(self) -> int:
        """Points when not wild: face value, Jack 11, Queen 12, King 13."""
        return int(self)


ALL_SUITS: tuple[Suit, ...] = tuple(Suit)
ALL_RANKS: tuple[Rank, ...] = tuple(Rank)
_SUIT_INDEX = {suit: i for i, suit in enumerate(ALL_SUITS)}
_FACE_TOKENS = {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
_FACE_WORDS = {Rank.JACK: "Jack", Rank.QUEEN: "Queen", Rank.KING: "King"}

JOKERS_PER_DECK = 3
WILD_POINTS = 20
JOKER_POINTS = 50


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, or a joker (both ``None``).

    Two decks are shuffled together, so equal cards exist; code never assumes
    a card is unique. Cards sort by rank, then suit, with jokers last.
    """

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("A card has both a rank and a suit, or is a joker with neither.")

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def code(self) -> int:
        """0..54 for suited cards (rank-major), 55 for a joker: a dense index for solvers."""
        if self.rank is None or self.suit is None:
            return 55
        return (int(self.rank) - 3) * 5 + self.suit.index

    @property
    def token(self) -> str:
        """Short form that can be typed back in: ``10h``, ``Qsp``, ``jk``."""
        if self.rank is None or self.suit is None:
            return "jk"
        return self.rank.token + self.suit.token

    @property
    def spoken(self) -> str:
        """Spoken form without round context: "7 of hearts", "Queen of stars", "joker"."""
        if self.rank is None or self.suit is None:
            return "joker"
        return f"{self.rank.word} of {self.suit.word}"

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Card({self.token!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code < other.code


JOKER = Card(None, None)
_BY_CODE: tuple[Card, ...] = (
    *tuple(Card(rank, suit) for rank in ALL_RANKS for suit in ALL_SUITS),
    JOKER,
)


def card_from_code(code: int) -> Card:
    """The card with :attr:`Card.code` ``code`` (0..55)."""
    return _BY_CODE[code]


def wild_rank_for_round(round_number: int) -> Rank:
    """Round r (1..11) deals r + 2 cards, and that rank is wild.

    >>> wild_rank_for_round(1).plural, wild_rank_for_round(11).plural
    ('3s', 'Kings')
    """
    if not 1 <= round_number <= 11:
        raise ValueError(f"There is no round {round_number}: rounds are 1 to 11.")
    return Rank(round_number + 2)


def is_wild(card: Card, wild_rank: Rank) -> bool:
    """Jokers are always wild; so is every card of the round's wild rank."""
    return card.rank is None or card.rank == wild_rank


def points(card: Card, wild_rank: Rank) -> int:
    """Penalty points of a card left over: face, J 11, Q 12, K 13, wild rank 20, joker 50."""
    if card.rank is None:
        return JOKER_POINTS
    if card.rank == wild_rank:
        return WILD_POINTS
    return card.rank.points


def spoken_name(card: Card, wild_rank: Rank | None = None) -> str:
    """Spoken form with the round's context: "wild 5 of clubs" when 5s are wild.

    why this form: lists of cards say it so too, and "wild" first is what matters most.
    """
    if wild_rank is not None and card.rank == wild_rank:
        return f"wild {card.spoken}"
    return card.spoken


def cards_per_deck() -> int:
    return len(ALL_SUITS) * len(ALL_RANKS) + JOKERS_PER_DECK


def new_deck(decks: int = 2) -> list[Card]:
    """``decks`` full 58-card decks in a fixed order (default 2: 116 cards)."""
    if decks < 1:
        raise ValueError("A game needs at least one deck.")
    one = list(_BY_CODE[:55]) + [JOKER] * JOKERS_PER_DECK
    return one * decks


def shuffled_deck(rng: random.Random, decks: int = 2) -> list[Card]:
    """A new deck shuffled by ``rng``; the caller owns the randomness."""
    deck = new_deck(decks)
    rng.shuffle(deck)
    return deck


# --- parsing -----------------------------------------------------------------

_RANK_WORDS: dict[str, Rank] = {
    "three": Rank.THREE,
    "four": Rank.FOUR,
    "five": Rank.FIVE,
    "six": Rank.SIX,
    "seven": Rank.SEVEN,
    "eight": Rank.EIGHT,
    "nine": Rank.NINE,
    "ten": Rank.TEN,
    "jack": Rank.JACK,
    "queen": Rank.QUEEN,
    "king": Rank.KING,
    "j": Rank.JACK,
    "q": Rank.QUEEN,
    "k": Rank.KING,
}
_RANK_WORDS.update({str(int(rank)): rank for rank in ALL_RANKS if rank <= Rank.TEN})
for _rank in (Rank.JACK, Rank.QUEEN, Rank.KING, *ALL_RANKS):
    _RANK_WORDS.setdefault(_rank.plural.lower(), _rank)
for _word, _rank in list(_RANK_WORDS.items()):
    if _word.isalpha() and len(_word) > 1:
        _RANK_WORDS.setdefault(_word + "s", _rank)

_SUIT_WORDS: dict[str, Suit] = {}
for _suit in ALL_SUITS:
    _SUIT_WORDS[_suit.token] = _suit
    _SUIT_WORDS[_suit.word] = _suit
    _SUIT_WORDS[_suit.word[:-1]] = _suit  # singular: "heart"

_JOKER_WORDS = {"jk", "joker", "jokers", "jkr"}
_SHORT_RE = re.compile(r"^(10|[3-9]|[jqk])(st|sp|h|c|d)$")
_SHORT_PARTS_RE = re.compile(r"^(\d+|[a-z])([a-z]*)$")
_LONG_RE = re.compile(r"^(\S+)\s+of\s+(\S+)$")

VALID_FORMS = (
    "ranks are 3 to 10, J, Q, K; suits are st (stars), h (hearts), c (clubs), "
    "sp (spades), d (diamonds); jk is a joker. Examples: 7h, 10st, Qsp, jk, 7 of hearts"
)


def _bad(text: str, reason: str) -> CardParseError:
    return CardParseError(f"'{text}' is not a card: {reason}; {VALID_FORMS}.")


def parse_rank(text: str) -> Rank:
    """A rank from ``7``, ``Q``, ``queen`` or ``queens`` (case-insensitive)."""
    rank = _RANK_WORDS.get(text.strip().lower())
    if rank is None:
        raise CardParseError(f"'{text}' is not a rank: ranks are 3 to 10, J, Q, K.")
    return rank


def parse_card(text: str) -> Card:
    """One card from its short or long form; raises :class:`CardParseError` naming the text."""
    original = text
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        raise _bad(original, "it is empty")
    if cleaned in _JOKER_WORDS:
        return JOKER
    short = _SHORT_RE.match(cleaned)
    if short:
        return Card(_RANK_WORDS[short.group(1)], _SUIT_WORDS[short.group(2)])
    long = _LONG_RE.match(cleaned)
    if long:
        rank_text, suit_text = long.groups()
        rank = _RANK_WORDS.get(rank_text)
        if rank is None:
            raise _bad(original, f"{rank_text} is not a rank")
        suit = _SUIT_WORDS.get(suit_text)
        if suit is None:
            raise _bad(original, f"{suit_text} is not a suit")
        return Card(rank, suit)
    if cleaned.isalpha() and cleaned in _RANK_WORDS:
        raise _bad(original, "it has no suit")
    if cleaned in _SUIT_WORDS:
        raise _bad(original, "it has no rank")
    parts = _SHORT_PARTS_RE.match(cleaned)
    if parts:
        rank_text, suit_text = parts.groups()
        if rank_text.isalpha() and rank_text not in _RANK_WORDS:
            # "bad", "xyz": naming the first letter as a bad rank would only confuse.
            raise _bad(original, "it is not in rank-then-suit form")
        if rank_text not in _RANK_WORDS:
            raise _bad(original, f"{rank_text} is not a rank")
        if not suit_text:
            raise _bad(original, "it has no suit")
        if suit_text == "s":
            raise _bad(original, "s could be st (stars) or sp (spades)")
        raise _bad(original, f"{suit_text} is not a suit")
    raise _bad(original, "it is not in rank-then-suit form")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from a space-separated string or an iterable of tokens.

    A string is split on whitespace and commas, but "7 of hearts" style long
    forms are kept together.
    """
    if isinstance(text, str):
        tokens = _split_tokens(text)
    else:
        tokens = [token for item in text for token in _split_tokens(item)]
    return [parse_card(token) for token in tokens]


def _split_tokens(text: str) -> list[str]:
    words = text.replace(",", " ").split()
    tokens: list[str] = []
    i = 0
    while i < len(words):
        if i + 2 < len(words) and words[i + 1].lower() == "of":
            tokens.append(" ".join(words[i : i + 3]))
            i += 3
        else:
            tokens.append(words[i])
            i += 1
    return tokens


def format_cards(cards: Sequence[Card]) -> str:
    """Canonical short forms separated by spaces: ``10h Qsp jk``."""
    return " ".join(card.token for card in cards)
