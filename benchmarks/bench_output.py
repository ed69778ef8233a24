"""Output latency: from a speak() call to the backend having the text, and from an
interrupting message to the silence of the one playing (built-in voice).

Run: .venv/bin/python benchmarks/bench_output.py [--quick]
Committed output: benchmarks/results/output.txt. Not part of the tests.

What is measured (time.perf_counter, this process):

* speak -> backend has the text, per backend, through the whole Output (history,
  transcript to a real file, lock):
  - recording: the backend's speak() is entered;
  - print: the line has been written and flushed to a file;
  - tts: the worker thread has taken the message off its queue (idle worker);
  - screenreader: Speech Dispatcher (a real headless daemon, as in the tests) has
    acknowledged the SSIP SPEAK, i.e. the message is queued in the daemon.
  Also for tts, informational: speak -> first audio period handed to the device.
* interrupt -> silence (tts on miniaudio): the interrupting speak() stops the old
  source in the mixer before it returns; after that no period carries the old
  samples (checked for every run). What the device had already been given still
  plays: at most its buffer, periods x period = 3 x 20 ms as configured. Measured on
  miniaudio's NULL device, which consumes samples in real time like a sound card.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fivecrowns.output import Output
from fivecrowns.output.audio import PERIOD_MSEC, Mixer
from fivecrowns.output.base import Backend, PrintBackend
from fivecrowns.output.transcript import Transcript
from fivecrowns.output.tts import TtsBackend, make_renderer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

DEVICE_PERIODS = 3  # miniaudio's default when periods=0, as Mixer opens the device
TEXT = "Ana discarded the 9 of clubs."
LONG = "Ana went out with a book of sevens and a run of eight, nine and ten of stars."


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{name:50} n={len(values):5}  median {ms(statistics.median(ordered))} ms"
        f"  p99 {ms(p99)} ms  max {ms(ordered[-1])} ms"
    )


class _Stamp(Backend):
    name = "recording"

    def __init__(self) -> None:
        self.received = 0.0

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.received = time.perf_counter()


class _StampedFile:
    def __init__(self, path: Path) -> None:
        self._file = path.open("w", encoding="utf-8")
        self.written = 0.0

    def write(self, text: str) -> int:
        return self._file.write(text)

    def flush(self) -> None:
        self._file.flush()
        self.written = time.perf_counter()


def in_process(runs: int, work: Path) -> list[str]:
    lines = []
    stamp = _Stamp()
    output = Output(stamp, transcript=Transcript(work / "t1.txt"))
    values = []
    for number in range(runs):
        start = time.perf_counter()
        output.speak(f"{TEXT} {number}")
        values.append(stamp.received - start)
    output.close()
    lines.append(summary("recording: speak -> backend.speak entered", values))

    stream = _StampedFile(work / "printed.txt")
    output = Output(PrintBackend(stream), transcript=Transcript(work / "t2.txt"))  # type: ignore[arg-type]
    values = []
    for number in range(runs):
        start = time.perf_counter()
        output.speak(f"{TEXT} {number}")
        values.append(stream.written - start)
    output.close()
    lines.append(summary("print: speak -> line written and flushed", values))
    return lines


def _wait(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the built-in voice did not answer")
        time.sleep(0.0002)


def _next(backend: TtsBackend, previous: object) -> Any:
    """The next message the worker takes (the log is bounded, so compare identities)."""
    _wait(lambda: bool(backend.utterances) and backend.utterances[-1] is not previous)
    utterance = backend.utterances[-1]
    _wait(lambda: utterance.playback is not None and utterance.playback.first_output is not None)
    return utterance


def _last(backend: TtsBackend) -> object:
    return backend.utterances[-1] if backend.utterances else None


def tts(runs: int, interrupts: int, audio: str | None, work: Path) -> list[str]:
    mixer = Mixer(audio)
    backend = TtsBackend(mixer, make_renderer, owns_mixer=True)
    output = Output(backend, transcript=Transcript(work / "t3.txt"))
    received, first_audio = [], []
    for number in range(runs):
        previous = _last(backend)
        start = time.perf_counter()
        output.speak(f"{TEXT} {number}")
        utterance = _next(backend, previous)
        assert utterance.playback is not None and utterance.playback.first_output is not None
        received.append(utterance.received - start)
        first_audio.append(utterance.playback.first_output - start)
        output.stop()
        backend.wait_idle()
    lines = [
        f"tts device: miniaudio {mixer.backend_name}, period {PERIOD_MSEC} ms",
        summary("tts: speak -> worker has the text", received),
        summary("tts: speak -> first audio period (informational)", first_audio),
    ]
    returned, old_after, new_start, cut = [], [], [], 0
    for number in range(interrupts):
        previous = _last(backend)
        output.speak(LONG)
        long = _next(backend, previous)
        time.sleep(0.15 + 0.01 * (number % 7))
        old = long.playback
        assert old is not None and not old.done.is_set()
        start = time.perf_counter()
        output.speak(f"You have {number} cards.", interrupt=True)
        returned.append(time.perf_counter() - start)
        new = _next(backend, long)
        assert old.stopped and old.last_output is not None and new.playback is not None
        old_after.append(max(0.0, old.last_output - start))
        cut += old.position < len(old.samples)
        assert new.playback.first_output is not None
        new_start.append(new.playback.first_output - start)
        output.stop()
        backend.wait_idle()
    output.close()
    buffered = DEVICE_PERIODS * PERIOD_MSEC / 1000
    worst = max(max(returned), max(old_after)) + buffered
    lines += [
        summary("tts interrupt: speak(interrupt) returns", returned),
        summary("tts interrupt: old samples fed after it", old_after),
        f"tts interrupt: old utterance cut short in {cut} of {interrupts} runs",
        f"tts interrupt: audio already in the device at most {DEVICE_PERIODS} x {PERIOD_MSEC} ms"
        f" = {ms(buffered)} ms",
        f"tts interrupt -> silence, worst case: {ms(worst)} ms (target <= 100 ms)",
        summary("tts interrupt: new message's first audio", new_start),
    ]
    return lines


def screenreader(runs: int, work: Path) -> list[str]:
    try:
        from output_support import speech_dispatcher
    except ImportError as error:
        return [f"screenreader: not measured ({error})"]
    import pytest

    try:
        with speech_dispatcher(work / "speechd") as daemon:
            os.environ["SPEECHD_ADDRESS"] = daemon.address
            os.environ["SPEECHD_CMD"] = "/bin/false"
            from fivecrowns.output.screenreader import ScreenReaderBackend

            backend = ScreenReaderBackend.open()
            acknowledged: dict[str, float] = {}
            done = threading.Event()
            raw: Any = backend._output
            original = raw.speak

            def timed(text: str, interrupt: bool = False) -> None:
                original(text, interrupt=interrupt)
                acknowledged[text] = time.perf_counter()
                done.set()

            raw.speak = timed
            output = Output(backend, transcript=Transcript(work / "t4.txt"))
            values = []
            for number in range(runs):
                text = f"{TEXT} {number}"
                done.clear()
                start = time.perf_counter()
                output.speak(text)
                done.wait(5)
                values.append(acknowledged[text] - start)
                if number % 50 == 49:
                    output.stop()  # keep the daemon's queue short
            output.stop()
            output.close()
    except (pytest.skip.Exception, pytest.fail.Exception) as why:
        return [f"screenreader: not measured ({why})"]
    return [summary("screenreader: speak -> Speech Dispatcher queued it", values)]


def main() -> int:
    parser = argparse.ArgumentParser(description="Output latency benchmark.")
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument(
        "--audio", default="null", help="miniaudio backend (default: null, which runs in real time)"
    )
    args = parser.parse_args()
    runs, tts_runs, interrupts = (200, 30, 10) if args.quick else (2000, 200, 50)
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        # miniaudio's NULL device pulls samples in real time (ALSA's null PCM swallows them
        # at once, which would make every utterance end before it can be interrupted).
        audio = args.audio
        print(
            f"measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on the shared 2-core"
            f" dev machine, CPython {platform.python_version()}, load {os.getloadavg()[0]:.2f}"
        )
        for line in in_process(runs, work):
            print(line, flush=True)
        for line in screenreader(runs // 4, work):
            print(line, flush=True)
        for line in tts(tts_runs, interrupts, audio, work):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
