"""The session's moves: the turn keys of the seat at the keyboard, and the computer players'
turns, each sent to the table through the mode's link and told to every human seat.
"""

from __future__ import annotations

from fivecrowns.ai.advice import advise
from fivecrowns.core.cards import Card
from fivecrowns.core.errors import IllegalMoveError
from fivecrowns.core.game import Phase, last_turn_discard
from fivecrowns.core.melds.solver import best_with_discard, going_out_discards
from fivecrowns.core.moves import Discard, DrawFromStock, Event, GoOut, Move, TakeDiscard
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.link import LinkError
from fivecrowns.ui.session.base import SessionBase
from fivecrowns.ui.session.info import OVER_THEN
from fivecrowns.words import answers
from fivecrowns.words.announce import card_list

__all__ = ["Moves"]

NOT_YOUR_TURN = N_("It is {name}'s turn, not yours. Press N to hear what happens.")
DRAW_FIRST = N_("You must draw before you discard: press D or T.")
DRAW_BEFORE_OUT = N_("You must draw before you go out: press D or T.")

#: After drawing or taking: where the new card went (the focus stays where it was).
DRAWN_PLACE = N_("It is card {index} of {count}.")


def not_yet(count: int) -> str:
    return ngettext(
        "Not yet: left over would be {cards}, {count} point.",
        "Not yet: left over would be {cards}, {count} points.",
        count,
    )


class Moves(SessionBase):
    """Drawing, taking, discarding and going out; and playing a computer player's turn."""

    def _require_my_turn(self) -> None:
        self.mode.check_turn()
        game = self.client
        if game.is_over:
            raise IllegalMoveError(_(OVER_THEN).format(after=self._after_game_words()))
        if game.current_player != self.at_keyboard:
            name = self.seats[game.current_player].name
            raise IllegalMoveError(_(NOT_YOUR_TURN).format(name=name))

    def _apply(self, seat: int, move: Move) -> None:
        wild_before = self.client.wild_rank
        before = self.hand(seat)
        focused = before[self.focus()] if before and seat == self.at_keyboard else None
        round_before = self.client.round
        try:
            self.link.act(seat, move, self.clients[seat].seq)
        except LinkError as error:
            raise IllegalMoveError(str(error)) from None
        news = self._sync()
        self.save_now()
        added: list[Card] = []
        if seat in self.seat_state and self.client.round == round_before:
            added = self._refocus(seat, before, focused)
        note = None
        if added and seat == self.at_keyboard:
            hand = self.hand(seat)
            note = _(DRAWN_PLACE).format(index=hand.index(added[0]) + 1, count=len(hand))
        self._announce(news, wild_before, mover=seat, own_note=note)

    def _do_draw(self, key: str) -> None:
        self._require_my_turn()
        self._apply(self.at_keyboard, DrawFromStock())

    def _do_take(self, key: str) -> None:
        self._require_my_turn()
        self._apply(self.at_keyboard, TakeDiscard())

    def _do_discard(self, key: str) -> None:
        self._require_my_turn()
        hand = self.hand()
        if self.client.phase in (Phase.DRAW, Phase.LAST_DRAW):
            raise IllegalMoveError(_(DRAW_FIRST))
        card = hand[self.focus()]
        self._apply(self.at_keyboard, Discard(card))

    def _do_go_out(self, key: str) -> None:
        self._require_my_turn()
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            raise IllegalMoveError(_(DRAW_BEFORE_OUT))
        instead = last_turn_discard(game.phase, hand, wild)
        if instead is not None:
            self._apply(self.at_keyboard, instead)
            return
        discards = going_out_discards(hand, wild)
        if not discards:
            best = best_with_discard(hand, wild)
            left = best.leftover
            points = best.leftover_points
            self.refuse(not_yet(points).format(cards=card_list(left, wild), count=points))
            return
        focused = hand[self.focus()]
        # why advise: G's default card is the hint's (the strongest level's) card
        advice = advise(game.view) if focused not in discards else None
        card = focused
        if advice is not None:
            card = advice.card if advice.goes_out and advice.card in discards else discards[0]
        assert card is not None
        self._apply(self.at_keyboard, GoOut(card))

    # --- computer players -----------------------------------------------------------

    def bot_due(self) -> bool:
        return (
            not self.client.is_over
            and not self.exit_requested
            and self.privacy_for is None
            and self.next_round is None
            and self.link.bot_due()
        )

    def step_bot(self) -> None:
        """Play one whole turn of the computer player whose turn it is (move by move,
        through the table)."""
        if not self.bot_due():
            return
        game = self.client
        seat = game.current_player
        wild = game.wild_rank
        news: dict[int, list[Event]] = {human: [] for human in self.clients}
        explanations: list[str] = []
        start_round = game.round
        for _step in range(4):  # draw, (lay down), discard: at most three moves in a turn
            explanation = self.link.step_bot()
            if explanation:
                explanations.append(explanation)
            for human, events in self._sync().items():
                news[human] += events
            game = self.client
            if game.is_over or game.current_player != seat or game.round != start_round:
                break
            if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
                break
        self.save_now()
        if explanations:
            self.last_explanation = answers.why_words(
                self.seats[seat].name, " ".join(explanations), private=False
            )
        self._announce(news, wild, mover=seat)
