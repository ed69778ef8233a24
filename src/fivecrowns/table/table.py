# One file (~860 lines): one table's seats, log and bots keep their invariants only together.
"""One authoritative table: a game, its seats, its bots and its event log.

A :class:`Table` is synchronous and knows nothing of networks (STYLE practice
15): a driver (the game server, or a local front end through the in-process
transport) calls its methods and sends on what they return. It owns

- the seats: empty, a human, or a computer player chosen by a server-side
  level name; a human who dropped can have a computer stand in, and take the
  seat back;
- the :class:`~fivecrowns.core.game.Game`, made with a seed that never leaves it;
- the log: every game event and table event (someone sat down, chat, a stand-in)
  numbered from 1 (``seq``), and
- the inputs: every accepted command, in order. Replaying them
  (:meth:`Table.replay`) rebuilds the same table, log and numbers included;
  that is what the server stores and how it comes back after a crash. A table
  whose inputs go to a ``record`` (the server's store) keeps in memory only those
  that seat and start (:data:`SEATING_OPS`).

Each seat gets only its own view and its events as it may see them
(:meth:`Table.frame`, :meth:`Table.snapshot`): other hands, the stock order,
other players' stock draws and the seed never leave the table.

>>> table = Table(4, creator_name="Ann", creator_id="p1")
>>> table.add_bot("easy"), table.add_bot("simple"), table.sit("Ben", "p2")
(1, 2, 3)
>>> table.start(seed=7)
>>> table.started, table.seat_of("p2")
(True, 3)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from fivecrowns.ai.base import Player
from fivecrowns.ai.loader import LEVELS, RETIRED_LEVELS, load_bot
from fivecrowns.core.cards import Card, Rank, card_tokens
from fivecrowns.core.codec import event_to_json, move_from_json, move_to_json
from fivecrowns.core.errors import FiveCrownsError, IllegalMoveError
from fivecrowns.core.game import MAX_PLAYERS, MIN_PLAYERS, Game
from fivecrowns.core.melds.solver import Meld
from fivecrowns.core.moves import (
    Discarded,
    DrewFromStock,
    Event,
    GameOver,
    LaidDown,
    LastTurnStarted,
    Move,
    RoundStarted,
    StockReshuffled,
    TookDiscard,
    TurnStarted,
    WentOut,
    redact,
)
from fivecrowns.core.views import PlayerView, PublicView, player_view
from fivecrowns.i18n import gettext as _
from fivecrowns.words import table as words
from fivecrowns.words.text import clean_chat, name_key

__all__ = [
    "BOT_LEVELS",
    "BotTurn",
    "Entry",
    "Seat",
    "SeatKind",
    "Table",
    "TableError",
    "bot_move",
    "view_to_json",
]

#: Game events whose data and words differ between viewers only in whether the viewer is
#: ``event.player`` (redaction and "You" both hinge on that); the others are worded per viewer.
_ACTOR_ONLY_EVENTS = (
    TurnStarted,
    DrewFromStock,
    TookDiscard,
    Discarded,
    WentOut,
    LastTurnStarted,
    LaidDown,
    StockReshuffled,
)

#: The computer players a table may seat: names only, looked up here (never a client's module).
BOT_LEVELS: tuple[str, ...] = LEVELS
STANDIN_LEVEL = "medium"  # plays for a human whose connection dropped
#: Log entries a table keeps in memory at least: as many as a game server ever sends again
#: (``Limits.resend_burst``, net/server/resend.py; a client further behind gets a snapshot).
#: Once it holds :data:`LOG_MOST`, the oldest are dropped (why: chat alone would grow a table
#: for ever, and so did game after game, about 300 bytes an entry; the numbers go on, so
#: nobody sees a gap). It was 10,000, up to 20,000 kept: about 6 MB a table, never sent.
LOG_KEPT = 5_000
#: Log entries a table holds at most (why a quarter more: dropped in a batch now and then).
LOG_MOST = LOG_KEPT + LOG_KEPT // 4
#: The inputs a table with a ``record`` still keeps in memory (``Table.inputs``): who sat and
#: left, and each game's start, which the server's ratings read (net/server/ratings.py). why
#: not every input: the record (the server's store) keeps them all, and each move's input held
#: in memory was about 380 bytes a move, for as long as the table lived (a game of 4 is about
#: 360 moves, and a table may play game after game).
SEATING_OPS = frozenset({"sit", "leave", "start", "new_game"})


class TableError(FiveCrownsError):
    """A refused table command. ``code`` is short and stable for programs; the message is spoken."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class SeatKind(enum.Enum):
    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


@dataclass(slots=True)
class Seat:
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    level: str | None = None  # a bot's level
    player_id: str | None = None  # the human sitting here (an id, never a token)
    standin: bool = False  # a computer player plays for the human for now
    left: bool = False  # the human ``name`` left mid-game; this computer plays in their place
    away: bool = False  # the human's connection dropped; a computer stands in after the grace

    @property
    def bot_driven(self) -> bool:
        return self.kind is SeatKind.BOT or self.standin

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "name": self.name,
            "level": self.level,
            "standin": self.standin,
            "left": self.left,
            "away": self.away,
        }


