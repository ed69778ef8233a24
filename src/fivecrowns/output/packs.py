"""Sound packs: the default pack and the player's own, found, checked and loaded.

A pack is a folder with a ``pack.json`` manifest naming each cue's file::

    {"name": "Soft", "cues": {"your_turn": {"file": "bell.ogg"}, "chat": "blip.wav"}}

The default pack is ``sounds/default`` (see :func:`~fivecrowns.output.sounds.sounds_dir`);
a player's packs are the folders in ``DATA/sounds/`` (:func:`user_packs_dir`). A pack may leave
cues out: the default fills the gaps. A pack that cannot be used (a manifest that does not
parse, a missing file, a file outside the folder, a huge file, a file that is not audio) gives
one sentence and the default pack: never an error, never silence.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.paths import data_dir

from .sounds import DEFAULT_PACK, SOUND_NAMES, sounds_dir

__all__ = [
    "AUDIO_SUFFIXES",
    "MANIFEST",
    "MAX_FILE_BYTES",
    "LoadedPack",
    "load_pack",
    "pack_names",
    "user_packs_dir",
]

MANIFEST = "pack.json"
#: A cue is a second or two: a megabyte is far more than one needs, and keeps a pack that
#: names a film's soundtrack from filling the memory (and the web page's downloads).
MAX_FILE_BYTES = 1_000_000
_MAX_MANIFEST_BYTES = 64_000
#: What miniaudio decodes in the terminal and every browser decodes in the web page.
AUDIO_SUFFIXES = (".wav", ".ogg", ".mp3", ".flac")

CANNOT_USE = N_("The sound pack {pack} cannot be used: {reason}. The default sounds play instead.")
NO_SUCH_PACK = N_("There is no sound pack named {pack}. The default sounds play. Packs: {packs}.")
BAD_MANIFEST = N_("its pack.json does not parse ({error})")
NO_CUES = N_('its pack.json has no "cues" table of cue names and file names')
NOT_A_CUE = N_("{cue} in its pack.json is not a cue")
NO_FILE_NAME = N_("the cue {cue} names no file")
MISSING = N_("the file {file} for the cue {cue} is missing")
OUTSIDE = N_("the file {file} for the cue {cue} is outside the pack's folder")
HUGE = N_("the file {file} for the cue {cue} is larger than {limit} kilobytes")
NOT_AUDIO = N_("the file {file} for the cue {cue} is not a sound the game can play")


class _Bad(Exception):
    """The reason a pack cannot be used (a clause for :data:`CANNOT_USE`)."""


@dataclass
class LoadedPack:
    """Every cue's file name and bytes, from the chosen pack or (gaps, a bad pack) the default.

    ``name`` is the pack in use; ``problem`` the one sentence when the chosen one was bad;
    ``origin`` says for each cue which pack its file came from (for the web page's list).
    """

    name: str
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)
    problem: str | None = None


def user_packs_dir() -> Path:
    """Where a player puts their own packs: ``sounds`` in the game's data folder."""
    return data_dir() / "sounds"


def pack_names() -> list[str]:
    """The default pack, then every folder in :func:`user_packs_dir` that has a pack.json."""
    found: list[str] = []
    with contextlib.suppress(OSError):  # why: no folder yet is the usual case, not a problem
        found = sorted(
            folder.name
            for folder in user_packs_dir().iterdir()
            if folder.name != DEFAULT_PACK and (folder / MANIFEST).is_file()
        )
    return [DEFAULT_PACK, *found]


def _default_files() -> dict[str, tuple[str, bytes]]:
    where = sounds_dir()
    files: dict[str, tuple[str, bytes]] = {}
    for name in SOUND_NAMES:
        try:
            files[name] = (f"{name}.wav", (where / f"{name}.wav").read_bytes())
        except OSError:
            files[name] = (f"{name}.wav", b"")  # made in memory by the player (SoundPlayer)
    return files


def _cue_files(folder: Path) -> dict[str, str]:
    """The manifest's cue to file-name table; raises :class:`_Bad` saying what is wrong."""
    try:
        with (folder / MANIFEST).open("rb") as file:
            text = file.read(_MAX_MANIFEST_BYTES + 1)
        if len(text) > _MAX_MANIFEST_BYTES:
            raise ValueError(_("larger than {limit} kilobytes").format(limit=64))
        data = json.loads(text.decode("utf-8"))
    except (OSError, ValueError) as error:
        # why the first line only: json's message names the line and column, enough to fix it
        raise _Bad(_(BAD_MANIFEST).format(error=str(error).splitlines()[0])) from None
    cues = data.get("cues") if isinstance(data, dict) else None
    if not isinstance(cues, dict):
        raise _Bad(_(NO_CUES))
    table: dict[str, str] = {}
    for cue, entry in cues.items():
        if cue not in SOUND_NAMES:
            raise _Bad(_(NOT_A_CUE).format(cue=cue))
        name = entry.get("file") if isinstance(entry, dict) else entry
        if not isinstance(name, str) or not name.strip():
            raise _Bad(_(NO_FILE_NAME).format(cue=cue))
        table[cue] = name
    return table


def _read_cue(folder: Path, cue: str, name: str, playable: Callable[[bytes], bool]) -> bytes:
    path = folder / name
    root = folder.resolve()
    # why resolve: "../x.wav", "/etc/passwd" and a link pointing out all leave the folder
    if Path(name).is_absolute() or not path.resolve().is_relative_to(root):
        raise _Bad(_(OUTSIDE).format(file=name, cue=cue))
    if not path.is_file():
        raise _Bad(_(MISSING).format(file=name, cue=cue))
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _Bad(_(HUGE).format(file=name, cue=cue, limit=MAX_FILE_BYTES // 1000))
    try:
        data = path.read_bytes()
    except OSError:
        raise _Bad(_(MISSING).format(file=name, cue=cue)) from None
    if path.suffix.lower() not in AUDIO_SUFFIXES or not playable(data):
        raise _Bad(_(NOT_AUDIO).format(file=name, cue=cue))
    return data


def _decodes(data: bytes) -> bool:
    from .audio import decode_wav
    from .base import OutputError

    try:
        return len(decode_wav(data)) > 0
    except OutputError:
        return False


def load_pack(name: str | None, playable: Callable[[bytes], bool] = _decodes) -> LoadedPack:
    """The pack ``name`` (``None``: the default) with the default filling its gaps.

    ``playable`` tells whether bytes are a sound (default: miniaudio decodes them). Never
    raises for a bad pack: ``problem`` says why, and every cue is the default's.
    """
    default = _default_files()
    chosen = name or DEFAULT_PACK
    if chosen == DEFAULT_PACK:
        return LoadedPack(DEFAULT_PACK, default, dict.fromkeys(default, DEFAULT_PACK))
    if chosen not in pack_names():
        # why ", ": pack names are folder names (data), not words of a sentence
        problem = _(NO_SUCH_PACK).format(pack=chosen, packs=", ".join(pack_names()))
        return LoadedPack(DEFAULT_PACK, default, dict.fromkeys(default, DEFAULT_PACK), problem)
    folder = user_packs_dir() / chosen
    try:
        table = _cue_files(folder)
        own = {cue: (file, _read_cue(folder, cue, file, playable)) for cue, file in table.items()}
    except _Bad as bad:
        problem = _(CANNOT_USE).format(pack=chosen, reason=str(bad))
        return LoadedPack(DEFAULT_PACK, default, dict.fromkeys(default, DEFAULT_PACK), problem)
    origin = {cue: chosen if cue in own else DEFAULT_PACK for cue in SOUND_NAMES}
    return LoadedPack(chosen, {**default, **own}, origin)
