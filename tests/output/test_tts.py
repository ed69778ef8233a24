"""The built-in voice with the real engine: pyttsx3 and eSpeak NG writing real WAVs, the
espeak-ng program fallback, and the worker's order and interrupts on miniaudio's NULL device."""

from __future__ import annotations

import ctypes.util
import io
import itertools
import math
import shutil
import subprocess
import sys
import time
import wave
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest

from fivecrowns.cli import main
from fivecrowns.output.audio import Mixer
from fivecrowns.output.base import OutputError
from fivecrowns.output.tts import (
    EspeakCommandRenderer,
    Pyttsx3Renderer,
    TtsBackend,
    make_renderer,
)
from output_support import require

SHORT = "Your turn."
LONG = "Ana went out with a book of sevens and a run of eight, nine and ten of stars."

pytestmark = pytest.mark.real


def _espeak_library() -> bool:
    return (
        ctypes.util.find_library("espeak-ng") is not None
        or Path("/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1").exists()
    )


@pytest.fixture(autouse=True)
def _needs_espeak() -> None:
    require(_espeak_library(), "eSpeak NG is not installed (Debian libespeak-ng1, espeak-ng)")


def _wav(data: bytes) -> tuple[int, float]:
    """(frames, RMS level 0..1) of a mono 16-bit WAV."""
    with wave.open(io.BytesIO(data)) as file:
        assert (file.getnchannels(), file.getsampwidth()) == (1, 2)
        frames = file.getnframes()
        samples = array("h", file.readframes(frames))
    rms = math.sqrt(sum(sample * sample for sample in samples) / max(1, len(samples))) / 32768
    return frames, rms


def test_pyttsx3_with_espeak_ng_writes_real_speech(capfd: pytest.CaptureFixture[str]) -> None:
    renderer = Pyttsx3Renderer()
    try:
        assert renderer.description == "pyttsx3 with eSpeak NG"
        short_frames, short_rms = _wav(renderer.render(SHORT))
        long_frames, long_rms = _wav(renderer.render(LONG))
    finally:
        renderer.close()
    assert short_rms > 0.02 and long_rms > 0.02  # not silence
    assert short_frames > 22050 * 0.3
    assert long_frames > 3 * short_frames
    # The driver prints "Audio saved to ..." after every file; none of it reaches the screen.
    assert capfd.readouterr().out == ""


def test_rate_and_voice_settings_change_the_speech() -> None:
    slow = Pyttsx3Renderer(rate=120)
    try:
        slow_frames, _ = _wav(slow.render(LONG))
        voices = dict(slow.voices())
    finally:
        slow.close()
    fast = Pyttsx3Renderer(rate=320)
    try:
        fast_frames, _ = _wav(fast.render(LONG))
    finally:
        fast.close()
    assert slow_frames > 1.8 * fast_frames, (slow_frames, fast_frames)
    assert len(voices) > 10, voices


def test_an_unknown_voice_is_refused_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # eSpeak itself accepts any name and silently keeps its old voice.
    with pytest.raises(OutputError, match=r"^There is no voice 'klingon': "):
        Pyttsx3Renderer(voice="klingon")
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path))
    assert main(["speech", "--voice", "klingon", "--save"]) == 2
    assert capsys.readouterr().err == (
        "Not changed: there is no voice 'klingon': fivecrowns speech --voices lists them.\n"
    )
    assert not (tmp_path / "settings.json").exists()
    assert main(["speech", "--voice", "gmw/en-us", "--save"]) == 0


def test_defect_queued_saves_keep_only_the_last_and_our_renderer_keeps_all(
    tmp_path: Path,
) -> None:
    # In a child process: the eSpeak driver is one per process, and this leaves it broken.
    script = (
        "import sys, pyttsx3\n"
        "engine = pyttsx3.init()\n"
        "engine.save_to_file('First message.', sys.argv[1])\n"
        "engine.save_to_file('Second message.', sys.argv[2])\n"
        "engine.runAndWait()\n"
    )
    first, second = tmp_path / "first.wav", tmp_path / "second.wav"
    subprocess.run([sys.executable, "-c", script, str(first), str(second)], check=True)
    assert second.exists() and not first.exists()  # the driver keeps one text: the last

    renderer = Pyttsx3Renderer()
    try:
        made = [_wav(renderer.render(text)) for text in ("First message.", "Second message.")]
    finally:
        renderer.close()
    assert all(frames > 0 and rms > 0.02 for frames, rms in made)


