"""Whole games between computer players: what ``fivecrowns simulate`` and the
benchmarks run.

Game ``g`` of a series with seed ``s`` is dealt from ``Game(seed=game_seed(s, g))``
and its first dealer is seat ``g mod players``, so over a series every seat
deals first equally often (seats are fair) and the same seed replays the same
games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fivecrowns.ai.base import BotError, Player
from fivecrowns.ai.loader import level_name, load_bot
from fivecrowns.core.errors import IllegalMoveError
from fivecrowns.core.game import Game, GameOptions
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, TakeDiscard
from fivecrowns.core.views import player_view
from fivecrowns.i18n import gettext as _

__all__ = ["GameResult", "game_seed", "play_game", "play_series", "seat_names"]


@dataclass(frozen=True)
class GameResult:
    """Final totals and winners of one game, and how long each decision took."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    decision_times: tuple[tuple[float, ...], ...] = field(default=(), repr=False)  # per seat


_MOVES = (DrawFromStock, TakeDiscard, Discard, GoOut, LayDown)


def game_seed(seed: int, game: int) -> int:
    """The deal seed of game ``game`` in a series started with ``seed``."""
    return seed * 1_000_003 + game


def seat_names(specs: Sequence[str]) -> list[str]:
    # TRANSLATORS: a computer player's name in a simulated game: "Seat 1 (hard)".
    template = _("Seat {number} ({level})")
    return [
        template.format(number=seat + 1, level=level_name(spec)) for seat, spec in enumerate(specs)
    ]


def play_game(
    bots: Sequence[Player],
    *,
    seed: int,
    first_dealer: int,
    options: GameOptions | None = None,
    names: Sequence[str] | None = None,
    time_decisions: bool = False,
) -> GameResult:
    """Play one whole game; each bot sees only its own view."""
    seats = len(bots)
    game = Game(
        list(names)
        if names is not None
        else [_("Seat {number}").format(number=seat + 1) for seat in range(seats)],
        seed=seed,
        first_dealer=first_dealer,
        options=options,
    )
    times: list[list[float]] = [[] for _seat in range(seats)]
    clock = time.perf_counter
    while not game.is_over:
        seat = game.current_player
        view = player_view(game, seat)
        start = clock()
        try:
            decision = bots[seat].decide(view)
        except Exception as error:  # why: a plug-in's bug is reported as a sentence
            raise BotError(
                _("{name} could not decide: {error}.").format(
                    name=game.players[seat], error=repr(error)
                )
            ) from error
        if time_decisions:
            times[seat].append(clock() - start)
        move = getattr(decision, "move", None)
        if not isinstance(move, _MOVES):
            raise BotError(
                _("{name} answered {answer}, which is not a Decision with a move.").format(
                    name=game.players[seat], answer=repr(decision)
                )
            )
        try:
            game.apply(seat, move)
        except IllegalMoveError as error:
            raise BotError(
                _("{name} made an illegal move: {error}").format(
                    name=game.players[seat], error=error
                )
            ) from error
    return GameResult(
        tuple(game.totals),
        tuple(game.winners),
        tuple(tuple(seat_times) for seat_times in times),
    )


def play_series(
    specs: Sequence[str],
    games: int,
    seed: int,
    *,
    first_game: int = 0,
    options: GameOptions | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    time_decisions: bool = False,
) -> list[GameResult]:
    """Games ``first_game`` .. ``first_game + games - 1`` of the series ``seed``."""
    results = []
    for number in range(first_game, first_game + games):
        bots = [
            load_bot(spec, seed=game_seed(seed, number) * 31 + seat)
            for seat, spec in enumerate(specs)
        ]
        result = play_game(
            bots,
            names=seat_names(specs),
            seed=game_seed(seed, number),
            first_dealer=number % len(specs),
            options=options,
            time_decisions=time_decisions,
        )
        results.append(result)
        if on_game is not None:
            on_game(result)
    return results
