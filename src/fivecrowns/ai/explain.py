"""Short sentences that say why a computer player made its move.

Each sentence names the move first, then the reason after a colon, in words a
screen reader speaks well (no symbols): "Took the 7 of hearts: it completes a
run of 5, 6, 7 of hearts." / "Discarded the King of clubs: it fits nothing and
is worth 13." Sentences and reasons are in the current language (:mod:`fivecrowns.i18n`):
a reason is a whole clause, translated where the player that gives it words it.

>>> from fivecrowns.core.cards import parse_card, Rank
>>> the(parse_card("Kc"), Rank.FIVE)
'the King of clubs'
>>> took_discard(parse_card("5c"), Rank.FIVE, 20, None)
'Took the 5 of clubs: 5s are wild.'
"""

from __future__ import annotations

from collections.abc import Sequence

from fivecrowns.core.cards import Card, Rank, card_the, points, wild_clause
from fivecrowns.core.melds.solver import Arrangement, Meld
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import join_list, ngettext

__all__ = [
    "completes_meld",
    "discarded",
    "drew_from_stock",
    "laid_down",
    "melds_words",
    "plain_move",
    "short_meld",
    "the",
    "took_discard",
    "went_out",
]


def the(card: Card, wild_rank: Rank) -> str:
    """A card with its article: "the King of clubs", "the joker" ("el rey de tréboles")."""
    return card_the(card)


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def melds_words(melds: Sequence[Meld], wild_rank: Rank) -> str:
    """The melds in short: which wild stands for what is left out, long runs are "5 to 9".

    >>> from fivecrowns.core.melds.solver import check_meld
    >>> from fivecrowns.core.cards import parse_cards
    >>> run = check_meld(parse_cards("5sp jk 7sp 8sp 9sp"), Rank.THREE)
    >>> melds_words([run, check_meld(parse_cards("8c 8h 8d"), Rank.THREE)], Rank.THREE)
    'a run of 5 to 9 of spades and a book of 8s'
    """
    return join_list([short_meld(meld, wild_rank) for meld in melds])


def short_meld(meld: Meld, wild_rank: Rank) -> str:
    return meld.describe_short(wild_rank)


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
        return _("Took {card}: it is wild.").format(card=name)
    if card.rank == wild_rank:
        # TRANSLATORS: {wild} is "5s are wild" ("los 5 son salvajes").
        return _("Took {card}: {wild}.").format(card=name, wild=wild_clause(wild_rank))
    assert after is not None
    meld = completes_meld(card, after)
    if meld is not None:
        return _("Took {card}: it completes {meld}.").format(
            card=name, meld=meld.describe(wild_rank)
        )
    count = after.leftover_points
    return ngettext(
        "Took {card}: it lowers my leftover from {before} to {count} point.",
        "Took {card}: it lowers my leftover from {before} to {count} points.",
        count,
    ).format(card=name, before=before, count=count)


def drew_from_stock(top: Card | None, wild_rank: Rank, reason: str | None = None) -> str:
    """Why the blind draw: ``reason`` (a translated clause) finishes "Drew from the stock: ..."."""
    if top is None:
        return _("Drew from the stock: the discard pile is empty.")
    if reason is None:
        return _("Drew from the stock: {card} does not help.").format(card=the(top, wild_rank))
    # TRANSLATORS: {reason} is a clause that says why, e.g. "I hope for something better".
    return _sentence(_("Drew from the stock: {reason}").format(reason=reason))


def discarded(card: Card, wild_rank: Rank, reason: str | None = None) -> str:
    """Why this discard; the default reason is that it fits nothing, with its points."""
    name = the(card, wild_rank)
    if reason is None:
        worth = points(card, wild_rank)
        return ngettext(
            "Discarded {card}: it fits nothing and is worth {count}.",
            "Discarded {card}: it fits nothing and is worth {count}.",
            worth,
        ).format(card=name, count=worth)
    # TRANSLATORS: {reason} is a clause that says why, e.g. "it is my last card, so I score 0".
    return _sentence(_("Discarded {card}: {reason}").format(card=name, reason=reason))


def went_out(arrangement: Arrangement, wild_rank: Rank) -> str:
    """ "Went out with a book of 8s and a run of ...; discarded the King of clubs."."""
    melds = melds_words(arrangement.melds, wild_rank)
    discard = arrangement.discard
    if discard is None:
        return _("Went out with {melds}.").format(melds=melds)
    return _("Went out with {melds}; discarded {card}.").format(
        melds=melds, card=the(discard, wild_rank)
    )


def laid_down(arrangement: Arrangement, wild_rank: Rank) -> str:
    """The last turn's lay-down: what went down and what is left."""
    if not arrangement.melds:
        return _("Laid down nothing: I have no book or run.")
    melds = melds_words(arrangement.melds, wild_rank)
    left = arrangement.leftover_points
    if left == 0:
        return _("Laid down {melds}: every card is in a meld.").format(melds=melds)
    return ngettext(
        "Laid down {melds}: {count} point left over.",
        "Laid down {melds}: {count} points left over.",
        left,
    ).format(melds=melds, count=left)


def plain_move(move: Move, top: Card | None) -> str:
    """The move alone, for players that give no reason: "Discarded the King of clubs."."""
    if isinstance(move, DrawFromStock):
        return _("Drew from the stock.")
    if isinstance(move, TakeDiscard):
        if top is None:
            return _("Took the top discard.")
        return _("Took {card}.").format(card=card_the(top))
    if isinstance(move, Discard):
        return _("Discarded {card}.").format(card=card_the(move.card))
    if isinstance(move, GoOut):
        return _("Went out; discarded {card}.").format(card=card_the(move.discard))
    assert isinstance(move, LayDown)
    if move.melds == ():
        return _("Laid down nothing.")
    return _("Laid down my melds.")
