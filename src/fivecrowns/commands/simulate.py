"""``fivecrowns simulate``: whole games between computer players, for statistics and speed.

Prints the mean score and the wins of each seat, and games per second. A
shared win counts as a fraction. The same seed gives the same results.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass

__all__ = ["SimulationResult", "configure", "run", "simulate"]


@dataclass(frozen=True)
class SimulationResult:
    games: int
    ai: tuple[str, ...]
    mean_scores: tuple[float, ...]
    wins: tuple[float, ...]
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "seats": [
                {"ai": name, "mean_score": mean, "wins": wins}
                for name, mean, wins in zip(self.ai, self.mean_scores, self.wins, strict=True)
            ],
            "games_per_second": self.games_per_second,
        }


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, help="players at the table, 2 to 7")
    parser.add_argument("--games", type=int, default=10, help="how many games to play")
    parser.add_argument("--seed", type=int, default=1, help="the same seed gives the same games")
    parser.add_argument("--decks", type=int, default=2, help="decks shuffled together (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def simulate(players: int, games: int, seed: int, decks: int = 2) -> SimulationResult:
    """Play ``games`` games; game ``g`` is seeded with ``seed`` and ``g`` only."""
    from fivecrowns.ai.simple import SimplePlayer
    from fivecrowns.game import Game, GameOptions

    bots = [SimplePlayer() for _ in range(players)]
    names = [f"Seat {seat + 1}" for seat in range(players)]
    totals = [0] * players
    wins = [0.0] * players
    options = GameOptions(decks=decks)
    start = time.perf_counter()
    for number in range(games):
        game = Game(names, seed=seed * 1_000_003 + number, options=options)
        while not game.is_over:
            seat = game.current_player
            game.apply(seat, bots[seat].choose_move(game.view(seat)))
        for seat, total in enumerate(game.totals):
            totals[seat] += total
        winners = game.winners
        for seat in winners:
            wins[seat] += 1 / len(winners)
    seconds = time.perf_counter() - start
    return SimulationResult(
        games=games,
        ai=tuple(bot.name for bot in bots),
        mean_scores=tuple(total / games if games else 0.0 for total in totals),
        wins=tuple(wins),
        seconds=seconds,
    )


def run(args: argparse.Namespace) -> int:
    from fivecrowns.errors import FiveCrownsError

    if args.games < 1:
        print(f"The number of games must be 1 or more, not {args.games}.", file=sys.stderr)
        return 2
    try:
        result = simulate(args.players, args.games, args.seed, args.decks)
    except FiveCrownsError as error:
        print(error, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{result.games} games, {len(result.ai)} players, seed {args.seed}.")
    for seat, (name, mean, won) in enumerate(
        zip(result.ai, result.mean_scores, result.wins, strict=True), start=1
    ):
        print(f"Seat {seat} ({name}): mean score {mean:.1f}, wins {won:g}.")
    print(f"{result.games_per_second:.2f} games per second.")
    return 0