@dataclass(frozen=True, slots=True)
class Entry:
    """One numbered line of the log: a game event, or a table event (``kind`` and ``data``)."""

    seq: int
    kind: str
    event: Event | None = None
    data: dict[str, Any] = field(default_factory=dict)
    wild: Rank | None = None  # the wild rank when the event happened (for its words)
    dealt: tuple[tuple[Card, ...], ...] = ()  # each hand as dealt, for a RoundStarted only


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A computer player's turn: who, at which game event, the bot and what it may see."""

    seat: int
    game_seq: int
    bot: Player
    view: PlayerView

    def decide(self) -> tuple[Move | None, str | None]:
        """The bot's move and why, unchecked (see :func:`bot_move`); ``Table.play_bot`` checks."""
        return _decide(self.bot, self.view)


def view_to_json(view: PublicView) -> dict[str, Any]:
    """A view as JSON: only what the view holds (it holds what its viewer may know)."""
    data: dict[str, Any] = {
        "players": list(view.players),
        "round": view.round,
        "wild_rank": view.wild_rank.token,
        "dealer": view.dealer,
        "current_player": view.current_player,
        "phase": view.phase.value,
        "hand_counts": list(view.hand_counts),
        "top_discard": view.top_discard.token if view.top_discard else None,
        "discard_count": view.discard_count,
        "stock_count": view.stock_count,
        "round_scores": [list(scores) for scores in view.round_scores],
        "totals": list(view.totals),
        "went_out": view.went_out,
        "last_turns_left": list(view.last_turns_left),
        "laid_down": [
            [{"kind": m.kind.name.lower(), "cards": [c.token for c in m.cards]} for m in melds]
            for melds in view.laid_down
        ],
        "game_over": view.game_over,
        "winners": list(view.winners),
        "decks_in_play": view.decks_in_play,
    }
    hand = getattr(view, "hand", None)
    if hand is not None:
        data["hand"] = [card.token for card in hand]
    return data


class _ViewParts:
    """The public view's parts that change a few times a round at most (the melds laid down,
    the round scores), as JSON, kept from one public view to the next (see
    :meth:`Table.shared_snapshot`, whose views are encoded and never changed).

    why: rebuilding every meld's JSON for every move was a twentieth of the game server's CPU
    at full speed (issue 29). Each part is made again when its value differs: ``==`` on the
    game's tuples is an identity check for each unchanged meld or score, and equal values give
    the same JSON, so no part is older than the game."""

    __slots__ = ("_head", "_melds", "_melds_json", "_scores", "_scores_json", "_tail")

    def __init__(self) -> None:
        self._melds: tuple[tuple[Meld, ...], ...] | None = None
        self._melds_json: list[list[dict[str, Any]]] = []
        self._scores: tuple[tuple[int, ...], ...] | None = None
        self._scores_json: list[list[int]] = []
        # the encoded view's first fields (the round's) and last ones (scores, melds, the end),
        # each with what it was made from (see view_json)
        self._head: tuple[tuple[str, ...], int, int, bytes] | None = None
        self._tail: tuple[Any, ...] | None = None

    def view_json(self, game: Game) -> bytes:
        """``_view_json(game, None, self)`` as the protocol encodes it (msgspec's JSON, the
        keys in that order), from the bytes of its slower parts kept.

        why: the public view was made as a dict and encoded whole for every move's snapshots,
        though a move changes only its middle (whose turn, the phase, the hand counts and the
        piles); the round's fields and the scores, melds and end are encoded again only when
        what they are made from differs (tests/table/test_table.py checks every step of whole
        games against the dict encoded whole)."""
        encode = _encode_json
        players, rnd, dealer = game.players, game.round, game.dealer
        head = self._head
        if head is None or head[0] is not players or head[1] != rnd or head[2] != dealer:
            data = b"".join(
                (
                    b'{"players":',
                    encode(players),
                    b',"round":',
                    encode(rnd),
                    b',"wild_rank":',
                    encode(game.wild_rank.token),
                    b',"dealer":',
                    encode(dealer),
                )
            )
            head = self._head = (players, rnd, dealer, data)
        top = game.top_discard
        # why f-strings: ints are their own JSON (msgspec writes them so too), and the phase
        # and the top card are strings of their own kept JSON (_string_json)
        middle = (
            f',"current_player":{_int_json(game.current_player)}'
            f',"phase":{_string_json(game.phase._value_)}'
            f',"hand_counts":[{",".join([str(len(hand)) for hand in game.hands])}]'
            f',"top_discard":{"null" if top is None else _string_json(top.token)}'
            f',"discard_count":{len(game.discard_pile)},"stock_count":{len(game.stock)}'
        ).encode()
        scores, melds = self.round_scores(game), self.laid_down(game)
        over, went_out, decks = game.is_over, game.went_out, game.decks_in_play
        tail = self._tail
        if (
            tail is None
            or tail[0] is not scores
            or tail[1] is not melds
            or tail[2] != game.totals
            or tail[3] != went_out
            or tail[4] != game.last_turns
            or tail[5] is not over
            or tail[6] != decks
        ):
            totals, last_turns = list(game.totals), list(game.last_turns)
            data = b"".join(
                (
                    b',"round_scores":',
                    encode(scores),
                    b',"totals":',
                    encode(totals),
                    b',"went_out":',
                    encode(went_out),
                    b',"last_turns_left":',
                    encode(last_turns),
                    b',"laid_down":',
                    encode(melds),
                    b',"game_over":',
                    encode(over),
                    b',"winners":',
                    encode(list(game.winners) if over else []),
                    b',"decks_in_play":',
                    encode(decks),
                    b"}",
                )
            )
            tail = self._tail = (scores, melds, totals, went_out, last_turns, over, decks, data)
        return b"".join((head[3], middle, tail[7]))

    def laid_down(self, game: Game) -> list[list[dict[str, Any]]]:
        melds = tuple(game.laid_down)
        if melds != self._melds:
            self._melds, self._melds_json = melds, _melds_json(melds)
        return self._melds_json

    def round_scores(self, game: Game) -> list[list[int]]:
        scores = tuple(game.round_scores)
        if scores != self._scores:
            self._scores, self._scores_json = scores, [list(each) for each in scores]
        return self._scores_json


