# One file (~800 lines): the phase dispatcher and one check per move read best side by side.
"""The Five Crowns state machine: phases, moves, events, scoring.

A :class:`Game` holds the whole state of one game. Players act by applying
small frozen move records (:class:`DrawFromStock`, :class:`TakeDiscard`,
:class:`Discard`, :class:`GoOut`, :class:`LayDown`); each legal move returns
the typed events it caused, and every event is also kept in :attr:`Game.events`.

Each move has one rule, used three ways: ``check_x`` raises
:class:`~fivecrowns.core.errors.IllegalMoveError` with a sentence a person can hear,
``can_x`` answers yes or no, and ``x`` checks and then applies. A move that is
refused changes nothing.

Phases (see ``docs/design.md`` for the table)::

    DRAW -> DISCARD -> (next player) DRAW ...
    DISCARD --GoOut--> LAST_DRAW -> LAST_LAY_DOWN -> LAST_DISCARD -> (next) LAST_DRAW ...
    after the last last turn: round scored, next round dealt (DRAW), or GAME_OVER.

Randomness is an input: a seed, a ``random.Random``, or preset deck orders, so
a game replays exactly from its seed and its moves.

>>> game = Game(["Ann", "Ben"], seed=7)
>>> game.round, game.wild_rank.plural, len(game.hand(0))
(1, '3s', 3)
>>> player = game.current_player
>>> [type(event).__name__ for event in game.apply(player, DrawFromStock())]
['DrewFromStock']
>>> game.check(player, TakeDiscard())
Traceback (most recent call last):
...
fivecrowns.core.errors.IllegalMoveError: You have already drawn this turn; now discard a card.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from fivecrowns.core.cards import (
    JOKER,
    Card,
    Rank,
    card_from_code,
    cards_per_deck,
    new_deck,
    points,
    shuffled_deck,
    spoken_name,
    wild_rank_for_round,
)
from fivecrowns.core.errors import FiveCrownsError, IllegalMoveError
from fivecrowns.core.melds.solver import (
    Meld,
    best_arrangement,
    best_with_discard,
    check_meld,
    going_out_discards,
)
from fivecrowns.core.moves import (
    Discard,
    Discarded,
    DrawFromStock,
    DrewFromStock,
    Event,
    GameOver,
    GoOut,
    LaidDown,
    LastTurnStarted,
    LayDown,
    Move,
    PlayerResult,
    RoundScored,
    RoundStarted,
    StockReshuffled,
    TakeDiscard,
    TookDiscard,
    TurnStarted,
    WentOut,
)
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROUNDS",
    "Game",
    "GameOptions",
    "Phase",
    "arrange_deck",
    "check_table",
    "last_turn_discard",
    "legal_moves_for",
]

ROUNDS = 11
MIN_PLAYERS = 2
MAX_PLAYERS = 7  # the default table; bigger tables need extra decks (see GameOptions)
LARGEST_TABLE = 14


class Phase(enum.Enum):
    """Where the game stands; each phase has its own handler in :class:`Game`."""

    DRAW = "draw"  # the current player must draw from the stock or take the discard
    DISCARD = "discard"  # the current player has drawn: discard, or go out
    LAST_DRAW = "last_draw"  # someone went out: this player's last turn starts with a draw
    LAST_LAY_DOWN = "last_lay_down"  # last turn, drawn: lay down melds (or discard at once)
    LAST_DISCARD = "last_discard"  # last turn, laid down: discard to end the turn
    GAME_OVER = "game_over"  # eleven rounds scored

    @property
    def spoken(self) -> str:
        """What the player must do now, in the current language."""
        return _(_PHASE_WORDS[self])


_PHASE_WORDS = {
    Phase.DRAW: N_("draw a card"),
    Phase.DISCARD: N_("discard a card, or go out"),
    Phase.LAST_DRAW: N_("last turn: draw a card"),
    Phase.LAST_LAY_DOWN: N_("last turn: lay down your melds, then discard"),
    Phase.LAST_DISCARD: N_("last turn: discard a card"),
    Phase.GAME_OVER: N_("the game is over"),
}


NOT_IN_HAND = N_("The {card} is not in your hand.")


def last_turn_discard(phase: Phase, hand: Sequence[Card], wild: Rank) -> Discard | None:
    """What "go out" plays in a last turn, where nobody can go out any more: the discard
    that leaves the fewest points (the best melds go down with it). ``None`` in any other
    phase. The terminal's G and a network client's ``go_out`` both mean this there.

    >>> from fivecrowns.core.cards import parse_cards
    >>> last_turn_discard(Phase.LAST_LAY_DOWN, parse_cards("8c 8h 8d Kc"), Rank.THREE)
    Discard(card=Card('Kc'))
    >>> last_turn_discard(Phase.DISCARD, parse_cards("8c 8h 8d Kc"), Rank.THREE) is None
    True
    """
    if phase not in (Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD):
        return None
    best = best_with_discard(hand, wild)
    return None if best.discard is None else Discard(best.discard)


# --- options -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameOptions:
    """Table rules that players may change; defaults follow RULES.md.

    ``decks``: 2 (116 cards); 1 is allowed for 2 or 3 players; bigger tables may
    use more. ``forbid_return_discard``: forbid discarding, in the same turn, the
    card just taken from the discard pile (allowed by default).
    """

    decks: int = 2
    forbid_return_discard: bool = False


def check_table(players: int, options: GameOptions) -> None:
    """Refuse, with a sentence, a table these options cannot deal for (a new game or a save)."""
    if not MIN_PLAYERS <= players <= LARGEST_TABLE:
        raise FiveCrownsError(
            _(
                "A game needs {low} to {high} players (up to {most} with extra decks), "
                "not {players}."
            ).format(low=MIN_PLAYERS, high=MAX_PLAYERS, most=LARGEST_TABLE, players=players)
        )
    if options.decks < 1:
        raise FiveCrownsError(
            _("A game needs at least one deck, not {decks}.").format(decks=options.decks)
        )
    if options.decks == 1 and players > 3:
        raise FiveCrownsError(
            _("One deck is enough only for 2 or 3 players, not {players}.").format(players=players)
        )
    needed = players * (ROUNDS + 2) + 1
    if options.decks * cards_per_deck() < needed:
        decks = -(-needed // cards_per_deck())
        raise FiveCrownsError(
            ngettext(
                "{players} players need at least {count} deck.",
                "{players} players need at least {count} decks.",
                decks,
            ).format(players=players, count=decks)
        )


# --- the game ------------------------------------------------------------------

_Effect = Callable[[], list[Event]]


class Game:
    """One game of Five Crowns.

    ``players`` are the seat names in seat order (the next seat is to the left).
    ``seed`` or ``rng`` makes the shuffles; ``deck_orders`` (optional) gives the
    deck for round 1, 2, ... as the order cards come off the top (see
    :func:`arrange_deck`); rounds without one are shuffled by the rng.
    ``first_dealer`` is chosen by the rng when not given.
    """

    def __init__(
        self,
        players: Sequence[str],
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        options: GameOptions | None = None,
        first_dealer: int | None = None,
        deck_orders: Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.options = options or GameOptions()
        names = [str(name).strip() for name in players]
        check_table(len(names), self.options)
        if any(not name for name in names):
            raise FiveCrownsError(_("Every player needs a name."))
        if len({name.lower() for name in names}) != len(names):
            raise FiveCrownsError(
                _("Two players have the same name; give everyone a different name.")
            )
        self.players: tuple[str, ...] = tuple(names)
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        self.deck_orders: list[list[Card]] = [list(order) for order in deck_orders or ()]
        for number, order in enumerate(self.deck_orders, start=1):
            if Counter(order) != Counter(new_deck(self.options.decks)):
                raise FiveCrownsError(
                    ngettext(
                        "The deck given for round {round} is not {count} full deck.",
                        "The deck given for round {round} is not {count} full decks.",
                        self.options.decks,
                    ).format(round=number, count=self.options.decks)
                )
        if first_dealer is None:
            first_dealer = self.rng.randrange(len(names))
        if not 0 <= first_dealer < len(names):
            raise FiveCrownsError(
                _("There is no player {player} to deal.").format(player=first_dealer)
            )
        self.first_dealer = first_dealer
        # State of the whole game.
        self.round = 0
        self.dealer = first_dealer
        self.round_scores: list[tuple[int, ...]] = []
        self.totals: list[int] = [0] * len(names)
        self.decks_in_play = self.options.decks
        self.events: list[Event] = []
        self.moves: list[tuple[int, Move]] = []
        # State of the round (set by _deal).
        self.phase = Phase.DRAW
        self.current_player = 0
        self.hands: list[list[Card]] = [[] for _name in names]
        self.stock: list[Card] = []  # the top of the stock is the last card
        self.discard_pile: list[Card] = []  # the top discard is the last card
        self.went_out: int | None = None
        self.last_turns: list[int] = []  # players still to take their last turn, in order
        self.laid_down: list[tuple[Meld, ...]] = [() for _name in names]
        self.taken_discard: Card | None = None  # taken this turn (for forbid_return_discard)
        self.round_start_event = 0  # index in events of this round's RoundStarted
        self.events.extend(self._start_round())

    # --- reading -----------------------------------------------------------

    @property
    def wild_rank(self) -> Rank:
        return wild_rank_for_round(self.round)

    @property
    def hand_size(self) -> int:
        return self.round + 2

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the lowest total (all of them share the win); final once the game is over."""
        lowest = min(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == lowest)

    @property
    def round_events(self) -> list[Event]:
        """Events of the current round, from its RoundStarted on."""
        return self.events[self.round_start_event :]

    def hand(self, player: int) -> tuple[Card, ...]:
        return tuple(self.hands[player])

    def name(self, player: int) -> str:
        return self.players[player]

    def card_count(self) -> int:
        """Every card in stock, discard pile, hands and melds (conservation checks)."""
        return (
            len(self.stock)
            + len(self.discard_pile)
            + sum(len(hand) for hand in self.hands)
            + sum(len(meld.cards) for melds in self.laid_down for meld in melds)
        )

    def all_cards(self) -> Counter[Card]:
        """Every card in play, as a multiset."""
        counter: Counter[Card] = Counter(self.stock)
        counter.update(self.discard_pile)
        for hand in self.hands:
            counter.update(hand)
        for melds in self.laid_down:
            for meld in melds:
                counter.update(meld.cards)
        return counter

    def check(self, player: int, move: Move) -> None:
        """Raise :class:`IllegalMoveError` with a spoken reason if ``move`` is not legal now."""
        self._prepare(player, move)

    def can(self, player: int, move: Move) -> bool:
        try:
            self._prepare(player, move)
        except IllegalMoveError:
            return False
        return True

    def apply(self, player: int, move: Move) -> list[Event]:
        """Check and play ``move`` for ``player``; returns the events it caused.

        A refused move raises :class:`IllegalMoveError` and changes nothing.
        """
        effect = self._prepare(player, move)
        self.moves.append((player, move))
        events = effect()
        for offset, event in enumerate(events):
            if isinstance(event, RoundStarted):
                self.round_start_event = len(self.events) + offset
        self.events.extend(events)
        return events

    def legal_moves(self, player: int) -> list[Move]:
        """Every legal move of ``player`` now, one per distinct card (for menus and bots).

        In a last turn, laying down offers the best arrangement (``LayDown()``)
        and laying down nothing (``LayDown(())``).
        """
        if self.phase is Phase.GAME_OVER or player != self.current_player:
            return []
        return legal_moves_for(
            self.phase, self.hands[player], self.wild_rank, self._forbidden_discard()
        )

    # One rule per move, used three ways.
    def check_draw_from_stock(self, player: int) -> None:
        self.check(player, DrawFromStock())

    def can_draw_from_stock(self, player: int) -> bool:
        return self.can(player, DrawFromStock())

    def draw_from_stock(self, player: int) -> list[Event]:
        return self.apply(player, DrawFromStock())

    def check_take_discard(self, player: int) -> None:
        self.check(player, TakeDiscard())

    def can_take_discard(self, player: int) -> bool:
        return self.can(player, TakeDiscard())

    def take_discard(self, player: int) -> list[Event]:
        return self.apply(player, TakeDiscard())

    def check_discard(self, player: int, card: Card) -> None:
        self.check(player, Discard(card))

    def can_discard(self, player: int, card: Card) -> bool:
        return self.can(player, Discard(card))

    def discard(self, player: int, card: Card) -> list[Event]:
        return self.apply(player, Discard(card))

    def check_go_out(self, player: int, discard: Card) -> None:
        self.check(player, GoOut(discard))

    def can_go_out(self, player: int, discard: Card) -> bool:
        return self.can(player, GoOut(discard))

    def go_out(self, player: int, discard: Card) -> list[Event]:
        return self.apply(player, GoOut(discard))

    def check_lay_down(self, player: int, melds: Sequence[Sequence[Card]] | None = None) -> None:
        self.check(player, _lay_down(melds))

    def can_lay_down(self, player: int, melds: Sequence[Sequence[Card]] | None = None) -> bool:
        return self.can(player, _lay_down(melds))

    def lay_down(self, player: int, melds: Sequence[Sequence[Card]] | None = None) -> list[Event]:
        return self.apply(player, _lay_down(melds))

    # --- the dispatcher ----------------------------------------------------------

    def _prepare(self, player: int, move: Move) -> _Effect:
        """Check ``move`` and return the function that plays it; the one dispatcher."""
        if not isinstance(move, _MOVE_CLASSES):
            raise IllegalMoveError(_("{move} is not a move.").format(move=repr(move)))
        if self.phase is Phase.GAME_OVER:
            raise IllegalMoveError(_("The game is over."))
        if not isinstance(player, int) or not 0 <= player < len(self.players):
            raise IllegalMoveError(_("There is no player {player}.").format(player=player))
        if player != self.current_player:
            # why: the sentence is spoken to the person who tried to play.
            raise IllegalMoveError(
                _("It is {name}'s turn, not yours.").format(name=self.players[self.current_player])
            )
        # why by name from a table made once: a dict of five bound methods made for every move
        # was part of the move's own cost on the game server (issue 29)
        handler: Callable[[int, Move], _Effect] = getattr(self, _PHASE_HANDLERS[self.phase])
        return handler(player, move)

    # --- one handler per phase ---------------------------------------------------

    def _in_draw(self, player: int, move: Move) -> _Effect:
        if isinstance(move, DrawFromStock):
            return lambda: self._draw_stock(player, Phase.DISCARD)
        if isinstance(move, TakeDiscard):
            self._check_discard_pile()
            return lambda: self._take_discard(player, Phase.DISCARD)
        if isinstance(move, Discard):
            raise IllegalMoveError(_("You must draw before you discard."))
        if isinstance(move, GoOut):
            raise IllegalMoveError(_("You must draw before you go out."))
        raise IllegalMoveError(
            _("You can lay down melds only in a last turn, after someone has gone out.")
        )

    def _in_discard(self, player: int, move: Move) -> _Effect:
        if isinstance(move, Discard):
            self._check_discard(player, move.card)
            return lambda: self._discard(player, move.card)
        if isinstance(move, GoOut):
            self._check_discard(player, move.discard)
            melds = self._going_out_melds(player, move.discard)
            return lambda: self._go_out(player, move.discard, melds)
        if isinstance(move, LayDown):
            raise IllegalMoveError(
                _("You can lay down melds only in a last turn; to lay down all your cards, go out.")
            )
        raise IllegalMoveError(_("You have already drawn this turn; now discard a card."))

    def _in_last_draw(self, player: int, move: Move) -> _Effect:
        if isinstance(move, DrawFromStock):
            return lambda: self._draw_stock(player, Phase.LAST_LAY_DOWN)
        if isinstance(move, TakeDiscard):
            self._check_discard_pile()
            return lambda: self._take_discard(player, Phase.LAST_LAY_DOWN)
        if isinstance(move, GoOut):
            raise self._already_out()
        if isinstance(move, LayDown):
            raise IllegalMoveError(_("You must draw before you lay down."))
        raise IllegalMoveError(_("You must draw before you discard."))

    def _in_last_lay_down(self, player: int, move: Move) -> _Effect:
        if isinstance(move, LayDown):
            melds = self._check_lay_down(player, move)
            return lambda: self._lay_down(player, melds)
        if isinstance(move, Discard):
            # why: a discard without laying down first lays down the offered
            # (best) arrangement of the cards kept, as RULES.md's default.
            self._check_discard(player, move.card)
            return lambda: self._discard_laying_best(player, move.card)
        if isinstance(move, GoOut):
            raise self._already_out()
        raise IllegalMoveError(_("You have already drawn this turn; now lay down and discard."))

    def _in_last_discard(self, player: int, move: Move) -> _Effect:
        if isinstance(move, Discard):
            self._check_discard(player, move.card)
            return lambda: self._discard(player, move.card)
        if isinstance(move, LayDown):
            raise IllegalMoveError(_("You have already laid down this turn; now discard a card."))
        if isinstance(move, GoOut):
            raise self._already_out()
        raise IllegalMoveError(_("You have already drawn this turn; now discard a card."))

    # --- the rules behind the checks -----------------------------------------------

    def _already_out(self) -> IllegalMoveError:
        if self.went_out is None:
            return IllegalMoveError(
                _("Someone has already gone out; lay down what melds you can, then discard.")
            )
        return IllegalMoveError(
            _("{name} has already gone out; lay down what melds you can, then discard.").format(
                name=self.players[self.went_out]
            )
        )

    def _check_discard_pile(self) -> None:
        if not self.discard_pile:
            raise IllegalMoveError(_("The discard pile is empty; draw from the stock."))

    def _forbidden_discard(self) -> Card | None:
        return self.taken_discard if self.options.forbid_return_discard else None

    def _check_discard(self, player: int, card: Card) -> None:
        if not isinstance(card, Card):
            raise IllegalMoveError(_("{card} is not a card.").format(card=repr(card)))
        if card not in self.hands[player]:
            raise IllegalMoveError(_(NOT_IN_HAND).format(card=spoken_name(card)))
        forbidden = self._forbidden_discard()
        if forbidden is not None and card == forbidden and self.hands[player].count(card) == 1:
            raise IllegalMoveError(
                _("You took the {card} from the discard pile; discard another card.").format(
                    card=spoken_name(card)
                )
            )

    def _going_out_melds(self, player: int, discard: Card) -> tuple[Meld, ...]:
        rest = list(self.hands[player])
        rest.remove(discard)
        arrangement = best_arrangement(rest, self.wild_rank)
        if arrangement.leftover_points:
            count = arrangement.leftover_points
            raise IllegalMoveError(
                ngettext(
                    "You cannot go out discarding the {card}: "
                    "{count} point of your other cards fits no book or run.",
                    "You cannot go out discarding the {card}: "
                    "{count} points of your other cards fit no book or run.",
                    count,
                ).format(card=spoken_name(discard, self.wild_rank), count=count)
            )
        return tuple(arrangement.melds)

    def _check_lay_down(self, player: int, move: LayDown) -> tuple[Meld, ...]:
        hand = self.hands[player]
        if move.melds is None:
            return tuple(best_with_discard(hand, self.wild_rank).melds)
        melds: list[Meld] = []
        for cards in move.melds:
            if not all(isinstance(card, Card) for card in cards):
                raise IllegalMoveError(_("A meld is made of cards."))
            try:
                melds.append(check_meld(cards, self.wild_rank))
            except FiveCrownsError as error:
                raise IllegalMoveError(str(error)) from error
        wanted = Counter(card for meld in melds for card in meld.cards)
        have = Counter(hand)
        for card, count in wanted.items():
            if have[card] == 0:
                raise IllegalMoveError(_(NOT_IN_HAND).format(card=spoken_name(card)))
            if have[card] < count:
                raise IllegalMoveError(
                    ngettext(
                        "You have the {card} only once; a card goes in one meld.",
                        "You have the {card} only {count} times; a card goes in one meld.",
                        have[card],
                    ).format(card=spoken_name(card), count=have[card])
                )
        if sum(wanted.values()) >= len(hand):
            raise IllegalMoveError(_("You must keep one card to discard."))
        return tuple(melds)

    # --- effects (called only after the checks pass) ---------------------------------

    def _draw_stock(self, player: int, next_phase: Phase) -> list[Event]:
        events: list[Event] = []
        if not self.stock:
            events.append(self._refill_stock(player))
        card = self.stock.pop()
        self.hands[player].append(card)
        self.taken_discard = None
        self.phase = next_phase
        events.append(DrewFromStock(player, card))
        return events

    def _refill_stock(self, player: int) -> StockReshuffled:
        """RULES.md "Stock runs out": the discard pile but its top, shuffled; else a new deck."""
        buried = self.discard_pile[:-1]
        del self.discard_pile[:-1]
        self.rng.shuffle(buried)
        self.stock = buried
        added = 0
        if not self.stock:
            self.stock = shuffled_deck(self.rng, 1)
            self.decks_in_play += 1
            added = 1
        return StockReshuffled(player, len(self.stock), added)

    def _take_discard(self, player: int, next_phase: Phase) -> list[Event]:
        card = self.discard_pile.pop()
        self.hands[player].append(card)
        self.taken_discard = card
        self.phase = next_phase
        return [TookDiscard(player, card)]

    def _discard(self, player: int, card: Card) -> list[Event]:
        self.hands[player].remove(card)
        self.discard_pile.append(card)
        self.taken_discard = None
        events: list[Event] = [Discarded(player, card)]
        return events + self._next_turn()

    def _go_out(self, player: int, discard: Card, melds: tuple[Meld, ...]) -> list[Event]:
        hand = self.hands[player]
        hand.remove(discard)
        for meld in melds:
            for card in meld.cards:
                hand.remove(card)
        self.laid_down[player] = melds
        self.discard_pile.append(discard)
        self.taken_discard = None
        self.went_out = player
        count = len(self.players)
        self.last_turns = [(player + step) % count for step in range(1, count)]
        events: list[Event] = [WentOut(player, melds, discard)]
        return events + self._next_turn()

    def _lay_down(self, player: int, melds: tuple[Meld, ...]) -> list[Event]:
        hand = self.hands[player]
        for meld in melds:
            for card in meld.cards:
                hand.remove(card)
        self.laid_down[player] = melds
        self.phase = Phase.LAST_DISCARD
        return [LaidDown(player, melds, tuple(hand))]

    def _discard_laying_best(self, player: int, card: Card) -> list[Event]:
        rest = list(self.hands[player])
        rest.remove(card)
        melds = tuple(best_arrangement(rest, self.wild_rank).melds)
        events = self._lay_down(player, melds)
        return events + self._discard(player, card)

    def _next_turn(self) -> list[Event]:
        """After a discard: the next player's turn, the next last turn, or the score."""
        count = len(self.players)
        if self.went_out is None:
            self.current_player = (self.current_player + 1) % count
            self.phase = Phase.DRAW
            return [TurnStarted(self.current_player)]
        if self.last_turns:
            self.current_player = self.last_turns.pop(0)
            self.phase = Phase.LAST_DRAW
            return [LastTurnStarted(self.current_player)]
        return self._score_round()

    def _score_round(self) -> list[Event]:
        wild = self.wild_rank
        assert self.went_out is not None
        results = []
        for seat, hand in enumerate(self.hands):
            score = 0 if seat == self.went_out else sum(points(card, wild) for card in hand)
            results.append(PlayerResult(self.laid_down[seat], tuple(hand), score))
        scores = tuple(result.score for result in results)
        self.round_scores.append(scores)
        self.totals = [total + score for total, score in zip(self.totals, scores, strict=True)]
        events: list[Event] = [
            RoundScored(self.round, self.went_out, scores, tuple(self.totals), tuple(results))
        ]
        if self.round == ROUNDS:
            self.phase = Phase.GAME_OVER
            events.append(GameOver(self.winners, tuple(self.totals)))
            return events
        self.dealer = (self.dealer + 1) % len(self.players)
        return events + self._start_round()

    def _start_round(self) -> list[Event]:
        """Deal the next round and return its first events."""
        self.round += 1
        count = len(self.players)
        if self.round <= len(self.deck_orders):
            deck = list(self.deck_orders[self.round - 1])
        else:
            deck = shuffled_deck(self.rng, self.options.decks)
        # why: extra decks added when the stock ran dry leave play with the round.
        self.decks_in_play = self.options.decks
        deck.reverse()  # the top card is dealt first and is now last
        self.hands = [[] for _seat in range(count)]
        for _card in range(self.hand_size):
            for step in range(1, count + 1):
                self.hands[(self.dealer + step) % count].append(deck.pop())
        self.discard_pile = [deck.pop()]
        self.stock = deck
        self.went_out = None
        self.last_turns = []
        self.laid_down = [() for _seat in range(count)]
        self.taken_discard = None
        self.current_player = (self.dealer + 1) % count
        self.phase = Phase.DRAW
        events: list[Event] = [
            RoundStarted(
                self.round,
                self.wild_rank,
                self.dealer,
                self.hand_size,
                self.current_player,
                self.discard_pile[-1],
            ),
            TurnStarted(self.current_player),
        ]
        return events


