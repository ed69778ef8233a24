"""The full screen table: plain text lines in high contrast, suits in colour and in letters.

No box-drawing characters and no timers: the screen is drawn from a
:class:`~fivecrowns.ui.model.TableModel` only when a key or a move changed it.
The terminal cursor is placed on the focused card so that screen readers and
braille displays follow the focus.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style

from fivecrowns.cards import Card, Rank, Suit
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


def render_table(model: TableModel) -> StyleAndTextTuples:
    """The whole screen as styled text; cursor on the focused card."""
    out: StyleAndTextTuples = []

    def line(text: str = "", style: str = "") -> None:
        out.append((style, text + "\n"))

    line(
        f"Five Crowns. Round {model.round_number} of 11. {model.wild_rank.plural} are wild.",
        "class:title",
    )
    line()
    line("Players   cards   last round   total", "class:label")
    for seat in model.seats:
        marker = "> " if seat.is_turn else "  "
        round_points = "" if seat.round_points is None else str(seat.round_points)
        name = seat.name + (" (you)" if seat.is_you else "")
        text = f"{marker}{name:<14}{seat.cards:>3}   {round_points:>10}   {seat.total:>5}"
        if seat.note:
            text += f"   {seat.note}"
        line(text, "class:turn" if seat.is_turn else "")
    line()
    if model.top_discard is None:
        out.append(("", "Discard pile: empty."))
    else:
        out.append(("", "Discard pile: "))
        out.append((suit_style(model.top_discard), model.top_discard.token))
        out.append(("", f" ({model.top_discard.spoken})."))
    line(f"   Stock: {model.stock} cards.")
    for meld in model.melds:
        line(f"On the table: {meld}")
    line()
    if model.privacy is not None:
        line(model.privacy, "class:overlay")
        out.append(("[SetCursorPosition]", ""))
        line()
        return out
    owner = "Your" if model.you == "You" else f"{model.you}'s"
    heading = f"{owner} hand, {len(model.hand)} cards, sorted by {model.sort_order}:"
    line(heading, "class:label")
    numbers = "   ".join(f"{i + 1:<2}" for i in range(len(model.hand)))
    line(" " + numbers if model.hand else "", "class:label")
    out.append(("", " "))
    for index, card in enumerate(model.hand):
        out += _card_fragments(card, model.wild_rank, index == model.focus, index + 1)
        out.append(("", " " * (5 - len(card.token))))
    line()
    if model.hand:
        card = model.hand[model.focus]
        wild = ", wild" if card.rank == model.wild_rank else ""
        line(f"On card {model.focus + 1} of {len(model.hand)}: {card.spoken}{wild}.")
    line()
    line(model.status, "class:message")
    if model.overlay is None or model.message != model.overlay.title:
        line(model.message, "class:message")  # a question is shown once, in its overlay
    if model.overlay is not None:
        line()
        line(model.overlay.title, "class:overlay")
        for index, item in enumerate(model.overlay.items):
            if index == model.overlay.selected:
                out.append(("[SetCursorPosition]", ""))
                line(f"> {item}", "class:selected")
            else:
                line(f"  {item}")
    return out
