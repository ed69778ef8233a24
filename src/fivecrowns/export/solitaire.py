"""The Five Crowns Solitaire board as an export document (text, BRF, Unicode braille).

Built from the player's view only: the hands, the turned card, the discards and
what the stock holds (its contents are known, its order is not).

>>> from fivecrowns.core.solitaire.rules import Solitaire
>>> document = board_document(Solitaire.deal(seed=1).view())
>>> document.title, len(document.sections)
('Five Crowns Solitaire.', 13)
"""

from __future__ import annotations

from fivecrowns.core.melds.solver import best_arrangement
from fivecrowns.core.solitaire.rules import DEALT_CARDS, Hand, Phase, SolitaireView
from fivecrowns.export.content import cards_text, meld_line
from fivecrowns.export.document import Document, Section, card_legend
from fivecrowns.i18n import gettext as _
from fivecrowns.i18n import ngettext

__all__ = ["board_document", "hand_section"]

_STOCK = 116 - DEALT_CARDS


def board_document(view: SolitaireView) -> Document:
    """The whole board: where the game stands, then each hand, then the stock and discards."""
    closed = sum(hand.is_closed for hand in view.hands)
    points_left = sum(hand.leftover_points() for hand in view.open_hands)
    # TRANSLATORS: solitaire has 11 hands; {count} of them are closed
    closed_line = ngettext(
        "Closed: {count} of 11 hands.", "Closed: {count} of 11 hands.", closed
    ).format(count=closed)
    left_line = _("Points left: {points}.").format(points=points_left)
    intro = [_status(view), f"{closed_line} {left_line}"]  # two whole sentences
    sections = [hand_section(hand, view) for hand in view.hands]
    face_down = ngettext("{count} card face down.", "{count} cards face down.", view.stock_count)
    turned = _("Turned so far: {turns} of {stock}.").format(turns=view.turns, stock=_STOCK)
    sections.append(
        Section(
            _("Stock."),
            (
                f"{face_down.format(count=view.stock_count)} {turned}",  # two whole sentences
                _("Still in the stock, in no order: {cards}.").format(
                    cards=cards_text(view.stock_cards)
                ),
            ),
        )
    )
    sections.append(Section(_("Discards."), (f"{cards_text(view.discards)}.",)))
    return Document(_("Five Crowns Solitaire."), tuple(sections), card_legend(), tuple(intro))


def _status(view: SolitaireView) -> str:
    if view.phase is Phase.WON:
        return _("Won: every hand is closed.")
    if view.phase is Phase.LOST:
        return _("Lost: the stock ran out.")
    if view.phase is Phase.DISCARD:
        return _("Discard a card from the hand of {hand}.").format(hand=view.target)
    if view.turned is None:
        return _("Turned card: none. Put it into an open hand.")
    return _("Turned card: {card}. Put it into an open hand.").format(card=view.turned.token)


def hand_section(hand: Hand, view: SolitaireView) -> Section:
    """One hand: its wild rank and state, its cards, its best melds and leftover."""
    wild = hand.wild_rank
    if hand.is_closed:
        # TRANSLATORS: {ranks} is the hand's wild rank in the plural ("7s", "Kings")
        title = _("Hand of {hand}, {ranks} wild, closed.")
    else:
        # TRANSLATORS: {ranks} is the hand's wild rank in the plural ("7s", "Kings")
        title = _("Hand of {hand}, {ranks} wild, open.")
    title = title.format(hand=hand.number, ranks=wild.plural)
    lines = [_("Cards: {cards}.").format(cards=cards_text(sorted(hand.cards)))]
    if hand.arrangement is not None:
        lines += [meld_line(meld, wild) for meld in hand.arrangement.melds]
        return Section(title, tuple(lines))
    if view.phase is Phase.DISCARD and view.target == hand.number:
        lines.append(_("It holds the turned card: one card must be discarded."))
        return Section(title, tuple(lines))
    arrangement = best_arrangement(hand.cards, wild)
    lines += [meld_line(meld, wild) for meld in arrangement.melds] or [_("No melds yet.")]
    leftover = cards_text(sorted(arrangement.leftover))
    points = arrangement.leftover_points
    lines.append(
        ngettext(
            "Leftover: {cards}, {count} point.", "Leftover: {cards}, {count} points.", points
        ).format(cards=leftover, count=points)
    )
    return Section(title, tuple(lines))
