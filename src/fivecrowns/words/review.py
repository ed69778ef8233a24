"""The review of your round in words (the review key; the protocol's ``ask`` for "review").

The choices come from :func:`fivecrowns.ai.review.review_round`; here they become short
sentences, the points first: how much the round's misses cost as far as the solver can tell,
then each choice, the dearest first. The terminal, the server (for network seats and the web
page) and the tests all word a review through :func:`review_words`.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivecrowns.ai.review import Miss
from fivecrowns.core.cards import card_the
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

__all__ = ["NO_REVIEW", "SHORT_REVIEW", "miss_words", "review_words"]

#: How many choices a review tells unless the verbosity is full.
SHORT_REVIEW = 5

#: A game that cannot be replayed (it was not made from a seed) cannot be reviewed.
NO_REVIEW = N_("This game cannot be reviewed: it cannot be replayed.")


def review_words(round_number: int, misses: Sequence[Miss], full: bool = False) -> str:
    """The whole review: a summary, then the dearest choices (every one when ``full``)."""
    if not misses:
        return _(
            "Round {round}: the strongest computer player would have made your choices, "
            "or ones within a point of them."
        ).format(round=round_number)
    total = round(sum(miss.stake for miss in misses))
    count = len(misses)
    # TRANSLATORS: the first number is points, the second how many choices.
    summary = ngettext(
        "About {points} points at stake in round {round}, in {count} choice the strongest "
        "computer player would have made otherwise.",
        "About {points} points at stake in round {round}, in {count} choices the strongest "
        "computer player would have made otherwise.",
        count,
    ).format(points=total, round=round_number, count=count)
    told = list(misses) if full else list(misses)[:SHORT_REVIEW]
    parts = [summary, *(miss_words(miss) for miss in told)]
    more = count - len(told)
    if more:
        parts.append(
            ngettext(
                "{count} more choice at full verbosity.",
                "{count} more choices at full verbosity.",
                more,
            ).format(count=more)
        )
    return " ".join(parts)


def miss_words(miss: Miss) -> str:
    """One choice: "Turn 3: you threw the wild 7; keeping it and throwing the Queen of stars
    would have left about 10 points fewer."."""
    count = round(miss.stake)
    wild = miss.wild
    turn = miss.turn
    if miss.kind == "drew":
        assert miss.better is not None
        return ngettext(
            "Turn {turn}: you drew from the stock; taking {card} would have left about "
            "{count} point fewer.",
            "Turn {turn}: you drew from the stock; taking {card} would have left about "
            "{count} points fewer.",
            count,
        ).format(turn=turn, card=card_the(miss.better, wild), count=count)
    if miss.kind == "took":
        assert miss.played is not None
        return ngettext(
            "Turn {turn}: you took {card}; drawing from the stock would have left about "
            "{count} point fewer.",
            "Turn {turn}: you took {card}; drawing from the stock would have left about "
            "{count} points fewer.",
            count,
        ).format(turn=turn, card=card_the(miss.played, wild), count=count)
    if miss.kind == "discard":
        assert miss.played is not None and miss.better is not None
        return ngettext(
            "Turn {turn}: you threw {card}; keeping it and throwing {other} would have left "
            "about {count} point fewer.",
            "Turn {turn}: you threw {card}; keeping it and throwing {other} would have left "
            "about {count} points fewer.",
            count,
        ).format(
            turn=turn,
            card=card_the(miss.played, wild),
            other=card_the(miss.better, wild),
            count=count,
        )
    if miss.kind == "go_out":
        assert miss.played is not None and miss.better is not None
        return ngettext(
            "Turn {turn}: you threw {card} and kept {count} point; you could have gone out "
            "throwing {other}.",
            "Turn {turn}: you threw {card} and kept {count} points; you could have gone out "
            "throwing {other}.",
            count,
        ).format(
            turn=turn,
            card=card_the(miss.played, wild),
            other=card_the(miss.better, wild),
            count=count,
        )
    assert miss.better is not None
    return ngettext(
        "Last turn: your best melds, throwing {other}, would have left {count} point fewer.",
        "Last turn: your best melds, throwing {other}, would have left {count} points fewer.",
        count,
    ).format(other=card_the(miss.better, wild), count=count)
