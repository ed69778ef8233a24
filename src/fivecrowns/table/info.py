"""Answers to the information keys for a seat at a table (the ``ask`` message).

A network client (the web page) presses H, W, P, S, M, C, N, B, Y or Shift+H and
asks the server; the answer is worded here, on the server, from what that seat
may know (its own view, never another hand), with the sentences of the terminal
game's information keys (:mod:`fivecrowns.ui.session`), so a blind player in a
browser hears what a blind player in a terminal hears.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivecrowns.cards import Card, Rank, spoken_name
from fivecrowns.game import GameOver, Phase, RoundScored, RoundStarted
from fivecrowns.melds import best_arrangement
from fivecrowns.ui.announce import card_list, game_result, melds_words, round_detail, round_result

if TYPE_CHECKING:
    from fivecrowns.table.table import Table

__all__ = ["QUESTIONS", "answer"]

#: What a client may ask about: the settings names of the terminal's information keys.
QUESTIONS = (
    "hand",
    "hint",
    "round",
    "piles",
    "scores",
    "round_detail",
    "melds",
    "counts",
    "whose_turn",
    "why",
)

NOT_STARTED = "The game has not started yet."
WATCHING = "You are watching: you have no hand."
EMPTY_HAND = "Your hand is empty."
HAND_SIZE = "{count} cards."
HAND_MELDS = "Melds: {melds}."
HAND_LEFT = "Left over: {cards}, {points} points."
NOTHING_LEFT = "Nothing left over."
HAND_DISCARD = "Discard: {card}."
ROUND = "Round {round} of 11. {wild} are wild, and jokers. {size} cards each. {dealer} dealt."
PILES = "Top discard: {top}. Stock: {stock}. Discard pile: {pile}."
PILE_EMPTY = "empty"
ONE_CARD = "1 card"
CARDS = "{count} cards"
SCORES = "Scores, {done}: {scores}.{last}"
SCORES_AFTER_ONE = "after 1 round"
SCORES_AFTER = "after {rounds} rounds"
NO_ROUNDS = "no rounds yet"
LAST_ROUND = " Last round: {scores}."
NO_ROUND_YET = "No round has ended yet."
MELDS_OF = "{who}: {melds}."
NO_MELDS = "No melds laid down this round."
COUNTS = "Cards: {counts}. Stock {stock}."
COUNT = "{who} {count}{note}"
WENT_OUT_NOTE = " (went out)"
COMPUTER_NOTE = " (computer, {level})"
BOTH_NOTES = " (went out; computer, {level})"
YOUR_TURN = "Your turn: {what}."
YOUR_LAST_TURN = "Your last turn: {what}."
THEIR_TURN = "{name}'s turn: {what}."
THEIR_LAST_TURN = "{name}'s last turn: {what}."
GAME_IS_OVER = "The game is over."
NO_WHY = "No computer player has moved yet."
# why not the computer's reasons, as local play gives: they name cards in its hand, which
# another player at a network table must not learn
WHY = (
    "{name}: {moves} At a network table a computer player's reasons stay private: "
    "they tell its cards."
)
HINT_WAIT = "Wait: it is {name}'s turn.{left}"
HINT_WAIT_LEFT = " Your hand now leaves {points} points."
HINT_EMPTY_PILE = "Draw from the stock: the discard pile is empty."
HINT_TAKE = "Take the {top} (T): then discard the {card}, leaving {points} points instead of {now}."
HINT_TAKE_OUT = (
    "Take the {top} (T): then discard the {card} and go out, leaving {points} points "
    "instead of {now}."
)
HINT_DRAW_ALL_MELD = "Draw from the stock (D): all your cards meld; the {top} adds nothing."
HINT_DRAW = "Draw from the stock (D): the {top} does not lower your {now} leftover points."
HINT_GO_OUT = "Go out (G), discarding the {card}."
HINT_LAST = "Lay down and discard the {card}, leaving {points} points."
HINT_DISCARD = "Discard the {card}: that leaves {points} points.{keep}"
HINT_KEEP = " Keep {melds}."


def _cards(count: int) -> str:
    return ONE_CARD if count == 1 else CARDS.format(count=count)


def answer(table: Table, seat: int | None, what: str) -> str:
    """The sentence for ``what`` (one of :data:`QUESTIONS`) as ``seat`` may know it."""
    game = table.game
    if game is None:
        return NOT_STARTED
    names = table.names()

    def name(index: int) -> str:
        return "you" if index == seat else names[index]

    if what == "why":
        return _why(table)
    if what == "round_detail":
        scored = [e for e in game.events if isinstance(e, RoundScored)]
        if not scored:
            return NO_ROUND_YET
        last = scored[-1]
        wild = next(
            e.wild_rank
            for e in game.events
            if isinstance(e, RoundStarted) and e.round == last.round
        )
        return f"{round_result(last, names, seat)} {round_detail(last, names, seat, wild)}"
    if what == "scores":
        rounds = len(game.round_scores)
        order = sorted(range(len(names)), key=lambda i: (game.totals[i], i))
        scores = ", ".join(f"{name(i)} {game.totals[i]}" for i in order)
        if rounds == 0:
            done = NO_ROUNDS
        else:
            done = SCORES_AFTER_ONE if rounds == 1 else SCORES_AFTER.format(rounds=rounds)
        last_words = ""
        if game.round_scores:
            final = game.round_scores[-1]
            last_words = LAST_ROUND.format(scores=", ".join(f"{name(i)} {final[i]}" for i in order))
        return SCORES.format(done=done, scores=scores, last=last_words)
    if what == "whose_turn":
        if game.is_over:
            over = [e for e in game.events if isinstance(e, GameOver)]
            return game_result(over[-1], names, seat) if over else GAME_IS_OVER
        current = game.current_player
        spoken = game.phase.spoken
        last_turn = spoken.startswith("last turn: ")
        what_now = spoken.removeprefix("last turn: ")
        if current == seat:
            return (YOUR_LAST_TURN if last_turn else YOUR_TURN).format(what=what_now)
        what_now = what_now.replace("your", "their")
        template = THEIR_LAST_TURN if last_turn else THEIR_TURN
        return template.format(name=names[current], what=what_now)
    view = game.view(seat) if seat is not None else None
    wild = game.wild_rank
    if what == "round":
        return ROUND.format(
            round=game.round,
            wild=wild.plural,
            size=game.hand_size,
            dealer=names[game.dealer],
        )
    if what == "piles":
        top = game.top_discard
        return PILES.format(
            top=PILE_EMPTY if top is None else spoken_name(top, wild),
            stock=_cards(len(game.stock)),
            pile=_cards(len(game.discard_pile)),
        )
    if what == "melds":
        parts = [
            MELDS_OF.format(who=name(i).capitalize(), melds=melds_words(melds, wild))
            for i, melds in enumerate(game.laid_down)
            if melds
        ]
        return " ".join(parts) if parts else NO_MELDS
    if what == "counts":
        counts = []
        for i in range(len(names)):
            level = table.seats[i].level
            out = game.went_out == i
            if out and level is not None:
                note = BOTH_NOTES.format(level=level)
            elif out:
                note = WENT_OUT_NOTE
            elif level is not None:
                note = COMPUTER_NOTE.format(level=level)
            else:
                note = ""
            counts.append(
                COUNT.format(who=name(i).capitalize(), count=len(game.hand(i)), note=note)
            )
        return COUNTS.format(counts=", ".join(counts), stock=len(game.stock))
    if view is None or seat is None:
        return WATCHING
    hand = list(view.hand)
    if what == "hand":
        return _hand_words(hand, wild, game.hand_size)
    return _hint(table, seat, hand, wild)


def _why(table: Table) -> str:
    """The last computer player's turn, its moves in plain public words."""
    from fivecrowns.ai.explain import plain_move

    game = table.game
    assert game is not None
    moves = game.moves
    bots = {i for i, seat in enumerate(table.seats) if seat.bot_driven or seat.level}
    last = next((i for i in range(len(moves) - 1, -1, -1) if moves[i][0] in bots), None)
    if last is None:
        return NO_WHY
    seat = moves[last][0]
    first = last
    while first > 0 and moves[first - 1][0] == seat:
        first -= 1
    said = " ".join(plain_move(move, None) for _, move in moves[first : last + 1])
    return WHY.format(name=table.names()[seat], moves=said)


