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
    "SOUNDS",
    "SOUND_NAMES",
    "Sound",
    "check_sound_name",
    "sound_files_status",
    "sounds_dir",
]


@dataclass(frozen=True)
class Sound:
    """An earcon: its name (a file name, data) and what it means, in words.

    ``label`` and ``meaning`` are marked for the catalog: say them with ``_(sound.label)``.
    """

    name: str
    meaning: str
    label: str = ""


SOUNDS: dict[str, Sound] = {
    sound.name: sound
    for sound in (
        Sound("draw_stock", N_("A card was drawn from the stock."), N_("draw stock")),
        Sound(
            "take_discard",
            N_("The top card of the discard pile was taken."),
            N_("take discard"),
        ),
        Sound("discard", N_("A card was discarded."), N_("discard")),
        Sound("your_turn", N_("It is your turn."), N_("your turn")),
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
    )
}
SOUND_NAMES: tuple[str, ...] = tuple(SOUNDS)


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
    """Where the WAV files live: ``FIVECROWNS_SOUNDS_DIR``, else the package's ``sounds``.

    why: importlib.resources, not a path next to ``__file__``, so the files load from a
    wheel, a zip or an editable install alike; the wheel and the sdist carry them.
    """
    override = os.environ.get("FIVECROWNS_SOUNDS_DIR")
    if override:
        return Path(override)
    return files("fivecrowns") / "sounds"


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
