"""Short sentences that say why a computer player made its move.

Each sentence names the move first, then the reason after a colon, in words a
screen reader speaks well (no symbols): "Took the 7 of hearts: it completes a
run of 5, 6, 7 of hearts." / "Discarded the King of clubs: it fits nothing and
is worth 13."

>>> from fivecrowns.cards import parse_card, Rank
>>> the(parse_card("Kc"), Rank.FIVE)
'the King of clubs'
>>> took_discard(parse_card("5c"), Rank.FIVE, 20, None)
'Took the 5 of clubs: 5s are wild.'
>>> join_words(["a book of 8s", "a run of 3, 4, 5 of stars", "a book of Kings"])
'a book of 8s, a run of 3, 4, 5 of stars and a book of Kings'
"""

from __future__ import annotations

from collections.abc import Sequence

from fivecrowns.cards import Card, Rank, points
from fivecrowns.game import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from fivecrowns.melds import Arrangement, Meld
from fivecrowns.words import join_words

__all__ = [
    "completes_meld",
    "discarded",
    "drew_from_stock",
    "join_words",
    "laid_down",
    "melds_words",
    "plain_move",
    "short_meld",
    "the",
    "took_discard",
    "went_out",
]


def the(card: Card, wild_rank: Rank) -> str:
    """A card with its article: "the King of clubs", "the joker"."""
    return f"the {card.spoken}"


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def melds_words(melds: Sequence[Meld], wild_rank: Rank) -> str:
    """The melds in short: which wild stands for what is left out, long runs are "5 to 9".

    >>> from fivecrowns.melds import check_meld
    >>> from fivecrowns.cards import parse_cards
    >>> run = check_meld(parse_cards("5sp jk 7sp 8sp 9sp"), Rank.THREE)
    >>> melds_words([run, check_meld(parse_cards("8c 8h 8d"), Rank.THREE)], Rank.THREE)
    'a run of 5 to 9 of spades and a book of 8s'
    """
    return join_words([short_meld(meld, wild_rank) for meld in melds])


def short_meld(meld: Meld, wild_rank: Rank) -> str:
    text = meld.describe(wild_rank).split(" using ")[0]
    head, sep, rest = text.partition("a run of ")
    if sep and not head:
        ranks, of, suit = rest.rpartition(" of ")
        numbers = ranks.split(", ")
        if of and len(numbers) >= 4:
            return f"a run of {numbers[0]} to {numbers[-1]} of {suit}"
    return text


def completes_meld(card: Card, after: Arrangement) -> Meld | None:
    """The meld of ``after`` that holds ``card``, if any."""
    for meld in after.melds:
        if card in meld.cards:
            return meld
    return None


def took_discard(card: Card, wild_rank: Rank, before: int, after: Arrangement | None) -> str:
    """Why the top discard was taken; ``before`` is the hand's best leftover without it."""
    name = the(card, wild_rank)
    if card.is_joker:
        return _sentence(f"Took {name}: it is wild")
    if card.rank == wild_rank:
        return _sentence(f"Took {name}: {wild_rank.plural} are wild")
    assert after is not None
    meld = completes_meld(card, after)
    if meld is not None:
        return _sentence(f"Took {name}: it completes {meld.describe(wild_rank)}")
    return _sentence(
        f"Took {name}: it lowers my leftover from {before} to {after.leftover_points} points"
    )


def drew_from_stock(top: Card | None, wild_rank: Rank, reason: str | None = None) -> str:
    """Why the blind draw: ``reason`` finishes "Drew from the stock: ..."."""
    if top is None:
        return "Drew from the stock: the discard pile is empty."
    if reason is None:
        reason = f"{the(top, wild_rank)} does not help"
    return _sentence(f"Drew from the stock: {reason}")


def discarded(card: Card, wild_rank: Rank, reason: str | None = None) -> str:
    """Why this discard; the default reason is that it fits nothing, with its points."""
    if reason is None:
        reason = f"it fits nothing and is worth {points(card, wild_rank)}"
    return _sentence(f"Discarded {the(card, wild_rank)}: {reason}")


def went_out(arrangement: Arrangement, wild_rank: Rank) -> str:
    """ "Went out with a book of 8s and a run of ...; discarded the King of clubs."."""
    melds = melds_words(arrangement.melds, wild_rank)
    discard = arrangement.discard
    tail = f"; discarded {the(discard, wild_rank)}" if discard is not None else ""
    return _sentence(f"Went out with {melds}{tail}")


def laid_down(arrangement: Arrangement, wild_rank: Rank) -> str:
    """The last turn's lay-down: what went down and what is left."""
    if not arrangement.melds:
        return _sentence("Laid down nothing: I have no book or run")
    melds = melds_words(arrangement.melds, wild_rank)
    left = arrangement.leftover_points
    if left == 0:
        return _sentence(f"Laid down {melds}: every card is in a meld")
    return _sentence(f"Laid down {melds}: {left} points left over")


def plain_move(move: Move, top: Card | None) -> str:
    """The move alone, for players that give no reason: "Discarded the King of clubs."."""
    if isinstance(move, DrawFromStock):
        return "Drew from the stock."
    if isinstance(move, TakeDiscard):
        return "Took the top discard." if top is None else f"Took the {top.spoken}."
    if isinstance(move, Discard):
        return f"Discarded the {move.card.spoken}."
    if isinstance(move, GoOut):
        return f"Went out; discarded the {move.discard.spoken}."
    assert isinstance(move, LayDown)
    if move.melds == ():
        return "Laid down nothing."
    return "Laid down my melds."