def _melds_json(laid_down: Sequence[Sequence[Meld]]) -> list[list[dict[str, Any]]]:
    return [
        [{"kind": m.kind.name.lower(), "cards": card_tokens(m.cards)} for m in melds]
        for melds in laid_down
    ]


_encode_json = msgspec.json.Encoder().encode
#: Strings' JSON (a phase's name, a card's token), made once each. why: a view's middle is made
#: for every move; the strings are few (a phase each, a card each) and never change.
_STRINGS_JSON: dict[str, str] = {}


def _string_json(text: str) -> str:
    known = _STRINGS_JSON.get(text)
    if known is None:
        if len(_STRINGS_JSON) > 1024:  # why: bounded, should anything make new strings
            _STRINGS_JSON.clear()
        known = _STRINGS_JSON[text] = _encode_json(text).decode()
    return known


def _int_json(value: int | None) -> str:
    return "null" if value is None else str(int(value))


def _view_json(game: Game, seat: int | None, parts: _ViewParts | None = None) -> dict[str, Any]:
    """``view_to_json(player_view(game, seat))`` (``public_view`` for ``None``), built directly.

    why: a view also holds the round's events and pile history, redacted for its viewer, which
    the JSON leaves out; building them for every snapshot was the server's main cost. The same
    fields are read as in :func:`fivecrowns.core.views.player_view`, and tests/table/test_table.py
    checks that both give the same JSON at every step of whole games, for every seat and a
    spectator. With ``parts``, the melds and scores may be those of an earlier view (see
    :class:`_ViewParts`): the JSON is the same, but shared, never to be changed.
    """
    over = game.is_over
    top = game.top_discard
    data: dict[str, Any] = {
        "players": list(game.players),
        "round": game.round,
        "wild_rank": game.wild_rank.token,
        "dealer": game.dealer,
        "current_player": game.current_player,
        "phase": game.phase._value_,  # why not .value: a Python-level property, each view
        "hand_counts": [len(hand) for hand in game.hands],
        "top_discard": top.token if top else None,
        "discard_count": len(game.discard_pile),
        "stock_count": len(game.stock),
        "round_scores": (
            [list(scores) for scores in game.round_scores]
            if parts is None
            else parts.round_scores(game)
        ),
        "totals": list(game.totals),
        "went_out": game.went_out,
        "last_turns_left": list(game.last_turns),
        "laid_down": _melds_json(game.laid_down) if parts is None else parts.laid_down(game),
        "game_over": over,
        "winners": list(game.winners) if over else [],
        "decks_in_play": game.decks_in_play,
    }
    if seat is not None:
        data["hand"] = card_tokens(game.hands[seat])
    return data


