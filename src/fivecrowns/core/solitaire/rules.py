"""Five Crowns Solitaire (RULES.md "Five Crowns Solitaire"): the rules core.

Terminology:
    hand N     one of the eleven hands dealt face up; N (3 to 13) is both the
               number of cards it was dealt and its wild rank (hand 7: 7s wild).
    turned     the card just turned from the stock; it must be put into an open hand.
    stock      the 28 cards not dealt, turned one at a time. Their order is hidden,
               but what they are is known: 116 cards minus everything face up.
    closed     a hand whose cards are all in books and runs; it takes no more cards.

Phase table (one dispatcher, :meth:`Solitaire.apply`, hands each phase to its function):

    ========  ==========================  ==============================
    phase     legal move                  next phase
    ========  ==========================  ==============================
    PUT       ``PutCard(hand)``           DISCARD
    DISCARD   ``DiscardCard(card)``       PUT, or WON / LOST at the end
    WON       none                        (game over: every hand closed)
    LOST      none                        (game over: the stock ran out)
    ========  ==========================  ==============================

Edge cases, decided:
    * A hand dealt fully melded is closed at once, before the first card is turned:
      putting a card into it and discarding that card again would change nothing.
    * After a discard the hand closes by itself if all its cards can be melded;
      the player never has to ask (closing is never a disadvantage).
    * The turned card may be discarded again from the hand it was put into.
    * Closing the last open hand with the last card of the stock wins: the stock
      has "run out" only when another card would have to be turned.
    * Points left are the least leftover points of each open hand, each counted
      with its own wild rank (closed hands count 0).

>>> game = Solitaire.deal(seed=1)
>>> game.phase.name, len(game.hands), game.stock_count
('PUT', 11, 27)
>>> events = game.apply(PutCard(3))
>>> game.phase.name
'DISCARD'
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from fivecrowns.core.cards import (
    JOKER,
    JOKERS_PER_DECK,
    Card,
    Rank,
    format_cards,
    new_deck,
    parse_cards,
    shuffled_deck,
    spoken_name,
)
from fivecrowns.core.errors import CardParseError, IllegalMoveError, SaveFileError
from fivecrowns.core.melds.solver import Arrangement, best_arrangement, least_leftover
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = [
    "DEALT_CARDS",
    "HAND_NUMBERS",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "CardDiscarded",
    "CardPut",
    "CardTurned",
    "DiscardCard",
    "Event",
    "GameLost",
    "GameWon",
    "Hand",
    "HandClosed",
    "Move",
    "Phase",
    "PutCard",
    "Solitaire",
    "SolitaireView",
]

HAND_NUMBERS: tuple[int, ...] = tuple(range(3, 14))
DEALT_CARDS = sum(HAND_NUMBERS)  # 88
SAVE_FORMAT = "fivecrowns-solitaire"
SAVE_VERSION = 1


class Phase(enum.Enum):
    """Where the game stands; see the phase table in the module docstring."""

    PUT = "put"
    DISCARD = "discard"
    WON = "won"
    LOST = "lost"

    @property
    def is_over(self) -> bool:
        return self in (Phase.WON, Phase.LOST)


# --- moves -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PutCard:
    """Put the turned card into open hand ``hand`` (3 to 13)."""

    hand: int


@dataclass(frozen=True, slots=True)
class DiscardCard:
    """Discard ``card`` from the hand the turned card went into; it leaves play."""

    card: Card


Move = PutCard | DiscardCard


# --- events ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardTurned:
    card: Card
    stock_left: int


@dataclass(frozen=True, slots=True)
class CardPut:
    hand: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    hand: int
    card: Card


@dataclass(frozen=True, slots=True)
class HandClosed:
    hand: int
    arrangement: Arrangement
    at_deal: bool = False


@dataclass(frozen=True, slots=True)
class GameWon:
    turns: int


@dataclass(frozen=True, slots=True)
class GameLost:
    open_hands: tuple[int, ...]
    points_left: int


Event = CardTurned | CardPut | CardDiscarded | HandClosed | GameWon | GameLost


# --- hands and the view ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hand:
    """One of the eleven hands. ``arrangement`` is set once the hand is closed."""

    number: int
    cards: tuple[Card, ...]
    arrangement: Arrangement | None = None

    @property
    def wild_rank(self) -> Rank:
        return Rank(self.number)

    @property
    def is_closed(self) -> bool:
        return self.arrangement is not None

    @property
    def name(self) -> str:
        """Spoken name: "hand of 7"."""
        # TRANSLATORS: one of solitaire's eleven hands, named by its number (3 to 13)
        return _("hand of {hand}").format(hand=self.number)

    def leftover_points(self) -> int:
        """Least leftover points with this hand's wild rank (0 once closed)."""
        if self.arrangement is not None:
            return 0
        return least_leftover(self.cards, self.wild_rank)


