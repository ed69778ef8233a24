"""The legal moves (Game.legal_moves, legal_moves_for) are exactly the moves the rules accept,
one per distinct card in card order, at every step of random whole games: found by card codes
since issue 29, they must stay what finding them by the cards themselves gave."""

from __future__ import annotations

import random

import pytest

from fivecrowns.core.game import Game, GameOptions
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, TakeDiscard
from gamehelpers import random_move


@pytest.mark.parametrize(("seed", "players", "decks"), [(3, 2, 2), (11, 4, 2), (29, 7, 3)])
def test_legal_moves_are_every_accepted_move_once_in_card_order(
    seed: int, players: int, decks: int
) -> None:
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], seed=seed, options=GameOptions(decks=decks))
    steps = 0
    for steps in range(20_000):  # bounded: a game has a few hundred moves
        if game.is_over:
            break
        seat = game.current_player
        legal = game.legal_moves(seat)
        assert all(game.can(seat, move) for move in legal), steps
        hand = game.hand(seat)
        distinct = sorted(set(hand), key=lambda card: card.code)
        discards = [card for card in distinct if game.can(seat, Discard(card))]
        assert [m.card for m in legal if isinstance(m, Discard)] == discards, steps
        outs = [m.discard for m in legal if isinstance(m, GoOut)]
        assert sorted(outs, key=lambda card: card.code) == outs, steps
        assert len(set(outs)) == len(outs), steps
        assert outs == [card for card in distinct if game.can(seat, GoOut(card))], steps
        draws = [m for m in legal if isinstance(m, DrawFromStock | TakeDiscard)]
        assert draws == [m for m in (DrawFromStock(), TakeDiscard()) if game.can(seat, m)]
        for other in range(players):
            assert other == seat or game.legal_moves(other) == []
        assert all(
            isinstance(m, Discard | GoOut | DrawFromStock | TakeDiscard | LayDown) for m in legal
        )
        game.apply(seat, random_move(game, rng, 0.8))
    assert game.is_over and steps > 50


def test_the_moves_made_once_come_in_a_list_of_their_own_each_time() -> None:
    """A draw's and a last lay-down's moves are made once (frozen, shared by every table, so
    the server keeps each one's JSON): each call still hands out a list of its own, so a
    caller changing it changes no later answer."""
    game = Game(["Ann", "Ben"], seed=5)
    seat = game.current_player
    first = game.legal_moves(seat)
    assert first == [DrawFromStock(), TakeDiscard()]
    first.clear()
    again = game.legal_moves(seat)
    assert again == [DrawFromStock(), TakeDiscard()]
    assert again[0] is game.legal_moves(seat)[0]  # the very same move object
