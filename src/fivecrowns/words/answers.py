"""The sentences of the information keys (H, Shift+H, W, P, S, B, M, C, N, Y): one home.

The terminal game (:mod:`fivecrowns.ui.session`) and the server's answers to a network
client's ``ask`` (:mod:`fivecrowns.table.info`) both word their answers here, from
plain data each has the right to know, so a blind player in a browser hears what a
blind player in a terminal hears, in either language. Every sentence is a whole
message with named placeholders, translated where it is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from fivecrowns.ai.loader import level_name
from fivecrowns.core.cards import Card, Rank, is_wild, spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import (
    Arrangement,
    Meld,
    best_arrangement,
    best_with_discard,
    going_out_discards,
)
from fivecrowns.i18n import N_, ngettext, pgettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "card_count",
    "counts_words",
    "hand_words",
    "melds_answer",
    "piles_words",
    "round_words",
    "scores_words",
    "turn_words",
    "why_words",
    "wild_words",
    "you_word",
]

GAME_IS_OVER = N_("The game is over.")
NO_ROUND_YET = N_("No round has ended yet.")
EMPTY_HAND = N_("Your hand is empty.")
NO_WHY = N_("No computer player has moved yet.")
NO_MELDS = N_("No melds laid down this round.")
HAND_MELDS = N_("Melds: {melds}.")
NOTHING_LEFT = N_("Nothing left over.")
HAND_LEAST = N_("That is the fewest points now, without the {card}. Shift+H says what to discard.")
WILD = N_("{wild} are wild, and jokers.")
ROUND = N_("Round {round} of 11.")
ROUND_DEALT = N_("{size} cards each. {dealer} dealt.")
PILES = N_("Top discard: {top}. Stock: {stock}. Discard pile: {pile}.")
PILES_EMPTY = N_("Top discard: empty. Stock: {stock}. Discard pile: {pile}.")
LAST_ROUND = N_("Last round: {scores}.")
COUNTS = N_("Cards: {counts}. Stock {stock}.")
#: Between players in the scores and the card counts (punctuation, the same in Spanish).
SEPARATOR = "; "
MELDS_OF = N_("{who}: {melds}.")
# why not the computer's reasons, as local play gives: they name cards in its hand, which
# another player at a network table must not learn
WHY_PRIVATE = N_(
    "{name}: {moves} At a network table a computer player's reasons stay private: "
    "they tell its cards."
)
WHY = N_("{name}: {moves}")

#: What the player whose turn it is must do, for the player at the keyboard and for another.
_YOUR_TURN = {
    Phase.DRAW: N_("Your turn: draw a card."),
    Phase.DISCARD: N_("Your turn: discard a card, or go out."),
    Phase.LAST_DRAW: N_("Your last turn: draw a card."),
    Phase.LAST_LAY_DOWN: N_("Your last turn: lay down your melds, then discard."),
    Phase.LAST_DISCARD: N_("Your last turn: discard a card."),
    Phase.GAME_OVER: N_("Your turn: the game is over."),
}
_THEIR_TURN = {
    Phase.DRAW: N_("{name}'s turn: draw a card."),
    Phase.DISCARD: N_("{name}'s turn: discard a card, or go out."),
    Phase.LAST_DRAW: N_("{name}'s last turn: draw a card."),
    Phase.LAST_LAY_DOWN: N_("{name}'s last turn: lay down their melds, then discard."),
    Phase.LAST_DISCARD: N_("{name}'s last turn: discard a card."),
    Phase.GAME_OVER: N_("{name}'s turn: the game is over."),
}


def you_word(capital: bool = False) -> str:
    """The listener where a list names players: "you 12, Ben 30"; "You 7, Ben 9"."""
    if capital:
        # TRANSLATORS: the listener where a list names players, first in a sentence ("You 7")
        return pgettext("a player in a list", "You")
    # TRANSLATORS: the listener where a list names players, inside a sentence ("you 12")
    return pgettext("a player in a list", "you")


def card_count(count: int) -> str:
    """ "1 card", "12 cards"."""
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def wild_words(wild: Rank) -> str:
    """ "7s are wild, and jokers." """
    return _(WILD).format(wild=wild.plural)


def round_words(round_number: int, wild: Rank) -> str:
    """ "Round 5 of 11. 7s are wild, and jokers." """
    return f"{_(ROUND).format(round=round_number)} {wild_words(wild)}"


def round_answer(round_number: int, wild: Rank, size: int, dealer: str) -> str:
    """The W key: the round, the wild rank, the hand size and the dealer."""
    dealt = _(ROUND_DEALT).format(size=size, dealer=dealer)
    return f"{round_words(round_number, wild)} {dealt}"


def piles_words(top: Card | None, wild: Rank, stock: int, pile: int) -> str:
    """The P key."""
    if top is None:
        return _(PILES_EMPTY).format(stock=card_count(stock), pile=card_count(pile))
    return _(PILES).format(
        top=spoken_name(top, wild), stock=card_count(stock), pile=card_count(pile)
    )


def turn_words(phase: Phase, name: str | None) -> str:
    """Whose turn it is and what they must do; ``name`` None: the player at the keyboard."""
    if name is None:
        return _(_YOUR_TURN[phase])
    return _(_THEIR_TURN[phase]).format(name=name)


def _points_list(names: Sequence[str], points: Sequence[int]) -> str:
    """ "you, 0 points; Bot 2, 12 points": a number never glued to a name ending in one."""
    return SEPARATOR.join(
        ngettext("{name}, {count} point", "{name}, {count} points", count).format(
            name=name, count=count
        )
        for name, count in zip(names, points, strict=True)
    )


def scores_words(
    names: Sequence[str], totals: Sequence[int], round_scores: Sequence[Sequence[int]]
) -> str:
    """The S key: totals lowest first, and the last round's points in the same order.

    ``names`` are as the listener hears them (their own seat already "You" or "you")."""
    order = sorted(range(len(names)), key=lambda i: (totals[i], i))
    scores = _points_list([names[i] for i in order], [totals[i] for i in order])
    rounds = len(round_scores)
    if rounds == 0:
        text = _("Scores, no rounds yet: {scores}.").format(scores=scores)
    else:
        text = ngettext(
            "Scores, after {count} round: {scores}.",
            "Scores, after {count} rounds: {scores}.",
            rounds,
        ).format(count=rounds, scores=scores)
    if round_scores:
        final = round_scores[-1]
        last = _(LAST_ROUND).format(
            scores=_points_list([names[i] for i in order], [final[i] for i in order])
        )
        text = f"{text} {last}"
    return text


def melds_answer(names: Sequence[str], laid_down: Sequence[Sequence[Meld]], wild: Rank) -> str:
    """The M key; ``names`` as the listener hears them, capitalised."""
    from fivecrowns.words.announce import melds_words

    parts = [
        _(MELDS_OF).format(who=names[i], melds=melds_words(melds, wild))
        for i, melds in enumerate(laid_down)
        if melds
    ]
    return " ".join(parts) if parts else _(NO_MELDS)


def counts_words(
    names: Sequence[str],
    counts: Sequence[int],
    stock: int,
    went_out: int | None,
    levels: Sequence[str | None],
    in_place: Sequence[bool] = (),
) -> str:
    """The C key; ``names`` as the listener hears them, capitalised; a level of None is a
    human (or a computer player whose level this answer leaves out). ``in_place`` marks the
    seats of people a computer player plays for (they left, or their connection dropped)."""
    parts: list[str] = []
    for i, count in enumerate(counts):
        level = levels[i]
        out = went_out == i
        standing_in = i < len(in_place) and in_place[i]
        # a seat: "Ben, 7 cards", "Ben, 7 cards, went out", "Bot 2 (computer, hard), 7 cards";
        # seats are parted by semicolons (a number glued to "Bot 2" read as "Bot 2 7")
        # why its own words: "Ann (computer, medium)" sounded as if Ann were a computer player
        if standing_in and out:
            said = ngettext(
                "{who} (a computer player plays for them), {count} card, went out",
                "{who} (a computer player plays for them), {count} cards, went out",
                count,
            )
        elif standing_in:
            said = ngettext(
                "{who} (a computer player plays for them), {count} card",
                "{who} (a computer player plays for them), {count} cards",
                count,
            )
        elif out and level is not None:
            said = ngettext(
                "{who} (computer, {level}), {count} card, went out",
                "{who} (computer, {level}), {count} cards, went out",
                count,
            )
        elif out:
            said = ngettext(
                "{who}, {count} card, went out", "{who}, {count} cards, went out", count
            )
        elif level is not None:
            said = ngettext(
                "{who} (computer, {level}), {count} card",
                "{who} (computer, {level}), {count} cards",
                count,
            )
        else:
            said = ngettext("{who}, {count} card", "{who}, {count} cards", count)
        level_said = level_name(level) if level is not None else ""
        who = names[i]
        if parts and who == you_word(capital=True):
            who = you_word()  # why: "Ben, 3 cards; you, 3 cards", no capital inside a sentence
        parts.append(said.format(who=who, count=count, level=level_said))
    return _(COUNTS).format(counts=SEPARATOR.join(parts), stock=stock)


def hand_words(hand: Sequence[Card], wild: Rank, size: int, sort: str | None = None) -> str:
    """The H key: the hand grouped as it would meld; ``sort`` ("rank" or "suit") says the
    terminal's order (a network client sorts its own hand, so it leaves it out)."""
    from fivecrowns.words.announce import card_list, melds_words

    if not hand:
        return _(EMPTY_HAND)
    # why the solver here: H says what your hand would leave now; Shift+H weighs what comes next
    best = _least_now(hand, wild) if len(hand) > size else best_arrangement(hand, wild)
    count = len(hand)
    if sort == "suit":
        first = ngettext(
            "{count} card, sorted by suit.", "{count} cards, sorted by suit.", count
        ).format(count=count)
    elif sort == "rank":
        first = ngettext(
            "{count} card, sorted by rank.", "{count} cards, sorted by rank.", count
        ).format(count=count)
    else:
        first = ngettext("{count} card.", "{count} cards.", count).format(count=count)
    parts = [first]
    if best.melds:
        parts.append(_(HAND_MELDS).format(melds=melds_words(best.melds, wild)))
    if best.leftover:
        points = best.leftover_points
        parts.append(
            ngettext(
                "Left over: {cards}, {count} point.", "Left over: {cards}, {count} points.", points
            ).format(cards=card_list(best.leftover, wild), count=points)
        )
    else:
        parts.append(_(NOTHING_LEFT))
    if best.discard is not None:
        parts.append(_(HAND_LEAST).format(card=spoken_name(best.discard, wild)))
    return " ".join(parts)


