"""Suits, ranks, cards, the deck, the card notation, and point values.

Notation (from braille playing cards): rank then suit. Ranks ``3``-``10``, ``J``,
``Q``, ``K``; suits ``st`` stars, ``h`` hearts, ``c`` clubs, ``sp`` spades,
``d`` diamonds; ``jk`` is a joker. Input is case-insensitive and also accepts
long forms ("7 of hearts", "Queen of stars", "joker") and, in any language, the Spanish
long forms ("7 de copas", "sota de estrellas", "comodín"). The short tokens are the same in
every language (a token is a word for the computer): Spanish initials would clash
(estrellas/espadas, copas/clubs' ``c``).

Names for speech are in the current language (:mod:`fivecrowns.i18n`): :attr:`Card.spoken`
("7 of hearts", "7 de copas"), :func:`card_the` ("the Queen of stars", "la dama de
estrellas"), :func:`card_a` ("a joker", "un comodín"), :func:`rank_plural` ("8s" in "a book
of 8s", "8" in "una familia de 8"), :func:`wild_clause` ("Kings are wild", "los reyes son
salvajes") and :func:`wild_sentence`.

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
from dataclasses import dataclass, field

from fivecrowns.core.errors import CardParseError
from fivecrowns.i18n import N_, current_language, pgettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "ALL_RANKS",
    "ALL_SUITS",
    "JOKER",
    "JOKERS_PER_DECK",
    "Card",
    "Rank",
    "Suit",
    "card_a",
    "card_from_code",
    "card_the",
    "card_tokens",
    "cards_per_deck",
    "format_cards",
    "is_wild",
    "new_deck",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "points",
    "rank_plural",
    "rank_plural_the",
    "rank_the",
    "shuffled_deck",
    "spoken_name",
    "wild_clause",
    "wild_rank_for_round",
    "wild_sentence",
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
        """The spoken plural in the current language, as in "7 of hearts" ("7 de copas")."""
        # why literal calls: the extractor reads a context only from a pgettext call
        if self is Suit.STARS:
            return pgettext("suit", "stars")
        if self is Suit.HEARTS:
            return pgettext("suit", "hearts")
        if self is Suit.CLUBS:
            return pgettext("suit", "clubs")
        if self is Suit.SPADES:
            return pgettext("suit", "spades")
        return pgettext("suit", "diamonds")

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
        return _RANK_TOKENS[self]

    @property
    def word(self) -> str:
        """Spoken singular in the current language: "7", "Queen" ("dama")."""
        if self is Rank.JACK:
            return pgettext("rank", "Jack")
        if self is Rank.QUEEN:
            return pgettext("rank", "Queen")
        if self is Rank.KING:
            return pgettext("rank", "King")
        return str(int(self))

    @property
    def plural(self) -> str:
        """Spoken plural without article: "7s", "Queens" ("7", "damas"); see :func:`rank_plural`."""
        return rank_plural(self)

    @property
    def points(self) -> int:
        """Points when not wild: face value, Jack 11, Queen 12, King 13."""
        return int(self)


ALL_SUITS: tuple[Suit, ...] = tuple(Suit)
ALL_RANKS: tuple[Rank, ...] = tuple(Rank)
_SUIT_INDEX = {suit: i for i, suit in enumerate(ALL_SUITS)}
_FACE_TOKENS = {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
_RANK_TOKENS = {rank: _FACE_TOKENS.get(rank, str(int(rank))) for rank in ALL_RANKS}

# Each rank's names as whole phrases, because in Spanish the article and the plural
# depend on the rank ("el 7", "la sota", "los 3", "las sotas", "los reyes"). Contexts keep
# the same English word apart where Spanish may need it to differ.
# TRANSLATORS: a rank in the plural, no article, as in "a book of 8s", "Jacks or stars".
_PLURALS = {
    Rank.THREE: N_("3s"),
    Rank.FOUR: N_("4s"),
    Rank.FIVE: N_("5s"),
    Rank.SIX: N_("6s"),
    Rank.SEVEN: N_("7s"),
    Rank.EIGHT: N_("8s"),
    Rank.NINE: N_("9s"),
    Rank.TEN: N_("10s"),
    Rank.JACK: N_("Jacks"),
    Rank.QUEEN: N_("Queens"),
    Rank.KING: N_("Kings"),
}
_PLURALS_THE = {
    Rank.THREE: N_("the 3s"),
    Rank.FOUR: N_("the 4s"),
    Rank.FIVE: N_("the 5s"),
    Rank.SIX: N_("the 6s"),
    Rank.SEVEN: N_("the 7s"),
    Rank.EIGHT: N_("the 8s"),
    Rank.NINE: N_("the 9s"),
    Rank.TEN: N_("the 10s"),
    Rank.JACK: N_("the Jacks"),
    Rank.QUEEN: N_("the Queens"),
    Rank.KING: N_("the Kings"),
}
_RANKS_THE = {
    Rank.THREE: N_("the 3"),
    Rank.FOUR: N_("the 4"),
    Rank.FIVE: N_("the 5"),
    Rank.SIX: N_("the 6"),
    Rank.SEVEN: N_("the 7"),
    Rank.EIGHT: N_("the 8"),
    Rank.NINE: N_("the 9"),
    Rank.TEN: N_("the 10"),
    Rank.JACK: N_("the Jack"),
    Rank.QUEEN: N_("the Queen"),
    Rank.KING: N_("the King"),
}
_WILD_CLAUSES = {
    Rank.THREE: N_("3s are wild"),
    Rank.FOUR: N_("4s are wild"),
    Rank.FIVE: N_("5s are wild"),
    Rank.SIX: N_("6s are wild"),
    Rank.SEVEN: N_("7s are wild"),
    Rank.EIGHT: N_("8s are wild"),
    Rank.NINE: N_("9s are wild"),
    Rank.TEN: N_("10s are wild"),
    Rank.JACK: N_("Jacks are wild"),
    Rank.QUEEN: N_("Queens are wild"),
    Rank.KING: N_("Kings are wild"),
}
# A card's name: one template per rank, the suit filled in ("de copas" never agrees).
_CARD_NAMES = {
    Rank.THREE: N_("3 of {suit}"),
    Rank.FOUR: N_("4 of {suit}"),
    Rank.FIVE: N_("5 of {suit}"),
    Rank.SIX: N_("6 of {suit}"),
    Rank.SEVEN: N_("7 of {suit}"),
    Rank.EIGHT: N_("8 of {suit}"),
    Rank.NINE: N_("9 of {suit}"),
    Rank.TEN: N_("10 of {suit}"),
    Rank.JACK: N_("Jack of {suit}"),
    Rank.QUEEN: N_("Queen of {suit}"),
    Rank.KING: N_("King of {suit}"),
}
_CARD_NAMES_THE = {
    Rank.THREE: N_("the 3 of {suit}"),
    Rank.FOUR: N_("the 4 of {suit}"),
    Rank.FIVE: N_("the 5 of {suit}"),
    Rank.SIX: N_("the 6 of {suit}"),
    Rank.SEVEN: N_("the 7 of {suit}"),
    Rank.EIGHT: N_("the 8 of {suit}"),
    Rank.NINE: N_("the 9 of {suit}"),
    Rank.TEN: N_("the 10 of {suit}"),
    Rank.JACK: N_("the Jack of {suit}"),
    Rank.QUEEN: N_("the Queen of {suit}"),
    Rank.KING: N_("the King of {suit}"),
}
_CARD_NAMES_THE_WILD = {
    Rank.THREE: N_("the wild 3 of {suit}"),
    Rank.FOUR: N_("the wild 4 of {suit}"),
    Rank.FIVE: N_("the wild 5 of {suit}"),
    Rank.SIX: N_("the wild 6 of {suit}"),
    Rank.SEVEN: N_("the wild 7 of {suit}"),
    Rank.EIGHT: N_("the wild 8 of {suit}"),
    Rank.NINE: N_("the wild 9 of {suit}"),
    Rank.TEN: N_("the wild 10 of {suit}"),
    Rank.JACK: N_("the wild Jack of {suit}"),
    Rank.QUEEN: N_("the wild Queen of {suit}"),
    Rank.KING: N_("the wild King of {suit}"),
}
_CARD_NAMES_A = {
    Rank.THREE: N_("a 3 of {suit}"),
    Rank.FOUR: N_("a 4 of {suit}"),
    Rank.FIVE: N_("a 5 of {suit}"),
    Rank.SIX: N_("a 6 of {suit}"),
    Rank.SEVEN: N_("a 7 of {suit}"),
    Rank.EIGHT: N_("an 8 of {suit}"),
    Rank.NINE: N_("a 9 of {suit}"),
    Rank.TEN: N_("a 10 of {suit}"),
    Rank.JACK: N_("a Jack of {suit}"),
    Rank.QUEEN: N_("a Queen of {suit}"),
    Rank.KING: N_("a King of {suit}"),
}

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
    # why kept: the code and token are read thousands of times a second (solvers, the game
    # server's frames, issue 29); each was two enum look-ups. Not compared, hashed or shown.
    _code: int = field(default=55, init=False, repr=False, compare=False)
    _token: str = field(default="jk", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("A card has both a rank and a suit, or is a joker with neither.")
        if self.rank is not None and self.suit is not None:
            object.__setattr__(self, "_code", (int(self.rank) - 3) * 5 + self.suit.index)
            object.__setattr__(self, "_token", self.rank.token + self.suit.token)

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def code(self) -> int:
        """0..54 for suited cards (rank-major), 55 for a joker: a dense index for solvers."""
        return self._code

    @property
    def token(self) -> str:
        """Short form that can be typed back in: ``10h``, ``Qsp``, ``jk``."""
        return self._token

    @property
    def spoken(self) -> str:
        """Spoken form without round context, in the current language: "7 of hearts",
        "Queen of stars", "joker" ("7 de copas", "dama de estrellas", "comodín")."""
        if self.rank is None or self.suit is None:
            return pgettext("card", "joker")
        return _(_CARD_NAMES[self.rank]).format(suit=self.suit.word)

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


def card_tokens(cards: Iterable[Card]) -> list[str]:
    """Each card's :attr:`Card.token`, in order. why: the game server lists every seat's hand
    for every move, and the property's call per card was most of that (issue 29)."""
    return [card._token for card in cards]


