"""The full screen table: plain text lines in high contrast, suits in colour and in letters.

No box-drawing characters and no timers: the screen is drawn from a
:class:`~fivecrowns.ui.model.TableModel` only when a key or a move changed it.
The terminal cursor is placed on the focused card so that screen readers and
braille displays follow the focus.
"""

from __future__ import annotations

import textwrap

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style

from fivecrowns.core.cards import Card, Rank, Suit, spoken_name
from fivecrowns.i18n import N_, ngettext, pgettext
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.model import TableModel

__all__ = ["STYLE", "render_table", "suit_style"]

# Five-colour deck colours on black, bold for contrast; the letters carry the suit too.
STYLE = Style.from_dict(
    {
        "": "#ffffff bg:#000000",
        "title": "bold #ffffff",
        "label": "#ffffff",
        "turn": "bold #000000 bg:#ffff00",
        "you": "bold",
        "card": "bold",
        "focused": "reverse bold",
        "suit-st": "bold #ffd700",
        "suit-h": "bold #ff5f5f",
        "suit-c": "bold #5fff5f",
        "suit-sp": "bold #ffffff",
        "suit-d": "bold #5fafff",
        "suit-jk": "bold #ff87ff",
        "wild": "underline",
        "message": "bold #ffffff",
        "overlay": "bold #000000 bg:#ffffff",
        "selected": "reverse bold",
    }
)


def suit_style(card: Card) -> str:
    suit: Suit | None = card.suit
    return "class:suit-jk" if suit is None else f"class:suit-{suit.token}"


def _card_fragments(card: Card, wild: Rank, focused: bool, number: int) -> StyleAndTextTuples:
    style = suit_style(card) + (" class:wild" if card.rank is None or card.rank == wild else "")
    if focused:
        style += " class:focused"
    out: StyleAndTextTuples = []
    if focused:
        out.append(("[SetCursorPosition]", ""))
    out.append((style, card.token))
    return out


Row = StyleAndTextTuples  # one screen line, without its newline


def _wrap(text: str, width: int, style: str = "") -> list[Row]:
    """Lines of at most ``width`` columns, broken between words (a long word alone is cut)."""
    if not text:
        return [[(style, "")]]
    lines = textwrap.wrap(text, width=max(10, width), break_on_hyphens=False) or [""]
    return [[(style, part)] for part in lines]


#: The screen's words (column headings, the hand's heading, the piles' line).
SEAT_YOU = N_("{name} (you)")
TITLE = N_("Five Crowns. Round {round} of 11. {wild} are wild.")
WATCHING_NO_HAND = N_("You are watching this table: you have no hand.")


def _hand_heading(name: str | None, order: str, count: int) -> str:
    """ "Your hand, 7 cards, sorted by rank:"; with ``name``, that player's hand."""
    if name is None and order == "suit":
        template = ngettext(
            "Your hand, {count} card, sorted by suit:",
            "Your hand, {count} cards, sorted by suit:",
            count,
        )
    elif name is None:
        template = ngettext(
            "Your hand, {count} card, sorted by rank:",
            "Your hand, {count} cards, sorted by rank:",
            count,
        )
    elif order == "suit":
        template = ngettext(
            "{name}'s hand, {count} card, sorted by suit:",
            "{name}'s hand, {count} cards, sorted by suit:",
            count,
        )
    else:
        template = ngettext(
            "{name}'s hand, {count} card, sorted by rank:",
            "{name}'s hand, {count} cards, sorted by rank:",
            count,
        )
    return template.format(name=name, count=count)


ON_CARD = N_("On card {index} of {count}: {card}.")
DISCARD_EMPTY = N_("Discard pile: empty.")
DISCARD_TOP = N_("Discard pile: {token} ({card}).")


def stock(count: int) -> str:
    return ngettext(
        "Stock: {count} card.",
        "Stock: {count} cards.",
        count,
    )


ON_THE_TABLE = N_("On the table: {melds}")


def _seat_rows(model: TableModel) -> list[Row]:
    """The players' table: headers over their own columns (the numbers right-aligned)."""
    names = [
        _(SEAT_YOU).format(name=seat.name) if seat.is_you else seat.name for seat in model.seats
    ]
    # TRANSLATORS: the screen's column headings over the players' table
    player, cards = pgettext("column", "Player"), pgettext("column", "cards")
    last, total = pgettext("column", "last round"), pgettext("column", "total")
    width = max([len(player), *map(len, names)]) + 2
    header = f"  {player:<{width}}{cards:>5}   {last:>10}   {total:>5}"
    rows: list[Row] = [[("class:label", header)]]
    for seat, name in zip(model.seats, names, strict=True):
        marker = "> " if seat.is_turn else "  "
        round_points = "" if seat.round_points is None else str(seat.round_points)
        text = f"{marker}{name:<{width}}{seat.cards:>5}   {round_points:>10}   {seat.total:>5}"
        if seat.note:
            text += f"   {seat.note}"
        rows.append([("class:turn" if seat.is_turn else "", text)])
    return rows


