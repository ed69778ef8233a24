"""The earcons, made from arithmetic: tones, chords and noise, no recorded material.

``sounds/make_sounds.py`` writes these to the default pack, ``sounds/default/``; the files must be
byte for byte what :func:`render_earcon` makes (a test checks). Everything is
deterministic: noise comes from a fixed linear congruential generator.
"""

from __future__ import annotations

import io
import math
import sys
import wave
from array import array
from collections.abc import Callable

from .sounds import SOUND_NAMES, check_sound_name

__all__ = ["RATE", "render_all", "render_earcon"]

RATE = 22050
PEAK = 0.6  # of full scale: clear but never harsh, and room when two sounds mix


def _note(
    frequency: float,
    seconds: float,
    *,
    end_frequency: float | None = None,
    harmonics: tuple[float, ...] = (1.0, 0.3, 0.1),
    decay: float = 6.0,
) -> list[float]:
    """A tone with a short attack and exponential decay, optionally gliding in pitch."""
    count = int(RATE * seconds)
    end = end_frequency if end_frequency is not None else frequency
    attack = max(1, int(RATE * 0.005))
    out = []
    phase = 0.0
    for index in range(count):
        progress = index / count
        phase += 2 * math.pi * (frequency + (end - frequency) * progress) / RATE
        value = sum(weight * math.sin(phase * (n + 1)) for n, weight in enumerate(harmonics))
        envelope = min(1.0, index / attack) * math.exp(-decay * progress)
        release = min(1.0, (count - index) / attack)
        out.append(value * envelope * release)
    return out


def _noise(seconds: float, *, seed: int, decay: float = 8.0, smooth: float = 0.5) -> list[float]:
    """A burst of low-passed noise (a card riffling) from a fixed-seed generator."""
    count = int(RATE * seconds)
    state = seed
    last = 0.0
    out = []
    for index in range(count):
        state = (1103515245 * state + 12345) % 2**31
        white = state / 2**30 - 1.0
        last = smooth * last + (1 - smooth) * white
        out.append(last * math.exp(-decay * index / count))
    return out


def _sequence(*parts: tuple[float, list[float]]) -> list[float]:
    """Place each (start seconds, samples) on one timeline, adding overlaps."""
    length = max(int(RATE * start) + len(samples) for start, samples in parts)
    out = [0.0] * length
    for start, samples in parts:
        offset = int(RATE * start)
        for index, value in enumerate(samples):
            out[offset + index] += value
    return out


def _chord(frequencies: tuple[float, ...], seconds: float, decay: float = 4.0) -> list[float]:
    return _sequence(*((0.0, _note(f, seconds, decay=decay)) for f in frequencies))


C5, E5, G5, C6, E6, G6 = 523.25, 659.25, 783.99, 1046.5, 1318.5, 1568.0

OTHERS = 2 / 3  # a fifth lower: another player's move


# A quick upward swish: a card slides off the stock.
def _draw(pitch: float) -> list[float]:
    return _sequence(
        (0.0, _noise(0.06, seed=7, decay=5.0, smooth=0.8)),
        (0.02, _note(600 * pitch, 0.09, end_frequency=950 * pitch, decay=5.0)),
    )


# Two rising notes: the visible card picked up.
def _take(pitch: float) -> list[float]:
    return _sequence((0.0, _note(E5 * pitch, 0.08)), (0.07, _note(G5 * pitch, 0.12)))


# A falling tap: a card laid down on the pile.
def _discard(pitch: float) -> list[float]:
    return _sequence(
        (0.0, _note(750 * pitch, 0.12, end_frequency=420 * pitch, decay=7.0)),
        (0.0, _noise(0.03, seed=11, decay=10.0)),
    )


# Three quick taps, then a soft open chord: melds spread on the table.
def _meld(pitch: float) -> list[float]:
    return _sequence(
        *((0.05 * n, _noise(0.025, seed=40 + n, decay=9.0, smooth=0.6)) for n in range(3)),
        (0.15, _chord((C5 * pitch, G5 * pitch), 0.25)),
    )


