"""Choosing and opening the output: ``create_output`` and the ``--list`` report.

``auto`` means: the screen reader if one is running, else the built-in voice, else
printed lines. Whatever is missing, the result is a working :class:`Output` and one
sentence saying which backend speaks and why; nothing here raises for a missing
backend (only for a transcript file that cannot be written, which is the user's input).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from fivecrowns import i18n
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.settings import SPEECH_CHOICES, OutputSettings, load_settings

from .audio import Mixer, SoundPlayer, open_mixer
from .base import Backend, NullBackend, OutputError, PrintBackend
from .core import Output
from .screenreader import ScreenReaderBackend, running_screen_reader
from .transcript import Transcript
from .tts import TtsBackend, make_renderer

__all__ = [
    "BackendStatus",
    "backend_statuses",
    "create_output",
    "describe_backend",
    "kind_volumes",
]


def kind_volumes(settings: OutputSettings) -> dict[str, float]:
    """Each kind of cue's volume (fivecrowns.output.sounds.KINDS) from the settings."""
    return {
        "own": settings.sound_volume_own,
        "others": settings.sound_volume_others,
        "alerts": settings.sound_volume_alerts,
    }


# why said: a wheel without its sounds once rebuilt them at every start without a word.
def _sounds_made_again(count: int, command: str) -> str:
    return ngettext(
        "{count} sound file was missing and was made in memory; "
        "install the game again with: {command}.",
        "{count} sound files were missing and were made in memory; "
        "install the game again with: {command}.",
        count,
    ).format(count=count, command=command)


NO_SCREEN_READER = N_("no screen reader is running")

_FALLBACKS = {
    "auto": ("screenreader", "tts", "print"),
    "screenreader": ("screenreader", "tts", "print"),
    "tts": ("tts", "print"),
    "print": ("print",),
    "none": ("none",),
}


def describe_backend(backend: Backend) -> str:
    """Words for a backend, e.g. "your screen reader (Linux Speech Dispatcher)"."""
    if isinstance(backend, ScreenReaderBackend):
        return _("your screen reader ({reader})").format(reader=backend.reader)
    if isinstance(backend, TtsBackend):
        return _("the built-in voice ({engine})").format(engine=backend.description)
    if isinstance(backend, PrintBackend):
        return _("printed lines")
    if isinstance(backend, NullBackend):
        return _("silence")
    return backend.name


class _Opener:
    """Opens backends in order, remembering why each one that failed did."""

    def __init__(self, settings: OutputSettings, audio: str | None, stream: TextIO | None):
        self.settings = settings
        self.audio = audio
        self.stream = stream
        self.mixer: Mixer | None = None
        self.mixer_problem: str | None = None
        self._mixer_tried = False

    def get_mixer(self) -> Mixer | None:
        if not self._mixer_tried:
            self._mixer_tried = True
            try:
                self.mixer = open_mixer(self.audio)
            except OutputError as error:
                self.mixer_problem = str(error)
        return self.mixer

    def open(self, name: str, automatic: bool) -> Backend:
        if name == "screenreader":
            if automatic and sys.platform.startswith("linux"):
                reader = running_screen_reader()
                if reader is None:
                    raise OutputError(_(NO_SCREEN_READER))
            return ScreenReaderBackend.open()
        if name == "tts":
            mixer = self.get_mixer()
            if mixer is None:
                raise OutputError(str(self.mixer_problem))
            settings = self.settings
            chosen = (settings.tts_rate, settings.tts_volume, settings.tts_voice)
            # why read here: the worker thread does not see a caller's i18n.speaking block
            language = i18n.current_language()
            return TtsBackend(
                mixer,
                lambda: make_renderer(*chosen, language=language),
                fallback_settings=chosen,
            )
        if name == "print":
            return PrintBackend(self.stream)
        return NullBackend()