_MOVE_CLASSES = (DrawFromStock, TakeDiscard, Discard, GoOut, LayDown)
#: The method that checks a move in each phase a move can be played in (see Game._prepare).
_PHASE_HANDLERS = {
    Phase.DRAW: "_in_draw",
    Phase.DISCARD: "_in_discard",
    Phase.LAST_DRAW: "_in_last_draw",
    Phase.LAST_LAY_DOWN: "_in_last_lay_down",
    Phase.LAST_DISCARD: "_in_last_discard",
}
_CARD_CODE = attrgetter("code")  # the order of Card's own comparisons


def _lay_down(melds: Sequence[Sequence[Card]] | None) -> LayDown:
    return LayDown(None if melds is None else tuple(tuple(meld) for meld in melds))


def legal_moves_for(
    phase: Phase, hand: Sequence[Card], wild_rank: Rank, forbidden: Card | None = None
) -> list[Move]:
    """The legal moves in ``phase`` for a player holding ``hand`` (one per distinct card)."""
    if phase in (Phase.DRAW, Phase.LAST_DRAW):  # why first: no card is needed to draw
        return list(_DRAWS)
    # why by code (one per card, in card order): a Card's hash and equality are Python calls,
    # and a set and a count of the hand by them were half of this in every mover's snapshot
    codes = list(map(_CARD_CODE, hand))
    distinct = sorted(set(codes))
    if forbidden is not None and codes.count(forbidden.code) == 1:
        distinct.remove(forbidden.code)
    moves: list[Move]
    if phase is Phase.DISCARD:
        moves = [_DISCARDS[code] for code in distinct]
        allowed = set(distinct)
        going_out = going_out_discards(hand, wild_rank)
        moves += [_GO_OUTS[card.code] for card in going_out if card.code in allowed]
        return moves
    if phase is Phase.LAST_LAY_DOWN:
        return [*_LAY_DOWNS, *[_DISCARDS[code] for code in distinct]]
    if phase is Phase.LAST_DISCARD:
        return [_DISCARDS[code] for code in distinct]
    return []


