"""The client interface: how a terminal client reaches a table, whatever carries it.

A :class:`TableLink` is the small interface between a client and one table.
It speaks the table's own words, as the protocol carries them
(``docs/protocol.md``): a seat's ``snapshot`` (its view and legal moves as JSON),
its numbered events (``{seq, kind, data, text}``), and moves sent with the
``seq`` they were made against. Two transports implement it: in-process
(:class:`fivecrowns.net.client.inprocess.InProcessLink`, a local ``Table``, no
network) and the WebSocket one of ``fivecrowns join``.

A :class:`SeatClient` keeps what one seat knows, rebuilt only from what its
link sends it: the last snapshot and every event as that seat may see it. The
terminal session reads a seat's state from here and never from a ``Game``.

>>> from fivecrowns.net.client.inprocess import InProcessLink
>>> from fivecrowns.core.game import DrawFromStock, Game
>>> game = Game(["Ann", "Ben"], seed=1, first_dealer=1)
>>> link = InProcessLink(game, [("Ann", None), ("Ben", None)])
>>> ann, ben = SeatClient(link, 0), SeatClient(link, 1)
>>> len(ann.view.hand), ben.view.hand_counts
(3, (3, 3))
>>> [type(event).__name__ for event in ann.act(DrawFromStock())]
['DrewFromStock']
>>> ben.sync()[0].card is None  # Ben may not see what Ann drew
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

from fivecrowns.core.cards import Card, Rank, parse_card
from fivecrowns.core.codec import event_from_json, meld_from_json, move_from_json
from fivecrowns.core.errors import FiveCrownsError, IllegalMoveError
from fivecrowns.core.game import Phase
from fivecrowns.core.moves import (
    Discarded,
    DrewFromStock,
    Event,
    Move,
    RoundStarted,
    TookDiscard,
    WentOut,
)
from fivecrowns.core.views import PlayerView, pile_history
from fivecrowns.net.protocol import ProtocolError, read_server_message
from fivecrowns.words.cues import EVENT_CUES, TABLE_KINDS

__all__ = [
    "GAME_EVENTS",
    "TABLE_CUES",
    "LinkError",
    "SeatClient",
    "TableLink",
    "read_frame",
    "table_cue",
    "view_from_snapshot",
]

#: The event kinds that are game events (the rest are table events: seats, chat, the start).
GAME_EVENTS = frozenset(
    {
        "round_started",
        "turn_started",
        "drew_from_stock",
        "took_discard",
        "discarded",
        "went_out",
        "last_turn_started",
        "laid_down",
        "stock_reshuffled",
        "round_scored",
        "game_over",
    }
)


class LinkError(FiveCrownsError):
    """The table refused a request (``code`` as the protocol's ``error`` has it)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class TableLink(Protocol):
    """One table as a client reaches it: the seats it may drive, their news, their moves."""

    def snapshot(self, seat: int) -> dict[str, Any]:
        """The protocol's ``snapshot`` for ``seat``: its view, seats and legal moves."""
        ...

    def events_since(self, seat: int, last_seq: int) -> list[dict[str, Any]]:
        """Every event after ``last_seq`` as ``seat`` may see it: ``{seq, kind, data, text}``."""
        ...

    def act(self, seat: int, move: Move, seq: int) -> None:
        """Play ``move`` for ``seat``, made against event ``seq``; raises :class:`LinkError`."""
        ...


#: The cue (fivecrowns.output.sounds) played with a table event's sentence, by its kind: the
#: table the web page plays from too (fivecrowns.words.cues).
TABLE_CUES = {kind: EVENT_CUES[kind].others for kind in sorted(TABLE_KINDS)}


def table_cue(frame: dict[str, Any]) -> str | None:
    """The cue for a table event frame (chat, someone joining, leaving, dropping, back)."""
    return TABLE_CUES.get(str(frame.get("kind")))


def _rank(token: str) -> Rank:
    return next(rank for rank in Rank if rank.token == token)


def _card(token: str | None) -> Card | None:
    return None if token is None else parse_card(token)


def view_from_snapshot(
    data: dict[str, Any], seat: int, round_events: Sequence[Event]
) -> PlayerView:
    """The seat's :class:`PlayerView` from a snapshot's ``view`` and this round's events."""
    return PlayerView(
        players=tuple(str(name) for name in data["players"]),
        round=int(data["round"]),
        wild_rank=_rank(data["wild_rank"]),
        dealer=int(data["dealer"]),
        current_player=int(data["current_player"]),
        phase=Phase(data["phase"]),
        hand_counts=tuple(int(count) for count in data["hand_counts"]),
        top_discard=_card(data["top_discard"]),
        discard_count=int(data["discard_count"]),
        stock_count=int(data["stock_count"]),
        round_scores=tuple(tuple(int(p) for p in scores) for scores in data["round_scores"]),
        totals=tuple(int(total) for total in data["totals"]),
        went_out=data["went_out"],
        last_turns_left=tuple(int(p) for p in data["last_turns_left"]),
        laid_down=tuple(tuple(meld_from_json(m) for m in melds) for melds in data["laid_down"]),
        pile_history=pile_history(round_events),
        events=tuple(round_events),
        decks_in_play=int(data.get("decks_in_play", 2)),
        game_over=bool(data["game_over"]),
        winners=tuple(int(p) for p in data["winners"]),
        player=seat,
        hand=tuple(parse_card(token) for token in data.get("hand", ())),
        forbidden_discard=None,
    )


def event_of(frame: dict[str, Any]) -> Event | None:
    """The game event a frame carries (``None`` for a table event: a seat, chat, the start)."""
    try:
        return event_from_json({**frame["data"], "event": frame["kind"]})
    except KeyError:
        return None  # why KeyError only: a table event's kind is no game event's kind


def read_frame(raw: str | bytes) -> dict[str, Any]:
    """A server message, checked through: its shape (msgspec, :mod:`fivecrowns.net.protocol`), and
    the cards, moves and events in it against the game. :class:`ProtocolError` says what is
    wrong, so a client leaves the message out with one sentence, never a traceback."""
    data = read_server_message(raw)
    try:
        if data["type"] == "event" and data["kind"] in GAME_EVENTS:
            event_from_json({**data["data"], "event": data["kind"]})
        elif data["type"] == "snapshot":
            for move in data["legal"]:
                move_from_json(move)
            if data["view"] is not None:
                seat = data["seat"]
                view_from_snapshot(data["view"], -1 if seat is None else int(seat), ())
    except (KeyError, TypeError, ValueError, IndexError, FiveCrownsError) as error:
        raise ProtocolError(f"{data['type']}: {str(error)[:60] or type(error).__name__}") from None
    return data


class SeatClient:
    """What one seat knows: its snapshot and its events, as its link sent them."""

    def __init__(self, link: TableLink, seat: int) -> None:
        self.link = link
        self.seat = seat
        self.seq = 0
        #: Every game event so far, as this seat may see it.
        self.events: list[Event] = []
        self._round_start = 0
        self.legal: list[Move] = []
        #: The sentences of table events since they were last taken (none from before joining).
        #: table events' sentences, each with its cue (:data:`TABLE_CUES`), said as they come
        self.notices: list[tuple[str, str | None]] = []
        #: The table's seats as the newest snapshot has them (``{kind, name, level, standin,
        #: left}``): who left, whose connection dropped, as the server says now.
        self.seats: tuple[dict[str, Any], ...] = ()
        #: When a computer will stand in for each seat whose connection dropped (monotonic
        #: seconds, as told by the table's ``dropped`` event when it came).
        self.stand_in_at: dict[int, float] = {}
        #: This seat's own moves that a computer made for it while its player was away (by
        #: identity: the same move can happen twice in a game), and whether one plays now.
        self._standin_moves: set[int] = set()
        self._stood_in = False
        self._started = False
        self.sync()
        self._started = True

    @property
    def view(self) -> PlayerView:
        return self._view

    # The game as this seat knows it, under the names a Game uses for the same facts.

    @property
    def hand(self) -> tuple[Card, ...]:
        return self._view.hand

    @property
    def round(self) -> int:
        return self._view.round

    @property
    def wild_rank(self) -> Rank:
        return self._view.wild_rank

    @property
    def hand_size(self) -> int:
        return self._view.round + 2

    @property
    def dealer(self) -> int:
        return self._view.dealer

    @property
    def current_player(self) -> int:
        return self._view.current_player

    @property
    def phase(self) -> Phase:
        return self._view.phase

    @property
    def top_discard(self) -> Card | None:
        return self._view.top_discard

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return self._view.round_scores

    @property
    def totals(self) -> tuple[int, ...]:
        return self._view.totals

    @property
    def is_over(self) -> bool:
        return self._view.game_over

    @property
    def round_events(self) -> list[Event]:
        """This round's events, from its RoundStarted on (as ``Game.round_events``)."""
        return self.events[self._round_start :]

    @property
    def taken_discard(self) -> Card | None:
        """The card this turn's player took from the discard pile, if they did this turn."""
        for event in reversed(self.round_events):
            if isinstance(event, TookDiscard):
                return event.card
            if isinstance(event, DrewFromStock | Discarded | WentOut | RoundStarted):
                return None
        return None

    def sync(self) -> list[Event]:
        """Fetch the news since the last sync and a fresh snapshot; returns the new game events."""
        new: list[Event] = []
        snapshot = self.link.snapshot(self.seat)
        upto = int(snapshot["seq"])
        for frame in self.link.events_since(self.seat, self.seq):
            if int(frame["seq"]) > upto:
                break  # why: the view and the events must tell the same moment; the rest next time
            self.seq = int(frame["seq"])
            event = event_of(frame)
            if event is None:
                # a table event (chat, a stand-in, someone left): its sentence, said as it comes
                if frame.get("text") and self._started:
                    self.notices.append((str(frame["text"]), table_cue(frame)))
                self._follow_drops(frame)
                continue
            if isinstance(event, RoundStarted):
                self._round_start = len(self.events)
            if self._stood_in and getattr(event, "player", None) == self.seat:
                self._standin_moves.add(id(event))
            self.events.append(event)
            new.append(event)
        self.seq = max(self.seq, upto)
        self.legal = [move_from_json(move) for move in snapshot["legal"]]
        self.seats = tuple(snapshot.get("seats") or ())
        self._view = view_from_snapshot(snapshot["view"], self.seat, self.round_events)
        return new

    def _follow_drops(self, frame: dict[str, Any]) -> None:
        """Keep when a computer stands in for a seat whose connection dropped."""
        data = frame.get("data") or {}
        seat = data.get("seat")
        if not isinstance(seat, int):
            return
        seconds = data.get("seconds")
        if seat == self.seat and frame.get("kind") in ("stand_in", "hand_back"):
            self._stood_in = frame.get("kind") == "stand_in"
        if frame.get("kind") == "dropped" and isinstance(seconds, int):
            self.stand_in_at[seat] = time.monotonic() + seconds
        elif frame.get("kind") in ("stand_in", "hand_back", "seat_left"):
            self.stand_in_at.pop(seat, None)

    def by_standin(self, event: Event) -> bool:
        """Whether a computer made ``event`` (one of :attr:`events`) for this seat's player
        while they were away: news to them, not a move of their own."""
        return id(event) in self._standin_moves

    def take_notices(self) -> list[tuple[str, str | None]]:
        notices, self.notices = self.notices, []
        return notices

    def act(self, move: Move) -> list[Event]:
        """Send ``move``; returns the game events that followed, as this seat sees them.

        A refused move raises :class:`IllegalMoveError` with the table's reason.
        """
        try:
            self.link.act(self.seat, move, self.seq)
        except LinkError as error:
            raise IllegalMoveError(str(error)) from None
        return self.sync()
