"""Speech and braille through the player's own screen reader, via accessible_output2.

accessible_output2 0.17 has three defects this module works around (each has a test
in tests/test_output_screenreader.py):

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
scripts/setup links into .venv. Non-interrupting messages are sent at Speech
Dispatcher's MESSAGE priority, which queues them; the default TEXT priority lets a
newer message cancel an older one, which would lose other players' moves.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from pathlib import Path
from typing import Any

from .base import Backend, OutputError

__all__ = ["ScreenReaderBackend", "running_screen_reader"]

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
        client = getattr(output, "_client", None)
        if client is not None and hasattr(client, "set_priority"):
            import speechd

            client.set_priority(speechd.Priority.MESSAGE)

    @classmethod
    def open(cls, *, include_system: bool = False) -> ScreenReaderBackend:
        """Find the first active screen reader output, or raise OutputError saying why not.

        ``include_system`` also accepts outputs accessible_output2 marks as system
        voices (SAPI5): off by default, since the tts backend covers those better.
        """
        try:
            import accessible_output2
        except ImportError as error:
            raise OutputError(f"accessible_output2 is not installed ({error}).") from None
        captured = io.StringIO()
        reasons: list[str] = []
        chosen: Any = None
        with contextlib.redirect_stdout(captured):
            try:
                classes = accessible_output2.get_output_classes()
            except Exception as error:
                raise OutputError(f"accessible_output2 failed to load ({error}).") from None
            for output_class in classes:
                label = getattr(output_class, "name", output_class.__name__)
                if getattr(output_class, "system_output", False) and not include_system:
                    continue
                try:
                    output = output_class()
                    active = bool(output.is_active())
                except Exception as error:
                    reasons.append(f"{label}: {error}")
                    continue
                if active:
                    chosen = output
                    break
                reasons.append(f"{label} is not running")
        reasons.extend(line.strip() for line in captured.getvalue().splitlines() if line.strip())
        if chosen is None:
            why = "; ".join(reasons) or "accessible_output2 knows no screen reader on this system"
            raise OutputError(f"No screen reader answered ({why}).")
        return cls(chosen)

    def speak(self, text: str, interrupt: bool = False) -> None:
        self._output.speak(text, interrupt=interrupt)

    def braille(self, text: str) -> None:
        if self.supports_braille:
            self._output.braille(text)

    def stop(self) -> None:
        silence = getattr(self._output, "silence", None)
        if silence is not None:
            silence()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until the screen reader is silent, where it can tell (Speech Dispatcher)."""
        is_speaking = getattr(self._output, "is_speaking", None)
        if is_speaking is None:
            return True
        deadline = time.monotonic() + timeout
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
        close = getattr(self._output, "close", None)
        if close is not None:
            # Speech Dispatcher's client needs close() or the program hangs at exit.
            with contextlib.suppress(Exception):
                close()
