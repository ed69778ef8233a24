"""Telling each human seat its news: the events of moves, your turn, the round's pause, the
game's end.

Every human seat hears the events it was sent, worded for it, into its own history; only
the seat at the keyboard's words are spoken. The first sentence of a move answers the key
that made it (it interrupts); the rest queue (STYLE practice 9).
"""

from __future__ import annotations

from collections.abc import Sequence

from fivecrowns.core.cards import Rank, spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import least_leftover
from fivecrowns.core.moves import (
    Event,
    GameOver,
    LastTurnStarted,
    RoundScored,
    RoundStarted,
    TurnStarted,
)
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.session.base import SessionBase
from fivecrowns.words import answers
from fivecrowns.words.announce import card_list

__all__ = ["News"]

#: Between rounds: the result stays until the player deals the next round.
NEXT_ROUND = N_("Round {round} next. Press {keys} to deal it.")

#: Another human player's turn at a network table (the server's words for it, too).
THEIR_TURN = N_("{name}'s turn.")

#: The card on the discard pile, said when it is yours to take.
TOP_DISCARD = N_("Top discard: {card}.")

YOUR_HAND = N_("Your hand: {cards}.")
TOP_NONE = N_("Top discard: none.")
YOUR_TURN_BRIEF = N_("Your turn.")
YOUR_TURN_TOP = N_("Your turn. Top discard: {card}.")
YOUR_TURN_EMPTY = N_("Your turn. The discard pile is empty.")
AFTER_GAME = N_("Press {new} for a new game, {scores} for scores, {quit} to leave.")
#: After the game at a network table, for everyone but the player who made it.
AFTER_GAME_GUEST = N_(
    "Press {scores} for scores, {quit} to leave. The player who made the table can start "
    "a new game."
)


