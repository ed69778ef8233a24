"""The built-in voice: pyttsx3 (eSpeak NG on Linux) rendered to WAV and played by our mixer.

pyttsx3 2.99 on Linux cannot be used the ordinary way (``say`` + ``runAndWait``):

* with several ``say()`` calls queued, only the last is spoken (the driver keeps one
  text, overwritten by each call);
* ``runAndWait`` can return before the speech is done, and ``say`` plays through
  an ``aplay`` process it starts with ``os.system`` and does not stop;
* ``stop()`` does not interrupt what is playing.

So one worker thread owns the engine and renders one utterance at a time with
``save_to_file`` into a WAV (eSpeak NG renders in memory, about 10 ms a sentence);
the mixer plays it. Interrupting clears the queue and stops the speech source in
the mixer at once, so the old utterance falls silent within one device period
before the new one starts; non-interrupting messages are all spoken, in order.
If pyttsx3 cannot make speech here, the ``espeak-ng`` program renders instead,
and the backend's description says so.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fivecrowns.install import reinstall_command

from .audio import Mixer, Playback, decode_wav
from .base import Backend, OutputError

__all__ = [
    "EspeakCommandRenderer",
    "Pyttsx3Renderer",
    "Renderer",
    "TtsBackend",
    "Utterance",
    "make_renderer",
    "split_speech",
]

#: The longest piece handed to the speech engine at once: eSpeak NG through pyttsx3 has
#: crashed the whole process (a segfault) on tens of thousands of characters in one call.
SPEECH_PIECE = 400
#: The most of one message that is spoken: past this a message is cut, and says so.
MAX_SPOKEN = 6000
CUT_SHORT = "The rest of this message, {count} more characters, was not spoken."


def split_speech(text: str, limit: int = SPEECH_PIECE) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, split after sentences where it
    can, else between words, else anywhere; a message over :data:`MAX_SPOKEN` is cut and
    its last piece says how much was left out.

    >>> split_speech("One. Two three four.", limit=12)
    ['One.', 'Two three', 'four.']
    >>> len(split_speech("x" * 10_000)), split_speech("x" * 10_000)[-1]
    (16, 'The rest of this message, 4000 more characters, was not spoken.')
    """
    rest = ""
    if len(text) > MAX_SPOKEN:
        rest = CUT_SHORT.format(count=len(text) - MAX_SPOKEN)
        text = text[:MAX_SPOKEN]
    pieces: list[str] = []
    text = text.strip()
    while len(text) > limit:
        window = text[: limit + 1]
        cut = max(window.rfind(". "), window.rfind("? "), window.rfind("! "))
        cut = cut + 1 if cut > 0 else window.rfind(" ")
        if cut <= 0:
            cut = limit
        pieces.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        pieces.append(text)
    if rest:
        pieces.append(rest)
    return pieces


PYTTSX3_MISSING = "pyttsx3 is not installed ({error}); install the game again with: {command}."

_RENDER_TIMEOUT = 20.0


class Renderer(Protocol):
    """Turns text into WAV bytes. Used only by the thread that made it."""

    description: str

    def render(self, text: str) -> bytes: ...
    def close(self) -> None: ...


def _silence_pyttsx3_prints() -> None:
    # The eSpeak driver prints "Audio saved to ..." on every save_to_file, over our
    # screen; shadowing print in that module alone is thread-safe, unlike
    # redirecting sys.stdout from a worker thread.
    with contextlib.suppress(ImportError):
        import pyttsx3.drivers.espeak as espeak_driver

        espeak_driver.print = lambda *args, **kwargs: None


# eSpeak NG is one engine per process, and so is pyttsx3's driver for it: when a
# pyttsx3 Engine is garbage-collected its driver sets eSpeak's global synthesis
# callback to None, silently breaking any newer Engine (empty WAVs). So one Engine
# is made once and kept for the life of the process; a lock keeps its use serial.
_engine: Any = None
_engine_default_voice: str | None = None
_engine_lock = threading.Lock()


def _shared_engine() -> Any:
    global _engine, _engine_default_voice
    if _engine is None:
        import pyttsx3

        _silence_pyttsx3_prints()
        _engine = pyttsx3.init()
        _engine_default_voice = _engine.getProperty("voice")
        atexit.register(_drop_engine)
    return _engine


def _drop_engine() -> None:
    # Let the engine go while modules still work: at interpreter shutdown its
    # finaliser fails noisily ("'NoneType' object has no attribute 'suppress'").
    global _engine
    with _engine_lock:
        _engine = None
    gc.collect()