def _hand_rows(model: TableModel) -> list[Row]:
    if model.watching:  # why: "Your hand, 0 cards" would say a spectator has an empty hand
        return [[("class:label", _(WATCHING_NO_HAND))]]
    count = len(model.hand)
    default_name = pgettext("the default name of the only human player", "You")
    heading = _hand_heading(
        None if model.you == default_name else model.you, model.sort_order, count
    )
    rows: list[Row] = [[("class:label", heading)]]
    numbers = "   ".join(f"{i + 1:<2}" for i in range(len(model.hand)))
    rows.append([("class:label", " " + numbers if model.hand else "")])
    cards: Row = [("", " ")]
    for index, card in enumerate(model.hand):
        cards += _card_fragments(card, model.wild_rank, index == model.focus, index + 1)
        cards.append(("", " " * (5 - len(card.token))))
    rows.append(cards)
    wilds = [card.rank is None or card.rank == model.wild_rank for card in model.hand]
    if any(wilds):
        # why a row of words: the underline alone is invisible to many people and to braille
        # TRANSLATORS: under each wild card on the screen; at most 4 letters fit the column
        word = pgettext("under a card", "wild")[:4]
        marks = "".join(f"{word:<5}" if wild else "     " for wild in wilds)
        rows.append([("class:label", (" " + marks).rstrip())])
    if model.hand:
        card = model.hand[model.focus]
        name = spoken_name(card, model.wild_rank)
        on_card = _(ON_CARD).format(index=model.focus + 1, count=len(model.hand), card=name)
        rows.append([("", on_card)])
    return rows


def _overlay_rows(model: TableModel, width: int, room: int) -> list[Row]:
    """The open list, as many items as there is room for, around the selected one."""
    overlay = model.overlay
    assert overlay is not None
    rows = _wrap(overlay.title, width, "class:overlay")
    items = overlay.items
    room = max(3, room - len(rows))
    first = max(0, min(overlay.selected - room // 2, len(items) - room))
    for index in range(first, min(len(items), first + room)):
        if index == overlay.selected:
            rows.append(
                [("[SetCursorPosition]", ""), ("class:selected", f"> {items[index]}"[:width])]
            )
        else:
            rows.append([("", f"  {items[index]}"[:width])])
    return rows


def render_table(model: TableModel, width: int = 80, height: int = 24) -> StyleAndTextTuples:
    """The whole screen as styled text, fitted to ``width`` by ``height``; cursor on the
    focused card. What must show comes first; what does not fit is left out in this order:
    blank lines, older recent messages, the melds in full (then one line says how many)."""
    width = max(20, width - 1)  # why one less: a full last column makes some terminals wrap
    title = _(TITLE).format(round=model.round_number, wild=model.wild_rank.plural)
    top = _wrap(title, width, "class:title")
    seats = _seat_rows(model)
    if model.top_discard is None:
        piles: Row = [("", _(DISCARD_EMPTY))]
    else:
        # the token in its suit's colour, inside the whole translated sentence
        token = model.top_discard.token
        said = _(DISCARD_TOP).format(
            token="\0", card=spoken_name(model.top_discard, model.wild_rank)
        )
        before, _sep, after = said.partition("\0")
        piles = [("", before), (suit_style(model.top_discard), token), ("", after)]
    piles.append(("", "   " + stock(model.stock).format(count=model.stock)))
    melds = [
        row for meld in model.melds for row in _wrap(_(ON_THE_TABLE).format(melds=meld), width)
    ]
    if model.privacy is not None:
        roomy = len(top) + len(seats) + len(melds) + 3 <= height
        rows = [*top, *seats, piles, *(melds if roomy else []), *([[]] if roomy else [])]
        rows += [[("class:overlay", model.privacy), ("[SetCursorPosition]", "")]]
        return _join(rows)
    hand = _hand_rows(model)
    status = _wrap(model.status, width, "class:message")
    message: list[Row] = []
    if model.message != model.status and (
        model.overlay is None or model.message != model.overlay.title
    ):
        message = _wrap(model.message, width, "class:message")  # a question shows in its list
    told = [_wrap(text, width) for text in model.recent]
    fixed = len(top) + len(seats) + 1 + len(hand) + len(status) + len(message)
    room = height - fixed
    if model.overlay is not None:
        overlay = _overlay_rows(model, width, max(3, room))
        room -= len(overlay)
    else:
        overlay = []
    if len(melds) > max(0, room):
        count = len(model.melds)
        folded = melds_folded(count).format(count=count, keys=model.melds_key)
        melds = _wrap(folded, width)
    room -= len(melds)
    while told and sum(map(len, told)) > room:
        told.pop(0)  # whole messages only, the oldest first
    recent = [row for rows in told for row in rows]
    room -= len(recent)
    gap: list[Row] = [[]] if room >= 4 else []  # blank lines only when everything fits
    rows = [*top, *gap, *seats, *gap, piles, *melds, *gap, *hand, *gap, *recent, *status]
    rows += [*message, *(gap if overlay else []), *overlay]
    return _join(rows)


#: When the melds on the table do not fit the screen.
def melds_folded(count: int) -> str:
    return ngettext(
        "On the table: {count} player's melds. Press {keys} to hear them.",
        "On the table: {count} players' melds. Press {keys} to hear them.",
        count,
    )


def _join(rows: list[Row]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for index, row in enumerate(rows):
        out += row
        if index < len(rows) - 1:
            out.append(("", "\n"))
    return out
