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

The voice speaks the game's language: unless the player chose a voice, a Spanish game
is read by eSpeak NG's Spanish voice (Spain's for an ``es_ES`` system, Latin America's
for any other Spanish region) and an English game by the engine's own English voice.
:meth:`TtsBackend.set_language` picks again after the language changes.
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import gc
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fivecrowns import i18n
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.install import reinstall_command

from .audio import Mixer, Playback, decode_wav
from .base import Backend, OutputError

__all__ = [
    "EspeakCommandRenderer",
    "Pyttsx3Renderer",
    "Renderer",
    "TtsBackend",
    "Utterance",
    "language_voice",
    "make_renderer",
    "split_speech",
]

#: The longest piece handed to the speech engine at once: eSpeak NG through pyttsx3 has
#: crashed the whole process (a segfault) on tens of thousands of characters in one call.
SPEECH_PIECE = 400
#: The most of one message that is spoken: past this a message is cut, and says so.
MAX_SPOKEN = 6000


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
        left_out = len(text) - MAX_SPOKEN
        rest = ngettext(
            "The rest of this message, {count} more character, was not spoken.",
            "The rest of this message, {count} more characters, was not spoken.",
            left_out,
        ).format(count=left_out)
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


PYTTSX3_MISSING = N_("pyttsx3 is not installed ({error}); install the game again with: {command}.")
UNKNOWN_VOICE = N_("There is no voice '{voice}': fivecrowns speech --voices lists them.")


class UnknownVoiceError(OutputError):
    """The player named a voice the engine does not have."""

    unknown_voice = True


#: eSpeak NG's language tags for each language the game speaks, best first. Spanish:
#: Spain's voice for an es_ES system, Latin America's (es-419) for any other region.
_SPANISH_SPAIN = ("es", "es-es", "es-419")
_SPANISH_AMERICAS = ("es-419", "es-mx", "es", "es-es")
_ENGLISH = ("en-gb", "en", "en-us")


def _system_region(environ: Mapping[str, str] | None = None) -> str | None:
    """The region of the system's Spanish locale ("es" for es_ES, "mx" for es_MX), or None.

    >>> _system_region({"LANG": "es_MX.UTF-8"}), _system_region({"LANG": "es_ES.UTF-8"})
    ('mx', 'es')
    >>> _system_region({"LANG": "en_GB.UTF-8"}) is None
    True
    """
    import os

    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(variable, "").split(":"):
            code = part.split(".")[0].split("@")[0].replace("-", "_").lower()
            if code.startswith("es_") and len(code) > 3:
                return code[3:]
    return None


def _tags(languages: Iterable[object]) -> list[str]:
    tags = []
    for language in languages:
        text = language.decode(errors="replace") if isinstance(language, bytes) else str(language)
        # why strip: eSpeak's driver has given tags with a leading priority byte
        tags.append(text.strip().strip("\x00\x01\x02\x03\x04\x05").lower().replace("_", "-"))
    return tags


def language_voice(
    voices: Iterable[tuple[str, str, Iterable[object]]],
    language: str,
    default: str | None = None,
    region: str | None = None,
) -> str | None:
    """The id of the voice that speaks ``language`` ("en", "es"), from the engine's
    ``(id, name, languages)``; ``None`` means the engine's own default voice is right
    (or no voice speaks it: the default is still better than silence).

    >>> voices = [("gmw/en", "English", ["en-gb"]), ("roa/es", "Spanish (Spain)", ["es"]),
    ...           ("roa/es-419", "Spanish (Latin America)", ["es-419"])]
    >>> language_voice(voices, "es", "gmw/en", "es"), language_voice(voices, "es", None, "ar")
    ('roa/es', 'roa/es-419')
    >>> language_voice(voices, "en", "gmw/en") is None
    True
    """
    known = [(voice_id, _tags(languages)) for voice_id, _name, languages in voices]
    wanted: tuple[str, ...]
    if language == "es":
        wanted = _SPANISH_SPAIN if region in (None, "es") else _SPANISH_AMERICAS
    else:
        wanted = _ENGLISH
    for voice_id, tags in known:
        if voice_id == default and any(tag.split("-")[0] == language for tag in tags):
            return None  # why: the engine's (or system's) own choice already speaks it
    for tag in wanted:
        for voice_id, tags in known:
            if tag in tags:
                return voice_id
    for voice_id, tags in known:
        if any(t.split("-")[0] == language for t in tags):
            return voice_id
    return None


_RENDER_TIMEOUT = 20.0