class News(SessionBase):
    """What each seat is told as the game goes on, and what it is told to do next."""

    def receive_news(self) -> None:
        """Tell what arrived from the table without a key (a network table's other players)."""
        wild = self.client.wild_rank
        news = self._sync()
        events = news[self.at_keyboard]
        if events:
            mover = next((e.player for e in events if hasattr(e, "player")), None)
            self._announce(news, wild, mover=mover)
        for text, cue in self.client.take_notices():
            # someone's chat, a stand-in, someone leaving: queued, never lost
            self.say(text, sound=cue)

    def _announce(
        self,
        news: dict[int, list[Event]],
        wild: Rank,
        mover: int | None = None,
        resumed: bool = False,
        own_note: str | None = None,
    ) -> None:
        """Tell each human seat its own ``news`` (the events as that seat received them);
        ``own_note`` ends the mover's own first sentence when the mover is at the keyboard
        (where a drawn card went)."""
        you = self.at_keyboard
        events = news[you]  # every seat gets the same events, each redacted for itself
        split = next((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), 0)
        if mover is not None and split > 0:
            self._announce({seat: seen[:split] for seat, seen in news.items()}, wild, mover)
            rest = {seat: seen[split:] for seat, seen in news.items()}
            if not self.mode.pauses_between_rounds:
                # why no pause at a network table: its server has dealt the next round and
                # plays on; the new round is told at once, before the moves that follow it
                self._announce(rest, self.client.wild_rank, mover=mover)
                return
            # A round ended: its result stays the last word until the player deals the next.
            self.next_round = (rest, mover)
            self.list_state = None
            self.say(self._pause_words())
            return
        names = [seat.name for seat in self.seats]
        announcements = []
        # Each human seat hears the events it was sent, in its own history; only the
        # seat at the keyboard's words are spoken.
        for seat, state in self.seat_state.items():
            heard = state.log.hear(
                news[seat], names, wild, self.verbosity, hand_at_start=self.hand(seat)
            )
            if seat == you:
                announcements = heard
                if self.privacy_for is None:
                    state.log.mark_heard()  # the seat at the keyboard hears it now
        own = mover == you
        for announcement in announcements:
            text = announcement.text
            if own and own_note:
                text = f"{text} {own_note}"
                self.seat_state[you].log.record(own_note)
            self._emit(text, interrupt=own, sound=announcement.sound)
            own = False  # only the first sentence answers the key; the rest queue
        if any(isinstance(event, GameOver) for event in events):
            self._game_over()
            return
        if any(isinstance(event, RoundScored) for event in events):
            # why: the turns told here belong to the round that just ended (a network table
            # may send a last turn's start with the moves that end the round); the next
            # round's first turn is told when it is dealt
            return
        if mover is not None and any(
            isinstance(event, TurnStarted | LastTurnStarted) for event in events
        ):
            self._check_hot_seat()
        turn_started = any(isinstance(e, TurnStarted | LastTurnStarted) for e in events)
        if (
            self.privacy_for is None
            and self.client.current_player == you
            and (resumed or turn_started)
        ):
            self._your_turn()
        elif self.mode.tells_their_turn:
            self._their_turn(events)

    def _their_turn(self, events: Sequence[Event]) -> None:
        """At a network table: another human player's turn began and they have not moved yet.

        why not for computer players: their moves are told right after, so it would be noise.
        """
        started = [e for e in events if isinstance(e, TurnStarted)]
        current = self.client.current_player
        if (
            started
            and started[-1].player == current
            and current != self.at_keyboard
            and self.seats[current].human
            and not self.client.is_over
            and self.client.phase is Phase.DRAW
        ):
            self.say(_(THEIR_TURN).format(name=self.seats[current].name), sound="other_turn")

    def _tell_position(self) -> None:
        """Where a resumed game stands: your hand, then whose turn it is and what to do."""
        game = self.client
        wild = game.wild_rank
        self.say(_(YOUR_HAND).format(cards=card_list(self.hand(), wild)))
        mine = game.current_player == self.at_keyboard
        text = self._status_words()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            top = game.top_discard
            if top is None:
                text = f"{text} {_(TOP_NONE)}"
            else:
                text = f"{text} {_(TOP_DISCARD).format(card=spoken_name(top, wild))}"
        self.say(text, sound="your_turn" if mine else None)

    def _your_turn(self) -> None:
        game = self.client
        top = game.top_discard
        if game.phase is Phase.LAST_DRAW:
            # "This is your last turn" was said with its sound; what you may take is news.
            if top is not None:
                self.say(_(TOP_DISCARD).format(card=spoken_name(top, game.wild_rank)))
            return
        if game.phase is not Phase.DRAW:  # already drawn (a resumed game): say what is left
            self.say(self._status_words(), sound="your_turn")
            return
        if self.verbosity == "brief":
            text = _(YOUR_TURN_BRIEF)
        elif top is not None:
            text = _(YOUR_TURN_TOP).format(card=spoken_name(top, game.wild_rank))
        else:
            text = _(YOUR_TURN_EMPTY)
        if self.verbosity == "full":
            left = least_leftover(self.hand(), game.wild_rank)
            text = f"{text} {answers.hint_wait_left(left).format(count=left)}"
        self.say(text, sound="your_turn")

    def _pause_words(self) -> str:
        keys = self.keymap.display_keys("discard")
        return _(NEXT_ROUND).format(round=self.client.round, keys=keys)

    def _deal_next(self) -> None:
        """After a round's result: tell the new round (and whose turn it is)."""
        assert self.next_round is not None
        events, mover = self.next_round
        self.next_round = None
        self._announce(events, self.client.wild_rank, mover=mover)

    def _game_over(self) -> None:
        self.mode.record_result(self)
        self.say(self._after_game_words())

    def _after_game_words(self) -> str:
        keys = self.keymap.display_keys
        if not self.mode.may_deal_again():
            # why: only the table's creator may start a new game there (the server says so)
            return _(AFTER_GAME_GUEST).format(scores=keys("scores"), quit=keys("quit"))
        return _(AFTER_GAME).format(
            new=keys("whose_turn"), scores=keys("scores"), quit=keys("quit")
        )