class Table:
    """One table of 2 to 7 seats; seat 0 is the creator's."""

    def __init__(
        self,
        seats: int,
        *,
        creator_name: str,
        creator_id: str,
        record: Callable[[int, dict[str, Any]], None] | None = None,
    ) -> None:
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            text = _("A table has {low} to {high} seats, not {seats}.").format(
                low=MIN_PLAYERS, high=MAX_PLAYERS, seats=seats
            )
            raise TableError("bad_seats", text)
        self.seats: list[Seat] = [Seat() for _ in range(seats)]
        self.creator_id = creator_id
        self.game: Game | None = None
        self.log: list[Entry] = []  # the newest entries; ``seq`` counts the dropped ones too
        self._dropped = 0  # entries dropped from the start of the log (see LOG_KEPT)
        self._game_seq = 0  # the number of the newest game event
        #: The inputs accepted (see :data:`SEATING_OPS` for a table with a ``record``).
        self.inputs: list[dict[str, Any]] = []
        self._input_count = 0  # every input accepted, kept or not: the next one's index
        self._record = record
        self._bots: dict[int, Player] = {}
        self._last_event: tuple[Event, dict[str, Any]] | None = None  # see _event_data
        # the seats as JSON, and their names, until they change (see seats_json)
        self._seats_json: list[dict[str, Any]] | None = None
        self._names: tuple[str, ...] | None = None
        self._view_parts = _ViewParts()  # the public view's melds and scores (see _ViewParts)
        #: The last computer move's explanation and its seat (local play's why-key says it).
        self.explanation: tuple[int, str] | None = None
        # why: inputs accepted under earlier rules (names, chat) replay as they were accepted
        self._replaying = False
        #: Spectators may chat here (the creator's choice; players always may).
        self.spectators_chat = True
        self.sit(creator_name, creator_id)

    @classmethod
    def adopt(
        cls,
        game: Game,
        seats: Sequence[tuple[str, str | None]],
        bots: Mapping[int, Player],
    ) -> Table:
        """A table around a game already made (local play, new or resumed from its save).

        ``seats`` are (name, level) with level ``None`` for a human at this computer (player
        id ``local-N``); ``bots`` are the computer players already loaded for the other seats.
        The game's events so far become the log. Such a table is saved as its game (the
        local save file), not by its inputs, so it has none.
        """
        table = cls(len(seats), creator_name="Local", creator_id="local")
        table.seats = [
            Seat(SeatKind.HUMAN, name, None, f"local-{index}")
            if level is None
            else Seat(SeatKind.BOT, name, level)
            for index, (name, level) in enumerate(seats)
        ]
        table.log = []
        table.inputs = []
        table._input_count = 0
        # why: the seats were just replaced without a table event
        table._seats_json = table._names = None
        table._bots = dict(bots)
        table.game = game
        first = next((e for e in game.events if isinstance(e, RoundStarted)), None)
        wild = first.wild_rank if first is not None else game.wild_rank
        for event in game.events:  # why not _game_events: the hands dealt then are not known
            if isinstance(event, RoundStarted):
                wild = event.wild_rank
            table._append(Entry(table.seq + 1, event.kind, event, wild=wild))
        table._game_seq = table.seq
        return table

    # --- reading --------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of the newest log entry (0 before any)."""
        return self._dropped + len(self.log)

    @property
    def game_seq(self) -> int:
        """The number of the newest game event (0 before the deal)."""
        return self._game_seq

    def entries_since(self, seq: int) -> list[Entry]:
        """The log entries after ``seq`` still kept (every one, after a recent ``seq``)."""
        return self.log[max(0, seq - self._dropped) :]

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def is_over(self) -> bool:
        return self.game is not None and self.game.is_over

    @property
    def round_untouched(self) -> bool:
        """Nobody has drawn yet in the round being played (it was just dealt)."""
        game = self.game
        if game is None or game.is_over:
            return False
        moves = (DrewFromStock, TookDiscard)
        events = game.events
        # why by index, not game.round_events: that copies the round's events on every computer
        # move; a round's first draw comes right after its deal, so this stops at once
        return not any(
            isinstance(events[index], moves) for index in range(game.round_start_event, len(events))
        )

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind is SeatKind.HUMAN and seat.player_id == player_id:
                return index
        return None

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    # --- seats ------------------------------------------------------------------

    def sit(self, name: str, player_id: str, seat: int | None = None) -> int:
        """Seat a human in ``seat`` (default the first empty one); returns the seat."""
        self._before_start("join")
        name = " ".join(name.split())
        if not name:
            raise TableError("bad_name", _("Every player needs a name."))
        if self.seat_of(player_id) is not None:
            raise TableError("already_seated", _("You already have a seat at this table."))
        index = self._free_seat(seat)
        self._check_name(name)
        self._input({"op": "sit", "seat": index, "name": name, "player": player_id})
        self.seats[index] = Seat(SeatKind.HUMAN, name, None, player_id)
        self._table_event("seat_taken", seat=index, name=name)
        return index

    def leave(self, player_id: str) -> int:
        """The human leaves: before the start the seat empties; after it, a computer plays on."""
        index = self.seat_of(player_id)
        if index is None:
            raise TableError("not_seated", _("You have no seat at this table."))
        self._input({"op": "leave", "player": player_id})
        name = self.seats[index].name
        if self.started:
            self.seats[index] = Seat(SeatKind.BOT, name, STANDIN_LEVEL, left=True)
        else:
            self.seats[index] = Seat()
        self._bots.pop(index, None)
        if self.started and not self.is_over:
            # why its own words: "Ann left" alone hid that a computer plays on; after the game
            # is over nobody plays on, so it is plain "Ann left" (issue 26, item 21)
            self._table_event("seat_left", seat=index, name=name, computer=True)
        else:
            self._table_event("seat_left", seat=index, name=name)
        return index

    def add_bot(self, level: str, seat: int | None = None, name: str | None = None) -> int:
        """Seat a computer player of a built-in level; returns the seat.

        Its name is the same in every language ("Bot 2"; words.BOT_NAME says why) and is
        kept in the input, so a replay names it the same.
        """
        self._before_start("add computer players")
        # why: a kept table (or an old page) may name a retired level; its replacement plays
        level = RETIRED_LEVELS.get(level, level) if isinstance(level, str) else level
        if level not in BOT_LEVELS:
            text = _("There is no computer level {level}; choose {levels}.").format(
                level=repr(level[:20]), levels=", ".join(BOT_LEVELS)
            )
            raise TableError("bad_level", text)
        index = self._free_seat(seat)
        if name is None:
            name = words.BOT_NAME.format(number=index + 1)
        self._check_name(name)
        self._input({"op": "add_bot", "seat": index, "level": level, "name": name})
        self.seats[index] = Seat(SeatKind.BOT, name, level)
        self._table_event("bot_added", seat=index, name=name, level=level)
        return index

    def remove_bot(self, seat: int) -> None:
        self._before_start("remove computer players")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind is not SeatKind.BOT:
            raise TableError(
                "no_bot", _("Seat {number} has no computer player.").format(number=seat + 1)
            )
        self._input({"op": "remove_bot", "seat": seat})
        name = self.seats[seat].name
        self.seats[seat] = Seat()
        self._table_event("bot_removed", seat=seat, name=name)

    def stand_in(self, seat: int) -> None:
        """A computer plays for the human in ``seat`` (their connection dropped)."""
        current = self.seats[seat]
        if current.kind is not SeatKind.HUMAN or current.standin or not self.started:
            return
        self._input({"op": "stand_in", "seat": seat})
        current.standin = True
        current.away = False  # why: said by its own event; the stand-in's words say the rest
        current.level = STANDIN_LEVEL
        self._table_event("stand_in", seat=seat, name=current.name)

    def dropped(self, seat: int, seconds: int) -> None:
        """The human in ``seat`` lost their connection mid-game: everyone is told at once that
        a computer plays for them in ``seconds`` unless they are back (issue 26, item 18)."""
        current = self.seats[seat]
        if current.kind is not SeatKind.HUMAN or current.standin or current.away:
            return
        if not self.started or self.is_over:
            return
        self._input({"op": "dropped", "seat": seat, "seconds": seconds})
        current.away = True
        self._table_event("dropped", seat=seat, name=current.name, seconds=seconds)

    def hand_back(self, seat: int) -> None:
        """The human is back: the stand-in leaves their seat (or none had come yet)."""
        current = self.seats[seat]
        if not (current.standin or current.away):
            return
        self._input({"op": "hand_back", "seat": seat})
        current.away = False
        current.standin = False
        current.level = None
        self._bots.pop(seat, None)
        self._table_event("hand_back", seat=seat, name=current.name)

    def chat(self, player_id: str | None, name: str, text: str) -> None:
        """A chat line from a seat or a spectator (``name`` is who says it)."""
        text = clean_chat(text)  # why: a chat line must not drive anyone's terminal
        if not text and not self._replaying:
            raise TableError("empty_chat", _("There is nothing to say: the message is empty."))
        spectator = self.seat_of(player_id or "") is None
        if spectator and not self.spectators_chat and not self._replaying:
            raise TableError("spectators_quiet", _(words.SPECTATORS_QUIET))
        self._input({"op": "chat", "player": player_id, "name": name, "text": text})
        self._table_event("chat", seat=self.seat_of(player_id or ""), name=name, text=text)

    def allow_spectator_chat(self, allowed: bool) -> None:
        """The creator lets spectators chat here, or not (why: a crowd of spectators flooded
        its screen-reader players' speech); the same setting again changes nothing."""
        if allowed == self.spectators_chat:
            return
        self._input({"op": "spectator_chat", "allowed": allowed})
        self.spectators_chat = allowed
        self._table_event("spectator_chat", allowed=allowed)

    def start(self, seed: int) -> None:
        """Deal the first round. ``seed`` makes every shuffle; it never leaves the table."""
        self._before_start("start")
        empty = [index + 1 for index, seat in enumerate(self.seats) if seat.kind is SeatKind.EMPTY]
        if empty:
            raise TableError("seats_empty", _(words.SEATS_EMPTY).format(seat=empty[0]))
        self._input({"op": "start", "seed": seed})
        self._table_event("game_started", players=self.names())
        self.game = Game(self.names(), seed=seed)
        self._game_events(self.game.events, self.game.wild_rank)

    def new_game(self, seed: int) -> None:
        """After game over: a new game with the same seats, a new deal (``seed``, kept here)."""
        if self.game is None or not self.game.is_over:
            raise TableError("not_over", _(words.NOT_OVER))
        self._input({"op": "new_game", "seed": seed})
        self._table_event("new_game", players=self.names())
        self.game = Game(self.names(), seed=seed)
        self._bots.clear()  # why: each computer player starts the new game afresh
        self._game_events(self.game.events, self.game.wild_rank)

    # --- moves ------------------------------------------------------------------

    def act(self, player_id: str, move: Move, seq: int | None = None) -> list[Entry]:
        """The human ``player_id`` plays ``move``; ``seq`` is the last event they had.

        A move made against an older ``seq`` is refused ("stale"): the player has not
        seen what changed. Returns the new log entries.
        """
        game = self._game()
        seat = self.seat_of(player_id)
        if seat is None:
            raise TableError("not_seated", _("You have no seat at this table; you can only watch."))
        if self.seats[seat].standin:
            raise TableError(
                "standin", _("A computer is playing for you; reconnect to play again.")
            )
        # why game_seq: a chat line or a seat change after ``seq`` does not make a move stale
        if seq is not None and not self.game_seq <= seq <= self.seq:
            raise TableError("stale", _(words.STALE).format(seq=seq, now=self.seq))
        return self._apply(game, seat, move)

    def bot_due(self) -> int | None:
        """The seat of the computer player (or stand-in) whose turn it is, if any."""
        game = self.game
        if game is None or game.is_over:
            return None
        seat = game.current_player
        return seat if self.seats[seat].bot_driven else None

    def step_bot(self) -> list[Entry]:
        """Play one move of the computer player whose turn it is (nothing if none is due)."""
        turn = self.bot_turn()
        if turn is None:
            return []
        return self.play_bot(turn, turn.decide())

    def bot_turn(self) -> BotTurn | None:
        """The computer player due now, with its view, for :meth:`BotTurn.decide` (which a
        server may run in another thread: it reads only the view and the bot) and then
        :meth:`play_bot`."""
        seat = self.bot_due()
        if seat is None:
            return None
        game = self._game()
        bot = self._bots.get(seat)
        if bot is None:
            level = self.seats[seat].level or STANDIN_LEVEL
            bot = self._bots[seat] = load_bot(level, seed=seat)
        return BotTurn(seat, self.game_seq, bot, player_view(game, seat))

    def play_bot(self, turn: BotTurn, decided: tuple[Move | None, str | None]) -> list[Entry]:
        """Play the move ``decided`` for ``turn`` (with its explanation); nothing if the table
        moved on meanwhile (the human took the seat back). A missing or illegal move becomes
        the first legal one."""
        game = self._game()
        if self.bot_due() != turn.seat or self.game_seq != turn.game_seq:
            return []
        move, explanation = decided
        if move is None or not game.can(turn.seat, move):
            move, explanation = game.legal_moves(turn.seat)[0], None
        self.explanation = (turn.seat, explanation) if explanation else None
        return self._apply(game, turn.seat, move)

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        if self.game is None or seat is None or self.seats[seat].standin:
            return []
        return [move_to_json(move) for move in self.game.legal_moves(seat)]

    # --- what a seat or a spectator receives ---------------------------------------

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know now (``None``: a spectator), with its legal actions."""
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ValueError(f"There is no seat {seat}.")
        data: dict[str, Any] = {
            "seq": self.seq,
            "seat": seat,
            "seats": [s.to_json() for s in self.seats],
            "started": self.started,
            "spectator_chat": self.spectators_chat,
            "view": None,
            "legal": self.legal(seat),
        }
        if self.game is not None:
            data["view"] = _view_json(self.game, seat)
        return data

    def shared_snapshot(self, seat: int | None) -> dict[str, Any]:
        """:meth:`snapshot` whose seats (:meth:`seats_json`) and view's melds and scores (see
        :class:`_ViewParts`) are kept until they change and shared by every snapshot: read it
        and encode it at once, never change it (the game server's fan-out;
        tests/table/test_table.py checks it equals :meth:`snapshot` at every step of whole
        games).

        why: after every change each seat gets a snapshot; making the same parts for each of
        them was most of the server's CPU per move (issue 29). why the view itself is not kept
        (it was, until the next entry): the fan-out makes it once (net/server/snapshots.py),
        and each table holding its view's dozen lists until its next move put them in the young
        garbage collections of a busy server: about 14 us of collection per move with them
        kept, 9 without (benchmarks/bench_server.py --gc-log, 100 tables at full speed)."""
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ValueError(f"There is no seat {seat}.")
        seats = self.seats_json()
        game = self.game
        view = None if game is None else _view_json(game, seat, self._view_parts)
        return {
            "seq": self.seq,
            "seat": seat,
            "seats": seats,
            "started": self.started,
            "spectator_chat": self.spectators_chat,
            "view": view,
            "legal": self.legal(seat),
        }

    def public_view(self) -> dict[str, Any] | None:
        """``shared_snapshot(None)["view"]``: the view a spectator gets (None before the start),
        made afresh, its melds and scores shared (see :meth:`shared_snapshot`)."""
        game = self.game
        return None if game is None else _view_json(game, None, self._view_parts)

    def public_view_json(self) -> bytes:
        """:meth:`public_view` as the protocol encodes it (``null`` before the start), its
        slower parts' bytes kept from the table's earlier views (see ``_ViewParts.view_json``)."""
        game = self.game
        return b"null" if game is None else self._view_parts.view_json(game)

    def seats_json(self) -> list[dict[str, Any]]:
        """Every seat's :meth:`Seat.to_json`, one list kept until the seats change: read it,
        never change it.

        why kept: a move changes no seat, and making the list again for every move's snapshots
        cost about 1% of the game server's CPU (issue 29). Every change of a seat adds a table
        event (:meth:`_table_event` drops the list), and :meth:`adopt` drops it too; a test
        changes each seat a way a table can (tests/table/test_table.py)."""
        seats = self._seats_json
        if seats is None:
            seats = self._seats_json = [seat.to_json() for seat in self.seats]
        return seats

    def own_parts(self, seat: int | None) -> tuple[list[Card] | None, list[Move]]:
        """What only ``seat``'s snapshot holds: its hand (None: no game yet, or a spectator;
        the game's own list: read it at once, never change it) and its legal moves.
        ``shared_snapshot(seat)`` is ``shared_snapshot(None)`` with the hand's tokens as its
        view's ``hand`` (added last), the moves' JSON as its ``legal``, and ``seat``
        (tests/net/test_snapshot_frames.py checks it; the server's fan-out splices them)."""
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ValueError(f"There is no seat {seat}.")
        game = self.game
        if game is None or seat is None:
            return None, []
        hand = game.hands[seat]
        # why not self.legal for the others: only the player to move has a legal move, and
        # asking for each seat's was a tenth of the snapshots' cost (issue 29)
        if seat != game.current_player or game.is_over or self.seats[seat].standin:
            return hand, []
        return hand, game.legal_moves(seat)

    def frame_class(self, entry: Entry, viewer: int | None) -> Hashable:
        """Viewers of one class get the same :meth:`frame` of ``entry`` in one language, so a
        fan-out words and encodes it once per (class, language), not once per seat
        (tests/table/test_table.py checks the classes). The frame's text is worded in the current
        language (``with fivecrowns.i18n.speaking(code):``); its data never depends on it."""
        event = entry.event
        if event is None:
            return "table"  # a table event reads the same for everyone
        if isinstance(event, _ACTOR_ONLY_EVENTS):
            return event.player == viewer
        return ("viewer", viewer)

    def frame(self, entry: Entry, viewer: int | None) -> dict[str, Any]:
        """The entry as ``viewer`` may see it: ``{seq, kind, data, text}``."""
        if entry.event is None:
            return {
                "seq": entry.seq,
                "kind": entry.kind,
                "data": entry.data,
                "text": words.table_event_text(entry.kind, entry.data, viewer),
            }
        event = redact(entry.event, viewer)
        data = self._event_data(event)
        hand: tuple[Card, ...] = ()
        if isinstance(event, RoundStarted) and viewer is not None and entry.dealt:
            hand = entry.dealt[viewer]
            # why: a client reads the deal in its own hand's order (the web page sorts it);
            # only this seat's own cards, in this seat's own frame class
            data["hand"] = card_tokens(hand)
        names = self._names
        if names is None:  # why kept: a fan-out words a few frames a move (see seats_json)
            names = self._names = tuple(seat.name for seat in self.seats)
        text = words.event_text(event, names, viewer, entry.wild or Rank.THREE, hand)
        return {"seq": entry.seq, "kind": entry.kind, "data": data, "text": text}

    def _event_data(self, event: Event) -> dict[str, Any]:
        """``event_to_json(event)`` without its ``event`` key, a fresh dict each time."""
        # why a one-event memory: a fan-out asks for the same event once per viewer class and
        # language, and ``redact`` hands back the very same event when it hides nothing
        last = self._last_event
        if last is None or last[0] is not event:
            data = event_to_json(event)
            del data["event"]
            last = self._last_event = (event, data)
        return dict(last[1])

    def frames_since(self, last_seq: int, viewer: int | None) -> list[dict[str, Any]]:
        # why not before the oldest entry kept: those events are no longer in memory
        if not self._dropped <= last_seq <= self.seq:
            raise TableError("bad_seq", _(words.BAD_SEQ).format(seq=last_seq, now=self.seq))
        return [self.frame(entry, viewer) for entry in self.entries_since(last_seq)]

    # --- replay --------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        seats: int,
        creator_name: str,
        creator_id: str,
        inputs: list[dict[str, Any]],
        record: Callable[[int, dict[str, Any]], None] | None = None,
    ) -> Table:
        """The table rebuilt from its inputs (the first, the creator's seat, is implied)."""
        table = cls(seats, creator_name=creator_name, creator_id=creator_id)
        table._replaying = True
        for command in inputs[1:]:
            table.apply_input(command)
        table._replaying = False
        table._record = record
        if record is not None:  # why: the record keeps them all (see SEATING_OPS)
            table.inputs = [command for command in table.inputs if command["op"] in SEATING_OPS]
        return table

    def apply_input(self, command: dict[str, Any]) -> None:
        op = command["op"]
        if op == "sit":
            self.sit(command["name"], command["player"], command["seat"])
        elif op == "leave":
            self.leave(command["player"])
        elif op == "add_bot":
            # why .get: inputs stored before bots' names were kept have none (English then)
            self.add_bot(command["level"], command["seat"], command.get("name"))
        elif op == "remove_bot":
            self.remove_bot(command["seat"])
        elif op == "stand_in":
            self.stand_in(command["seat"])
        elif op == "hand_back":
            self.hand_back(command["seat"])
        elif op == "dropped":
            self.dropped(command["seat"], command["seconds"])
        elif op == "chat":
            self.chat(command["player"], command["name"], command["text"])
        elif op == "spectator_chat":
            self.allow_spectator_chat(command["allowed"])
        elif op == "start":
            self.start(command["seed"])
        elif op == "new_game":
            self.new_game(command["seed"])
        elif op == "move":
            self._apply(self._game(), command["seat"], move_from_json(command["move"]))
        else:
            raise ValueError(f"unknown table input {op!r}")

    # --- inside ----------------------------------------------------------------------

    def _apply(self, game: Game, seat: int, move: Move) -> list[Entry]:
        wild = game.wild_rank
        try:
            # why no game.check first: apply checks the move itself and changes nothing when
            # it refuses it, so checking twice only cost time (the server's CPU per move)
            events = game.apply(seat, move)
        except IllegalMoveError as error:
            raise TableError("illegal", str(error)) from None
        self._input({"op": "move", "seat": seat, "move": move_to_json(move)})
        before = self.seq
        self._game_events(events, wild)
        return self.entries_since(before)

    def _game_events(self, events: list[Event], wild: Rank) -> None:
        game = self._game()
        for event in events:
            dealt: tuple[tuple[Card, ...], ...] = ()
            if isinstance(event, RoundStarted):
                wild = event.wild_rank
                dealt = tuple(game.hand(seat) for seat in range(len(self.seats)))
            self._append(Entry(self.seq + 1, event.kind, event, wild=wild, dealt=dealt))
            self._game_seq = self.seq

    def _table_event(self, kind: str, **data: Any) -> None:
        self._seats_json = self._names = None  # why: a seat may have changed (see seats_json)
        self._append(Entry(self.seq + 1, kind, data=data))

    def _append(self, entry: Entry) -> None:
        self.log.append(entry)
        if len(self.log) > LOG_MOST:  # why in a batch: one slice now and then, not each time
            dropped = len(self.log) - LOG_KEPT
            del self.log[:dropped]
            self._dropped += dropped

    def _input(self, command: dict[str, Any]) -> None:
        index = self._input_count
        self._input_count = index + 1
        record = self._record
        if record is None:
            self.inputs.append(command)
            return
        if command["op"] in SEATING_OPS:
            self.inputs.append(command)
        record(index, command)

    def _game(self) -> Game:
        if self.game is None:
            raise TableError("not_started", _("The game has not started yet."))
        return self.game

    def _before_start(self, what: str) -> None:
        if self.game is not None:
            raise TableError("started", words.already_started(what))

    def _free_seat(self, seat: int | None) -> int:
        if seat is None:
            for index, current in enumerate(self.seats):
                if current.kind is SeatKind.EMPTY:
                    return index
            raise TableError("table_full", _("The table is full."))
        if not 0 <= seat < len(self.seats):
            raise TableError(
                "bad_seat", _("There is no seat {number} at this table.").format(number=seat + 1)
            )
        if self.seats[seat].kind is not SeatKind.EMPTY:
            raise TableError("seat_taken", _("Seat {number} is taken.").format(number=seat + 1))
        return seat

    def _check_name(self, name: str) -> None:
        if len(name) > 24:
            raise TableError("bad_name", _("A name has at most 24 characters."))
        if self._replaying:
            return
        # why the key: "Ann", "ANN", "Аnn" (Cyrillic A) and "Änn" must not sit at one table
        if name_key(name) in {name_key(seat.name) for seat in self.seats if seat.name}:
            text = _("Someone at this table is already called {name}.").format(name=name)
            raise TableError("name_taken", text)


def bot_move(bot: Any, seat: int, game: Game) -> tuple[Move, str | None]:
    """What ``bot`` plays for ``seat`` now, and why (if it says); a legal move if it fails.

    A bot may answer with a decision (``move``, ``explanation``) or a bare move.
    """
    move, explanation = _decide(bot, player_view(game, seat))
    if move is None or not game.can(seat, move):
        move = game.legal_moves(seat)[0]
        explanation = None
    return move, explanation


def _decide(bot: Any, view: PlayerView) -> tuple[Move | None, str | None]:
    """What ``bot`` answers for ``view``: a decision (``move``, ``explanation``) or a bare
    move; ``(None, None)`` if it failed. Reads only the view and the bot (thread-safe)."""
    try:
        decision = bot.decide(view)
    except Exception:  # why: a bot's bug must not stop the table; a legal move is played
        decision = None
    move = getattr(decision, "move", decision)
    explanation = getattr(decision, "explanation", None) or getattr(bot, "explanation", None)
    if not isinstance(explanation, str):
        explanation = None
    return move, explanation


def is_turn_start(entry: Entry) -> bool:
    return isinstance(entry.event, TurnStarted)


def is_game_over(entry: Entry) -> bool:
    return isinstance(entry.event, GameOver)
