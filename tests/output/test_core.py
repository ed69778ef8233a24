"""The output layer without real components: Output, history, transcript, backends, settings."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from fivecrowns.output import (
    SOUND_NAMES,
    History,
    NullBackend,
    Output,
    OutputError,
    OutputSettings,
    PrintBackend,
    RecordingBackend,
    create_output,
    load_settings,
    save_settings,
)
from fivecrowns.output.base import Backend, Call
from fivecrowns.output.transcript import Transcript
from fivecrowns.storage.settings import SettingsFileError
from output_support import without_speech_dispatcher

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d"


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    without_speech_dispatcher(tmp_path, monkeypatch)


def test_speak_passes_text_and_interrupt_flag_in_order() -> None:
    backend = RecordingBackend()
    output = Output(backend, braille_follows_speech=False)
    output.speak("Ana drew from the stock.")
    output.speak("You have 5 cards.", interrupt=True)
    output.speak("Ben discarded the 9 of clubs.")
    assert backend.calls == [
        Call("speak", "Ana drew from the stock.", False),
        Call("speak", "You have 5 cards.", True),
        Call("speak", "Ben discarded the 9 of clubs.", False),
    ]


def test_speak_normalises_space_and_ignores_empty_text() -> None:
    backend = RecordingBackend()
    output = Output(backend)
    output.speak("  Your\nturn.  ")
    output.speak("   ")
    assert backend.spoken == ["Your turn."]
    assert [entry.text for entry in output.history.entries()] == ["Your turn."]


def test_braille_follows_speech_only_when_asked() -> None:
    backend = RecordingBackend()
    output = Output(backend)
    output.speak("Round 2. 4s are wild.")
    output.braille("Hand: 4h 5h 6h Qs")
    assert backend.brailled == ["Round 2. 4s are wild.", "Hand: 4h 5h 6h Qs"]
    assert backend.spoken == ["Round 2. 4s are wild."]
    quiet = RecordingBackend()
    Output(quiet, braille_follows_speech=False).speak("Round 2.")
    assert quiet.brailled == []


def test_stop_reaches_the_backend() -> None:
    backend = RecordingBackend()
    Output(backend).stop()
    assert backend.calls == [Call("stop")]


def test_play_checks_the_name_and_tells_the_backend() -> None:
    backend = RecordingBackend()
    output = Output(backend)
    output.play("your_turn")
    assert backend.sounds == ["your_turn"]
    with pytest.raises(ValueError, match="'boing' is not a sound: the sounds are draw_stock"):
        output.play("boing")
    assert backend.sounds == ["your_turn"]


def test_history_review_speaks_interrupting_and_is_not_recorded_again() -> None:
    backend = RecordingBackend()
    output = Output(backend, braille_follows_speech=False)
    for text in ("Round 1.", "Your turn.", "Ana went out."):
        output.speak(text)
    backend.clear()
    assert output.repeat_last() is not None
    assert output.older() is not None
    assert output.older() is not None
    assert output.older() is None
    assert output.newest() is not None
    assert output.newer() is None
    assert output.oldest() is not None
    assert backend.calls == [
        Call("speak", "Ana went out.", True),
        Call("speak", "Your turn.", True),
        Call("speak", "Round 1.", True),
        Call("speak", "No older messages.", True),
        Call("speak", "Ana went out.", True),
        Call("speak", "No newer messages.", True),
        Call("speak", "Round 1.", True),
    ]
    assert len(output.history) == 3


def test_empty_history_says_so() -> None:
    backend = RecordingBackend()
    output = Output(backend)
    assert output.repeat_last() is None
    assert backend.spoken == ["Nothing has been said yet."]


def test_history_cursor_goes_back_to_the_newest_when_a_message_arrives() -> None:
    history = History()
    for text in ("one", "two", "three"):
        history.add(text)
    assert history.older() is not None  # on "two"
    assert history.position() == (2, 3)
    history.add("four")
    current = history.current()
    assert current is not None and current.text == "four"
    assert history.position() == (4, 4)
    older = history.older()
    assert older is not None and older.text == "three"


def test_history_is_bounded_and_the_cursor_stays_inside() -> None:
    history = History(limit=3)
    for text in ("a", "b", "c"):
        history.add(text)
    oldest = history.oldest()
    assert oldest is not None and oldest.text == "a"
    history.add("d")
    history.add("e")
    assert [entry.text for entry in history.entries()] == ["c", "d", "e"]
    oldest = history.oldest()
    assert oldest is not None and oldest.text == "c"
    assert history.position() == (1, 3)
    with pytest.raises(ValueError):
        History(limit=0)


def test_transcript_has_one_stamped_line_per_announcement(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    output = Output(NullBackend(), transcript=Transcript(path))
    output.speak("Your turn.\nDraw a card.")
    output.braille("Hand: 7h")
    output.play("discard")
    output.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert re.fullmatch(STAMP + r" Your turn\. Draw a card\.", lines[0])
    assert re.fullmatch(STAMP + r" \[braille\] Hand: 7h", lines[1])
    assert re.fullmatch(STAMP + r" \[sound\] discard", lines[2])


def test_transcript_appends(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("earlier line\n", encoding="utf-8")
    transcript = Transcript(path)
    transcript.write("later")
    transcript.close()
    assert path.read_text(encoding="utf-8").splitlines()[0] == "earlier line"
    assert path.read_text(encoding="utf-8").splitlines()[1].endswith(" later")


def test_transcript_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match=r"^Cannot write the transcript to .*missing.*\.$"):
        Transcript(tmp_path / "missing" / "t.txt")


def test_print_backend_writes_plain_lines() -> None:
    stream = io.StringIO()
    output = Output(PrintBackend(stream))
    output.speak("Round 3.")
    output.speak("5s are wild.", interrupt=True)
    assert stream.getvalue() == "Round 3.\n5s are wild.\n"


def test_none_backend_is_silent_but_transcript_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output, reason = create_output("none", tmp_path / "t.txt", sounds=False)
    output.speak("Hello.")
    output.close()
    assert reason == "Speech: silence, as chosen."
    assert capsys.readouterr().out == ""
    assert (tmp_path / "t.txt").read_text(encoding="utf-8").endswith(" Hello.\n")


def test_create_output_print_writes_to_the_given_stream() -> None:
    stream = io.StringIO()
    output, reason = create_output("print", sounds=False, stream=stream)
    output.speak("Ready.")
    output.close()
    assert reason == "Speech: printed lines, as chosen."
    assert stream.getvalue() == "Ready.\n"


def test_create_output_rejects_an_unknown_choice() -> None:
    with pytest.raises(ValueError, match="'loud' is not a speech choice"):
        create_output("loud", sounds=False)


def test_create_output_takes_the_choice_from_the_settings_file() -> None:
    save_settings(OutputSettings(speech="none"))
    output, reason = create_output(sounds=False)
    output.close()
    assert output.backend_name == "none"
    assert reason == "Speech: silence, as chosen."


class _Broken(Backend):
    name = "broken"

    def speak(self, text: str, interrupt: bool = False) -> None:
        raise OSError("connection lost")


def test_a_failing_backend_falls_back_to_printing_and_says_why() -> None:
    stream = io.StringIO()
    output = Output(_Broken(), fallback_stream=stream)
    output.speak("Your turn.")
    output.speak("Draw a card.")
    assert stream.getvalue().splitlines() == [
        "Speech through broken stopped working (connection lost). Printing instead.",
        "Your turn.",
        "Draw a card.",
    ]
    assert output.backend_name == "print"


def test_settings_round_trip_and_keep_other_sections(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"ui": {"theme": "dark"}}), encoding="utf-8")
    chosen = OutputSettings(speech="tts", tts_rate=220, tts_voice="gmw/en", sound_muted=True)
    save_settings(chosen, path)
    loaded, problem = load_settings(path)
    assert (loaded, problem) == (chosen, None)
    assert json.loads(path.read_text(encoding="utf-8"))["ui"] == {"theme": "dark"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "damaged"),
        ('{"output": {"speech": "loud"}}', "speech 'loud' is not one of"),
        ('{"output": {"tts_volume": 3}}', "tts_volume 3.0 is not between"),
        ('{"output": {"sound_muted": "yes"}}', "sound_muted has the wrong type"),
        ('{"output": {"tts_rate": true}}', "tts_rate must not be true or false"),
        ("[" * 100_000, "nested too deeply"),
        ("\udcff\udcfe binary", "it is not text"),
    ],
)
def test_damaged_settings_give_defaults_and_a_sentence(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    settings, problem = load_settings(path)
    assert settings == OutputSettings()
    assert problem is not None and words in problem and problem.endswith("Using defaults.")
    if text.startswith('{"output"'):
        # A bad value in a readable file: saving replaces the output section only.
        save_settings(OutputSettings(tts_rate=200), path)
        assert load_settings(path) == (OutputSettings(tts_rate=200), None)
        return
    # A file that cannot be read is never overwritten (issue 16): a sentence says why.
    before = path.read_bytes()
    with pytest.raises(SettingsFileError, match=r"was not changed, because it cannot be read"):
        save_settings(OutputSettings(tts_rate=200), path)
    assert path.read_bytes() == before


def test_sound_names_are_the_contract() -> None:
    """Every cue issue 30 lists, in the order help and docs list them."""
    assert SOUND_NAMES == (
        "draw_stock",
        "take_discard",
        "discard",
        "meld",
        "other_draw_stock",
        "other_take_discard",
        "other_discard",
        "other_meld",
        "your_turn",
        "other_turn",
        "invalid",
        "went_out",
        "last_turn",
        "your_last_turn",
        "round_over",
        "game_over",
        "shuffle",
        "chat",
        "player_joined",
        "player_left",
        "player_dropped",
        "player_back",
    )


def test_the_settings_file_is_the_one_the_game_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecrowns.storage.paths import config_dir, settings_path
    from fivecrowns.ui.settings import load_settings as load_game_settings

    monkeypatch.delenv("FIVECROWNS_CONFIG_DIR")
    assert settings_path() == config_dir() / "settings.json"
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"play": {"verbosity": "brief"}}', encoding="utf-8")
    save_settings(OutputSettings(speech="print"))
    assert load_game_settings().verbosity == "brief"
    assert load_settings()[0].speech == "print"