def card_the(card: Card, wild_rank: Rank | None = None) -> str:
    """The card's name with the definite article: "the 7 of hearts", "the joker"
    ("el 7 de copas", "la sota de estrellas", "el comodín"); with the round's wild rank,
    "the wild 5 of clubs" ("el 5 de tréboles salvaje") as :func:`spoken_name` says it.

    >>> card_the(parse_card("Qst")), card_the(JOKER), card_the(parse_card("5c"), Rank.FIVE)
    ('the Queen of stars', 'the joker', 'the wild 5 of clubs')
    """
    # why kept: the game server words a card for nearly every move (issue 29), and a card's
    # name is the same every time in one language; a few hundred names at most
    key = (card._token, card.rank == wild_rank, current_language())
    said = _CARDS_THE.get(key)
    if said is None:
        if card.rank is None or card.suit is None:
            said = _("the joker")
        elif card.rank == wild_rank:
            said = _(_CARD_NAMES_THE_WILD[card.rank]).format(suit=card.suit.word)
        else:
            said = _(_CARD_NAMES_THE[card.rank]).format(suit=card.suit.word)
        _CARDS_THE[key] = said
    return said


#: card_the's names by the card's token, whether it is wild, and the language.
_CARDS_THE: dict[tuple[str, bool, str], str] = {}


