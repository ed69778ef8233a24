"""The Five Crowns Solitaire board as an export document (text, BRF, Unicode braille).

Built from the player's view only: the hands, the turned card, the discards and
what the stock holds (its contents are known, its order is not).

>>> from fivecrowns.solitaire import Solitaire
>>> document = board_document(Solitaire.deal(seed=1).view())
>>> document.title, len(document.sections)
('Five Crowns Solitaire.', 13)
"""

from __future__ import annotations

from fivecrowns.export.content import cards_text, meld_line
from fivecrowns.export.document import CARD_LEGEND, Document, Section
from fivecrowns.melds import best_arrangement
from fivecrowns.solitaire import DEALT_CARDS, Hand, Phase, SolitaireView

__all__ = ["board_document", "hand_section"]

_STOCK = 116 - DEALT_CARDS


def board_document(view: SolitaireView) -> Document:
    """The whole board: where the game stands, then each hand, then the stock and discards."""
    closed = sum(hand.is_closed for hand in view.hands)
    points_left = sum(hand.leftover_points() for hand in view.open_hands)
    intro = [_status(view), f"Closed: {closed} of 11 hands. Points left: {points_left}."]
    sections = [hand_section(hand, view) for hand in view.hands]
    sections.append(
        Section(
            "Stock.",
            (
                f"{_cards(view.stock_count)} face down. Turned so far: {view.turns} of {_STOCK}.",
                f"Still in the stock, in no order: {cards_text(view.stock_cards)}.",
            ),
        )
    )
    sections.append(Section("Discards.", (f"{cards_text(view.discards)}.",)))
    return Document("Five Crowns Solitaire.", tuple(sections), CARD_LEGEND, tuple(intro))


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _status(view: SolitaireView) -> str:
    if view.phase is Phase.WON:
        return "Won: every hand is closed."
    if view.phase is Phase.LOST:
        return "Lost: the stock ran out."
    if view.phase is Phase.DISCARD:
        return f"Discard a card from the hand of {view.target}."
    turned = view.turned.token if view.turned is not None else "none"
    return f"Turned card: {turned}. Put it into an open hand."


def hand_section(hand: Hand, view: SolitaireView) -> Section:
    """One hand: its wild rank and state, its cards, its best melds and leftover."""
    wild = hand.wild_rank
    title = f"Hand of {hand.number}, {wild.plural} wild, {'closed' if hand.is_closed else 'open'}."
    lines = [f"Cards: {cards_text(sorted(hand.cards))}."]
    if hand.arrangement is not None:
        lines += [meld_line(meld, wild) for meld in hand.arrangement.melds]
        return Section(title, tuple(lines))
    if view.phase is Phase.DISCARD and view.target == hand.number:
        lines.append("It holds the turned card: one card must be discarded.")
        return Section(title, tuple(lines))
    arrangement = best_arrangement(hand.cards, wild)
    lines += [meld_line(meld, wild) for meld in arrangement.melds] or ["No melds yet."]
    leftover = cards_text(sorted(arrangement.leftover))
    lines.append(f"Leftover: {leftover}, {arrangement.leftover_points} points.")
    return Section(title, tuple(lines))