class Pyttsx3Renderer:
    """pyttsx3's ``save_to_file``: one utterance per ``runAndWait``."""

    def __init__(
        self, rate: int | None = None, volume: float = 1.0, voice: str | None = None
    ) -> None:
        try:
            import pyttsx3  # noqa: F401
        except ImportError as error:
            raise OutputError(
                PYTTSX3_MISSING.format(error=error, command=reinstall_command())
            ) from None
        with _engine_lock:
            try:
                self._engine = _shared_engine()
            except Exception as error:
                raise OutputError(f"pyttsx3 found no speech engine ({error}).") from None
        driver = type(getattr(self._engine.proxy, "_driver", self._engine)).__module__
        self.driver = driver.rsplit(".", 1)[-1]
        self.description = f"pyttsx3 with {_DRIVER_NAMES.get(self.driver, self.driver)}"
        self._settings = (rate, volume, voice)
        if voice and voice not in {known for known, _ in self.voices()}:
            # eSpeak accepts an unknown name silently and keeps its old voice.
            raise OutputError(
                f"There is no voice '{voice}': fivecrowns speech --voices lists them."
            )
        self._directory = Path(tempfile.mkdtemp(prefix="fivecrowns-tts-"))
        self._count = 0
        with _engine_lock:
            self._apply_settings()

    def _apply_settings(self) -> None:
        # Engine properties are global to the process: set ours before every use.
        rate, volume, voice = self._settings
        try:
            self._engine.setProperty("rate", rate if rate is not None else _DEFAULT_RATE)
            self._engine.setProperty("volume", volume)
            if voice or _engine_default_voice:
                self._engine.setProperty("voice", voice or _engine_default_voice)
        except Exception as error:
            raise OutputError(f"pyttsx3 refused a setting ({error}).") from None

    def voices(self) -> list[tuple[str, str]]:
        """(id, name) of every voice the engine offers."""
        with _engine_lock:
            return [(voice.id, voice.name) for voice in self._engine.getProperty("voices")]

    def render(self, text: str) -> bytes:
        try:
            return self._render_once(text)
        except OutputError:
            # Seen rarely on a busy machine: an empty file from a working engine. Once more.
            return self._render_once(text)

    def _render_once(self, text: str) -> bytes:
        self._count += 1
        path = self._directory / f"utterance-{self._count}.wav"
        with _engine_lock:
            self._apply_settings()
            self._engine.save_to_file(text, str(path))
            self._engine.runAndWait()
        # runAndWait may return before the file is complete; wait for it briefly.
        deadline = time.monotonic() + 2.0
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise OutputError(f"pyttsx3 wrote no speech ({error.strerror}).") from None
        finally:
            path.unlink(missing_ok=True)
        if len(data) <= 44:
            raise OutputError("pyttsx3 wrote an empty sound file.")
        return data

    def close(self) -> None:
        shutil.rmtree(self._directory, ignore_errors=True)


# pyttsx3's eSpeak driver starts at 200 words a minute; a shared engine must go back to it.
_DEFAULT_RATE = 200
_DRIVER_NAMES = {"espeak": "eSpeak NG", "sapi5": "SAPI5", "nsss": "NSSpeechSynthesizer"}


