"""The session's saves: a resumed game says where it stands, and quitting a game that could
not be saved says so (issue 16 item 5: never "Saved. Goodbye." when nothing was saved).

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and
the output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from ai_support import table as deal
from fivecrowns.ai import load_bot
from fivecrowns.core.game import Game
from fivecrowns.core.moves import DrawFromStock
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.storage import autosave as storage
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


def _unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(blocker / "data"))
    return blocker / "data"


def test_quitting_a_game_that_could_not_be_saved_says_so(tmp_path, monkeypatch) -> None:
    folder = _unwritable(tmp_path, monkeypatch)
    seats = [Seat("You"), Seat("Ann", "easy")]
    with table(seats, 3, data_dir=folder) as t:
        t.press("q")
        question = t.spoken()[-1]
        assert question.startswith("Quit? This game is not saved: the game could not be written")
        assert str(folder) in question and "Quitting loses it." in question
        t.press("y")
        goodbye = t.spoken()[-1]
        assert goodbye.startswith("Not saved: the game could not be written to")
        assert goodbye.endswith("This game cannot be resumed. Goodbye.")
        assert "Saved. Goodbye." not in t.spoken()


def test_a_full_disk_is_told_and_a_later_save_clears_it(tmp_path, monkeypatch) -> None:
    real = storage.write_autosave

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "write_autosave", full)
    seats = [Seat("You"), Seat("Ann", "easy")]
    with table(seats, 3, data_dir=tmp_path / "data") as t:
        t.session.save_now()
        t.press("q")
        assert "(No space left on device)" in t.spoken()[-1]
        t.press("n")
        monkeypatch.setattr(storage, "write_autosave", real)
        t.session.save_now()
        t.press("q", "y")
        assert t.spoken()[-1] == "Saved. Goodbye."