def card_a(card: Card) -> str:
    """The card's name with the indefinite article: "a joker", "an 8 of clubs"
    ("un comodín", "una sota de copas").

    >>> card_a(JOKER), card_a(parse_card("8c"))
    ('a joker', 'an 8 of clubs')
    """
    if card.rank is None or card.suit is None:
        return _("a joker")
    return _(_CARD_NAMES_A[card.rank]).format(suit=card.suit.word)


def rank_the(rank: Rank) -> str:
    """A rank in the singular with the definite article: "the 6", "the Jack" ("el 6",
    "la sota"), as in "a joker for the 6"."""
    return _(_RANKS_THE[rank])


def rank_plural(rank: Rank) -> str:
    """A rank in the plural without article: "8s", "Kings" ("8", "reyes"), as in
    "a book of 8s" ("una familia de 8")."""
    return _(_PLURALS[rank])


def rank_plural_the(rank: Rank) -> str:
    """A rank in the plural with the definite article: "the 8s", "the Jacks" ("los 8",
    "las sotas")."""
    return _(_PLURALS_THE[rank])


def wild_clause(rank: Rank) -> str:
    """ "Kings are wild" ("los reyes son salvajes", "las sotas son salvajes"): lower case
    in Spanish and without a full stop, for a sentence that goes on ("Took the 5 of clubs:
    5s are wild.").

    >>> wild_clause(Rank.THREE), wild_clause(Rank.JACK)
    ('3s are wild', 'Jacks are wild')
    """
    return _(_WILD_CLAUSES[rank])


