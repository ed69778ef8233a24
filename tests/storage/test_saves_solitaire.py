"""Solitaire save and resume: exact round trip, atomic writes, clear errors, nothing overwritten."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fivecrowns.core.errors import SaveFileError
from fivecrowns.core.solitaire.player import GreedyStrategy
from fivecrowns.core.solitaire.rules import (
    SAVE_FORMAT,
    SAVE_VERSION,
    DiscardCard,
    Phase,
    PutCard,
    Solitaire,
)
from fivecrowns.storage.saves import read_solitaire, save_solitaire
from gamehelpers import write_file


def _played(seed: int, turns: int, *, half: bool = False) -> Solitaire:
    game = Solitaire.deal(seed=seed)
    strategy = GreedyStrategy()
    for _ in range(turns):
        play = strategy.plan(game.view())
        game.apply(PutCard(play.hand))
        if half:
            return game
        game.apply(DiscardCard(play.discard))
    return game


def _finish(game: Solitaire) -> Solitaire:
    strategy = GreedyStrategy()
    if game.phase is Phase.DISCARD:
        assert game.target is not None
        game.apply(DiscardCard(game.hand(game.target).cards[-1]))
    while not game.phase.is_over:
        play = strategy.plan(game.view())
        game.apply(PutCard(play.hand))
        game.apply(DiscardCard(play.discard))
    return game


@pytest.mark.parametrize("half", [False, True], ids=["card turned", "card put"])
def test_a_save_resumes_exactly_and_plays_on_the_same(tmp_path: Path, half: bool) -> None:
    game = _played(seed=3, turns=6, half=half)
    path = tmp_path / "solitaire.json"
    save_solitaire(game, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == SAVE_FORMAT == "fivecrowns-solitaire"
    assert data["version"] == SAVE_VERSION == 1
    loaded = read_solitaire(path)
    assert loaded.to_json() == game.to_json()
    assert loaded.view() == game.view()
    assert os.listdir(tmp_path) == ["solitaire.json"]  # no temporary file left behind
    assert _finish(loaded).to_json() == _finish(game).to_json()


def test_a_finished_game_saves_and_loads(tmp_path: Path) -> None:
    game = _finish(Solitaire.deal(seed=5))
    save_solitaire(game, tmp_path / "done.json")
    loaded = read_solitaire(tmp_path / "done.json")
    assert loaded.phase is game.phase and loaded.points_left() == game.points_left()


def test_saving_again_replaces_the_old_save(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    save_solitaire(_played(seed=1, turns=1), path)
    later = _played(seed=1, turns=4)
    save_solitaire(later, path)
    assert read_solitaire(path).turns == later.turns == 5


def _valid_json() -> dict[str, object]:
    return _played(seed=2, turns=3).to_json()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"format": "fivecrowns-solitaire", "vers', "it is not complete JSON"),
        (b"\xff\xfe\x00garbage", "Could not read the saved game"),
        ('{"format": "fivecrowns-save", "version": 1}', "not a Five Crowns Solitaire save"),
        ("[1, 2, 3]", "it is not a saved game"),
        ("[" * 100_000, "its JSON is nested too deeply"),
    ],
)
def test_a_damaged_file_gives_a_clear_error(
    tmp_path: Path, content: str | bytes, reason: str
) -> None:
    path = write_file(tmp_path / "bad.json", content)
    with pytest.raises(SaveFileError, match=reason) as raised:
        read_solitaire(path)
    assert str(path) in str(raised.value)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 99}, "version 99, and this program reads up to 1"),
        ({"stock": "7h 11h"}, "'11h' is not a card"),
        ({"phase": "thinking"}, "'thinking' is not a valid Phase"),
        ({"turned": None}, "the turned card does not match the phase"),
        ({"turns": -1}, "the number of turns is not a count"),
        ({"phase": "discard", "turned": None, "target": 99}, "there is no hand 99"),
        ({"stock": "jk jk jk jk jk jk jk"}, "it has 12 copies of the joker; two decks hold 6"),
    ],
)
def test_a_tampered_save_names_what_is_wrong(
    tmp_path: Path, change: dict[str, object], reason: str
) -> None:
    data = _valid_json()
    data.update(change)
    path = write_file(tmp_path / "bad.json", json.dumps(data))
    with pytest.raises(SaveFileError, match=reason):
        read_solitaire(path)


def test_a_hand_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    data = _valid_json()
    hands = data["hands"]
    assert isinstance(hands, dict)
    hands["5"]["cards"] = "3h 4h"
    path = write_file(tmp_path / "bad.json", json.dumps(data))
    with pytest.raises(SaveFileError, match="the hand of 5 has 2 cards, not 5"):
        read_solitaire(path)


def test_a_missing_save_says_so(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="There is no saved solitaire game at"):
        read_solitaire(tmp_path / "nothing.json")


def test_a_foreign_file_is_never_overwritten(tmp_path: Path) -> None:
    path = write_file(tmp_path / "notes.txt", "my shopping list")
    with pytest.raises(SaveFileError, match="It was not overwritten"):
        save_solitaire(_played(seed=1, turns=1), path)
    assert path.read_text(encoding="utf-8") == "my shopping list"
