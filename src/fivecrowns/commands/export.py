"""``fivecrowns export``: a hand, melds, the score sheet or the game log, as text or braille.

``--game SAVE.json`` exports a saved game; ``--seed S --players N`` first plays
a whole game between simple computer players (the same seed gives the same
game). Formats: ``text`` (plain ASCII), ``brf`` (Braille Ready Format for
embossers) and ``unicode`` (Unicode braille); the braille ones need liblouis.
Output goes to standard output unless ``--out FILE`` is given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

if TYPE_CHECKING:
    from fivecrowns.core.game import Game
    from fivecrowns.export.document import Document

__all__ = [
    "SEED_NAMES",
    "build_document",
    "configure",
    "load_saved_game",
    "play_seeded_game",
    "run",
]

WHAT = ("hand", "melds", "scores", "log")
# why whole sentences: "the hand", "the score sheet" take their own article in Spanish
WROTE = {
    "hand": N_("Wrote the hand as {format} to {path}."),
    "melds": N_("Wrote the melds as {format} to {path}."),
    "scores": N_("Wrote the score sheet as {format} to {path}."),
    "log": N_("Wrote the game log as {format} to {path}."),
}
SEED_NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--what", choices=WHAT, default="scores", help=_("what to export (default: scores)")
    )
    parser.add_argument(
        "--format",
        dest="fmt",
        choices=("text", "brf", "unicode"),
        default="text",
        help=_("text (plain ASCII), brf (braille for embossers) or unicode (braille cells)"),
    )
    parser.add_argument(
        "--width",
        type=int,
        metavar="N",
        default=40,
        help=_("characters or braille cells per line: 14 to 80, BRF at most 40 (default 40)"),
    )
    parser.add_argument(
        "--grade",
        type=int,
        choices=(1, 2),
        default=1,
        help=_("braille grade: 1 uncontracted (default) or 2 contracted (UEB)"),
    )
    parser.add_argument(
        "--out", metavar=_("FILE"), help=_("write to FILE instead of standard output")
    )
    parser.add_argument(
        "--player",
        metavar=_("NAME"),
        help=_(
            "whose hand: a name or seat number (default: the player at the keyboard, or seat 1)"
        ),
    )
    parser.add_argument(
        "--round",
        type=int,
        dest="round_number",
        metavar="N",
        help=_("which round's melds (default: the latest)"),
    )
    parser.add_argument("--game", metavar=_("SAVE.json"), help=_("a saved or autosaved game"))
    parser.add_argument(
        "--seed", type=int, metavar="S", help=_("play a whole computer game with this seed")
    )
    parser.add_argument(
        "--players", type=int, metavar="N", help=_("players in the --seed game, 2 to 7")
    )


def play_seeded_game(seed: int, players: int) -> Game:
    """A whole game between simple computer players; the same seed gives the same game."""
    from fivecrowns.ai.simple import SimplePlayer
    from fivecrowns.core.errors import FiveCrownsError
    from fivecrowns.core.game import Game
    from fivecrowns.core.views import player_view

    if not 2 <= players <= len(SEED_NAMES):
        raise FiveCrownsError(
            _("A --seed game has 2 to {most} players, not {players}.").format(
                most=len(SEED_NAMES), players=players
            )
        )
    game = Game(SEED_NAMES[:players], seed=seed)
    bot = SimplePlayer()
    while not game.is_over:
        seat = game.current_player
        game.apply(seat, bot.choose_move(player_view(game, seat)))
    return game


def _seat(game: Game, player: str | None, default: int = 0) -> int:
    from fivecrowns.core.errors import FiveCrownsError

    if player is None:
        return default
    names = [name.lower() for name in game.players]
    if player.strip().lower() in names:
        return names.index(player.strip().lower())
    if player.strip().isdigit() and 1 <= int(player) <= len(names):
        return int(player) - 1
    raise FiveCrownsError(
        _(
            "There is no player '{player}': choose a name ({names}) "
            "or a seat number from 1 to {count}."
        ).format(player=player, names=", ".join(game.players), count=len(names))
    )


def build_document(
    game: Game,
    what: str,
    player: str | None = None,
    round_number: int | None = None,
    default_seat: int = 0,
) -> Document:
    """``what`` (hand, melds, scores, log) of ``game``, built from views and public events only.

    ``player`` (a name or seat number from 1) chooses whose hand; else ``default_seat``.
    """
    from fivecrowns.core.views import player_view, public_view
    from fivecrowns.export.content import (
        hand_document,
        log_document,
        melds_document,
        scores_document,
    )

    if what == "hand":
        return hand_document(player_view(game, _seat(game, player, default_seat)))
    if what == "melds":
        return melds_document(game.players, game.events, round_number)
    if what == "scores":
        return scores_document(public_view(game))
    return log_document(game.players, game.events)


def load_saved_game(path: Path) -> tuple[Game, int]:
    """A saved game and the seat whose hand to show by default.

    Reads the game's own save files (:func:`fivecrowns.storage.saves.save_game`) and the
    front end's autosave, which keeps the seats, the seed and the moves: that
    one is rebuilt from its full state, else replayed move by move, and its
    player at the keyboard is the default. The file's whole shape is checked
    first (:func:`fivecrowns.storage.saves.read_game_file`).
    """
    from fivecrowns.core.codec import game_from_json
    from fivecrowns.core.errors import FiveCrownsError, SaveFileError
    from fivecrowns.storage.saves import read_game_file

    data, is_autosave = read_game_file(path)
    if not is_autosave:
        try:
            return game_from_json(data), 0
        except SaveFileError as error:
            raise SaveFileError(f"{path}: {error}") from error
    if data.get("game") is not None:
        try:
            return game_from_json(data["game"]), int(data.get("at_keyboard", 0))
        except SaveFileError as error:
            raise SaveFileError(f"{path}: {error}") from error
    try:
        return _replay(data)
    except (KeyError, TypeError, ValueError, IndexError, FiveCrownsError) as error:
        reason = str(error).rstrip(".")
        raise SaveFileError(
            _("{path}: the autosaved game cannot be replayed: {reason}.").format(
                path=path, reason=reason
            )
        ) from error


def _replay(data: dict[str, object]) -> tuple[Game, int]:
    from typing import Any

    from fivecrowns.core.codec import move_from_json
    from fivecrowns.core.game import Game, GameOptions

    record: Any = data
    names = [str(seat["name"]) for seat in record["seats"]]
    game = Game(
        names,
        seed=int(record["seed"]),
        first_dealer=int(record["first_dealer"]),
        options=GameOptions(decks=int(record.get("decks", 2))),
    )
    for player, move in record["moves"]:
        game.apply(int(player), move_from_json(move))
    seat = int(record.get("at_keyboard", 0))
    return game, seat if 0 <= seat < len(names) else 0


def _load(args: argparse.Namespace) -> tuple[Game, int]:
    from fivecrowns.core.errors import FiveCrownsError

    if (args.game is None) == (args.seed is None):
        raise FiveCrownsError(_("Give either --game SAVE.json or --seed S --players N."))
    if args.game is not None:
        if args.players is not None:
            raise FiveCrownsError(
                _("--players goes with --seed; a saved game has its own players.")
            )
        return load_saved_game(Path(args.game))
    return play_seeded_game(args.seed, 3 if args.players is None else args.players), 0


def _write(data: bytes, out: str | None) -> None:
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    Path(out).write_bytes(data)


def _check_options(args: argparse.Namespace) -> None:
    """Refuse bad options before any game is loaded or played (and before any output)."""
    from fivecrowns.core.errors import FiveCrownsError
    from fivecrowns.export.braille import Translator
    from fivecrowns.export.layout import check_width

    check_width(args.width)
    if args.fmt == "brf" and args.width > 40:
        raise FiveCrownsError(
            _(
                "BRF lines are at most 40 cells, so --width {width} is too wide: choose 14 to 40."
            ).format(width=args.width)
        )
    if args.player is not None and args.what != "hand":
        raise FiveCrownsError(_("--player goes with --what hand."))
    if args.round_number is not None and args.what != "melds":
        raise FiveCrownsError(_("--round goes with --what melds."))
    if args.round_number is not None and not 1 <= args.round_number <= 11:
        raise FiveCrownsError(
            _("There is no round {number}: rounds are 1 to 11.").format(number=args.round_number)
        )
    same_file = args.out is not None and args.game is not None
    if same_file and Path(args.out).resolve() == Path(args.game).resolve():
        raise FiveCrownsError(
            _("--out {path} is the saved game itself; write the export to another file.").format(
                path=args.out
            )
        )
    if args.fmt != "text":
        Translator(args.grade, args.fmt)  # says how to install liblouis if it is missing


def run(args: argparse.Namespace) -> int:
    from fivecrowns.core.errors import FiveCrownsError, SaveFileError
    from fivecrowns.export import render
    from fivecrowns.export.errors import LiblouisMissingError

    try:
        _check_options(args)
        game, seat = _load(args)
        document = build_document(game, args.what, args.player, args.round_number, seat)
        text = render(document, args.fmt, args.width, args.grade)
    except FiveCrownsError as error:
        print(error, file=sys.stderr)
        # a save that cannot be read or no liblouis: run time (1); the rest are options (2)
        return 1 if isinstance(error, (SaveFileError, LiblouisMissingError)) else 2
    # BRF is ASCII with its CR LF kept; text is ASCII; Unicode braille is UTF-8.
    data = text.encode("utf-8")
    try:
        _write(data, args.out)
    except OSError as error:
        reason = error.strerror or error
        print(
            _("Could not write {path}: {reason}.").format(path=args.out, reason=reason),
            file=sys.stderr,
        )
        return 1
    if args.out is not None:
        wrote = _(WROTE[args.what]).format(format=args.fmt, path=args.out)
        print(wrote, file=sys.stderr)
    return 0
