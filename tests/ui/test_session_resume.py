"""A saved game resumed (ui/session/resume.py): it says where the game stands, asks the hot
seat's player at the keyboard for their discard, and keeps the last moves and why.

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and
the output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

import json

from ai_support import table as deal
from fivecrowns.ai import load_bot
from fivecrowns.core.game import Game
from fivecrowns.core.moves import DrawFromStock
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.session import Seat, Session, game_from_save
from fivecrowns.ui.settings import Settings
from ui_support import play_turn, table

ONE_HUMAN = [Seat("You"), Seat("Ann", "medium")]


HOT_SEAT = [Seat("Ann"), Seat("Ben"), Seat("Cy", "medium")]


def resumed_session(game: Game, seats: list[Seat]) -> tuple[Session, RecordingBackend]:
    backend = RecordingBackend()
    session = Session(
        game,
        seats,
        Output(backend),
        Settings(delay=0.0),
        bot_loader=lambda level, index: load_bot(level, seed=index),
        autosave=False,
    )
    session.start(resumed=True)
    return session, backend


def test_resume_after_drawing_says_where_the_game_stands() -> None:
    game = deal(["6st 7st 9h", "4h 9c Kd"], turned_up="5d", stock_top="Qsp")
    game.apply(0, DrawFromStock())
    _, backend = resumed_session(game, ONE_HUMAN)
    said = backend.spoken
    assert said[0] == "Resumed. Round 1 of 11. 3s are wild, and jokers."
    assert said[1] == "Your hand: 6 of stars, 7 of stars, 9 of hearts and Queen of spades."
    assert said[2] == "Your turn: discard a card, or go out."
    assert not any("cards each" in words for words in said)


def test_resume_in_hot_seat_after_drawing_asks_for_the_discard() -> None:
    game = deal(["6st 7st 9h", "4h 9c Kd", "3c 4c 5c"], turned_up="5d", stock_top="Qsp")
    game.apply(0, DrawFromStock())
    session, backend = resumed_session(game, HOT_SEAT)
    assert backend.spoken[-1] == "Pass to Ann. Press Enter when ready."
    session.press("c-m")
    assert backend.spoken[-1] == "Your turn: discard a card, or go out."


def test_resume_keeps_the_last_moves_and_why() -> None:
    seats = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]
    with table(seats, seed=4, first_dealer=0) as t:
        play_turn(t)
        play_turn(t)  # You discard; Ann and Ben move
        assert t.game.current_player == 0
        t.press("l")
        live_moves = t.spoken()[-1]
        t.press("y")
        live_why = t.spoken()[-1]
        assert live_moves.startswith("Ann ") and "Ben " in live_moves
        assert live_why.startswith("Ben: ")
        payload = json.loads(json.dumps(t.session.save_payload()))
    game, saved_seats, _ = game_from_save(payload)
    backend = RecordingBackend()
    session = Session(
        game,
        saved_seats,
        Output(backend),
        Settings(delay=0.0),
        bot_loader=lambda level, index: load_bot(level, seed=4 + index),
        autosave=False,
    )
    session.start(resumed=True)
    session.press("l")
    assert backend.spoken[-1] == live_moves
    session.press("y")
    assert backend.spoken[-1] == live_why