def test_espeak_ng_program_is_the_fallback() -> None:
    require(shutil.which("espeak-ng") is not None, "the espeak-ng program is not installed")
    renderer = EspeakCommandRenderer(rate=180)
    short_frames, short_rms = _wav(renderer.render(SHORT))
    long_frames, _ = _wav(renderer.render(LONG))
    assert short_rms > 0.02 and long_frames > 3 * short_frames
    chosen, note = make_renderer(engine="espeak-ng")
    assert chosen.description == "the espeak-ng program" and note is None


def test_fallback_says_why_when_pyttsx3_cannot_speak(monkeypatch: pytest.MonkeyPatch) -> None:
    require(shutil.which("espeak-ng") is not None, "the espeak-ng program is not installed")
    import pyttsx3

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("could not initialize espeak")

    import fivecrowns.output.tts as tts_module

    monkeypatch.setattr(tts_module, "_engine", None)  # as if no engine had been made yet
    monkeypatch.setattr(pyttsx3, "init", broken)
    renderer, note = make_renderer()
    assert renderer.description == "the espeak-ng program"
    assert note == (
        "pyttsx3 cannot speak here: pyttsx3 found no speech engine (could not initialize espeak)."
    )


def test_speech_test_writes_a_wav(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "test.wav"
    assert main(["speech", "--test", "--backend", "tts", "--wav", str(path)]) == 0
    frames, rms = _wav(path.read_bytes())
    assert frames > 22050 and rms > 0.02
    assert capsys.readouterr().out == f"Wrote {path} with pyttsx3 with eSpeak NG.\n"


@pytest.fixture
def tts() -> Iterator[TtsBackend]:
    mixer = Mixer("null")
    backend = TtsBackend(mixer, make_renderer, owns_mixer=True)
    yield backend
    backend.close()


def test_worker_speaks_every_message_in_order_without_overlap(tts: TtsBackend) -> None:
    texts = ["Round 4.", "6s are wild.", "Ana drew from the stock.", "Ben discarded."]
    for text in texts:
        tts.speak(text)
    assert tts.wait_idle(timeout=30)
    assert [u.text for u in tts.utterances] == texts
    playbacks = [u.playback for u in tts.utterances]
    assert all(p is not None and not p.stopped for p in playbacks)
    for earlier, later in itertools.pairwise(playbacks):
        assert earlier is not None and later is not None
        assert earlier.last_output is not None and later.first_output is not None
        assert earlier.position == len(earlier.samples)  # played to the end
        assert later.first_output > earlier.last_output  # one after the other
    assert tts.problems == []


def test_interrupt_silences_the_playing_message_before_the_new_one(tts: TtsBackend) -> None:
    tts.speak(LONG)
    tts.speak("Queued behind the long one.")
    deadline = time.monotonic() + 10
    while not tts.mixer.playing("speech") and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.2)
    interrupted_at = time.perf_counter()
    tts.speak("You have 9 cards.", interrupt=True)
    assert tts.wait_idle(timeout=30)
    old, new = tts.utterances[0].playback, tts.utterances[-1].playback
    assert [u.text for u in tts.utterances] == [LONG, "You have 9 cards."]  # queued one dropped
    assert old is not None and new is not None
    assert old.stopped and old.position < len(old.samples)
    assert old.last_output is not None and new.first_output is not None
    assert old.last_output <= interrupted_at < new.first_output
    assert not new.stopped and new.position == len(new.samples)


