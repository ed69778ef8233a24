"""Speech and braille through the player's own screen reader, via accessible_output2.

accessible_output2 0.17 has three defects this module works around (each has a test
in tests/output/test_screenreader.py):

1. ``Auto.output()`` only calls ``speak`` on the first active output, so braille is
   never sent. We never use ``Auto``: we pick the concrete output ourselves and call
   its ``braille`` directly when the class implements one.
2. ``Output.output()`` raises RuntimeError *after* it has spoken, because the
   outputs' ``speak``/``braille`` return None. We never call ``output()``: we call
   ``speak`` and ``braille`` separately.
3. With nothing available, outputs print "Cannot find ..." lines to standard output
   (over our screen) and speaking then does nothing, silently. We construct outputs
   with standard output captured, keep those lines as the reason, and refuse to use
   an output that is not active, so the caller falls back to another backend and
   says why.

On Linux the output is Speech Dispatcher (what Orca speaks through); its client
module ``speechd`` comes from Debian's python3-speechd (not on PyPI), which
fivecrowns.system_modules finds from a virtual environment. Two more things are
handled there (tests show both):

* messages go at MESSAGE priority: at the default TEXT priority, another program's
  message (Orca's, a notification) drops everything we have queued;
* SSIP commands are sent by one sender thread, never by the caller: a CANCEL that
  reaches the daemon while a message is starting can block for the whole message,
  and the player's keys must never wait for that. Messages still unsent when an
  interrupt comes are dropped without being sent.

Our messages are in the game's language, so our Speech Dispatcher connection is told
that language (``set_language``): a Spanish game is read by the Spanish voice of the
player's speech module, whatever the system's default. Other screen readers (NVDA,
JAWS, VoiceOver) speak with the reader's own voice and language, which the player set
in the reader.

Known limit, not worked around: a cancel that reaches Speech Dispatcher before its
output module has started the message (the first few milliseconds, more on a busy
machine) can be lost, and that one message is then spoken to its end.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from fivecrowns import i18n
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.install import reinstall_command
from fivecrowns.system_modules import import_system_module

from .base import Backend, OutputError

__all__ = ["ScreenReaderBackend", "running_screen_reader"]

ACCESSIBLE_OUTPUT2_MISSING = N_(
    "accessible_output2 is not installed ({error}); install the game again with: {command}."
)

_LINUX_READERS = ("orca",)


def running_screen_reader() -> str | None:
    """The name of a screen reader process found running on Linux, else None.

    On Windows and macOS accessible_output2 itself asks NVDA, JAWS or VoiceOver
    whether they run, so this returns None there and the backend finds out.
    """
    if not sys.platform.startswith("linux"):
        return None
    proc = Path("/proc")
    try:
        entries = list(proc.iterdir())
    except OSError:
        return None
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for part in command[:2]:
            name = os.path.basename(part.decode(errors="replace"))
            if name in _LINUX_READERS:
                return name
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split()).rstrip(".")


def _implements(instance: object, method: str) -> bool:
    from accessible_output2.outputs.base import Output as BaseOutput

    return getattr(type(instance), method, None) is not getattr(BaseOutput, method)


class ScreenReaderBackend(Backend):
    """Speaks and brailles through one concrete accessible_output2 output."""

    name = "screenreader"

    def __init__(self, output: Any) -> None:
        self._output = output
        self.reader: str = getattr(output, "name", type(output).__name__)
        self.supports_braille = _implements(output, "braille")
        self._closed = False
        self._speechd: Any = None
        self._failure: str | None = None
        client = getattr(output, "_client", None)
        if client is not None and hasattr(client, "set_priority"):
            self._use_speechd(client)

    def _use_speechd(self, client: Any) -> None:
        import speechd

        client.set_priority(speechd.Priority.MESSAGE)
        # why here, before any message: the voice that reads the game's language
        client.set_language(i18n.current_language())
        self._speechd = client
        self._language: str | None = None  # a language to tell the daemon before the next text
        self._outbox: deque[str | None] = deque()  # text to speak, or None for "cancel"
        self._wake = threading.Condition()
        self._sending = False
        self._sender = threading.Thread(target=self._send_loop, name="fivecrowns-ssip", daemon=True)
        self._sender.start()

    def _send_loop(self) -> None:
        while True:
            with self._wake:
                while not self._outbox and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                item = self._outbox.popleft()
                language, self._language = self._language, None
                self._sending = True
            try:
                if language is not None:
                    self._speechd.set_language(language)
                if item is None:
                    self._speechd.cancel()
                else:
                    self._output.speak(item)
            except Exception as error:
                self._failure = _("Speech Dispatcher stopped answering ({error})").format(
                    error=error
                )
            finally:
                with self._wake:
                    self._sending = False
                    self._wake.notify_all()

    def _post(self, text: str | None, interrupt: bool) -> None:
        if self._failure is not None:
            raise OutputError(self._failure)  # the Output falls back to printing
        with self._wake:
            if interrupt:
                self._outbox.clear()  # never sent, so nothing to cancel for these
                self._outbox.append(None)
            if text is not None:
                self._outbox.append(text)
            self._wake.notify_all()

    @classmethod
    def open(cls, *, include_system: bool = False) -> ScreenReaderBackend:
        """Find the first active screen reader output, or raise OutputError saying why not.

        ``include_system`` also accepts outputs accessible_output2 marks as system
        voices (SAPI5): off by default, since the tts backend covers those better.
        """
        try:
            import accessible_output2
        except ImportError as error:
            raise OutputError(
                _(ACCESSIBLE_OUTPUT2_MISSING).format(error=error, command=reinstall_command())
            ) from None
        # why: accessible_output2 runs `import speechd` itself; loaded here from the system's
        # folder when the environment cannot see it, that import finds it in sys.modules.
        with contextlib.suppress(ImportError, OSError):
            import_system_module("speechd")
        captured = io.StringIO()
        reasons: list[str] = []
        chosen: Any = None
        with contextlib.redirect_stdout(captured):
            try:
                classes = accessible_output2.get_output_classes()
            except Exception as error:
                raise OutputError(
                    _("accessible_output2 failed to load ({error}).").format(error=error)
                ) from None
        for output_class in classes:
            label = getattr(output_class, "name", output_class.__name__)
            if getattr(output_class, "system_output", False) and not include_system:
                continue
            captured = io.StringIO()
            try:
                with contextlib.redirect_stdout(captured):
                    output = output_class()
                    active = bool(output.is_active())
            except Exception as error:
                reasons.append(f"{label}: {_one_line(str(error))}")
                continue
            printed = _one_line(captured.getvalue())
            if active:
                chosen = output
                break
            # why printed as it is: accessible_output2's own words ("Cannot find ...")
            reasons.append(
                f"{label}: {printed}"
                if printed
                else _("{reader} is not running").format(reader=label)
            )
        if chosen is None:
            why = "; ".join(reasons) or _(
                "accessible_output2 knows no screen reader on this system"
            )
            raise OutputError(_("No screen reader answered ({why}).").format(why=why))
        try:
            return cls(chosen)
        except Exception as error:
            raise OutputError(
                _("{reader} failed ({error}).").format(
                    reader=chosen.name, error=_one_line(str(error))
                )
            ) from None

    def speak(self, text: str, interrupt: bool = False) -> None:
        if self._speechd is not None:
            self._post(text, interrupt)
        else:
            self._output.speak(text, interrupt=interrupt)

    def braille(self, text: str) -> None:
        if self.supports_braille:
            self._output.braille(text)

    def set_language(self, language: str) -> None:
        """Speech Dispatcher reads our next messages with ``language``'s voice; other
        screen readers keep their own language (the player sets it in the reader)."""
        if self._speechd is None:
            return
        with self._wake:
            self._language = language
            self._wake.notify_all()

    def stop(self) -> None:
        if self._speechd is not None:
            self._post(None, interrupt=True)
            return
        silence = getattr(self._output, "silence", None)
        if silence is not None:
            silence()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until the screen reader is silent, where it can tell (Speech Dispatcher)."""
        is_speaking = getattr(self._output, "is_speaking", None)
        if is_speaking is None:
            return True
        deadline = time.monotonic() + timeout
        if self._speechd is not None:
            with self._wake:
                if not self._wake.wait_for(lambda: not self._outbox and not self._sending, timeout):
                    return False
        time.sleep(0.2)  # let the "begin" notification arrive
        while is_speaking():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._speechd is not None:
            with self._wake:
                self._wake.notify_all()
            self._sender.join(timeout=2)
        close = getattr(self._output, "close", None)
        if close is not None:
            # Speech Dispatcher's client needs close() or the program hangs at exit.
            with contextlib.suppress(Exception):
                close()