def wild_sentence(rank: Rank) -> str:
    """ "Kings are wild." as a sentence of its own ("Los reyes son salvajes.").

    >>> wild_sentence(Rank.KING)
    'Kings are wild.'
    """
    clause = wild_clause(rank)
    return clause[:1].upper() + clause[1:] + "."


def wild_rank_for_round(round_number: int) -> Rank:
    """Round r (1..11) deals r + 2 cards, and that rank is wild.

    >>> wild_rank_for_round(1).plural, wild_rank_for_round(11).plural
    ('3s', 'Kings')
    """
    if not 1 <= round_number <= 11:
        raise ValueError(f"There is no round {round_number}: rounds are 1 to 11.")
    # why a table: ``Rank(n)`` is an enum look-up in Python, and the game asks for the wild
    # rank many times a move (the server's views, checks and words; issue 29)
    return _WILD_BY_ROUND[round_number]


_WILD_BY_ROUND = {number: Rank(number + 2) for number in range(1, 12)}


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
    """Spoken form with the round's context: "wild 5 of clubs" when 5s are wild
    ("5 de tréboles salvaje").

    why this form: lists of cards say it so too, and "wild" first is what matters most.
    """
    if wild_rank is not None and card.rank == wild_rank:
        # TRANSLATORS: a card of the round's wild rank, as in "wild 5 of clubs".
        return _("wild {card}").format(card=card.spoken)
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

# Words the parser reads, in both languages whatever the language spoken: they are fixed
# here, not taken from the catalog.
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
_RANK_WORDS.update({str(int(rank)) + "s": rank for rank in ALL_RANKS if rank <= Rank.TEN})
for _word, _rank in list(_RANK_WORDS.items()):
    if _word.isalpha() and len(_word) > 1:
        _RANK_WORDS.setdefault(_word + "s", _rank)
# Spanish rank words (the rule book's), singular and plural; none is an English word.
_SPANISH_RANK_WORDS: dict[str, Rank] = {
    "sota": Rank.JACK,
    "sotas": Rank.JACK,
    "dama": Rank.QUEEN,
    "damas": Rank.QUEEN,
    "rey": Rank.KING,
    "reyes": Rank.KING,
}
_RANK_WORDS.update(_SPANISH_RANK_WORDS)

_SUIT_WORDS: dict[str, Suit] = {}
for _suit in ALL_SUITS:
    _SUIT_WORDS[_suit.token] = _suit
    _SUIT_WORDS[_suit.name.lower()] = _suit
    _SUIT_WORDS[_suit.name.lower()[:-1]] = _suit  # singular: "heart"
_SUIT_WORDS.update(
    {
        "estrellas": Suit.STARS,
        "estrella": Suit.STARS,
        "copas": Suit.HEARTS,
        "copa": Suit.HEARTS,
        "tréboles": Suit.CLUBS,
        "treboles": Suit.CLUBS,
        "trébol": Suit.CLUBS,
        "trebol": Suit.CLUBS,
        "espadas": Suit.SPADES,
        "espada": Suit.SPADES,
        "diamantes": Suit.DIAMONDS,
        "diamante": Suit.DIAMONDS,
    }
)

