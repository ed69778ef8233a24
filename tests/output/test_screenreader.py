"""The screenreader backend through accessible_output2 0.17, against a real, headless
Speech Dispatcher; and the three accessible_output2 defects it works around."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import pytest

from fivecrowns.output import Output, create_output
from fivecrowns.output.base import OutputError
from fivecrowns.output.screenreader import ScreenReaderBackend
from output_support import SpeechDispatcher, speech_dispatcher, without_speech_dispatcher

pytestmark = [
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="Speech Dispatcher is the Linux path"
    ),
    # speechd's reader thread ends itself with sys.exit() when a client closes.
    pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning"),
]


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SpeechDispatcher]:
    with speech_dispatcher(tmp_path_factory.mktemp("speechd")) as running:
        yield running


@pytest.fixture
def sd(daemon: SpeechDispatcher, monkeypatch: pytest.MonkeyPatch) -> SpeechDispatcher:
    """Clients in this test talk to the test daemon only, and can spawn nothing else."""
    monkeypatch.setenv("SPEECHD_ADDRESS", daemon.address)
    monkeypatch.setenv("SPEECHD_CMD", "/bin/false")
    monkeypatch.setenv("HOME", str(daemon.home))
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(daemon.root / "fivecrowns"))
    daemon.clear()
    return daemon


@pytest.mark.real
def test_text_arrives_in_order(sd: SpeechDispatcher) -> None:
    output, reason = create_output("screenreader", sounds=False)
    with output:
        assert reason == "Speech: your screen reader (Linux Speech Dispatcher), as chosen."
        for text in ("Round 1.", "3s are wild.", "Ana drew from the stock.", "Your turn."):
            output.speak(text)
        assert sd.wait_for(4) == [
            "Round 1.",
            "3s are wild.",
            "Ana drew from the stock.",
            "Your turn.",
        ]


@pytest.mark.real
def test_interrupting_cancels_what_is_speaking_and_queued(sd: SpeechDispatcher) -> None:
    output, _ = create_output("screenreader", sounds=False)
    with output:
        output.speak("Ben discarded the 9 of clubs.")
        output.speak("Cara drew from the stock.")
        output.speak("Dan took the discard.")
        # Ben's message is being spoken (its command runs), the others wait. A cancel in
        # the first moments, before the output module has started its command, can be
        # lost by Speech Dispatcher's sd_generic; a player interrupts speech they hear.
        sd.wait_started("Ben discarded the 9 of clubs.")
        output.speak("You have 7 cards.", interrupt=True)
        assert sd.wait_for(1) == ["You have 7 cards."]
        output.speak("Then this.")
        sd.wait_started("Then this.")
        output.stop()
        output.speak("After stop.")
        assert sd.wait_for(2) == ["You have 7 cards.", "After stop."]


@pytest.mark.real
def test_speak_and_stop_never_wait_for_the_daemon(sd: SpeechDispatcher) -> None:
    # A cancel that reaches Speech Dispatcher while a message starts can block until
    # that message ends (measured: 0.3 s here); the player's keys must not wait for it.
    output, _ = create_output("screenreader", sounds=False)
    slowest = 0.0
    with output:
        for round_number in range(6):
            for call in (
                partial(output.speak, f"First {round_number}."),
                partial(output.speak, f"Second {round_number}."),
                output.stop,
            ):
                started = time.perf_counter()
                call()
                slowest = max(slowest, time.perf_counter() - started)
            time.sleep(0.5)
        spoken = sd.wait_for(0, timeout=0)
    assert slowest < 0.15  # blocking would take a whole message: 0.3 s here
    assert [line for line in spoken if line.startswith("Second")] == []


@pytest.mark.real
def test_another_program_speaking_does_not_drop_queued_messages(sd: SpeechDispatcher) -> None:
    import speechd

    output, _ = create_output("screenreader", sounds=False)
    other = speechd.SSIPClient("another-program")
    try:
        with output:
            for text in ("Move one.", "Move two.", "Move three."):
                output.speak(text)
            sd.wait_started("Move one.")  # the other two wait in the queue
            other.set_priority(speechd.Priority.MESSAGE)
            other.speak("Mail arrived.")
            spoken = sd.wait_for(4)
    finally:
        other.close()
    # At Speech Dispatcher's default TEXT priority, Move two and three would be dropped.
    assert [line for line in spoken if line.startswith("Move")] == [
        "Move one.",
        "Move two.",
        "Move three.",
    ]
    assert "Mail arrived." in spoken


@pytest.mark.real
def test_defect_output_raises_after_speaking_and_our_backend_does_not(
    sd: SpeechDispatcher,
) -> None:
    from accessible_output2.outputs.speech_dispatcher import SpeechDispatcher as Ao2Output

    raw = Ao2Output()
    try:
        with pytest.raises(RuntimeError, match="does not have any method defined to output"):
            raw.output("Spoken by the library.")
        assert sd.wait_for(1) == ["Spoken by the library."]  # it spoke, then raised
    finally:
        raw.close()
    sd.clear()
    output, _ = create_output("screenreader", sounds=False)
    with output:
        output.speak("Spoken by us.")
        output.braille("Hand: 7h 8h")  # Speech Dispatcher has no braille: nothing, no error
        assert sd.wait_for(1) == ["Spoken by us."]
        assert output.backend_name == "screenreader"


@pytest.fixture
def no_speech_dispatcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    without_speech_dispatcher(tmp_path, monkeypatch)


def test_defect_nothing_available_prints_to_stdout_and_we_keep_it_off(
    no_speech_dispatcher: None, capfd: pytest.CaptureFixture[str]
) -> None:
    from accessible_output2.outputs.speech_dispatcher import SpeechDispatcher as Ao2Output

    raw = Ao2Output()
    assert not raw.is_active()
    assert "Can't open socket" in capfd.readouterr().out  # the library's print, over our screen

    with pytest.raises(OutputError, match=r"No screen reader answered \(.*Can't open socket"):
        ScreenReaderBackend.open()
    assert capfd.readouterr().out == ""


def test_defect_missing_speechd_module_is_a_reason_not_a_print(
    no_speech_dispatcher: None, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "speechd", None)  # as if python3-speechd were missing
    with pytest.raises(OutputError, match=r"Cannot find Speech Dispatcher\. Please install"):
        ScreenReaderBackend.open()
    assert capfd.readouterr().out == ""


def test_screenreader_that_does_not_answer_falls_back_and_says_why(
    no_speech_dispatcher: None, capfd: pytest.CaptureFixture[str]
) -> None:
    output, reason = create_output("screenreader", sounds=False, audio="nosuch")
    with output:
        output.speak("Still heard.")
    assert output.backend_name == "print"
    assert reason.startswith(
        "Speech: printed lines, because your screen reader is not available: "
        "no screen reader answered (Linux Speech Dispatcher: Can't open socket"
    )
    assert reason.endswith(
        "; the built-in voice is not available: 'nosuch' is not a miniaudio backend."
    )
    assert capfd.readouterr().out == "Still heard.\n"


class _FakeReader:
    """Stands for NVDA or JAWS: an accessible_output2 output with speech and braille."""

    instances: ClassVar[list[_FakeReader]] = []

    def __init__(self) -> None:
        self.spoken: list[tuple[str, bool]] = []
        self.brailled: list[str] = []
        _FakeReader.instances.append(self)

    def is_active(self) -> bool:
        return True

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.spoken.append((text, interrupt))

    def braille(self, text: str, **options: Any) -> None:
        self.brailled.append(text)

    def silence(self) -> None:
        self.spoken.append(("<silence>", True))


@pytest.fixture
def fake_reader(monkeypatch: pytest.MonkeyPatch) -> type[Any]:
    import accessible_output2
    from accessible_output2.outputs.base import Output as Ao2Base

    reader = type("FakeReader", (_FakeReader, Ao2Base), {"name": "Fake Reader"})
    monkeypatch.setattr(accessible_output2, "get_output_classes", lambda: [reader])
    _FakeReader.instances.clear()
    return reader


def test_defect_auto_output_never_brailles_and_we_do(fake_reader: type[Any]) -> None:
    from accessible_output2.outputs.auto import Auto

    Auto().output("Your turn.")
    library = _FakeReader.instances[-1]
    assert library.spoken == [("Your turn.", False)]
    assert library.brailled == []  # the defect: speech only

    backend = ScreenReaderBackend.open()
    assert backend.reader == "Fake Reader" and backend.supports_braille
    ours = Output(backend)
    ours.speak("Your turn.", interrupt=True)
    ours.braille("Hand: 3s 4s 5s")
    ours.stop()
    reader = _FakeReader.instances[-1]
    assert reader.spoken == [("Your turn.", True), ("<silence>", True)]
    assert reader.brailled == ["Your turn.", "Hand: 3s 4s 5s"]
