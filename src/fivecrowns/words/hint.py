"""The hint (Shift+H): the strongest computer player's move for your seat, in words.

One function, :func:`hint_sentence`, serves the terminal game, the server's ``ask hint``
(network clients) and the web page (which asks the server), from the seat's own
:class:`~fivecrowns.core.views.PlayerView` only, so all of them say the same sentence.
The move is the one :data:`~fivecrowns.ai.advice.STRONGEST` would play (``hard``): it keeps
wild cards, weighs what the discard gives the next player, and takes the top discard only
when that beats a blind draw. The sentence gives that player's reason.
"""

from __future__ import annotations

from collections.abc import Callable

from fivecrowns.ai.advice import Advice, advise
from fivecrowns.ai.evaluate import arrangement, arrangement_with_discard
from fivecrowns.core.cards import Card, Rank, is_wild, spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import best_arrangement, going_out_discards
from fivecrowns.core.views import PlayerView
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.words import answers

__all__ = ["hint_sentence"]

HINT_TAKE_WILD = N_("Take the {top} (T): it is wild. Then discard the {card}.")
HINT_ONLY_WILDS = N_("Discard the {card}: every card you may throw is wild.")
HINT_KEEP_WILDS = N_(
    "Keep the {cards}: wild cards meld later, and the next player would take them."
)


def hint_blind(count: int) -> str:
    return ngettext(
        "Draw from the stock (D): a blind draw should leave about {count} point; "
        "the {top} would leave {take}.",
        "Draw from the stock (D): a blind draw should leave about {count} points; "
        "the {top} would leave {take}.",
        count,
    )


def hint_ways(count: int) -> str:
    return ngettext(
        "Discard the {card}: keeping the {other} gives more ways to make melds. "
        "That leaves {count} point.",
        "Discard the {card}: keeping the {other} gives more ways to make melds. "
        "That leaves {count} points.",
        count,
    )


def hint_feeds(count: int) -> str:
    return ngettext(
        "Discard the {card}: the {other} would help the next player, who collects {rank} or "
        "{suit}. That leaves {count} point.",
        "Discard the {card}: the {other} would help the next player, who collects {rank} or "
        "{suit}. That leaves {count} points.",
        count,
    )


def hint_leaves(count: int) -> str:
    return ngettext("That leaves {count} point.", "That leaves {count} points.", count)


def hint_sentence(view: PlayerView, waiting_for: str | None, focused: Card | None = None) -> str:
    """The Shift+H key for ``view``'s seat; ``waiting_for`` (a name): it is that player's turn.

    ``focused``: the terminal's focused card; G goes out with it when it can, so the hint
    names it then, and the two agree.
    """
    hand = list(view.hand)
    wild = view.wild_rank
    size = view.round + 2
    if waiting_for is not None:
        text = _(answers.HINT_WAIT).format(name=waiting_for)
        if len(hand) <= size:
            left = best_arrangement(hand, wild).leftover_points
            text = f"{text} {_points(answers.hint_wait_left, left)}"
        return text
    if not view.my_turn:  # why: the game is over (a client may still ask)
        return _(answers.GAME_IS_OVER)
    advice = advise(view)
    if view.phase in (Phase.DRAW, Phase.LAST_DRAW):
        return _draw_words(view, advice)
    if view.phase is Phase.LAST_LAY_DOWN:
        best = arrangement_with_discard(hand, wild)
        assert best.discard is not None
        return _points(
            answers.hint_last, best.leftover_points, card=spoken_name(best.discard, wild)
        )
    card = advice.card
    assert card is not None
    if advice.goes_out:
        if focused is not None and focused in going_out_discards(hand, wild):
            card = focused  # why: the card G will throw, so they agree
        return _(answers.HINT_GO_OUT).format(card=spoken_name(card, wild))
    return _discard_words(hand, wild, card, advice)


def _draw_words(view: PlayerView, advice: Advice) -> str:
    hand = list(view.hand)
    wild = view.wild_rank
    top = view.top_discard
    if top is None:
        return _(answers.HINT_EMPTY_PILE)
    top_name = spoken_name(top, wild)
    now = arrangement(hand, wild).leftover_points
    if not advice.takes:
        if advice.blind is not None and advice.after is not None:
            blind = round(advice.blind)
            return _points(hint_blind, blind, top=top_name, take=advice.after)
        if now == 0:
            return _(answers.HINT_DRAW_ALL_MELD).format(top=top_name)
        return _points(answers.hint_draw, now, top=top_name)
    then = advice.card
    assert then is not None
    rest = [*hand, top]
    rest.remove(then)
    left = arrangement(rest, wild).leftover_points
    card = spoken_name(then, wild)
    if is_wild(top, wild) and left >= now:
        return _(HINT_TAKE_WILD).format(top=top_name, card=card)
    out = advice.then_goes_out and view.phase is Phase.DRAW
    template = answers.hint_take_out if out else answers.hint_take
    return _points(template, left, top=top_name, card=card, now=now)


def _discard_words(hand: list[Card], wild: Rank, card: Card, advice: Advice) -> str:
    from fivecrowns.words.announce import card_list, melds_words

    rest = list(hand)
    rest.remove(card)
    best = arrangement(rest, wild)
    left = best.leftover_points
    name = spoken_name(card, wild)
    other = advice.other
    if is_wild(card, wild):
        text = f"{_(HINT_ONLY_WILDS).format(card=name)} {_points(hint_leaves, left)}"
    elif advice.why == "feeds" and other is not None and other.rank and other.suit:
        text = _points(
            hint_feeds,
            left,
            card=name,
            other=spoken_name(other, wild),
            rank=other.rank.plural,
            suit=other.suit.word,
        )
    elif advice.why in ("ways", "feeds") and other is not None:
        text = _points(hint_ways, left, card=name, other=spoken_name(other, wild))
    else:
        text = _points(answers.hint_discard, left, card=name)
    if best.melds:
        text = f"{text} {_(answers.HINT_KEEP).format(melds=melds_words(best.melds, wild))}"
    loose = [c for c in best.leftover if is_wild(c, wild)]
    if loose and not is_wild(card, wild):  # why: it says why the fewest points now is not it
        text = f"{text} {_(HINT_KEEP_WILDS).format(cards=card_list(loose, wild))}"
    return text


def _points(template: Callable[[int], str], points: int, **values: object) -> str:
    return template(points).format(count=points, **values)
