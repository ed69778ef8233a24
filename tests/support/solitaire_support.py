"""The solitaire tests' helpers: boards set up card by card, and a solitaire game driven by keys.

:func:`board` runs a :class:`SolitaireSession` in a presentation without a terminal: keys go
through prompt_toolkit's own parser into the real bindings, and a recording backend hears what
is said.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from fivecrowns.core.cards import Card, parse_card, parse_cards
from fivecrowns.core.solitaire.rules import (
    HAND_NUMBERS,
    Solitaire,
)
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.app import Presentation
from fivecrowns.ui.settings import Settings
from fivecrowns.ui.solitaire import SolitaireSession
from ui_support import press_keys

_BOOK_SUITS = ("h", "c", "sp", "d", "st")
_TOKENS = {11: "J", 12: "Q", 13: "K"}


def _book_ranks(number: int) -> list[int]:
    """Ranks three apart (so no run can form across books), none of them wild here."""
    for ranks in ([3, 6, 9, 12], [4, 7, 10, 13], [5, 8, 11]):
        if number not in ranks and len(ranks) >= number // 3:
            return ranks[: number // 3]
    raise AssertionError(number)


def melded(number: int) -> list[Card]:
    """A hand of ``number`` cards that is all books (no wilds): 3 or 4 cards of each rank."""
    ranks = _book_ranks(number)
    sizes = [3] * len(ranks)
    for extra in range(number % 3):
        sizes[extra % len(sizes)] += 1
    tokens = [
        f"{_TOKENS.get(rank, rank)}{suit}"
        for rank, size in zip(ranks, sizes, strict=True)
        for suit in _BOOK_SUITS[:size]
    ]
    return parse_cards(" ".join(tokens))


def junk(number: int) -> Card:
    """A star that fits nothing in that hand: no book of its rank, not wild, no run."""
    rank = next(r for r in range(13, 2, -1) if r != number and r not in _book_ranks(number))
    return parse_card(f"{_TOKENS.get(rank, rank)}st")


def open_hand(number: int) -> list[Card]:
    """A hand one card short of closing: its third card is replaced by a junk star."""
    cards = melded(number)
    return [*cards[:2], *cards[3:], junk(number)]


def missing(number: int) -> Card:
    return melded(number)[2]


def all_closed_but(*numbers: int) -> dict[int, list[Card]]:
    return {n: (open_hand(n) if n in numbers else melded(n)) for n in HAND_NUMBERS}


class Board:
    def __init__(self, session: SolitaireSession, presentation: Presentation) -> None:
        self.session = session
        self.presentation = presentation
        self.backend: RecordingBackend = session.output.backend  # type: ignore[attr-defined]

    @property
    def game(self) -> Solitaire:
        return self.session.game

    def press(self, *keys: str) -> None:
        press_keys(self.presentation.app, keys)

    def discard(self, card: Card) -> None:
        """Walk to ``card`` in the hand taking the turned card with Home and Right; Enter."""
        target = self.game.target
        assert target is not None
        index = sorted(self.game.hand(target).cards).index(card)
        self.press("home", *["right"] * index, "enter")

    def said(self, mark: int = 0) -> list[str]:
        return self.backend.spoken[mark:]

    def mark(self) -> int:
        return len(self.backend.spoken)


@contextmanager
def board(
    game: Solitaire,
    *,
    line_mode: bool = False,
    save: Path | None = None,
    resumed: bool = False,
    settings: Settings | None = None,
) -> Iterator[Board]:
    session = SolitaireSession(
        game,
        Output(RecordingBackend()),
        save_path=save,
        autosave=save is not None,
        settings=settings,
    )
    with create_pipe_input() as pipe:
        presentation = Presentation(
            session,
            line_mode=line_mode,
            input=pipe,
            output=DummyOutput(),
            stdout=io.StringIO(),
            render=session.render,
        )
        session.start(resumed=resumed)
        yield Board(session, presentation)


def _small_game() -> Solitaire:
    return Solitaire.from_hands(
        all_closed_but(5, 8, 12), [missing(8), parse_card("Kd"), missing(5), missing(12)]
    )
