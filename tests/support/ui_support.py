"""Drive the front end without a terminal: prompt_toolkit pipe input, a dummy
terminal output, and the output layer's RecordingBackend to hear what was said.

Keys are typed as the terminal would send them ("\\x1b[C" is Right) and go
through prompt_toolkit's own VT100 parser and key processor into the same
bindings the real program uses.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.output import DummyOutput

from fivecrowns.ai import load_bot
from fivecrowns.core.codec import game_to_json
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard, going_out_discards
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.app import Presentation
from fivecrowns.ui.session import Seat, Session
from fivecrowns.ui.settings import Settings

KEYS = {
    "left": "\x1b[D",
    "right": "\x1b[C",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "enter": "\r",
    "escape": "\x1b",
    "f1": "\x1bOP",
}


def press_keys(app: Application[Any], keys: Iterable[str]) -> None:
    """Type ``keys`` (names from KEYS, or literal characters) into ``app``, one at a time."""
    for key in keys:
        with set_app(app):
            parser = Vt100Parser(app.key_processor.feed)
            parser.feed(KEYS.get(key, key))
            parser.flush()  # a lone Escape is complete without waiting
            app.key_processor.process_keys()


class Table:
    """A session in a presentation, fed keys through prompt_toolkit, heard through a recorder."""

    def __init__(self, session: Session, presentation: Presentation, backend: RecordingBackend):
        self.session = session
        self.presentation = presentation
        self.backend = backend
        self.lines = io.StringIO()

    @property
    def game(self) -> Game:
        return self.session.game

    def press(self, *keys: str) -> None:
        """Type keys: names from KEYS, or literal characters."""
        press_keys(self.presentation.app, keys)

    def spoken(self) -> list[str]:
        return self.backend.spoken

    def said_since(self, mark: int) -> list[str]:
        return self.backend.spoken[mark:]

    def state(self) -> str:
        return json.dumps(game_to_json(self.game), sort_keys=True)


@contextmanager
def table(
    seats: list[Seat],
    seed: int,
    *,
    line_mode: bool = False,
    first_dealer: int | None = None,
    data_dir: Path | None = None,
    verbosity: str = "normal",
    game: Game | None = None,
) -> Iterator[Table]:
    backend = RecordingBackend()
    if game is None:
        game = Game([seat.name for seat in seats], seed=seed, first_dealer=first_dealer)
    settings = Settings(verbosity=verbosity, delay=0.0)
    session = Session(
        game,
        seats,
        Output(backend),
        settings,
        bot_loader=lambda level, index: load_bot(level, seed=seed + index),
        autosave=data_dir is not None,
    )
    with create_pipe_input() as pipe:
        stdout = io.StringIO()
        presentation = Presentation(
            session, line_mode=line_mode, input=pipe, output=DummyOutput(), stdout=stdout
        )
        result = Table(session, presentation, backend)
        result.lines = stdout
        session.start()
        presentation.driver.after_key()  # computer players before the first human turn
        yield result


def focus_on(t: Table, index: int) -> None:
    t.press("home")
    for _ in range(index):
        t.press("right")
    assert t.session.focus() == index


def play_turn(t: Table) -> None:
    """One human turn chosen with the solver, played with keys only (or Enter between rounds)."""
    if t.session.next_round is not None:
        t.press("enter")  # the round's result was said: deal the next round
        return
    game = t.game
    wild = game.wild_rank
    hand = t.session.hand()
    if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
        top = game.top_discard
        now = best_arrangement(hand, wild).leftover_points
        take = top is not None and best_with_discard([*hand, top], wild).leftover_points < now
        t.press("t" if take else "d")
        return
    if game.phase is Phase.DISCARD and going_out_discards(hand, wild):
        t.press("g")
        return
    best = best_with_discard(hand, wild)
    assert best.discard is not None
    focus_on(t, hand.index(best.discard))
    t.press("enter")


def never_go_out(t: Table) -> None:
    """A human turn that draws and discards but never goes out (so a bot goes out first)."""
    if t.game.phase in (Phase.DRAW, Phase.LAST_DRAW):
        t.press("d")
        return
    hand = t.session.hand()
    keep = best_with_discard(hand, t.game.wild_rank)
    assert keep.discard is not None
    t.press("home", *["right"] * hand.index(keep.discard), "enter")