def create_output(
    speech: str | None = None,
    transcript: str | Path | None = None,
    *,
    settings: OutputSettings | None = None,
    sounds: bool = True,
    audio: str | None = None,
    stream: TextIO | None = None,
    fallback: bool = True,
    sound_pack: str | None = None,
) -> tuple[Output, str]:
    """Open the output the player chose; returns it and one sentence saying what speaks and why.

    ``speech`` is one of auto, screenreader, tts, print, none (``None``: from the
    settings file). ``audio`` forces a miniaudio backend, e.g. "null" (default: the
    ``FIVECROWNS_AUDIO`` environment variable, else the system's). ``stream`` is where
    the print backend writes (default standard output). Raises OutputError only when
    the transcript file cannot be written, or ValueError for an unknown ``speech``;
    with ``fallback=False`` (``fivecrowns speech --test``) it also raises OutputError
    when the chosen backend does not open, instead of falling back. ``sound_pack`` chooses
    a sound pack for this run (``--sounds PACK``; default: the settings file's).

    >>> output, reason = create_output("none", sounds=False, settings=OutputSettings())
    >>> reason
    'Speech: silence, as chosen.'
    >>> output.close()
    """
    notes: list[str] = []
    if settings is None:
        settings, problem = load_settings()
        if problem:
            notes.append(problem)
    choice = speech or settings.speech
    if choice not in SPEECH_CHOICES:
        raise ValueError(
            _("'{choice}' is not a speech choice: use {choices}.").format(
                choice=choice, choices=", ".join(SPEECH_CHOICES)
            )
        )
    opened_transcript = Transcript(transcript) if transcript is not None else None

    opener = _Opener(settings, audio, stream)
    failures: list[tuple[str, str]] = []
    backend: Backend | None = None
    order = _FALLBACKS[choice] if fallback or choice == "auto" else (choice,)
    for name in order:
        try:
            backend = opener.open(name, automatic=choice == "auto")
            break
        except OutputError as error:
            failures.append((name, str(error)))
    if backend is None:
        if opened_transcript is not None:
            opened_transcript.close()
        if opener.mixer is not None:
            opener.mixer.close()
        raise OutputError(_capital(_failure(*failures[-1])) + ".")

    player: SoundPlayer | None = None
    if sounds:
        mixer = opener.get_mixer()
        if mixer is None:
            off = _("Sounds are off: {reason}.")
            notes.append(off.format(reason=_clause(str(opener.mixer_problem))))
        else:
            player = SoundPlayer(
                mixer,
                settings.sound_volume,
                settings.sound_muted,
                owns_mixer=True,
                pack=sound_pack or settings.sound_pack,
                volumes=kind_volumes(settings),
            )
            if player.pack_problem:
                notes.append(player.pack_problem)
            if player.problems:
                from fivecrowns.install import reinstall_command

                missing = len(player.problems)
                notes.append(_sounds_made_again(missing, reinstall_command()))
    elif opener.mixer is not None and not isinstance(backend, TtsBackend):
        opener.mixer.close()
    if isinstance(backend, TtsBackend) and player is None:
        backend._owns_mixer = True  # nobody else will close it
    if isinstance(backend, TtsBackend) and backend.note:
        notes.append(backend.note)

    output = Output(
        backend,
        sounds=player,
        transcript=opened_transcript,
        braille_follows_speech=settings.braille_follows_speech,
        fallback_stream=stream,
    )
    return output, _reason(choice, backend, failures, notes)


NOT_AVAILABLE = {
    "screenreader": N_("your screen reader is not available: {reason}"),
    "tts": N_("the built-in voice is not available: {reason}"),
}


def _clause(text: str) -> str:
    """A sentence as a clause: first letter small, no final full stop."""
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _failure(name: str, text: str) -> str:
    if text == _(NO_SCREEN_READER):
        return text
    template = (
        _(NOT_AVAILABLE[name]) if name in NOT_AVAILABLE else _("{name} is not available: {reason}")
    )
    return template.format(name=name, reason=_clause(text))


def _reason(
    choice: str, backend: Backend, failures: list[tuple[str, str]], notes: list[str]
) -> str:
    what = describe_backend(backend)
    if failures:
        # why "; ": each failure is a whole clause of its own, a list of reasons, not of nouns
        reasons = "; ".join(_failure(name, text) for name, text in failures)
        first = _("Speech: {what}, because {reasons}.").format(what=what, reasons=reasons)
    elif choice == "auto" and isinstance(backend, ScreenReaderBackend):
        first = _("Speech: {what}, because a screen reader is running.").format(what=what)
    else:
        first = _("Speech: {what}, as chosen.").format(what=what)
    return " ".join([first, *notes])


@dataclass(frozen=True)
class BackendStatus:
    """One line of ``fivecrowns speech --list``."""

    name: str
    available: bool
    detail: str


def backend_statuses(
    settings: OutputSettings | None = None, audio: str | None = None
) -> list[BackendStatus]:
    """Try every backend here and say whether it works and, if not, why not."""
    settings = settings or load_settings()[0]
    statuses = []
    opener = _Opener(settings, audio, None)
    reader = running_screen_reader()
    for name in ("screenreader", "tts"):
        try:
            backend = opener.open(name, automatic=False)
        except OutputError as error:
            statuses.append(BackendStatus(name, False, _capital(_clause(str(error))) + "."))
            continue
        detail = describe_backend(backend)
        if name == "screenreader" and sys.platform.startswith("linux"):
            running = _("{reader} is running").format(reader=reader.capitalize()) if reader else ""
            detail += "; " + (running or _(NO_SCREEN_READER))
        if isinstance(backend, TtsBackend) and backend.note:
            detail += f"; {backend.note}"
        if isinstance(backend, TtsBackend) and opener.mixer is not None:
            through = _("sound through {audio}").format(audio=opener.mixer.backend_name)
            detail += "; " + through
        backend.close()
        statuses.append(BackendStatus(name, True, _capital(detail) + "."))
    statuses.append(BackendStatus("print", True, _("Each announcement as a plain line of text.")))
    statuses.append(BackendStatus("none", True, _("Silent; the transcript still records.")))
    if opener.mixer is not None:
        opener.mixer.close()
    return statuses