def _hand_words(hand: Sequence[Card], wild: Rank, size: int) -> str:
    from fivecrowns.ui.session import advised_discard

    if not hand:
        return EMPTY_HAND
    best = advised_discard(hand, wild) if len(hand) > size else best_arrangement(hand, wild)
    parts = [HAND_SIZE.format(count=len(hand))]
    if best.melds:
        parts.append(HAND_MELDS.format(melds=melds_words(best.melds, wild)))
    if best.leftover:
        parts.append(
            HAND_LEFT.format(cards=card_list(best.leftover, wild), points=best.leftover_points)
        )
    else:
        parts.append(NOTHING_LEFT)
    if best.discard is not None:
        parts.append(HAND_DISCARD.format(card=spoken_name(best.discard, wild)))
    return " ".join(parts)


def _hint(table: Table, seat: int, hand: list[Card], wild: Rank) -> str:
    """The solver's advice, as the terminal's Shift+H words it."""
    from fivecrowns.ui.session import advised_discard

    game = table.game
    assert game is not None
    phase = game.phase
    if game.current_player != seat:
        now = best_arrangement(hand, wild) if len(hand) <= game.hand_size else None
        left = HINT_WAIT_LEFT.format(points=now.leftover_points) if now else ""
        return HINT_WAIT.format(name=table.names()[game.current_player], left=left)
    if phase in (Phase.DRAW, Phase.LAST_DRAW):
        now = best_arrangement(hand, wild)
        top = game.top_discard
        if top is None:
            return HINT_EMPTY_PILE
        with_top = advised_discard([*hand, top], wild, avoid=top)
        top_name = spoken_name(top, wild)
        if with_top.leftover_points < now.leftover_points and with_top.discard != top:
            assert with_top.discard is not None
            out = with_top.leftover_points == 0 and phase is Phase.DRAW
            return (HINT_TAKE_OUT if out else HINT_TAKE).format(
                top=top_name,
                card=spoken_name(with_top.discard, wild),
                points=with_top.leftover_points,
                now=now.leftover_points,
            )
        if now.leftover_points == 0:
            return HINT_DRAW_ALL_MELD.format(top=top_name)
        return HINT_DRAW.format(top=top_name, now=now.leftover_points)
    best = advised_discard(hand, wild, avoid=game.taken_discard)
    assert best.discard is not None
    card = spoken_name(best.discard, wild)
    if phase is Phase.DISCARD and best.all_melded:
        return HINT_GO_OUT.format(card=card)
    if phase is Phase.LAST_LAY_DOWN:
        return HINT_LAST.format(card=card, points=best.leftover_points)
    keep = HINT_KEEP.format(melds=melds_words(best.melds, wild)) if best.melds else ""
    return HINT_DISCARD.format(card=card, points=best.leftover_points, keep=keep)
