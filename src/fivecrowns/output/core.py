"""The one output layer the front ends call: speech, braille display, sounds, history.

Interrupt policy (what the front end does with it):

* what the player asked for (a key they pressed, an error in their move, a
  review of the history) is spoken with ``interrupt=True``: it silences whatever
  is being said, so speech never lags behind the keys;
* what others did (computer players' moves, a round ending) is spoken with
  ``interrupt=False``: it queues behind what is being said and is never lost.

Everything spoken is kept in :attr:`Output.history` (repeat-last, older, newer,
oldest, newest) and appended to the transcript, whatever the backend.
A backend that fails while the game runs is replaced by printed lines, with one
sentence saying so: a speech problem never takes the game down.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Protocol, TextIO

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

from .base import Backend, PrintBackend
from .history import Entry, History
from .sounds import check_sound_name
from .transcript import Transcript

__all__ = ["Output", "SoundSink"]

NOTHING_YET = N_("Nothing has been said yet.")
STOPPED_WORKING = N_("Speech through {backend} stopped working ({reason}). Printing instead.")


class SoundSink(Protocol):
    """What plays earcons (see :class:`fivecrowns.output.audio.SoundPlayer`)."""

    def play(self, name: str) -> object: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...


class Output:
    """Speech, braille and sound for one player, over one backend.

    >>> from fivecrowns.output.base import RecordingBackend
    >>> backend = RecordingBackend()
    >>> output = Output(backend)
    >>> output.speak("Ana drew from the stock.")
    >>> output.speak("You have 3 cards.", interrupt=True)
    >>> output.older().text
    'Ana drew from the stock.'
    >>> backend.spoken[-1]
    'Ana drew from the stock.'
    """

    def __init__(
        self,
        backend: Backend,
        *,
        sounds: SoundSink | None = None,
        transcript: Transcript | None = None,
        history_limit: int = 1000,
        braille_follows_speech: bool = True,
        fallback_stream: TextIO | None = None,
    ) -> None:
        self.backend = backend
        self.sounds = sounds
        self.transcript = transcript
        self.history = History(history_limit)
        #: Also show every spoken message on the braille display, when the backend has one.
        self.braille_follows_speech = braille_follows_speech
        self._fallback_stream = fallback_stream
        self._lock = threading.RLock()
        self._closed = False

    @property
    def backend_name(self) -> str:
        return self.backend.name

    # -- speech -------------------------------------------------------------

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text`` (recorded in the history and transcript first).

        ``interrupt=True`` for what the player asked for; ``False`` for others' moves.
        Empty text is ignored.
        """
        text = " ".join(text.split())
        if not text:
            return
        with self._lock:
            self.history.add(text)
            if self.transcript is not None:
                self.transcript.write(text)
            self._send(text, interrupt)

    def braille(self, text: str) -> None:
        """Show ``text`` on the braille display (screen reader backends); not spoken."""
        text = " ".join(text.split())
        if not text:
            return
        with self._lock:
            if self.transcript is not None:
                self.transcript.write(text, "braille")
            if self.backend.supports_braille:
                self._call(lambda: self.backend.braille(text))

    def stop(self) -> None:
        """Silence speech and sounds now; queued messages are dropped (still in the history)."""
        with self._lock:
            self._call(self.backend.stop)
            if self.sounds is not None:
                self.sounds.stop()

    def set_language(self, language: str) -> None:
        """Speak ``language`` from now on: the built-in voice takes that language's voice
        (unless the player chose one), Speech Dispatcher is told the language; a screen
        reader on Windows or macOS keeps its own. See :func:`fivecrowns.output.repick_voice`.
        """
        with self._lock:
            self._call(lambda: self.backend.set_language(language))

    # -- sounds -------------------------------------------------------------

    def play(self, sound: str) -> None:
        """Play an earcon by name (see :data:`fivecrowns.output.sounds.SOUNDS`); never blocks.

        Raises ValueError for a name that is not a sound.
        """
        check_sound_name(sound)
        with self._lock:
            if self.transcript is not None:
                self.transcript.write(sound, "sound")
            self._call(lambda: self.backend.sound(sound))
            if self.sounds is not None:
                self.sounds.play(sound)

    # -- history ------------------------------------------------------------

    def repeat_last(self) -> Entry | None:
        """Say the newest message again (interrupting); cursor to the newest."""
        return self._review(self.history.last(), _(NOTHING_YET))

    def older(self) -> Entry | None:
        """Say the message before the one under the review cursor."""
        return self._review(self.history.older(), _("No older messages."))

    def newer(self) -> Entry | None:
        """Say the message after the one under the review cursor."""
        return self._review(self.history.newer(), _("No newer messages."))

    def oldest(self) -> Entry | None:
        """Jump to the oldest message and say it."""
        return self._review(self.history.oldest(), _(NOTHING_YET))

    def newest(self) -> Entry | None:
        """Jump to the newest message and say it."""
        return self._review(self.history.newest(), _(NOTHING_YET))

    def resay(self, text: str) -> None:
        """Say ``text`` again, interrupting, without recording it (a reviewed message)."""
        text = " ".join(text.split())
        if not text:
            return
        with self._lock:
            self._send(text, True)

    def _review(self, entry: Entry | None, otherwise: str) -> Entry | None:
        # Reviewing is asked for by the player, so it interrupts; it is not re-recorded.
        with self._lock:
            self._send(entry.text if entry else otherwise, True)
        return entry

    # -- plumbing -----------------------------------------------------------

    def _send(self, text: str, interrupt: bool) -> None:
        self._call(lambda: self.backend.speak(text, interrupt))
        if self.braille_follows_speech and self.backend.supports_braille:
            self._call(lambda: self.backend.braille(text))

    def _call(self, action: Callable[[], None]) -> None:
        try:
            action()
        except Exception as error:  # a broken backend must never end the game
            self._fall_back(error)
            with contextlib.suppress(Exception):
                action()  # now through the print backend

    def _fall_back(self, error: Exception) -> None:
        failed = self.backend
        stream = self._fallback_stream if self._fallback_stream is not None else sys.stdout
        self.backend = PrintBackend(stream)
        with contextlib.suppress(Exception):
            failed.close()
        reason = str(error) or type(error).__name__
        message = _(STOPPED_WORKING).format(backend=failed.name, reason=reason)
        self.history.add(message)
        if self.transcript is not None:
            self.transcript.write(message)
        self.backend.speak(message)

    def close(self) -> None:
        """Stop speech and sounds and release everything. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            closers = [self.backend.close] + ([] if self.sounds is None else [self.sounds.close])
            for closer in closers:
                with contextlib.suppress(Exception):
                    closer()
            if self.transcript is not None:
                self.transcript.close()

    def __enter__(self) -> Output:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