class Renderer(Protocol):
    """Turns text into WAV bytes. Used only by the thread that made it."""

    description: str

    def render(self, text: str) -> bytes: ...
    def set_language(self, language: str) -> None: ...
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
    """pyttsx3's ``save_to_file``: one utterance per ``runAndWait``.

    ``voice`` is the player's choice; without one, the voice of ``language`` (default:
    the game's language now) is used, and :meth:`set_language` picks it again.
    """

    def __init__(
        self,
        rate: int | None = None,
        volume: float = 1.0,
        voice: str | None = None,
        *,
        language: str | None = None,
    ) -> None:
        try:
            import pyttsx3  # noqa: F401
        except ImportError as error:
            raise OutputError(
                _(PYTTSX3_MISSING).format(error=error, command=reinstall_command())
            ) from None
        with _engine_lock:
            try:
                self._engine = _shared_engine()
            except Exception as error:
                raise OutputError(
                    _("pyttsx3 found no speech engine ({error}).").format(error=error)
                ) from None
        driver = type(getattr(self._engine.proxy, "_driver", self._engine)).__module__
        self.driver = driver.rsplit(".", 1)[-1]
        engine_name = _DRIVER_NAMES.get(self.driver, self.driver)
        self.description = _("pyttsx3 with {engine}").format(engine=engine_name)
        self._player_voice = voice
        self._settings = (rate, volume, voice)
        if voice and voice not in {known for known, _name in self.voices()}:
            # eSpeak accepts an unknown name silently and keeps its old voice.
            raise UnknownVoiceError(_(UNKNOWN_VOICE).format(voice=voice))
        self.set_language(language or i18n.current_language())
        self._directory = Path(tempfile.mkdtemp(prefix="fivecrowns-tts-"))
        self._count = 0
        with _engine_lock:
            self._apply_settings()

    @property
    def voice(self) -> str | None:
        """The voice that speaks now (``None``: the engine's default voice)."""
        return self._settings[2]

    def set_language(self, language: str) -> None:
        """Speak ``language`` from now on: its voice, unless the player chose one."""
        if self._player_voice:
            return
        with _engine_lock:
            voices = [
                (voice.id, voice.name, voice.languages or [])
                for voice in self._engine.getProperty("voices")
            ]
        picked = language_voice(voices, language, _engine_default_voice, _system_region())
        rate, volume, _voice = self._settings
        self._settings = (rate, volume, picked)

    def _apply_settings(self) -> None:
        # Engine properties are global to the process: set ours before every use.
        rate, volume, voice = self._settings
        try:
            self._engine.setProperty("rate", rate if rate is not None else _DEFAULT_RATE)
            self._engine.setProperty("volume", volume)
            if voice or _engine_default_voice:
                self._engine.setProperty("voice", voice or _engine_default_voice)
        except Exception as error:
            raise OutputError(
                _("pyttsx3 refused a setting ({error}).").format(error=error)
            ) from None

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
            raise OutputError(
                _("pyttsx3 wrote no speech ({reason}).").format(reason=error.strerror)
            ) from None
        finally:
            path.unlink(missing_ok=True)
        if len(data) <= 44:
            raise OutputError(_("pyttsx3 wrote an empty sound file."))
        return data

    def close(self) -> None:
        shutil.rmtree(self._directory, ignore_errors=True)


# pyttsx3's eSpeak driver starts at 200 words a minute; a shared engine must go back to it.
_DEFAULT_RATE = 200
_DRIVER_NAMES = {"espeak": "eSpeak NG", "sapi5": "SAPI5", "nsss": "NSSpeechSynthesizer"}


#: The ``espeak-ng -v`` voice for each language (eSpeak NG's own names).
_ESPEAK_VOICES = {"es": ("es", "es-419"), "en": ("en", "en")}


