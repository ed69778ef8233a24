"""The session's information keys: each answers a question and never changes the game.

The hand, the round, the piles, the scores, the last round's detail, the melds on the
table, the card counts, the last moves, whose turn it is, why a computer player did what it
did, the hint, the speech details and the past games.
"""

from __future__ import annotations

import math
import time

from fivecrowns.core.moves import GameOver, RoundScored, RoundStarted
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.session.base import SessionBase
from fivecrowns.ui.session.modes import REMOTE_PAST_GAMES
from fivecrowns.words import answers
from fivecrowns.words.announce import game_result, round_detail, round_result
from fivecrowns.words.hint import hint_sentence
from fivecrowns.words.table import away_words

__all__ = ["InfoKeys"]

GAME_IS_OVER = answers.GAME_IS_OVER

#: The last-round key before any round has ended.
NO_ROUND_YET = answers.NO_ROUND_YET

#: The speech-details key.
NO_SPEECH_REPORT = N_("Speech: as the game was started.")
SPEECH_LIST_TIP = N_("For every choice and why, run: fivecrowns speech --list.")

OVER_THEN = N_("The game is over. {after}")

# TRANSLATORS: {scores} lists "name points", e.g. "Ann 0, Ben 23"
ROUND_BEFORE_WATCHING = N_("Round {round} ended before you began watching: {scores}.")


class InfoKeys(SessionBase):
    """The keys that tell the seat at the keyboard what it may know."""

    def _status_words(self) -> str:
        game = self.client
        if game.is_over:
            over = [e for e in game.events if isinstance(e, GameOver)]
            names = [seat.name for seat in self.seats]
            return game_result(over[-1], names, self.at_keyboard) if over else _(GAME_IS_OVER)
        if self.privacy_for is not None:
            return self._privacy_text()
        if self.next_round is not None:
            return self._pause_words()
        current = game.current_player
        name = None if current == self.at_keyboard else self.seats[current].name
        words = answers.turn_words(game.phase, name)
        if name is not None and self.seats[current].away:
            # why: "Ann's turn: draw a card." alone left everyone waiting without knowing why
            at = game.stand_in_at.get(current)
            seconds = None if at is None else max(0, math.ceil(at - time.monotonic()))
            return f"{words} {away_words(name, seconds)}"
        return words

    def _do_hand(self, key: str) -> None:
        self.mode.check_hand()
        game = self.client
        sort = self.seat_state[self.at_keyboard].sort
        self.answer(answers.hand_words(self.hand(), game.wild_rank, game.hand_size, sort))

    def _do_round(self, key: str) -> None:
        game = self.client
        dealer = self.seats[game.dealer].name
        self.answer(answers.round_answer(game.round, game.wild_rank, game.hand_size, dealer))

    def _do_piles(self, key: str) -> None:
        view = self.client.view
        self.answer(
            answers.piles_words(
                view.top_discard, view.wild_rank, view.stock_count, view.discard_count
            )
        )

    def _do_scores(self, key: str) -> None:
        game = self.client
        self.answer(answers.scores_words(self._heard_names(), game.totals, game.round_scores))

    def _do_round_detail(self, key: str) -> None:
        scored = [e for e in self.client.events if isinstance(e, RoundScored)]
        if not scored and self.client.round_scores:
            # why: a spectator who came later has the points of the rounds before, not their
            # events; what it has is better than "no round has ended yet"
            points = self.client.round_scores[-1]
            names = self._heard_names()
            scores = ", ".join(f"{names[i]} {score}" for i, score in enumerate(points))
            count = len(self.client.round_scores)
            self.answer(_(ROUND_BEFORE_WATCHING).format(round=count, scores=scores))
            return
        if not scored:
            self.answer(_(NO_ROUND_YET))
            return
        last = scored[-1]
        wild = next(
            e.wild_rank
            for e in self.client.events
            if isinstance(e, RoundStarted) and e.round == last.round
        )
        names = [seat.name for seat in self.seats]
        result = round_result(last, names, self.at_keyboard)
        self.answer(f"{result} {round_detail(last, names, self.at_keyboard, wild)}")

    def _do_melds(self, key: str) -> None:
        view = self.client.view
        self.answer(answers.melds_answer(self._heard_names(True), view.laid_down, view.wild_rank))

    def _do_counts(self, key: str) -> None:
        view = self.client.view
        brief = self.verbosity == "brief"
        seats = self.seats
        levels = [None if brief else seat.level for seat in seats]
        in_place = [seat.left or seat.standin for seat in seats]  # as the server's C says them
        self.answer(
            answers.counts_words(
                self._heard_names(True),
                view.hand_counts,
                view.stock_count,
                view.went_out,
                levels,
                in_place,
            )
        )

    def _do_last_moves(self, key: str) -> None:
        moves = self._others_moves()
        if self.mode.news_from_last_look:
            self.seat_state[self.at_keyboard].log.forget_news()
        self.answer(moves or _(self.mode.no_news))

    def _do_whose_turn(self, key: str) -> None:
        if self.client.is_over and self.mode.may_deal_again():
            self._new_game()  # why this key: "what happens next?" after the game is a new one
            return
        if self.client.is_over:  # why: a guest is told the result and who may deal again
            self.answer(self._status_words())
            self.say(self._after_game_words())
            return
        self.answer(self._status_words())

    def _do_why(self, key: str) -> None:
        self.last_explanation = self.mode.explanation(self.last_explanation)
        self.answer(self.last_explanation or _(answers.NO_WHY))

    def _do_review(self, key: str) -> None:
        self.mode.check_hand()
        self.answer(self.mode.review(self.at_keyboard, full=self.verbosity == "full"))

    def _do_speech(self, key: str) -> None:
        self.answer(f"{self.speech_report or _(NO_SPEECH_REPORT)} {_(SPEECH_LIST_TIP)}")

    def _do_hint(self, key: str) -> None:
        self.mode.check_hand()
        self.answer(self.hint())

    def hint(self) -> str:
        """The strongest level's move for the player at the keyboard, and its reason."""
        game = self.client
        if game.is_over:
            return _(OVER_THEN).format(after=self._after_game_words())
        current = game.current_player
        return hint_sentence(
            game.view,
            None if current == self.at_keyboard else self.seats[current].name,
            focused=self.hand()[self.focus()] if self.hand() else None,
        )

    def _do_past_games(self, key: str) -> None:
        if not self.mode.keeps_past_games:
            self.answer(_(REMOTE_PAST_GAMES))
            return
        super()._do_past_games(key)
