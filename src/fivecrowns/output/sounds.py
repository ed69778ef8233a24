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

__all__ = [
    "SOUNDS",
    "SOUND_FILES",
    "SOUND_NAMES",
    "Sound",
    "check_sound_name",
    "sound_files_status",
    "sounds_dir",
]

SOUND_FILES = "Sounds: {found} of {total} sound files found in {where}."
SOUND_FILES_MISSING = (
    "Sounds: {found} of {total} sound files found in {where}; the others are made in memory "
    "at each start. Missing: {missing}."
)


@dataclass(frozen=True)
class Sound:
    name: str
    meaning: str


SOUNDS: dict[str, Sound] = {
    sound.name: sound
    for sound in (
        Sound("draw_stock", "A card was drawn from the stock."),
        Sound("take_discard", "The top card of the discard pile was taken."),
        Sound("discard", "A card was discarded."),
        Sound("your_turn", "It is your turn."),
        Sound("invalid", "That action is not allowed; the reason is spoken."),
        Sound("went_out", "A player went out."),
        Sound("last_turn", "Last turn: someone went out, everyone else has one more turn."),
        Sound("round_over", "The round is over; the scores are read."),
        Sound("game_over", "The game is over; the winner is announced."),
        Sound("shuffle", "The cards are shuffled and dealt."),
    )
}
SOUND_NAMES: tuple[str, ...] = tuple(SOUNDS)


def check_sound_name(name: str) -> str:
    """Return ``name`` if it is a sound; raise ValueError listing the names if not."""
    if name not in SOUNDS:
        raise ValueError(f"'{name}' is not a sound: the sounds are {', '.join(SOUND_NAMES)}")
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
        return SOUND_FILES_MISSING.format(
            found=found, total=total, where=where, missing=", ".join(missing)
        )
    return SOUND_FILES.format(found=found, total=total, where=where)