_DESIGNS: dict[str, Callable[[], list[float]]] = {
    "draw_stock": lambda: _draw(1.0),
    "take_discard": lambda: _take(1.0),
    "discard": lambda: _discard(1.0),
    "meld": lambda: _meld(1.0),
    # Another player's moves: the same shapes a fifth lower and softer (see _GAIN), so a
    # player hears at once whose move it was.
    "other_draw_stock": lambda: _draw(OTHERS),
    "other_take_discard": lambda: _take(OTHERS),
    "other_discard": lambda: _discard(OTHERS),
    "other_meld": lambda: _meld(OTHERS),
    # A bright three-note chime.
    "your_turn": lambda: _sequence(
        (0.0, _note(C6, 0.12)), (0.09, _note(E6, 0.12)), (0.18, _note(G6, 0.2))
    ),
    # Two soft low notes, rising: someone else's turn began; nothing to do yet.
    "other_turn": lambda: _sequence((0.0, _note(G5 * OTHERS, 0.1)), (0.1, _note(C5, 0.18))),
    # A low, dull double buzz (odd harmonics).
    "invalid": lambda: _sequence(
        (0.0, _note(196, 0.1, harmonics=(1.0, 0.0, 0.35, 0.0, 0.2), decay=3.0)),
        (0.13, _note(185, 0.14, harmonics=(1.0, 0.0, 0.35, 0.0, 0.2), decay=3.0)),
    ),
    # A rising fanfare ending on a chord.
    "went_out": lambda: _sequence(
        (0.0, _note(G5, 0.1)),
        (0.09, _note(C6, 0.1)),
        (0.18, _note(E6, 0.1)),
        (0.27, _chord((C6, E6, G6), 0.35)),
    ),
    # An alert: high-low-high-low.
    "last_turn": lambda: _sequence(
        (0.0, _note(880, 0.1, decay=2.0)),
        (0.11, _note(660, 0.1, decay=2.0)),
        (0.22, _note(880, 0.1, decay=2.0)),
        (0.33, _note(660, 0.14, decay=3.0)),
    ),
    # The alert's first two notes, then your turn's bright chime, held: your own last turn.
    "your_last_turn": lambda: _sequence(
        (0.0, _note(880, 0.1, decay=2.0)),
        (0.11, _note(660, 0.1, decay=2.0)),
        (0.24, _note(C6, 0.1)),
        (0.32, _note(E6, 0.1)),
        (0.40, _chord((C6, E6, G6), 0.3)),
    ),
    # A falling three-note close.
    "round_over": lambda: _sequence(
        (0.0, _note(G5, 0.14)), (0.13, _note(E5, 0.14)), (0.26, _note(C5, 0.3, decay=4.0))
    ),
    # A longer cadence and a held chord.
    "game_over": lambda: _sequence(
        (0.0, _note(C5, 0.15)),
        (0.14, _note(E5, 0.15)),
        (0.28, _note(G5, 0.15)),
        (0.42, _chord((C5, E5, G5, C6), 0.7, decay=3.0)),
    ),
    # A riffle: a run of short noise bursts, then a soft thump.
    "shuffle": lambda: _sequence(
        *((0.035 * n, _noise(0.03, seed=100 + n, decay=6.0, smooth=0.3)) for n in range(12)),
        (0.44, _note(110, 0.1, harmonics=(1.0, 0.5), decay=8.0)),
    ),
    # Two quick high blips, like a message arriving.
    "chat": lambda: _sequence(
        (0.0, _note(1400, 0.05, harmonics=(1.0, 0.2), decay=4.0)),
        (0.07, _note(1760, 0.07, harmonics=(1.0, 0.2), decay=4.0)),
    ),
    # A soft knock, then a rising fifth: someone sat down.
    "player_joined": lambda: _sequence(
        (0.0, _note(140, 0.06, harmonics=(1.0, 0.5), decay=9.0)),
        (0.08, _note(C5, 0.1, harmonics=(1.0, 0.2))),
        (0.17, _note(G5, 0.16, harmonics=(1.0, 0.2))),
    ),
    # The same fifth falling: someone got up.
    "player_left": lambda: _sequence(
        (0.0, _note(G5, 0.1, harmonics=(1.0, 0.2))),
        (0.09, _note(C5, 0.16, harmonics=(1.0, 0.2))),
        (0.26, _note(140, 0.06, harmonics=(1.0, 0.5), decay=9.0)),
    ),
    # A slow falling glide: a connection fading out.
    "player_dropped": lambda: _note(
        700, 0.35, end_frequency=280, harmonics=(1.0, 0.0, 0.2), decay=3.0
    ),
    # The glide rising again, and a bright note: they are back.
    "player_back": lambda: _sequence(
        (0.0, _note(280, 0.25, end_frequency=700, harmonics=(1.0, 0.0, 0.2), decay=2.0)),
        (0.24, _note(E6, 0.14)),
    ),
}
#: Softer than the rest (of :data:`PEAK`): another player's moves are background.
_GAIN = {name: 0.7 for name in _DESIGNS if name.startswith("other_")}
assert tuple(_DESIGNS) == SOUND_NAMES


def render_earcon(name: str) -> bytes:
    """The WAV file (mono, 16-bit, 22050 Hz) for sound ``name``, always the same bytes."""
    check_sound_name(name)
    samples = _DESIGNS[name]()
    peak = max(abs(value) for value in samples) or 1.0
    scale = PEAK * _GAIN.get(name, 1.0) * 32767 / peak
    pcm = array("h", [round(value * scale) for value in samples])
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        if sys.byteorder == "big":
            pcm.byteswap()  # WAV is little-endian
        file.writeframes(pcm.tobytes())
    return buffer.getvalue()


def render_all() -> dict[str, bytes]:
    """Every earcon by name."""
    return {name: render_earcon(name) for name in SOUND_NAMES}