@dataclass(frozen=True, slots=True)
class SolitaireView:
    """What the player can know: everything but the order of the stock."""

    phase: Phase
    hands: tuple[Hand, ...]
    turned: Card | None
    target: int | None
    stock_count: int
    stock_cards: tuple[Card, ...]  # sorted: the contents of the stock are known, not the order
    discards: tuple[Card, ...]
    turns: int

    def hand(self, number: int) -> Hand:
        return self.hands[number - HAND_NUMBERS[0]]

    @property
    def open_hands(self) -> tuple[Hand, ...]:
        return tuple(hand for hand in self.hands if not hand.is_closed)


# --- the game ----------------------------------------------------------------


@dataclass
class Solitaire:
    """The state of one solitaire game. Build it with :meth:`deal` or :meth:`from_hands`."""

    hands: list[Hand]
    stock: list[Card]  # stock[0] is the next card to be turned
    phase: Phase = Phase.PUT
    turned: Card | None = None
    target: int | None = None
    discards: list[Card] = field(default_factory=list)
    turns: int = 0
    seed: int | None = None
    # why: the history records a finished game once, even if it is resumed and finished again
    # after a kill; the front end names each deal, the rules never read it
    game_id: str | None = field(default=None, compare=False)
    events: list[Event] = field(default_factory=list)

    # construction

    @classmethod
    def deal(
        cls,
        seed: int | None = None,
        *,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
    ) -> Solitaire:
        """Deal a game from ``deck`` (taken in order), else from a deck shuffled by ``rng``
        or by ``random.Random(seed)``. Hand 3 gets the first 3 cards, hand 4 the next 4,
        and so on; the rest is the stock, turned from the front."""
        if deck is None:
            deck = shuffled_deck(rng if rng is not None else random.Random(seed))
        if len(deck) < DEALT_CARDS:
            raise ValueError(f"A solitaire deal needs {DEALT_CARDS} cards, not {len(deck)}.")
        dealt: dict[int, Sequence[Card]] = {}
        start = 0
        for number in HAND_NUMBERS:
            dealt[number] = deck[start : start + number]
            start += number
        return cls.from_hands(dealt, deck[start:], seed=seed)

    @classmethod
    def from_hands(
        cls,
        hands: Mapping[int, Sequence[Card]],
        stock: Sequence[Card],
        *,
        seed: int | None = None,
    ) -> Solitaire:
        """A game from given hands (``{3: cards, ..., 13: cards}``) and stock (front first)."""
        if sorted(hands) != list(HAND_NUMBERS):
            raise ValueError("Solitaire has eleven hands, numbered 3 to 13.")
        for number, cards in hands.items():
            if len(cards) != number:
                raise ValueError(f"The hand of {number} needs {number} cards, not {len(cards)}.")
        game = cls(
            hands=[Hand(number, tuple(hands[number])) for number in HAND_NUMBERS],
            stock=list(stock),
            seed=seed,
        )
        for hand in game.hands:
            arrangement = _closing_arrangement(hand)
            if arrangement is not None:
                game._set_hand(replace(hand, arrangement=arrangement))
                game.events.append(HandClosed(hand.number, arrangement, at_deal=True))
        game.events.extend(game._next_turn())
        return game

    # queries

    def hand(self, number: int) -> Hand:
        """Hand ``number`` (3 to 13)."""
        if number not in HAND_NUMBERS:
            raise IllegalMoveError(
                _("There is no hand of {hand}: hands are 3 to 13.").format(hand=number)
            )
        return self.hands[number - HAND_NUMBERS[0]]

    @property
    def open_hands(self) -> tuple[Hand, ...]:
        return tuple(hand for hand in self.hands if not hand.is_closed)

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    def points_left(self) -> int:
        """The score: least leftover points summed over the open hands."""
        return sum(hand.leftover_points() for hand in self.open_hands)

    def view(self) -> SolitaireView:
        return SolitaireView(
            phase=self.phase,
            hands=tuple(self.hands),
            turned=self.turned,
            target=self.target,
            stock_count=len(self.stock),
            stock_cards=tuple(sorted(self.stock)),
            discards=tuple(self.discards),
            turns=self.turns,
        )

    # moves: check_x raises with the reason, can_x says yes or no, x applies

    def check_put(self, move: PutCard) -> None:
        if self.phase is not Phase.PUT:
            raise IllegalMoveError(self._wrong_phase_reason())
        hand = self.hand(move.hand)
        if hand.is_closed:
            turned = self._turned_name(hand.number)
            # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
            raise IllegalMoveError(
                _("The hand of {hand} is closed. Put the {card} into an open hand.").format(
                    hand=hand.number, card=turned
                )
            )

    def can_put(self, move: PutCard) -> bool:
        return _allowed(self.check_put, move)

    def put(self, move: PutCard) -> tuple[Event, ...]:
        self.check_put(move)
        assert self.turned is not None
        hand = self.hand(move.hand)
        self._set_hand(replace(hand, cards=(*hand.cards, self.turned)))
        events: list[Event] = [CardPut(hand.number, self.turned)]
        self.target = hand.number
        self.turned = None
        self.phase = Phase.DISCARD
        return self._record(events)

    def check_discard(self, move: DiscardCard) -> None:
        if self.phase is not Phase.DISCARD:
            raise IllegalMoveError(self._wrong_phase_reason())
        assert self.target is not None
        hand = self.hand(self.target)
        if move.card not in hand.cards:
            name = spoken_name(move.card, hand.wild_rank)
            # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
            raise IllegalMoveError(
                _("The hand of {hand} has no {card}.").format(hand=hand.number, card=name)
            )

    def can_discard(self, move: DiscardCard) -> bool:
        return _allowed(self.check_discard, move)

    def discard(self, move: DiscardCard) -> tuple[Event, ...]:
        self.check_discard(move)
        assert self.target is not None
        hand = self.hand(self.target)
        cards = list(hand.cards)
        cards.remove(move.card)
        hand = replace(hand, cards=tuple(cards))
        self._set_hand(hand)
        self.discards.append(move.card)
        self.target = None
        events: list[Event] = [CardDiscarded(hand.number, move.card)]
        arrangement = _closing_arrangement(hand)
        if arrangement is not None:
            self._set_hand(replace(hand, arrangement=arrangement))
            events.append(HandClosed(hand.number, arrangement))
        events.extend(self._next_turn())
        return self._record(events)

    def check(self, move: Move) -> None:
        if isinstance(move, PutCard):
            self.check_put(move)
        else:
            self.check_discard(move)

    def can(self, move: Move) -> bool:
        return _allowed(self.check, move)

    def apply(self, move: Move) -> tuple[Event, ...]:
        """Check and apply ``move``; returns the events it caused, in order."""
        if self.phase is Phase.PUT and isinstance(move, PutCard):
            return self.put(move)
        if self.phase is Phase.DISCARD and isinstance(move, DiscardCard):
            return self.discard(move)
        raise IllegalMoveError(self._wrong_phase_reason())

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move now (distinct discards only), for menus and computer players."""
        if self.phase is Phase.PUT:
            return tuple(PutCard(hand.number) for hand in self.open_hands)
        if self.phase is Phase.DISCARD:
            assert self.target is not None
            return tuple(DiscardCard(card) for card in sorted(set(self.hand(self.target).cards)))
        return ()

    # save and resume

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "phase": self.phase.value,
            "hands": {
                str(hand.number): {"cards": format_cards(hand.cards), "closed": hand.is_closed}
                for hand in self.hands
            },
            "stock": format_cards(self.stock),
            "turned": self.turned.token if self.turned is not None else None,
            "target": self.target,
            "discards": format_cards(self.discards),
            "turns": self.turns,
        }
        if self.game_id is not None:
            data["id"] = self.game_id
        return data

    @classmethod
    def from_json(cls, data: Any) -> Solitaire:
        """Rebuild a game from :meth:`to_json`; raises :class:`SaveFileError` with a reason."""
        try:
            return _from_json(data)
        except (KeyError, TypeError, ValueError, CardParseError) as error:
            raise SaveFileError(
                _("The solitaire save is damaged: {reason}").format(reason=_reason(error))
            ) from error

    # internals

    def _set_hand(self, hand: Hand) -> None:
        self.hands[hand.number - HAND_NUMBERS[0]] = hand

    def _record(self, events: list[Event]) -> tuple[Event, ...]:
        self.events.extend(events)
        return tuple(events)

    def _next_turn(self) -> list[Event]:
        """After the deal or a discard: win, lose, or turn the next card."""
        if not self.open_hands:
            self.phase = Phase.WON
            return [GameWon(self.turns)]
        if not self.stock:
            self.phase = Phase.LOST
            open_numbers = tuple(hand.number for hand in self.open_hands)
            return [GameLost(open_numbers, self.points_left())]
        self.turned = self.stock.pop(0)
        self.turns += 1
        self.phase = Phase.PUT
        return [CardTurned(self.turned, len(self.stock))]

    def _turned_name(self, number: int) -> str:
        # TRANSLATORS: in place of a card's name: "Put the card into an open hand."
        return spoken_name(self.turned, Rank(number)) if self.turned else _("card")

    def _wrong_phase_reason(self) -> str:
        if self.phase is Phase.PUT:
            assert self.turned is not None
            # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
            return _("Put the {card} into an open hand first.").format(card=self.turned.spoken)
        if self.phase is Phase.DISCARD:
            return _("Discard a card from the hand of {hand} first.").format(hand=self.target)
        if self.phase is Phase.WON:
            return _("The game is over: you won.")
        return _("The game is over: the stock ran out.")


def _allowed(check: Any, move: Any) -> bool:
    try:
        check(move)
    except IllegalMoveError:
        return False
    return True


def _closing_arrangement(hand: Hand) -> Arrangement | None:
    """The melds of ``hand`` if every card is in a book or run, else None."""
    if least_leftover(hand.cards, hand.wild_rank) != 0:
        return None
    return best_arrangement(hand.cards, hand.wild_rank)


# --- loading -----------------------------------------------------------------


def _reason(error: BaseException) -> str:
    if isinstance(error, KeyError):
        return _("the entry {name} is missing.").format(name=repr(error.args[0]))
    text = str(error)
    return text if text.endswith(".") else text + "."


def _cards(data: Any, what: str) -> list[Card]:
    if not isinstance(data, str):
        # TRANSLATORS: {what} is a part of the save: "the stock", "the hand of 7"
        raise ValueError(_("{what} should be a list of cards in text").format(what=what))
    return parse_cards(data)


def _from_json(data: Any) -> Solitaire:
    if not isinstance(data, dict):
        raise ValueError(_("it is not a saved game"))
    if data.get("format") != SAVE_FORMAT:
        raise ValueError(_("it is not a Five Crowns Solitaire save"))
    version = data.get("version")
    if not isinstance(version, int) or not 1 <= version <= SAVE_VERSION:
        raise ValueError(
            _("it has version {version}, and this program reads up to {latest}").format(
                version=repr(version), latest=SAVE_VERSION
            )
        )
    phase = Phase(data["phase"])
    target = data["target"]
    turned = _cards(data["turned"], _("the turned card")) if data["turned"] is not None else []
    if len(turned) > 1:
        raise ValueError(_("there is more than one turned card"))
    if (phase is Phase.PUT) != bool(turned):
        raise ValueError(_("the turned card does not match the phase"))
    if (phase is Phase.DISCARD) != (target is not None):
        raise ValueError(_("the hand taking a card does not match the phase"))
    if target is not None and (not isinstance(target, int) or target not in HAND_NUMBERS):
        raise ValueError(
            _("there is no hand {hand} to take the card: hands are 3 to 13").format(
                hand=repr(target)
            )
        )
    hands_data = data["hands"]
    if not isinstance(hands_data, dict) or sorted(hands_data) != sorted(map(str, HAND_NUMBERS)):
        raise ValueError(_("it does not have the eleven hands 3 to 13"))
    hands: list[Hand] = []
    for number in HAND_NUMBERS:
        entry = hands_data[str(number)]
        cards = tuple(_cards(entry["cards"], _("the hand of {hand}").format(hand=number)))
        expected = number + 1 if number == target else number
        if len(cards) != expected:
            raise ValueError(
                ngettext(
                    "the hand of {hand} has {count} card, not {expected}",
                    "the hand of {hand} has {count} cards, not {expected}",
                    len(cards),
                ).format(hand=number, count=len(cards), expected=expected)
            )
        hand = Hand(number, cards)
        if entry["closed"]:
            arrangement = _closing_arrangement(hand)
            if arrangement is None:
                raise ValueError(
                    _("the hand of {hand} is marked closed but is not all melded").format(
                        hand=number
                    )
                )
            hand = replace(hand, arrangement=arrangement)
        hands.append(hand)
    if target is not None and hands[int(target) - HAND_NUMBERS[0]].is_closed:
        raise ValueError(_("the hand of {hand} is closed but is taking a card").format(hand=target))
    stock = _cards(data["stock"], _("the stock"))
    discards = _cards(data["discards"], _("the discards"))
    everything = Counter([card for hand in hands for card in hand.cards])
    everything.update([*stock, *discards, *turned])
    for card, count in everything.items():
        limit = 2 * JOKERS_PER_DECK if card == JOKER else 2
        if count > limit:
            # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
            raise ValueError(
                ngettext(
                    "it has {count} copy of the {card}; two decks hold {limit}",
                    "it has {count} copies of the {card}; two decks hold {limit}",
                    count,
                ).format(count=count, card=card.spoken, limit=limit)
            )
    if everything != Counter(new_deck(2)):
        missing = sum((Counter(new_deck(2)) - everything).values())
        raise ValueError(
            ngettext(
                "{count} card of the two decks is missing",
                "{count} cards of the two decks are missing",
                missing,
            ).format(count=missing)
        )
    turns = data["turns"]
    if not isinstance(turns, int) or turns < 0:
        raise ValueError(_("the number of turns is not a count"))
    seed = data.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise ValueError(_("the seed is not a whole number"))
    game_id = data.get("id")
    if game_id is not None and not (isinstance(game_id, str) and 0 < len(game_id) <= 64):
        raise ValueError(_("the game's name is not a short text"))
    game = Solitaire(
        hands=hands,
        stock=stock,
        phase=phase,
        turned=turned[0] if turned else None,
        target=target,
        discards=discards,
        turns=turns,
        seed=seed,
        game_id=game_id,
    )
    if (phase is Phase.WON) != (not game.open_hands):
        raise ValueError(_("whether it is won does not match the open hands"))
    if phase is Phase.LOST and stock:
        raise ValueError(_("it says lost but the stock still has cards"))
    return game
