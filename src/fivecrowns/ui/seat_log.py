"""What one human seat has been told: its own message history, worded for that seat.

Each human seat at a table owns one :class:`SeatLog`. Events from the game are
worded for the seat (:meth:`SeatLog.hear`) after hiding what the seat may not
know (:func:`fivecrowns.core.moves.redact`), so the same events give each seat its
own sentences ("You drew the 10 of spades" for the drawer, "Ben drew from the
stock" for the others). The review keys walk only the seat's own history, so
in hot seat the next player can never page back to the previous player's
hand, and a network client can be sent exactly its own seat's stream.

The log also keeps the public events since the seat's last turn, for the
last-moves key and the hot-seat handoff; they are worded again when asked, so
a turn heard one key at a time is told as one sentence.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from fivecrowns.core.cards import Card, Rank
from fivecrowns.core.moves import (
    Discarded,
    DrewFromStock,
    Event,
    LaidDown,
    RoundStarted,
    TookDiscard,
    TurnStarted,
    WentOut,
    redact,
)
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.output.history import Entry, History
from fivecrowns.words.announce import Announcement, describe_events

__all__ = ["SeatLog"]

#: Before the moves a computer made in your seat while your connection was down.
STOOD_IN = N_("While you were away, a computer played for you.")


class SeatLog:
    """One seat's messages (with a review cursor) and the events since its last turn.

    >>> from fivecrowns.core.game import Game
    >>> game = Game(["Ann", "Ben"], seed=1, first_dealer=1)
    >>> ann, ben = SeatLog(0), SeatLog(1)
    >>> events = game.apply(0, game.legal_moves(0)[0])  # Ann draws from the stock
    >>> ann.hear(events, ["Ann", "Ben"], game.wild_rank, "normal")[0].text.startswith(
    ...     "You drew the ")
    True
    >>> ben.hear(events, ["Ann", "Ben"], game.wild_rank, "normal")[0].text
    'Ann drew from the stock.'
    """

    def __init__(self, seat: int, limit: int = 1000) -> None:
        self.seat = seat
        self.history = History(limit)
        #: Public events since this seat's last turn, redacted, each with the wild rank of
        #: its round (why each: a network session may note a round's moves before its start)
        #: and whether a computer made it in this seat while its player was away
        self._since: list[tuple[Event, Rank, bool]] = []
        self._heard = 0  # how many of them were already spoken to this seat as they happened
        #: The last few announcements of moves and results (the full screen shows them).
        self.recent_news: deque[str] = deque(maxlen=8)

    # --- the message history ----------------------------------------------------

    def record(self, text: str) -> Entry | None:
        """Keep a sentence this seat was told (an answer, a refusal, an announcement)."""
        text = " ".join(text.split())
        return self.history.add(text) if text else None

    def position(self) -> tuple[int, int]:
        """Where the review cursor is: (place counted from the oldest, number of messages)."""
        return self.history.position()

    # --- events --------------------------------------------------------------------

    def hear(
        self,
        events: Sequence[Event],
        names: Sequence[str],
        wild: Rank,
        verbosity: str,
        hand_at_start: Sequence[Card] = (),
    ) -> list[Announcement]:
        """Word ``events`` for this seat, keep them in its history, and return them."""
        visible = self.note(events, wild)
        announcements = describe_events(
            visible, names, self.seat, wild, verbosity, hand_at_start=hand_at_start
        )
        for announcement in announcements:
            self.record(announcement.text)
            self.recent_news.append(" ".join(announcement.text.split()))
        return announcements

    def note(
        self,
        events: Sequence[Event],
        wild: Rank,
        by_standin: Callable[[Event], bool] | None = None,
    ) -> list[Event]:
        """Keep ``events`` for the last-moves key without wording them (e.g. on resume).
        ``by_standin`` tells this seat's moves a computer made while its player was away:
        news to them (issue 26, item 17), not a turn of their own.

        Returns them as this seat may see them.
        """
        visible = [redact(event, self.seat) for event in events]
        for original, event in zip(events, visible, strict=True):
            if _a_move(event) and by_standin is not None and by_standin(original):
                self._since.append((event, wild, True))
                continue
            if isinstance(event, RoundStarted):
                wild = event.wild_rank
                if self.seat < 0:
                    # why: a spectator has no turn to start the news again; its last-moves
                    # key tells this round only, never every round since it began watching
                    self.forget_news()
            if isinstance(event, TurnStarted):
                continue  # says nothing
            if isinstance(event, Discarded | WentOut) and event.player == self.seat:
                self.forget_news()  # your own turn ended: the news starts again after it
            elif not _own_move(event, self.seat):
                self._since.append((event, wild, False))
        return visible

    def mark_heard(self) -> None:
        """The news so far was spoken to this seat as it happened (it was at the keyboard)."""
        self._heard = len(self._since)

    def since_last_turn(
        self, names: Sequence[str], verbosity: str, *, unheard: bool = False
    ) -> list[str]:
        """Every public event since this seat's last turn, as sentences, oldest first;
        with ``unheard``, only those not spoken to it as they happened (hot-seat handoff).
        """
        start = self._heard if unheard else 0
        told: list[str] = []
        group: list[Event] = []
        group_wild: Rank | None = None
        group_standin = False

        def word() -> list[str]:
            if not group_standin:
                return _worded(group, names, self.seat, group_wild, verbosity)
            # why not "you": the player did not make these moves; the computer did, by name
            moves = _worded(group, names, None, group_wild, verbosity)
            return [_(STOOD_IN), *moves] if moves else []

        # why in groups: each round's events are worded with that round's wild rank, and a
        # computer's moves in this seat after the sentence that says so
        for event, wild, standin in self._since[start:]:
            if group and (wild != group_wild or standin != group_standin):
                told += word()
                group = []
            group.append(event)
            group_wild, group_standin = wild, standin
        if group:
            told += word()
        return told

    def forget_news(self) -> None:
        """A new game at the same table: nothing has happened in it yet."""
        self._since.clear()
        self._heard = 0


def _worded(
    events: Sequence[Event],
    names: Sequence[str],
    seat: int | None,
    wild: Rank | None,
    verbosity: str,
) -> list[str]:
    assert wild is not None
    return [told.text for told in describe_events(events, names, seat, wild, verbosity)]


def _a_move(event: Event) -> bool:
    return isinstance(event, DrewFromStock | TookDiscard | LaidDown | Discarded | WentOut)


def _own_move(event: Event, seat: int) -> bool:
    """This seat's own draw or lay-down: it knows them, so they are not news to it."""
    return isinstance(event, DrewFromStock | TookDiscard | LaidDown) and event.player == seat
