"""A game dealt again from its seed: for explaining and reviewing moves already made.

>>> game = Game(["Ann", "Ben"], seed=7)  # the first dealer drawn from the seed
>>> again = dealt_again(game)
>>> again is not None and again.events == game.events and again is not game
True
>>> import random
>>> dealt_again(Game(["Ann", "Ben"], rng=random.Random(7))) is None  # no seed kept
True
"""

from __future__ import annotations

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import Game

__all__ = ["dealt_again"]


def dealt_again(game: Game) -> Game | None:
    """A new game dealt as ``game`` was, before any move; ``None`` for a game with no seed
    (or one whose moves do not replay to the same game)."""
    if game.seed is None:
        return None
    # why two tries: a first dealer given to Game takes no number from the seed's generator,
    # one it draws does, and the game does not keep which it was; only the whole game tells
    # (the first deal's events name no card in a hand, and two deals may share them)
    for dealer in (game.first_dealer, None):
        trial = _deal(game, dealer)
        if trial is None or trial.first_dealer != game.first_dealer:
            continue
        try:
            for player, move in game.moves:
                trial.apply(player, move)
        except FiveCrownsError:
            continue
        if trial.events == game.events and trial.hands == game.hands:
            return _deal(game, dealer)
    return None


def _deal(game: Game, dealer: int | None) -> Game | None:
    try:
        return Game(
            game.players,
            seed=game.seed,
            first_dealer=dealer,
            options=game.options,
            deck_orders=game.deck_orders,
        )
    except FiveCrownsError:
        return None
