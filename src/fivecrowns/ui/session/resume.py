"""Starting a game: a new deal's seed, and a saved game rebuilt for ``--resume``."""

from __future__ import annotations

import random
from typing import Any

from fivecrowns.core.codec import game_from_json, move_from_json
from fivecrowns.core.errors import FiveCrownsError, SaveFileError
from fivecrowns.core.game import Game
from fivecrowns.i18n import gettext as _
from fivecrowns.ui.session.seats import Seat

__all__ = ["game_from_save", "new_seed"]


def game_from_save(data: dict[str, Any]) -> tuple[Game, list[Seat], int]:
    """Rebuild an autosaved game: from its full state, else by replaying its moves.

    The seats, seed and moves are kept beside the full state so that the game
    can also be replayed from its seed (``fivecrowns export --game`` does that).
    """
    from fivecrowns.core.game import GameOptions

    try:
        seats = [Seat(str(s["name"]), s["level"]) for s in data["seats"]]
        at_keyboard = int(data.get("at_keyboard", 0))
    except (KeyError, TypeError, ValueError) as error:
        raise SaveFileError(_("The saved game has no seats: {why}.").format(why=error)) from None
    for seat in seats:
        if seat.level is not None and not isinstance(seat.level, str):
            raise SaveFileError(
                _("The saved game's seat {name} has no valid level.").format(name=seat.name)
            )
    if "game" in data:
        return game_from_json(data["game"]), seats, at_keyboard
    try:
        game = Game(
            [seat.name for seat in seats],
            seed=int(data["seed"]),
            first_dealer=int(data["first_dealer"]),
            options=GameOptions(decks=int(data.get("decks", 2))),
        )
        for player, move_data in data["moves"]:
            game.apply(int(player), move_from_json(move_data))
    except (KeyError, TypeError, ValueError, FiveCrownsError) as error:
        raise SaveFileError(
            _("The saved game cannot be replayed: {why}.").format(why=error)
        ) from None
    return game, seats, at_keyboard


def new_seed() -> int:
    return random.SystemRandom().randrange(2**31)