#: A discard and a going out of each card, by its code (why: a move is frozen, so one serves
#: every hand; making each afresh was a quarter of the legal moves in every mover's snapshot
#: on the game server, issue 29).
_DISCARDS = tuple(Discard(card_from_code(code)) for code in range(JOKER.code + 1))
_GO_OUTS = tuple(GoOut(card_from_code(code)) for code in range(JOKER.code + 1))
#: The draws, and a last turn's two lay-downs (the best arrangement, nothing), made once too
#: (why: half of all snapshots are a mover's before a draw; a frozen move serves every table).
_DRAWS = (DrawFromStock(), TakeDiscard())
_LAY_DOWNS = (LayDown(), LayDown(()))


def arrange_deck(
    hands: Sequence[Sequence[Card]],
    *,
    dealer: int,
    turned_up: Card | None = None,
    stock_top: Sequence[Card] = (),
    decks: int = 2,
    rng: random.Random | None = None,
) -> list[Card]:
    """A deck order (top first) that deals ``hands`` (by seat) when ``dealer`` deals.

    ``turned_up`` starts the discard pile; ``stock_top`` are the next stock cards,
    top first. The rest of the deck follows in a fixed (or ``rng``-shuffled) order.

    >>> from fivecrowns.core.cards import parse_cards
    >>> order = arrange_deck([parse_cards("3h 4h 5h"), parse_cards("jk jk jk")], dealer=1)
    >>> game = Game(["Ann", "Ben"], first_dealer=1, deck_orders=[order])
    >>> game.hand(0), game.hand(1)
    ((Card('3h'), Card('4h'), Card('5h')), (Card('jk'), Card('jk'), Card('jk')))
    """
    count = len(hands)
    size = len(hands[0])
    if any(len(hand) != size for hand in hands):
        raise ValueError("Every hand must have the same number of cards.")
    rest = Counter(new_deck(decks))
    chosen = [card for hand in hands for card in hand] + list(stock_top)
    if turned_up is not None:
        chosen.append(turned_up)
    for card in chosen:
        if rest[card] == 0:
            raise ValueError(f"There are not enough {card.spoken} cards in {decks} decks.")
        rest[card] -= 1
    remaining = sorted(rest.elements())
    if rng is not None:
        rng.shuffle(remaining)
    order: list[Card] = []
    for index in range(size):
        for step in range(1, count + 1):
            order.append(hands[(dealer + step) % count][index])
    order.append(turned_up if turned_up is not None else remaining.pop(0))
    order.extend(stock_top)
    order.extend(remaining)
    return order


# --- JSON ----------------------------------------------------------------------
