"""The session's hand keys: moving the focus through the hand, and sorting it.

Each human seat keeps its own focus and sort order (:class:`~.seats.SeatState`); after a
move the focus stays on the card it was on, so a drawn card never takes it.
"""

from __future__ import annotations

from collections import Counter

from fivecrowns.core.cards import Card, spoken_name
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.keymap import KeymapError, jump_index
from fivecrowns.ui.session.base import SessionBase
from fivecrowns.words import answers

__all__ = ["HandKeys"]

SORTED = {"rank": N_("Sorted by rank."), "suit": N_("Sorted by suit.")}
FOCUS = N_("{card}, {index} of {count}")
FOCUS_FIRST = N_("First card: {card}, {index} of {count}")
FOCUS_LAST = N_("Last card: {card}, {index} of {count}")


class HandKeys(SessionBase):
    """Moving through the hand of the seat at the keyboard, and its sort order."""

    def _do_sort(self, key: str) -> None:
        state = self.seat_state[self.at_keyboard]
        hand = self.hand()
        card = hand[self.focus()] if hand else None
        state.sort = "suit" if state.sort == "rank" else "rank"
        if card is not None:
            state.focus = self.hand().index(card)
        self.answer(_(SORTED[state.sort]))

    def _speak_focus(self, edge: str = "") -> None:
        hand = self.hand()
        if not hand:
            self.answer(_(answers.EMPTY_HAND))
            return
        index = self.focus()
        card = spoken_name(hand[index], self.client.wild_rank)
        template = {"first": FOCUS_FIRST, "last": FOCUS_LAST}.get(edge, FOCUS)
        self.answer(_(template).format(card=card, index=index + 1, count=len(hand)))

    def _move_focus(self, index: int) -> None:
        hand = self.hand()
        state = self.seat_state[self.at_keyboard]
        state.focus = max(0, min(index, len(hand) - 1))
        # Moving past an end says so first, so a repeated card is not taken for a new one.
        edge = "last" if index >= len(hand) else "first" if index < 0 else ""
        self._speak_focus(edge)

    def _do_previous(self, key: str) -> None:
        self._move_focus(self.focus() - 1)

    def _do_next(self, key: str) -> None:
        self._move_focus(self.focus() + 1)

    def _do_current(self, key: str) -> None:
        self._speak_focus()

    def _do_first(self, key: str) -> None:
        self._move_focus(0)

    def _do_last(self, key: str) -> None:
        self._move_focus(len(self.hand()) - 1)

    def _do_jump(self, key: str) -> None:
        try:
            index = jump_index(key, self.focus(), len(self.hand()))
        except KeymapError as error:
            raise FiveCrownsError(str(error)) from None
        self._move_focus(index)

    def _refocus(self, seat: int, before: list[Card], focused: Card | None) -> list[Card]:
        """Keep the focus on the same card (a drawn card never takes it: Enter right after D
        must not throw away what you drew); returns the cards that came into the hand."""
        after = self.hand(seat)
        state = self.seat_state[seat]
        added = list((Counter(after) - Counter(before)).elements())
        if focused is not None and focused in after:
            state.focus = after.index(focused)
        else:
            state.focus = min(state.focus, max(0, len(after) - 1))
        return added