class EspeakCommandRenderer:
    """The ``espeak-ng`` program writing a WAV: the fallback when pyttsx3 cannot speak."""

    def __init__(
        self, rate: int | None = None, volume: float = 1.0, voice: str | None = None
    ) -> None:
        program = shutil.which("espeak-ng") or shutil.which("espeak")
        if program is None:
            raise OutputError("the espeak-ng program is not installed.")
        self._command = [program, "--stdout", "-a", str(round(volume * 100))]
        if rate is not None:
            self._command += ["-s", str(rate)]
        if voice:
            self._command += ["-v", voice]
        self.description = f"the {Path(program).name} program"

    def render(self, text: str) -> bytes:
        try:
            result = subprocess.run(
                self._command,
                input=text.encode("utf-8"),
                capture_output=True,
                timeout=_RENDER_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise OutputError(f"espeak-ng failed ({error}).") from None
        if result.returncode != 0 or len(result.stdout) <= 44:
            message = result.stderr.decode(errors="replace").strip() or "no sound"
            raise OutputError(f"espeak-ng failed ({message}).")
        return _fix_streamed_wav(result.stdout)

    def close(self) -> None:
        pass


def _fix_streamed_wav(data: bytes) -> bytes:
    """espeak-ng --stdout cannot seek back, so its WAV sizes are placeholders; set them."""
    if data[:4] != b"RIFF" or data[36:40] != b"data":
        return data
    size = len(data) - 44
    return (
        data[:4]
        + (size + 36).to_bytes(4, "little")
        + data[8:40]
        + size.to_bytes(4, "little")
        + data[44:]
    )


def make_renderer(
    rate: int | None = None,
    volume: float = 1.0,
    voice: str | None = None,
    engine: str = "auto",
) -> tuple[Renderer, str | None]:
    """The best renderer here and, when it is a fallback, a sentence saying why.

    ``engine`` is "auto", "pyttsx3" or "espeak-ng". Raises OutputError if none works.
    """
    problems = []
    if engine in ("auto", "pyttsx3"):
        try:
            renderer: Renderer = Pyttsx3Renderer(rate, volume, voice)
            decode_wav(renderer.render("ready"))  # prove it makes sound we can play
            return renderer, None
        except OutputError as error:
            problems.append(str(error))
        except Exception as error:
            problems.append(f"pyttsx3 failed ({error}).")
    if engine in ("auto", "espeak-ng"):
        try:
            renderer = EspeakCommandRenderer(rate, volume, voice)
            decode_wav(renderer.render("ready"))
            note = f"pyttsx3 cannot speak here: {problems[0]}" if problems else None
            return renderer, note
        except OutputError as error:
            problems.append(str(error))
    raise OutputError("No built-in voice works here: " + " ".join(problems))


@dataclass
class Utterance:
    """One message the worker took: when, and the playback it became (None if dropped)."""

    text: str
    received: float
    playback: Playback | None = None


class TtsBackend(Backend):
    """The built-in voice. One worker thread owns the engine and speaks one message at a time."""

    name = "tts"

    def __init__(
        self,
        mixer: Mixer,
        renderer_factory: Callable[[], tuple[Renderer, str | None]],
        *,
        owns_mixer: bool = False,
        start_timeout: float = 15.0,
        fallback_settings: tuple[int | None, float, str | None] = (None, 1.0, None),
    ) -> None:
        self.mixer = mixer
        self._fallback: Renderer | None = None
        self._fallback_settings = fallback_settings
        self._owns_mixer = owns_mixer
        self._queue: queue.SimpleQueue[tuple[int, str] | None] = queue.SimpleQueue()
        self._generation = 0
        self._state = threading.Condition()
        self._pending = 0
        self._ready = threading.Event()
        self._start_error: str | None = None
        self.description = ""
        self.note: str | None = None
        #: Problems met while speaking (a message that could not be rendered).
        self.problems: list[str] = []
        #: The latest messages the worker took off the queue, oldest first (tests, benchmarks).
        self.utterances: deque[Utterance] = deque(maxlen=200)
        self._closed = False
        self._thread = threading.Thread(
            target=self._run, args=(renderer_factory,), name="fivecrowns-tts", daemon=True
        )
        self._thread.start()
        if not self._ready.wait(start_timeout):
            self._start_error = "the speech engine did not start in time."
        if self._start_error is not None:
            self.close()
            raise OutputError(self._start_error)

    def _run(self, renderer_factory: Callable[[], tuple[Renderer, str | None]]) -> None:
        try:
            renderer, self.note = renderer_factory()
            self.description = renderer.description
        except Exception as error:
            self._start_error = str(error)
            self._ready.set()
            return
        self._ready.set()
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                generation, text = item
                try:
                    if generation == self._generation:
                        utterance = Utterance(text, time.perf_counter())
                        self.utterances.append(utterance)
                        self._speak_one(renderer, generation, utterance)
                finally:
                    with self._state:
                        self._pending -= 1
                        self._state.notify_all()
        finally:
            renderer.close()

    def _speak_one(self, renderer: Renderer, generation: int, utterance: Utterance) -> None:
        samples: array[int] | None
        try:
            samples = decode_wav(renderer.render(utterance.text))
        except Exception as error:
            samples = self._render_otherwise(renderer, utterance.text, error)
        if samples is None:
            return
        with self._state:
            if generation != self._generation:
                return  # interrupted while rendering
            playback = self.mixer.play(samples, "speech")
            utterance.playback = playback
        playback.wait()

    def _render_otherwise(
        self, renderer: Renderer, text: str, error: Exception
    ) -> array[int] | None:
        """The engine failed on one message: say it with the espeak-ng program instead."""
        self.problems.append(f"{renderer.description} could not say {text!r}: {error}")
        if self._fallback is None and not isinstance(renderer, EspeakCommandRenderer):
            with contextlib.suppress(OutputError):
                self._fallback = EspeakCommandRenderer(*self._fallback_settings)
        if self._fallback is None:
            return None
        try:
            return decode_wav(self._fallback.render(text))
        except OutputError as second:
            self.problems.append(f"{self._fallback.description} could not say it either: {second}")
            return None

    def speak(self, text: str, interrupt: bool = False) -> None:
        with self._state:
            if interrupt:
                self._silence()
            for piece in split_speech(text):
                self._pending += 1
                self._queue.put((self._generation, piece))

    def stop(self) -> None:
        with self._state:
            self._silence()

    def _silence(self) -> None:
        # Newer generation: queued and rendering messages are dropped by the worker.
        self._generation += 1
        self.mixer.stop("speech")

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until everything queued has been spoken or dropped (tests, ``--test``)."""
        with self._state:
            return self._state.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._state:
            self._silence()
        self._queue.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        if self._owns_mixer:
            self.mixer.close()


def render_to_wav(
    text: str,
    path: Path,
    rate: int | None = None,
    volume: float = 1.0,
    voice: str | None = None,
) -> str:
    """Write ``text`` as speech to the WAV file ``path``; returns what rendered it."""
    renderer, note = make_renderer(rate, volume, voice)
    try:
        data = renderer.render(text)
    finally:
        renderer.close()
    try:
        path.write_bytes(data)
    except OSError as error:
        raise OutputError(f"Cannot write {path}: {error.strerror}.") from None
    return renderer.description + (f" ({note})" if note else "")
