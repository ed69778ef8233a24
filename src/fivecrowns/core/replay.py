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
    (or one whose first deal cannot be made again)."""
    if game.seed is None:
        return None
    # why two tries: a first dealer given to Game takes no number from the seed's generator,
    # one it draws does, and the game does not keep which it was; the first deal tells.
    for dealer in (None, game.first_dealer):
        try:
            replay = Game(
                game.players,
                seed=game.seed,
                first_dealer=dealer,
                options=game.options,
                deck_orders=game.deck_orders,
            )
        except FiveCrownsError:
            return None
        dealt = replay.events
        if replay.first_dealer == game.first_dealer and dealt == game.events[: len(dealt)]:
            return replay
    return None
