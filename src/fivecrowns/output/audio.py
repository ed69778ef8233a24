"""Sound through miniaudio: one small mixer for earcons and the built-in voice.

miniaudio decodes WAV itself and has a NULL backend, so everything here also runs
on a machine with no sound card (tests, servers). Playing never blocks: ``play``
hands samples to the audio thread and returns; ``stop`` silences within one
device period (``PERIOD_MSEC``).
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from array import array
from collections.abc import Generator, Iterable
from importlib.resources.abc import Traversable
from typing import Any

from fivecrowns.i18n import gettext as _

from .base import OutputError
from .packs import load_pack
from .sounds import DEFAULT_PACK, KINDS, SOUND_NAMES, SOUNDS, check_sound_name, sounds_dir

__all__ = [
    "PERIOD_MSEC",
    "SAMPLE_RATE",
    "Mixer",
    "Playback",
    "SoundPlayer",
    "decode_wav",
    "open_mixer",
]

SAMPLE_RATE = 22050
# Short periods keep "stop" fast; 20 ms is still an easy pace for the Python callback.
PERIOD_MSEC = 20

_alsa_handler: Any = None


def _quiet_alsa() -> None:
    """Keep libasound's error lines ("cannot find card '0'") off the player's terminal."""
    global _alsa_handler
    if _alsa_handler is not None or not sys.platform.startswith("linux"):
        return
    try:
        library = ctypes.CDLL("libasound.so.2")
    except OSError:
        return
    handler_type = ctypes.CFUNCTYPE(
        None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p
    )
    _alsa_handler = handler_type(lambda *_: None)
    library.snd_lib_error_set_handler(_alsa_handler)


def decode_wav(data: bytes) -> array[int]:
    """Decode WAV bytes to mono signed 16-bit samples at :data:`SAMPLE_RATE`."""
    import miniaudio

    try:
        decoded = miniaudio.decode(
            data,
            output_format=miniaudio.SampleFormat.SIGNED16,
            nchannels=1,
            sample_rate=SAMPLE_RATE,
        )
    except miniaudio.DecodeError as error:
        raise OutputError(_("Cannot decode the sound: {error}.").format(error=error)) from None
    samples: array[int] = decoded.samples
    return samples


class Playback:
    """One sound or utterance in the mixer; ``done`` is set when it ends or is stopped."""

    def __init__(self, samples: array[int], tag: str) -> None:
        self.samples = samples
        self.tag = tag
        self.position = 0
        self.stopped = False
        self.done = threading.Event()
        #: perf_counter times of the first and last device periods that carried these samples.
        self.first_output: float | None = None
        self.last_output: float | None = None

    @property
    def seconds(self) -> float:
        return len(self.samples) / SAMPLE_RATE

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)


def _scaled(samples: array[int], volume: float) -> array[int]:
    if volume >= 0.999:
        return samples
    return array("h", [int(sample * volume) for sample in samples])


class Mixer:
    """Plays any number of sample arrays at once through one playback device.

    Sources carry a tag ("speech", "sound") so that stopping speech leaves a
    sound playing and the other way round.
    """

    def __init__(self, backend: str | None = None) -> None:
        import miniaudio

        _quiet_alsa()
        backends = None
        if backend is not None:
            try:
                backends = [miniaudio.Backend[backend.upper()]]
            except KeyError:
                raise OutputError(
                    _("'{backend}' is not a miniaudio backend.").format(backend=backend)
                ) from None
        try:
            self.device = miniaudio.PlaybackDevice(
                output_format=miniaudio.SampleFormat.SIGNED16,
                nchannels=1,
                sample_rate=SAMPLE_RATE,
                buffersize_msec=PERIOD_MSEC,
                backends=backends,
                app_name="Five Crowns",
            )
        except miniaudio.MiniaudioError as error:
            raise OutputError(
                _("No sound device could be opened (miniaudio: {error}).").format(
                    error=error.args[0]
                )
            ) from None
        self.backend_name: str = self.device.backend
        self._sources: list[Playback] = []
        self._lock = threading.Lock()
        self._closed = False
        generator = self._generate()
        next(generator)
        self.device.start(generator)

    def play(self, samples: array[int], tag: str, volume: float = 1.0) -> Playback:
        """Start ``samples`` now, mixed with anything playing; returns at once."""
        playback = Playback(_scaled(samples, max(0.0, min(1.0, volume))), tag)
        if not playback.samples:
            playback.done.set()
            return playback
        with self._lock:
            if self._closed:
                playback.done.set()
                return playback
            self._sources.append(playback)
        return playback

    def stop(self, tag: str | None = None) -> None:
        """Silence every source with ``tag`` (all sources when ``None``) from the next period."""
        with self._lock:
            keep = []
            for source in self._sources:
                if tag is None or source.tag == tag:
                    source.stopped = True
                    source.done.set()
                else:
                    keep.append(source)
            self._sources = keep

    def playing(self, tag: str | None = None) -> bool:
        with self._lock:
            return any(tag is None or source.tag == tag for source in self._sources)

    def _generate(self) -> Generator[array[int], int, None]:
        frames = yield array("h")
        silence = array("h")
        while True:
            if len(silence) != frames:
                silence = array("h", bytes(2 * frames))
            frames = yield self._mix(frames, silence)

    def _mix(self, frames: int, silence: array[int]) -> array[int]:
        with self._lock:
            if not self._sources:
                return silence
            now = time.perf_counter()
            chunks = []
            finished = []
            for source in self._sources:
                chunk = source.samples[source.position : source.position + frames]
                source.position += len(chunk)
                chunks.append(chunk)
                if source.first_output is None:
                    source.first_output = now
                source.last_output = now
                if source.position >= len(source.samples):
                    finished.append(source)
            for source in finished:
                self._sources.remove(source)
                source.done.set()
        out = chunks[0] if len(chunks) == 1 else _mixed(chunks)
        if len(out) < frames:
            out = out + silence[: frames - len(out)]
        return out

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            sources, self._sources = self._sources, []
        for source in sources:
            source.done.set()
        self.device.close()


def _mixed(chunks: Iterable[array[int]]) -> array[int]:
    total: list[int] = []
    for chunk in chunks:
        if len(total) < len(chunk):
            total.extend([0] * (len(chunk) - len(total)))
        for index, sample in enumerate(chunk):
            total[index] += sample
    return array("h", [max(-32768, min(32767, sample)) for sample in total])


def open_mixer(backend: str | None = None) -> Mixer:
    """Open the audio device; ``backend`` (e.g. "null") or ``FIVECROWNS_AUDIO`` chooses one.

    Raises OutputError with a sentence when no device can be opened.
    """
    return Mixer(backend or os.environ.get("FIVECROWNS_AUDIO") or None)


class SoundPlayer:
    """Plays the earcons by name, with volume (overall and per kind of cue) and mute.

    ``pack`` chooses a sound pack (:mod:`fivecrowns.output.packs`; ``None``: the default);
    ``directory`` reads the default pack from another folder (tests). ``play`` never blocks.
    """

    def __init__(
        self,
        mixer: Mixer | None,
        volume: float = 0.8,
        muted: bool = False,
        directory: Traversable | None = None,
        owns_mixer: bool = False,
        pack: str | None = None,
        volumes: dict[str, float] | None = None,
    ) -> None:
        self.mixer = mixer
        self._owns_mixer = owns_mixer
        self.volume = volume
        self.muted = muted
        #: each kind of cue's own volume (see fivecrowns.output.sounds.KINDS), times ``volume``
        self.volumes: dict[str, float] = dict.fromkeys(KINDS, 1.0) | (volumes or {})
        self._samples: dict[str, array[int]] = {}
        self.problems: list[str] = []
        self.pack_problem: str | None = None
        self.choose_pack(pack, directory)

    def choose_pack(self, pack: str | None, directory: Traversable | None = None) -> str | None:
        """Load ``pack`` (the default fills its gaps); returns the sentence if it was bad."""
        if directory is not None:
            files = {name: self._read(directory, name) for name in SOUND_NAMES}
            self.pack = DEFAULT_PACK
        else:
            loaded = load_pack(pack)
            files = {name: data for name, (_file, data) in loaded.files.items()}
            self.pack, self.pack_problem = loaded.name, loaded.problem
        self.problems = []
        self._samples = {name: self._decode(name, files[name]) for name in SOUND_NAMES}
        return self.pack_problem

    def _read(self, directory: Traversable, name: str) -> bytes:
        try:
            return (directory / f"{name}.wav").read_bytes()
        except OSError:
            return b""

    def _decode(self, name: str, data: bytes) -> array[int]:
        try:
            if data:
                return decode_wav(data)
        except OutputError:
            pass
        # A missing default file is made again from the generator, so no sound is ever lost.
        from .earcons import render_earcon

        self.problems.append(
            _("{path} is missing or unreadable; made it in memory.").format(
                path=sounds_dir() / f"{name}.wav"
            )
        )
        return decode_wav(render_earcon(name))

    def play(self, name: str) -> Playback | None:
        check_sound_name(name)
        volume = self.volume * self.volumes.get(SOUNDS[name].kind, 1.0)
        if self.mixer is None or self.muted or volume <= 0.0:
            return None
        return self.mixer.play(self._samples[name], "sound", volume)

    def stop(self) -> None:
        if self.mixer is not None:
            self.mixer.stop("sound")

    def close(self) -> None:
        """Close the mixer if this player owns it (it may be shared with speech)."""
        if self.mixer is not None and self._owns_mixer:
            self.mixer.close()
