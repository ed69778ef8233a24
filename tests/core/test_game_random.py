"""Many random full games under invariants; replay from seed and moves; save/load anywhere."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fivecrowns.core.codec import game_from_json, game_to_json
from fivecrowns.core.game import Game, GameOptions
from fivecrowns.core.moves import (
    Event,
    GoOut,
    LastTurnStarted,
    RoundScored,
    RoundStarted,
    StockReshuffled,
    WentOut,
)
from fivecrowns.core.views import player_view
from fivecrowns.storage.saves import load_game, save_game
from gamehelpers import check_invariants, random_move, snapshot


def _play(seed: int, players: int, decks: int = 2, greed: float = 0.8) -> Game:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    game = Game(names, seed=seed, options=GameOptions(decks=decks))
    check_invariants(game)
    while not game.is_over:
        game.apply(game.current_player, random_move(game, rng, greed))
        check_invariants(game)
    return game


def _check_round_structure(game: Game) -> None:
    """One last turn for each other player, in seat order; the one who went out scores 0."""
    count = len(game.players)
    went_out: int | None = None
    last_turns: list[int] = []
    rounds = 0
    for event in game.events:
        if isinstance(event, RoundStarted):
            went_out, last_turns = None, []
        elif isinstance(event, WentOut):
            assert went_out is None
            went_out = event.player
        elif isinstance(event, LastTurnStarted):
            last_turns.append(event.player)
        elif isinstance(event, RoundScored):
            rounds += 1
            assert went_out is not None and event.went_out == went_out
            assert last_turns == [(went_out + step) % count for step in range(1, count)]
            assert event.scores[went_out] == 0
            assert all(score >= 0 for score in event.scores)
    assert rounds == 11
    sums = [sum(column) for column in zip(*game.round_scores, strict=True)]
    assert sums == game.totals


@pytest.mark.parametrize(
    ("seed", "players", "decks"),
    [(1, 2, 2), (2, 3, 2), (3, 4, 2), (4, 5, 2), (5, 6, 2), (6, 7, 2), (7, 2, 1), (8, 3, 1)],
)
def test_random_full_games_keep_the_invariants(seed: int, players: int, decks: int) -> None:
    game = _play(seed, players, decks)
    _check_round_structure(game)
    assert game.winners == tuple(
        seat for seat, total in enumerate(game.totals) if total == min(game.totals)
    )


def test_long_rounds_reshuffle_the_stock_and_keep_the_invariants() -> None:
    # Players who refuse to go out until the stock has run out once in the round.
    for seed, players, decks in ((30, 2, 1), (31, 3, 1), (32, 7, 2)):
        rng = random.Random(seed)
        game = Game([f"P{i}" for i in range(players)], seed=seed, options=GameOptions(decks=decks))
        reshuffles = 0
        while not game.is_over:
            seat = game.current_player
            reshuffled = any(isinstance(e, StockReshuffled) for e in game.round_events)
            if reshuffled:
                move = random_move(game, rng, 1.0)
            else:
                move = rng.choice([m for m in game.legal_moves(seat) if not isinstance(m, GoOut)])
            for event in game.apply(seat, move):
                reshuffles += isinstance(event, StockReshuffled)
            check_invariants(game)
        _check_round_structure(game)
        assert reshuffles >= 11


def test_replaying_seed_and_moves_gives_the_same_game() -> None:
    game = _play(21, 4)
    again = Game(list(game.players), seed=21)
    replayed: list[Event] = list(again.events)
    for player, move in game.moves:
        replayed.extend(again.apply(player, move))
    assert replayed == game.events
    assert snapshot(again) == snapshot(game)
    # A different seed gives a different game.
    assert snapshot(_play(22, 4)) != snapshot(game)


def test_save_and_load_at_any_point_gives_an_identical_continuation(tmp_path: Path) -> None:
    rng = random.Random(5)
    game = Game(["Ann", "Ben", "Cy"], seed=5)
    path = tmp_path / "game.json"
    step = 0
    while not game.is_over:
        if step % 5 == 0:
            save_game(game, path)
            loaded = load_game(path)
            assert snapshot(loaded) == snapshot(game)
            assert player_view(loaded, 1) == player_view(game, 1)
            # Both continue identically, random draws and reshuffles included.
            for _ in range(3):
                if game.is_over:
                    break
                move = random_move(game, rng)
                assert loaded.apply(loaded.current_player, move) == game.apply(
                    game.current_player, move
                )
                assert snapshot(loaded) == snapshot(game)
        else:
            game.apply(game.current_player, random_move(game, rng))
        step += 1
    # A finished game saves and loads too.
    assert snapshot(game_from_json(json.loads(json.dumps(game_to_json(game))))) == snapshot(game)
