"""Hot seat: between two different humans' turns at one keyboard, the hand is hidden.

The privacy screen names the next player and waits for Enter; until then only the keys
that cannot show a hand work (quit with its question, help, stop speech). Each seat's
messages are its own, so the next player cannot page back to the previous one's hand.
"""

from __future__ import annotations

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.session.base import SessionBase
from fivecrowns.words.announce import card_list

__all__ = ["PRIVACY_SAFE", "HotSeat"]

#: The keys that work on the hot-seat privacy screen besides Enter: none shows the hand.
PRIVACY_SAFE = frozenset({"quit", "help", "stop_speech"})

HAND_HIDDEN = N_("The hand is hidden. Press {ready} when ready, {help} for help, {quit} to quit.")
PASS_TO = N_("Pass to {name}. Press {keys} when ready.")
READY = N_("{name}. {round} Your hand: {cards}.")


class HotSeat(SessionBase):
    """The privacy screen between two humans' turns at one keyboard."""

    def context(self) -> str:
        # A question or the help list opened on the privacy screen comes first.
        if self.privacy_for is not None and self.confirm is None and self.list_state is None:
            return "privacy"
        return super().context()

    def _press_hidden(self, key: str) -> None:
        """A key on the privacy screen: only Enter, and the keys that cannot show the hand
        (quit with its question, help, stop speech); every other key is refused."""
        context = self.context()
        action = self.keymap.action_for(key, context)
        if action is None and context in ("privacy", "menu"):
            normal = self.keymap.action_for(key, "normal")
            if normal is not None and normal.name in PRIVACY_SAFE:
                self.list_state = None
                action = normal
        if action is None:
            if (key.startswith("<") and len(key) > 1) or key == "c-@":
                return  # terminal reports and modifier-only codes
            self._unknown_key(key, "privacy" if context == "menu" else context)
            return
        self.run_action(action, key)

    def _unknown_key(self, key: str, context: str) -> None:
        if context == "privacy":
            keys = self.keymap.display_keys
            self.refuse(
                _(HAND_HIDDEN).format(ready=keys("ready"), help=keys("help"), quit=keys("quit"))
            )
        else:
            super()._unknown_key(key, context)

    def _check_hot_seat(self) -> None:
        """Between two different humans' turns, hide the hand until the next one is ready."""
        current = self.client.current_player
        if self.client.is_over or current not in self.seat_state or len(self.humans) == 1:
            return
        if current != self.at_keyboard or not self.keyboard_confirmed:
            self.privacy_for = current
            self.list_state = None
            self.confirm = None
            for clear in self.clear_listeners:
                clear()  # line mode: the previous player's lines leave the screen
            self.say(self._privacy_text())

    def _privacy_text(self) -> str:
        assert self.privacy_for is not None
        name = self.seats[self.privacy_for].name
        return _(PASS_TO).format(name=name, keys=self.keymap.display_keys("ready"))

    def _do_ready(self, key: str) -> None:
        assert self.privacy_for is not None
        self.at_keyboard = self.privacy_for
        self.privacy_for = None
        self.keyboard_confirmed = True
        name = self.seats[self.at_keyboard].name
        hand = self.hand()
        wild = self.client.wild_rank
        self.answer(
            _(READY).format(name=name, round=self._round_words(), cards=card_list(hand, wild))
        )
        moves = self._others_moves(unheard=True)
        if moves:
            self.say(moves)
        self._your_turn()
