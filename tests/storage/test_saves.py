"""Save and resume: exact round trip, clear errors, atomic writes, nothing overwritten."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fivecrowns.core.codec import SAVE_FORMAT, SAVE_VERSION, game_to_json
from fivecrowns.core.errors import SaveFileError
from fivecrowns.core.game import Game
from fivecrowns.storage.saves import load_game, save_game
from gamehelpers import bot_move, snapshot, write_file


def _game_in_progress() -> Game:
    game = Game(["Ann", "Ben", "Cy"], seed=12)
    while game.round < 3 or game.went_out is None:
        game.apply(game.current_player, bot_move(game))
    return game


def test_a_save_holds_the_whole_state_with_its_format_and_version(tmp_path: Path) -> None:
    game = _game_in_progress()
    path = tmp_path / "save.json"
    save_game(game, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == SAVE_FORMAT == "fivecrowns-save"
    assert data["version"] == SAVE_VERSION == 1
    loaded = load_game(path)
    assert snapshot(loaded) == snapshot(game)
    assert loaded.events == game.events and loaded.moves == game.moves
    assert loaded.rng.getstate() == game.rng.getstate()
    assert [name for name in os.listdir(tmp_path)] == ["save.json"]  # no temporary left


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("cut", "is not a complete saved game: it is cut short or corrupted"),
        ("{}", "This is not a Five Crowns saved game."),
        ('{"hello": 1}', "This is not a Five Crowns saved game."),
        ("[1, 2]", "This is not a Five Crowns saved game."),
        ("hello world", "is not a Five Crowns saved game"),
        (b"\xff\xfe\x00garbage", "is not a Five Crowns saved game: it is not text."),
        ("version", "this program reads version 1"),
        ("missing", "This saved game is damaged: 'stock' is missing."),
        ("cards", "This saved game is damaged: the cards in play are not 2 full decks."),
        ("card", "This saved game is damaged: 'Zz' is not a card"),
        ("totals", "This saved game is damaged: the totals are not the sums of the round scores."),
        ("[" * 100_000, "is not a Five Crowns saved game: its JSON is nested too deeply."),
        ("players", "This saved game is damaged: a game needs 2 to 7 players"),
        ("moved", "This saved game is damaged: the hands do not hold the 5 cards each"),
    ],
)
def test_a_bad_file_is_refused_naming_the_problem(
    tmp_path: Path, content: str | bytes, problem: str
) -> None:
    data = game_to_json(_game_in_progress())
    text = json.dumps(data)
    if content == "cut":
        content = text[: len(text) // 2]
    elif content == "version":
        content = json.dumps({**data, "version": 2})
    elif content == "missing":
        content = json.dumps({key: value for key, value in data.items() if key != "stock"})
    elif content == "cards":
        data["stock"][0] = "jk" if data["stock"][0] != "jk" else "3h"
        content = json.dumps(data)
    elif content == "card":
        data["hands"][data["current_player"]][0] = "Zz"
        content = json.dumps(data)
    elif content == "totals":
        data["totals"][0] += 1
        content = json.dumps(data)
    elif content == "moved":
        # Every card is still there, but one seat holds a card of another.
        giver = data["current_player"]
        data["hands"][(giver + 1) % 3].append(data["hands"][giver].pop())
        content = json.dumps(data)
    elif content == "players":
        data["players"] = []
        content = json.dumps(data)
    path = write_file(tmp_path / "bad.json", content)
    before = path.read_bytes()
    with pytest.raises(SaveFileError) as info:
        load_game(path)
    assert problem in str(info.value)
    assert str(path) in str(info.value)
    # Saving over a file that does not load as a saved game is refused; it stays as it was.
    with pytest.raises(SaveFileError, match="It was not overwritten"):
        save_game(Game(["Ann", "Ben"], seed=1), path)
    assert path.read_bytes() == before


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match=r"There is no saved game at .*nothing\.json"):
        load_game(tmp_path / "nothing.json")


def test_an_older_save_is_replaced_atomically(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    first = Game(["Ann", "Ben"], seed=1)
    save_game(first, path)
    second = _game_in_progress()
    save_game(second, path)
    assert snapshot(load_game(path)) == snapshot(second)
    assert sorted(os.listdir(tmp_path)) == ["save.json"]
