"""The earcons: their names, what each means in words, and where their files are.

Sound names are data (one table), so help text, the sound test and the docs come
from the same place. Nothing is said by sound alone: each entry's ``meaning`` is
the spoken or written equivalent the front end announces together with it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "DEFAULT_PACK",
    "KINDS",
    "SOUNDS",
    "SOUND_NAMES",
    "Sound",
    "check_sound_name",
    "sound_files_status",
    "sounds_dir",
]


#: The kinds of cue, each with its own volume: what you did, what others did, and alerts
#: (your turn, a refused key, the end of a round, the table's comings and goings).
KINDS: tuple[str, ...] = ("own", "others", "alerts")


@dataclass(frozen=True)
class Sound:
    """An earcon: its name (a file name, data), what it means in words, and its kind.

    ``label`` and ``meaning`` are marked for the catalog: say them with ``_(sound.label)``.
    """

    name: str
    meaning: str
    label: str = ""
    kind: str = "alerts"


SOUNDS: dict[str, Sound] = {
    sound.name: sound
    for sound in (
        Sound("draw_stock", N_("You drew a card from the stock."), N_("draw stock"), "own"),
        Sound(
            "take_discard",
            N_("You took the top card of the discard pile."),
            N_("take discard"),
            "own",
        ),
        Sound("discard", N_("You discarded a card."), N_("discard"), "own"),
        Sound("meld", N_("You laid down melds."), N_("meld"), "own"),
        # why apart from yours: by ear alone a player must tell their own move from another's
        Sound(
            "other_draw_stock",
            N_("Another player drew from the stock."),
            N_("another player draws"),
            "others",
        ),
        Sound(
            "other_take_discard",
            N_("Another player took the top card of the discard pile."),
            N_("another player takes the discard"),
            "others",
        ),
        Sound(
            "other_discard",
            N_("Another player discarded."),
            N_("another player discards"),
            "others",
        ),
        Sound(
            "other_meld",
            N_("Another player laid down melds."),
            N_("another player melds"),
            "others",
        ),
        Sound("your_turn", N_("It is your turn."), N_("your turn")),
        Sound("other_turn", N_("It is another player's turn."), N_("another player's turn")),
        Sound("invalid", N_("That action is not allowed; the reason is spoken."), N_("invalid")),
        Sound("went_out", N_("A player went out."), N_("went out")),
        Sound(
            "last_turn",
            N_("Last turn: someone went out, everyone else has one more turn."),
            N_("last turn"),
        ),
        # why its own: your own last turn is the one you must act on, and it sounded the same
        # as another player's (issue 26, item 22)
        Sound(
            "your_last_turn",
            N_("Your last turn: someone went out, and you have one more turn."),
            N_("your last turn"),
        ),
        Sound("round_over", N_("The round is over; the scores are read."), N_("round over")),
        Sound("game_over", N_("The game is over; the winner is announced."), N_("game over")),
        Sound("shuffle", N_("The cards are shuffled and dealt."), N_("shuffle")),
        Sound("chat", N_("A chat message; it is read after the sound."), N_("chat")),
        Sound("player_joined", N_("A player sat down at the table."), N_("player joined")),
        Sound("player_left", N_("A player left the table."), N_("player left")),
        Sound(
            "player_dropped",
            N_("A player's connection dropped; a computer may play for them."),
            N_("player dropped"),
        ),
        Sound("player_back", N_("A player whose connection dropped is back."), N_("player back")),
    )
}
SOUND_NAMES: tuple[str, ...] = tuple(SOUNDS)

#: The pack the game ships (``sounds/default``); every other pack falls back to it.
DEFAULT_PACK = "default"


def check_sound_name(name: str) -> str:
    """Return ``name`` if it is a sound; raise ValueError listing the names if not."""
    if name not in SOUNDS:
        raise ValueError(
            _("'{name}' is not a sound: the sounds are {names}").format(
                name=name, names=", ".join(SOUND_NAMES)
            )
        )
    return name


def sounds_dir() -> Traversable:
    """The default pack's folder: ``FIVECROWNS_SOUNDS_DIR``, else the installed package's
    ``sounds/default``, else (an editable install, a checkout) the top-level ``sounds/default``.

    why two places: ``sounds/`` beside ``src/`` is the one source; the wheel's build copies it
    into the package (setup.py), and importlib.resources reads it from a wheel or a zip alike.
    """
    override = os.environ.get("FIVECROWNS_SOUNDS_DIR")
    if override:
        return Path(override)
    packaged = files("fivecrowns") / "sounds" / DEFAULT_PACK
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "sounds" / DEFAULT_PACK


def sound_files_status() -> str:
    """One sentence: how many of the earcon files are where the game loads them from."""
    where = sounds_dir()
    missing = [name for name in SOUND_NAMES if not (where / f"{name}.wav").is_file()]
    found, total = len(SOUND_NAMES) - len(missing), len(SOUND_NAMES)
    if missing:
        sentence = ngettext(
            "Sounds: {found} of {count} sound file found in {where}; the others are made in "
            "memory at each start. Missing: {missing}.",
            "Sounds: {found} of {count} sound files found in {where}; the others are made in "
            "memory at each start. Missing: {missing}.",
            total,
        )
        # why ", ": file names (data), not words of a sentence
        return sentence.format(found=found, count=total, where=where, missing=", ".join(missing))
    sentence = ngettext(
        "Sounds: {found} of {count} sound file found in {where}.",
        "Sounds: {found} of {count} sound files found in {where}.",
        total,
    )
    return sentence.format(found=found, count=total, where=where)