class EspeakCommandRenderer:
    """The ``espeak-ng`` program writing a WAV: the fallback when pyttsx3 cannot speak."""

    def __init__(
        self,
        rate: int | None = None,
        volume: float = 1.0,
        voice: str | None = None,
        *,
        language: str | None = None,
    ) -> None:
        program = shutil.which("espeak-ng") or shutil.which("espeak")
        if program is None:
            raise OutputError(_("the espeak-ng program is not installed."))
        self._base = [program, "--stdout", "-a", str(round(volume * 100))]
        if rate is not None:
            self._base += ["-s", str(rate)]
        self._player_voice = voice
        self.voice: str | None = voice
        self.set_language(language or i18n.current_language())
        self.description = _("the {program} program").format(program=Path(program).name)

    @property
    def _command(self) -> list[str]:
        return self._base + (["-v", self.voice] if self.voice else [])

    def set_language(self, language: str) -> None:
        """Speak ``language`` from now on: its voice, unless the player chose one."""
        if self._player_voice:
            return
        if language == i18n.DEFAULT_LANGUAGE:
            self.voice = None  # why: the program's default voice is English, as before
            return
        spain, americas = _ESPEAK_VOICES.get(language, (language, language))
        self.voice = spain if _system_region() in (None, "es") else americas

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
            raise OutputError(_("espeak-ng failed ({error}).").format(error=error)) from None
        if result.returncode != 0 or len(result.stdout) <= 44:
            message = result.stderr.decode(errors="replace").strip() or _("no sound")
            raise OutputError(_("espeak-ng failed ({error}).").format(error=message))
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
    language: str | None = None,
) -> tuple[Renderer, str | None]:
    """The best renderer here and, when it is a fallback, a sentence saying why.

    ``engine`` is "auto", "pyttsx3" or "espeak-ng"; ``language`` chooses the voice when
    ``voice`` is None (default: the game's language now). Raises OutputError if none works.
    """
    problems = []
    if engine in ("auto", "pyttsx3"):
        try:
            renderer: Renderer = Pyttsx3Renderer(rate, volume, voice, language=language)
            decode_wav(renderer.render("ready"))  # prove it makes sound we can play
            return renderer, None
        except OutputError as error:
            problems.append(str(error))
        except Exception as error:
            problems.append(_("pyttsx3 failed ({error}).").format(error=error))
    if engine in ("auto", "espeak-ng"):
        try:
            renderer = EspeakCommandRenderer(rate, volume, voice, language=language)
            decode_wav(renderer.render("ready"))
            note = None
            if problems:
                note = _("pyttsx3 cannot speak here: {problem}").format(problem=problems[0])
            return renderer, note
        except OutputError as error:
            problems.append(str(error))
    raise OutputError(
        _("No built-in voice works here: {problems}").format(problems=" ".join(problems))
    )


@dataclass(frozen=True)
class _Language:
    """A message to the worker: pick the voice for this language now."""

    code: str


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
        self._queue: queue.SimpleQueue[tuple[int, str] | _Language | None] = queue.SimpleQueue()
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
        #: The language the voice speaks (the game's when the backend opened).
        self._language = i18n.current_language()
        # why copy_context: the worker words its sentences (and picks its voice) in the
        # language of whoever opened it, even inside an i18n.speaking block
        self._thread = threading.Thread(
            target=contextvars.copy_context().run,
            args=(self._run, renderer_factory),
            name="fivecrowns-tts",
            daemon=True,
        )
        self._thread.start()
        if not self._ready.wait(start_timeout):
            self._start_error = _("the speech engine did not start in time.")
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
                if isinstance(item, _Language):
                    self._set_language(renderer, item.code)
                    continue
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
        self.problems.append(
            _("{engine} could not say {text}: {error}").format(
                engine=renderer.description, text=repr(text), error=error
            )
        )
        if self._fallback is None and not isinstance(renderer, EspeakCommandRenderer):
            with contextlib.suppress(OutputError):
                self._fallback = EspeakCommandRenderer(
                    *self._fallback_settings, language=self._language
                )
        if self._fallback is None:
            return None
        try:
            return decode_wav(self._fallback.render(text))
        except OutputError as second:
            self.problems.append(
                _("{engine} could not say it either: {error}").format(
                    engine=self._fallback.description, error=second
                )
            )
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

    def set_language(self, language: str) -> None:
        """Speak ``language`` from the next message on (its voice, unless the player chose
        one); what is already queued keeps the voice it was queued with."""
        self._language = language
        self._queue.put(_Language(language))

    def _set_language(self, renderer: Renderer, language: str) -> None:
        # why getattr: a renderer made elsewhere (a test's) may not follow languages
        for each in (renderer, self._fallback):
            follow = getattr(each, "set_language", None)
            if follow is not None:
                try:
                    follow(language)
                except Exception as error:  # a voice list that cannot be read: keep the voice
                    self.problems.append(str(error))

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
    renderer, note = make_renderer(rate, volume, voice)  # the game's language picks the voice
    try:
        data = renderer.render(text)
    finally:
        renderer.close()
    try:
        path.write_bytes(data)
    except OSError as error:
        raise OutputError(
            _("Cannot write {path}: {reason}.").format(path=path, reason=error.strerror)
        ) from None
    return renderer.description + (f" ({note})" if note else "")