def test_stop_drops_everything_and_speech_goes_on_after(tts: TtsBackend) -> None:
    tts.speak(LONG)
    tts.speak("Dropped one.")
    tts.speak("Dropped two.")
    deadline = time.monotonic() + 10
    while not tts.mixer.playing("speech") and time.monotonic() < deadline:
        time.sleep(0.005)
    tts.stop()
    tts.speak("After the stop.")
    assert tts.wait_idle(timeout=30)
    texts = [u.text for u in tts.utterances]
    assert "Dropped one." not in texts and "Dropped two." not in texts
    assert texts[-1] == "After the stop."
    last = tts.utterances[-1].playback
    assert last is not None and not last.stopped


def test_a_message_the_engine_fails_on_is_said_by_espeak_ng(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require(shutil.which("espeak-ng") is not None, "the espeak-ng program is not installed")

    def empty(self: Pyttsx3Renderer, text: str) -> bytes:
        raise OutputError("pyttsx3 wrote an empty sound file.")

    monkeypatch.setattr(Pyttsx3Renderer, "render", empty)
    tts = TtsBackend(Mixer("null"), lambda: (Pyttsx3Renderer(), None), owns_mixer=True)
    try:
        tts.speak("Said anyway.")
        assert tts.wait_idle(timeout=30)
    finally:
        tts.close()
    playback = tts.utterances[-1].playback
    assert playback is not None and playback.position == len(playback.samples) > 22050 // 4
    assert tts.problems == [
        "pyttsx3 with eSpeak NG could not say 'Said anyway.': pyttsx3 wrote an empty sound file."
    ]


def test_speak_returns_at_once_while_the_worker_is_busy(tts: TtsBackend) -> None:
    tts.speak(LONG)
    started = time.perf_counter()
    for number in range(20):
        tts.speak(f"Message {number}.")
    assert time.perf_counter() - started < 0.1  # queued, not spoken, by the caller
    tts.stop()
    assert tts.wait_idle(timeout=30)


def test_auto_without_a_screen_reader_uses_the_built_in_voice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecrowns.output import create_output, factory

    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(factory, "running_screen_reader", lambda: None)
    output, reason = create_output("auto", tmp_path / "said.txt", audio="null")
    with output:
        assert reason == (
            "Speech: the built-in voice (pyttsx3 with eSpeak NG), "
            "because no screen reader is running."
        )
        output.speak("Round 1.")
        output.play("shuffle")
        assert isinstance(output.backend, TtsBackend)
        assert output.backend.wait_idle(timeout=30)
        assert [u.text for u in output.backend.utterances] == ["Round 1."]
    assert (tmp_path / "said.txt").read_text(encoding="utf-8").count("\n") == 2


class _RecordingRenderer:
    """Renders every text as a few samples of silence and keeps what it was given."""

    description = "a recording renderer"

    def __init__(self) -> None:
        self.texts: list[str] = []

    def render(self, text: str) -> bytes:
        import io
        import wave

        self.texts.append(text)
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(22050)
            out.writeframes(b"\x01\x00" * 64)
        return buffer.getvalue()

    def close(self) -> None:
        pass


def test_very_long_text_reaches_the_engine_in_short_pieces() -> None:
    """Issue 16 item 7: eSpeak NG crashed the process on 25,000 characters in one call."""
    from fivecrowns.output.tts import MAX_SPOKEN, SPEECH_PIECE

    renderer = _RecordingRenderer()
    backend = TtsBackend(Mixer("null"), lambda: (renderer, None), owns_mixer=True)
    try:
        backend.speak("Ann played. " * 2500)  # 27,500 characters
        assert backend.wait_idle(timeout=30)
    finally:
        backend.close()
    assert renderer.texts and all(len(text) <= SPEECH_PIECE for text in renderer.texts)
    assert sum(len(text) for text in renderer.texts[:-1]) <= MAX_SPOKEN
    assert renderer.texts[-1].startswith("The rest of this message, ")
    assert all(text.endswith("played.") for text in renderer.texts[:-1])  # split after sentences
