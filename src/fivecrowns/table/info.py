"""Answers to the information keys for a seat at a table (the ``ask`` message).

A network client (the web page) presses H, W, P, S, M, C, N, B, Y, V or Shift+H and
asks the server; the answer is worded here, on the server, from what that seat
may know (its own view, never another hand), with the sentences of the terminal
game's information keys (their one home is :mod:`fivecrowns.words.answers`), so a blind
player in a browser hears what a blind player in a terminal hears.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from fivecrowns.ai.review import Miss, review_round
from fivecrowns.core.game import Game
from fivecrowns.core.moves import GameOver, RoundScored, RoundStarted, TookDiscard
from fivecrowns.core.views import player_view
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.words import answers
from fivecrowns.words.announce import game_result, round_detail, round_result
from fivecrowns.words.hint import hint_sentence
from fivecrowns.words.review import NO_REVIEW, review_words

if TYPE_CHECKING:
    from fivecrowns.table.table import Table

__all__ = ["answer", "review"]


NOT_STARTED = N_("The game has not started yet.")
WATCHING = N_("You are watching: you have no hand.")


def answer(table: Table, seat: int | None, what: str) -> str:
    """The sentence for ``what`` (one of :data:`QUESTIONS`) as ``seat`` may know it."""
    game = table.game
    if game is None:
        return _(NOT_STARTED)
    names = table.names()

    def heard(capital: bool = False) -> list[str]:
        """The names as this seat hears them: its own is "you"."""
        you = answers.you_word(capital)
        return [you if i == seat else name for i, name in enumerate(names)]

    if what == "why":
        return _why(table)
    if what == "round_detail":
        scored = [e for e in game.events if isinstance(e, RoundScored)]
        if not scored:
            return _(answers.NO_ROUND_YET)
        last = scored[-1]
        wild = next(
            e.wild_rank
            for e in game.events
            if isinstance(e, RoundStarted) and e.round == last.round
        )
        return f"{round_result(last, names, seat)} {round_detail(last, names, seat, wild)}"
    if what == "scores":
        return answers.scores_words(heard(), game.totals, game.round_scores)
    if what == "whose_turn":
        if game.is_over:
            over = [e for e in game.events if isinstance(e, GameOver)]
            return game_result(over[-1], names, seat) if over else _(answers.GAME_IS_OVER)
        current = game.current_player
        return answers.turn_words(game.phase, None if current == seat else names[current])
    view = player_view(game, seat) if seat is not None else None
    wild = game.wild_rank
    if what == "round":
        return answers.round_answer(game.round, wild, game.hand_size, names[game.dealer])
    if what == "piles":
        return answers.piles_words(game.top_discard, wild, len(game.stock), len(game.discard_pile))
    if what == "melds":
        return answers.melds_answer(heard(capital=True), game.laid_down, wild)
    if what == "counts":
        levels = [seat_.level for seat_ in table.seats]
        counts = [len(game.hand(i)) for i in range(len(names))]
        in_place = [seat_.left or seat_.standin for seat_ in table.seats]
        return answers.counts_words(
            heard(capital=True), counts, len(game.stock), game.went_out, levels, in_place
        )
    if view is None or seat is None:
        return _(WATCHING)
    if what in ("review", "review_all"):
        return review(game, seat, full=what == "review_all")
    hand = list(view.hand)
    if what == "hand":
        return answers.hand_words(hand, wild, game.hand_size)
    current = game.current_player
    return hint_sentence(view, None if current == seat else names[current])


def _why(table: Table) -> str:
    """The last computer player's turn, its moves in plain public words."""
    from fivecrowns.ai.explain import plain_move

    game = table.game
    assert game is not None
    moves = game.moves
    bots = {i for i, seat in enumerate(table.seats) if seat.bot_driven or seat.level}
    last = next((i for i in range(len(moves) - 1, -1, -1) if moves[i][0] in bots), None)
    if last is None:
        return _(answers.NO_WHY)
    seat = moves[last][0]
    first = last
    while first > 0 and moves[first - 1][0] == seat:
        first -= 1
    # the card it took is public (everyone saw it on the pile): its last take was this turn's
    taken = next(
        (e.card for e in reversed(game.events) if isinstance(e, TookDiscard) and e.player == seat),
        None,
    )
    said = " ".join(plain_move(move, taken) for _, move in moves[first : last + 1])
    return answers.why_words(table.names()[seat], said, private=True)


#: Reviews already worked out, per game: (seat, round) -> its misses. A finished round's
#: review never changes, and working one out replays the game and asks the hard player at
#: every choice, so a second press (or the other language) costs nothing.
_REVIEWS: weakref.WeakKeyDictionary[Game, dict[tuple[int, int], list[Miss] | None]] = (
    weakref.WeakKeyDictionary()
)


def review(game: Game, seat: int, full: bool = False) -> str:
    """The review of ``seat``'s last finished round (:mod:`fivecrowns.words.review`)."""
    scored = [e.round for e in game.events if isinstance(e, RoundScored)]
    if not scored:
        return _(answers.NO_ROUND_YET)
    round_number = scored[-1]
    known = _REVIEWS.setdefault(game, {})
    if (seat, round_number) not in known:
        known[(seat, round_number)] = review_round(game, seat, round_number)
    misses = known[(seat, round_number)]
    if misses is None:
        return _(NO_REVIEW)
    return review_words(round_number, misses, full)
