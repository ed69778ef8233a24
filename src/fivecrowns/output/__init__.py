"""Speech, braille display and sound output (never imported by the core).

The front ends use :func:`create_output` and the :class:`Output` it returns::

    output, reason = create_output(args.speech, args.transcript)
    output.speak(reason)
    output.speak("Your turn.", interrupt=True)   # the player asked: interrupts
    output.speak("Ana drew from the stock.")     # others' moves: queue, never lost
    output.play("your_turn")
    output.repeat_last(); output.older(); output.newer(); output.oldest(); output.newest()
    output.stop()
    repick_voice(output)        # after the Settings menu changed the language
    output.close()

Tests use ``Output(RecordingBackend())`` and read ``backend.spoken``.
"""

from __future__ import annotations

from fivecrowns import i18n
from fivecrowns.storage.settings import SPEECH_CHOICES, OutputSettings, load_settings, save_settings

from .base import Backend, Call, NullBackend, OutputError, PrintBackend, RecordingBackend
from .core import Output
from .factory import BackendStatus, backend_statuses, create_output, describe_backend
from .history import Entry, History
from .sounds import SOUND_NAMES, SOUNDS, Sound

__all__ = [
    "SOUNDS",
    "SOUND_NAMES",
    "SPEECH_CHOICES",
    "Backend",
    "BackendStatus",
    "Call",
    "Entry",
    "History",
    "NullBackend",
    "Output",
    "OutputError",
    "OutputSettings",
    "PrintBackend",
    "RecordingBackend",
    "Sound",
    "backend_statuses",
    "create_output",
    "describe_backend",
    "load_settings",
    "repick_voice",
    "save_settings",
]


def repick_voice(output: Output, language: str | None = None) -> None:
    """Choose the voice again for ``language`` (default: the game's language now).

    Call it after the language changes (the Settings menu, ``i18n.set_language``): the
    built-in voice takes that language's eSpeak NG voice unless the player chose a voice
    (``tts_voice``), and Speech Dispatcher is told the language for our next messages.
    A screen reader on Windows or macOS speaks in its own language; nothing changes there.
    """
    output.set_language(language or i18n.current_language())