def _points(template: Callable[[int], str], points: int, **values: object) -> str:
    return template(points).format(count=points, **values)


HINT_WAIT = N_("Wait: it is {name}'s turn.")


def hint_wait_left(count: int) -> str:
    return ngettext(
        "Your hand now leaves {count} point.",
        "Your hand now leaves {count} points.",
        count,
    )


HINT_EMPTY_PILE = N_("Draw from the stock: the discard pile is empty.")


def hint_take(count: int) -> str:
    return ngettext(
        "Take the {top} (T): then discard the {card}, leaving {count} point instead of {now}.",
        "Take the {top} (T): then discard the {card}, leaving {count} points instead of {now}.",
        count,
    )


def hint_take_out(count: int) -> str:
    return ngettext(
        "Take the {top} (T): then discard the {card} and go out, leaving {count} point "
        "instead of {now}.",
        "Take the {top} (T): then discard the {card} and go out, leaving {count} points "
        "instead of {now}.",
        count,
    )


HINT_DRAW_ALL_MELD = N_("Draw from the stock (D): all your cards meld; the {top} adds nothing.")


def hint_draw(count: int) -> str:
    return ngettext(
        "Draw from the stock (D): the {top} does not lower your {count} leftover point.",
        "Draw from the stock (D): the {top} does not lower your {count} leftover points.",
        count,
    )


