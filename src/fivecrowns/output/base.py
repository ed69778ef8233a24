"""The backend interface every speech output implements, and the three simple ones.

A backend receives text that has already been recorded in the history and the
transcript; it only has to get it to the player. ``interrupt=True`` means "stop
what you are saying and say this"; ``interrupt=False`` means "say this after
everything already queued".
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import Literal, TextIO

from fivecrowns.words.text import printable

__all__ = [
    "Backend",
    "Call",
    "NullBackend",
    "OutputError",
    "PrintBackend",
    "RecordingBackend",
]


class OutputError(Exception):
    """A backend that cannot start or stopped working; the message says why, in words."""


class Backend:
    """Base class: a backend that says nothing. Subclasses override what they support."""

    #: Short name used by ``--speech`` and in messages.
    name = "none"
    #: Whether :meth:`braille` reaches a braille display.
    supports_braille = False

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say ``text``; with ``interrupt`` first silence whatever is being said."""

    def braille(self, text: str) -> None:
        """Show ``text`` on the braille display (only if :attr:`supports_braille`)."""

    def stop(self) -> None:
        """Silence speech now and drop anything queued."""

    def sound(self, name: str) -> None:
        """Told the name of every sound played (the recording backend keeps them)."""

    def set_language(self, language: str) -> None:
        """The language of the text from now on ("en", "es"): a voice that speaks it."""

    def close(self) -> None:
        """Release the engine, threads and connections. Safe to call twice."""


class NullBackend(Backend):
    """``--speech none``: silent. The history and the transcript still record everything."""

    name = "none"


class PrintBackend(Backend):
    """``--speech print``: every announcement as a new plain line, never a redraw.

    For screen readers that read the console, and for braille displays that follow it.
    """

    name = "print"

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def speak(self, text: str, interrupt: bool = False) -> None:
        stream = self._stream if self._stream is not None else sys.stdout
        with self._lock:
            # why printable: at a network table the text holds other players' names and chat
            stream.write(printable(text) + "\n")
            stream.flush()


@dataclass(frozen=True)
class Call:
    """One thing a :class:`RecordingBackend` was asked to do."""

    kind: Literal["speak", "braille", "stop", "sound"]
    text: str = ""
    interrupt: bool = False


class RecordingBackend(Backend):
    """A backend for tests: keeps every call, in order, and says nothing.

    >>> backend = RecordingBackend()
    >>> backend.speak("Your turn.", interrupt=True)
    >>> backend.speak("Ana drew from the stock.")
    >>> backend.spoken
    ['Your turn.', 'Ana drew from the stock.']
    """

    name = "recording"
    supports_braille = True

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self.closed = False

    def _add(self, call: Call) -> None:
        with self._lock:
            self.calls.append(call)

    def speak(self, text: str, interrupt: bool = False) -> None:
        self._add(Call("speak", text, interrupt))

    def braille(self, text: str) -> None:
        self._add(Call("braille", text))

    def stop(self) -> None:
        self._add(Call("stop"))

    def sound(self, name: str) -> None:
        self._add(Call("sound", name))

    def close(self) -> None:
        self.closed = True

    @property
    def spoken(self) -> list[str]:
        """Every text spoken, in order."""
        return [call.text for call in self.calls if call.kind == "speak"]

    @property
    def brailled(self) -> list[str]:
        """Every text sent to the braille display, in order."""
        return [call.text for call in self.calls if call.kind == "braille"]

    @property
    def sounds(self) -> list[str]:
        """Every sound name played, in order."""
        return [call.text for call in self.calls if call.kind == "sound"]

    def clear(self) -> None:
        """Forget the calls so far."""
        with self._lock:
            self.calls.clear()