#: Every card by its exact token (``7h``, ``Qsp``, ``jk``): what programs send, the game
#: server's every move (why: the parse below was 2% of its handling of a move, issue 29).
_BY_TOKEN = {card.token: card for card in new_deck(1)}
_JOKER_WORDS = {"jk", "joker", "jokers", "jkr", "comodín", "comodin", "comodines"}
_SHORT_RE = re.compile(r"^(10|[3-9]|[jqk])(st|sp|h|c|d)$")
_SHORT_PARTS_RE = re.compile(r"^(\d+|[a-z])([a-z]*)$")
_LONG_RE = re.compile(r"^(\S+)\s+(?:of|de)\s+(\S+)$")
_LONG_JOINERS = ("of", "de")

VALID_FORMS = N_(
    "ranks are 3 to 10, J, Q, K; suits are st (stars), h (hearts), c (clubs), "
    "sp (spades), d (diamonds); jk is a joker. Examples: 7h, 10st, Qsp, jk, 7 of hearts"
)
# Why the text is not a card: each a whole sentence, with the valid forms after it.
_NOT_A_CARD = {
    "empty": N_("'{text}' is not a card: it is empty; {forms}."),
    "no suit": N_("'{text}' is not a card: it has no suit; {forms}."),
    "no rank": N_("'{text}' is not a card: it has no rank; {forms}."),
    "form": N_("'{text}' is not a card: it is not in rank-then-suit form; {forms}."),
    "s": N_("'{text}' is not a card: s could be st (stars) or sp (spades); {forms}."),
    "bad rank": N_("'{text}' is not a card: {part} is not a rank; {forms}."),
    "bad suit": N_("'{text}' is not a card: {part} is not a suit; {forms}."),
}


def _bad(text: str, reason: str, part: str = "") -> CardParseError:
    sentence = _(_NOT_A_CARD[reason]).format(text=text, part=part, forms=_(VALID_FORMS))
    return CardParseError(sentence)


def parse_rank(text: str) -> Rank:
    """A rank from ``7``, ``Q``, ``queen``, ``queens`` or ``dama`` (case-insensitive)."""
    rank = _RANK_WORDS.get(text.strip().lower())
    if rank is None:
        raise CardParseError(
            _("'{text}' is not a rank: ranks are 3 to 10, J, Q, K.").format(text=text)
        )
    return rank


def parse_card(text: str) -> Card:
    """One card from its short or long form; raises :class:`CardParseError` naming the text.

    >>> parse_card("sota de estrellas").token, parse_card("Comodín").token
    ('Jst', 'jk')
    """
    known = _BY_TOKEN.get(text)
    if known is not None:
        return known
    original = text
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        raise _bad(original, "empty")
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
            raise _bad(original, "bad rank", rank_text)
        suit = _SUIT_WORDS.get(suit_text)
        if suit is None:
            raise _bad(original, "bad suit", suit_text)
        return Card(rank, suit)
    if cleaned.isalpha() and cleaned in _RANK_WORDS:
        raise _bad(original, "no suit")
    if cleaned in _SUIT_WORDS:
        raise _bad(original, "no rank")
    parts = _SHORT_PARTS_RE.match(cleaned)
    if parts:
        rank_text, suit_text = parts.groups()
        if rank_text.isalpha() and rank_text not in _RANK_WORDS:
            # "bad", "xyz": naming the first letter as a bad rank would only confuse.
            raise _bad(original, "form")
        if rank_text not in _RANK_WORDS:
            raise _bad(original, "bad rank", rank_text)
        if not suit_text:
            raise _bad(original, "no suit")
        if suit_text == "s":
            raise _bad(original, "s")
        raise _bad(original, "bad suit", suit_text)
    raise _bad(original, "form")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from a space-separated string or an iterable of tokens.

    A string is split on whitespace and commas, but "7 of hearts" (and "7 de copas")
    style long forms are kept together.
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
        if i + 2 < len(words) and words[i + 1].lower() in _LONG_JOINERS:
            tokens.append(" ".join(words[i : i + 3]))
            i += 3
        else:
            tokens.append(words[i])
            i += 1
    return tokens


def format_cards(cards: Sequence[Card]) -> str:
    """Canonical short forms separated by spaces: ``10h Qsp jk``."""
    return " ".join(card.token for card in cards)