HINT_GO_OUT = N_("Go out (G), discarding the {card}.")


#: The hint in a last turn, in the words of the menu item that does it.
def hint_last(count: int) -> str:
    return ngettext(
        "Lay down and discard the {card}, leaving {count} point.",
        "Lay down and discard the {card}, leaving {count} points.",
        count,
    )


def hint_discard(count: int) -> str:
    return ngettext(
        "Discard the {card}: that leaves {count} point.",
        "Discard the {card}: that leaves {count} points.",
        count,
    )


HINT_KEEP = N_("Keep {melds}.")


def why_words(name: str, moves: str, private: bool) -> str:
    """The Y key: the last computer player's turn; ``private`` at a network table."""
    return _(WHY_PRIVATE if private else WHY).format(name=name, moves=moves)


def _least_now(hand: Sequence[Card], wild: Rank) -> Arrangement:
    """The solver's fewest points after a discard (H's figure); going out, with a card that
    is not wild when one goes out (the next player's gain)."""
    best = best_with_discard(hand, wild)
    outs = going_out_discards(hand, wild)
    if not outs:
        return best
    card = next((c for c in outs if not is_wild(c, wild)), outs[0])
    rest = list(hand)
    rest.remove(card)
    return replace(best_arrangement(rest, wild), discard=card)
