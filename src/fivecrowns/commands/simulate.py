"""``fivecrowns simulate``: whole games between computer players, for statistics and speed.

    fivecrowns simulate --ai hard,medium,medium,medium --games 100 --seed 1 --json

One ``--ai`` name per seat (``easy``, ``medium``, ``hard``, ``simple``, ``hint``: plays what
the hint says, or a plug-in as ``package.module:ClassName``, see docs/bots.md); one name fills
every seat. Game g is dealt from the series seed and seat g mod players deals
first, so every seat deals first equally often and the same seed gives the same
results. Prints the mean score and the wins of each seat, and games per second;
a shared win counts as a fraction. ``--json`` prints ``{"games": G, "seats":
[{"ai": NAME, "mean_score": float, "wins": float}, ...], "games_per_second":
float}``. A progress bar runs on standard error only when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fivecrowns import i18n
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

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
    parser.add_argument(
        "--ai",
        default="medium",
        metavar=_("LEVEL[,LEVEL...]"),
        help=_(
            "computer player for each seat: easy, medium, hard, simple, hint (plays what the "
            "hint says), or package.module:ClassName; one name fills every seat (default medium)"
        ),
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar=_("PLAYERS"),
        help=_(
            "players at the table, 2 to 7 (8 to 14 may need more --decks) "
            "(default: one per --ai name, or 4)"
        ),
    )
    parser.add_argument(
        "--games", type=int, default=10, metavar=_("GAMES"), help=_("how many games to play")
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar=_("SEED"),
        help=_("the same seed gives the same games"),
    )
    parser.add_argument(
        "--decks",
        type=int,
        default=2,
        metavar=_("DECKS"),
        help=_("decks shuffled together (default 2)"),
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def simulate(
    players: int,
    games: int,
    seed: int,
    decks: int = 2,
    ai: Sequence[str] = ("medium",),
    progress: Any = None,
) -> SimulationResult:
    """Play ``games`` games; game ``g`` is seeded with ``seed`` and ``g`` only.

    ``ai`` has one name per seat, or one name for every seat. ``progress`` is
    called with no arguments after each game.
    """
    from fivecrowns.ai.arena import GameResult, play_series
    from fivecrowns.ai.loader import parse_bot_list
    from fivecrowns.core.game import GameOptions

    specs = parse_bot_list(",".join(ai), players)
    totals = [0] * players
    wins = [0.0] * players

    def count(result: GameResult) -> None:
        for seat, total in enumerate(result.totals):
            totals[seat] += total
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)
        if progress is not None:
            progress()

    start = time.perf_counter()
    play_series(specs, games, seed, options=GameOptions(decks=decks), on_game=count)
    seconds = time.perf_counter() - start
    return SimulationResult(
        games=games,
        ai=tuple(specs),
        mean_scores=tuple(total / games for total in totals),
        wins=tuple(wins),
        seconds=seconds,
    )


#: More decks than any table needs (14 players need 4): bounds the memory a deal takes.
MAX_DECKS = 16
TABLE_SIZE = N_(
    "A game needs {low} to {usual} players (up to {high} with extra decks): "
    "--players {players} is not possible."
)


def run(args: argparse.Namespace) -> int:
    from fivecrowns.ai.loader import level_name, load_bot, parse_bot_list
    from fivecrowns.core.errors import FiveCrownsError

    if args.games < 1:
        problem = _("The number of games must be 1 or more, not {games}.")
        print(problem.format(games=args.games), file=sys.stderr)
        return 2
    names = [part.strip() for part in str(args.ai).split(",")]
    players = args.players if args.players is not None else (len(names) if len(names) > 1 else 4)
    from fivecrowns.core.game import LARGEST_TABLE, MAX_PLAYERS, MIN_PLAYERS

    # why here: before --ai is read (it is not to blame) and before any table is dealt
    if not MIN_PLAYERS <= players <= LARGEST_TABLE:
        sentence = _(TABLE_SIZE).format(
            low=MIN_PLAYERS, usual=MAX_PLAYERS, high=LARGEST_TABLE, players=players
        )
        print(sentence, file=sys.stderr)
        return 2
    if not 1 <= args.decks <= MAX_DECKS:
        problem = _("--decks must be 1 to {most}, not {decks}.")
        print(problem.format(most=MAX_DECKS, decks=args.decks), file=sys.stderr)
        return 2
    try:
        specs = parse_bot_list(args.ai, players)
        for spec in dict.fromkeys(specs):
            load_bot(spec)  # why: report a bad name before any game starts
    except FiveCrownsError as error:
        print(error, file=sys.stderr)
        return 2
    bar = _progress_bar(args.games)
    try:
        result = simulate(
            players,
            args.games,
            args.seed,
            args.decks,
            specs,
            progress=None if bar is None else lambda: bar.update(1),
        )
    except FiveCrownsError as error:
        print(error, file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    played = ngettext(
        "1 game, {players} players, seed {seed}.",
        "{count} games, {players} players, seed {seed}.",
        result.games,
    )
    count = i18n.format_number(result.games)
    print(played.format(count=count, players=len(result.ai), seed=args.seed))
    for seat, (name, mean, won) in enumerate(
        zip(result.ai, result.mean_scores, result.wins, strict=True), start=1
    ):
        line = _("Seat {seat} ({name}): mean score {mean}, wins {wins}.")
        print(
            line.format(
                seat=seat,
                name=level_name(name),
                mean=_decimal(f"{mean:.1f}"),
                wins=_decimal(f"{won:g}"),
            )
        )
    speed = _("{speed} games per second.")
    print(speed.format(speed=_decimal(f"{result.games_per_second:.2f}")))
    return 0


def _decimal(text: str) -> str:
    """A number Python wrote ("12.5") with the language's decimal mark ("12,5" in Spanish).

    why not format_number: it rounds and groups differently from the English lines
    people and scripts already read; only the mark changes.
    """
    mark = i18n.format_number(0.5)[1]
    return text.replace(".", mark)


def _progress_bar(games: int) -> Any:
    """A tqdm bar on standard error when it is a terminal and tqdm is installed, else ``None``.

    why: tqdm draws on a pipe or file too unless told not to (tqdm/tqdm#1342),
    so the command decides and never creates a bar off a terminal. tqdm is the
    optional extra "progress": a player's install runs simulate without a bar.
    """
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None

    # why: words, not block glyphs, so a screen reader or braille display can follow it.
    return tqdm(
        total=games,
        file=sys.stderr,
        disable=False,
        leave=False,
        # TRANSLATORS: tqdm's fields in braces stay as they are
        bar_format=_("{n_fmt} of {total_fmt} games, {percentage:.0f} percent, {remaining} left"),
    )
