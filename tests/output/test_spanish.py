"""The output layer in Spanish (issue 14): a missing speech engine, the fallback reason, the
review keys, counted sound files and cut messages; and the voice: eSpeak NG's Spanish voice
and Speech Dispatcher's language when the game speaks Spanish (real components, which must
run under CI=true).
"""

from __future__ import annotations

import io
import sys
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from fivecrowns import i18n
from fivecrowns.cli import main
from fivecrowns.output import Output, RecordingBackend, create_output, repick_voice
from fivecrowns.output.base import OutputError
from fivecrowns.output.factory import _sounds_made_again
from fivecrowns.output.tts import (
    EspeakCommandRenderer,
    Pyttsx3Renderer,
    language_voice,
    split_speech,
)
from i18n_support import english_words
from output_support import require, speech_dispatcher


def _spanish_words(text: str, leave_out: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English words in ``text``, leaving out typed values and data words."""
    found = english_words(text)
    return [word for word in found if word not in leave_out]


def test_a_missing_speech_engine_is_said_in_spanish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FIVECROWNS_AUDIO", "nosuchbackend")
    assert main(["speech", "--language", "es", "--test", "--backend", "tts"]) == 1
    assert capsys.readouterr().err == (
        "La voz integrada no está disponible: «nosuchbackend» no es una salida de miniaudio.\n"
    )
    monkeypatch.setitem(sys.modules, "pyttsx3", None)  # pyttsx3 not installed
    with i18n.speaking("es"), pytest.raises(OutputError) as missing:
        Pyttsx3Renderer()
    assert str(missing.value).startswith("pyttsx3 no está instalado (")
    assert "vuelve a instalar el juego con:" in str(missing.value)


def test_the_fallback_reason_is_one_spanish_sentence() -> None:
    with i18n.speaking("es"):
        output, reason = create_output("tts", sounds=False, audio="nosuch", stream=io.StringIO())
        output.close()
    assert reason == (
        "Voz: líneas escritas, porque la voz integrada no está disponible: "
        "«nosuch» no es una salida de miniaudio."
    )
    assert _spanish_words(reason) == []


def test_the_review_keys_answer_in_spanish() -> None:
    backend = RecordingBackend()
    with i18n.speaking("es"):
        output = Output(backend)
        output.repeat_last()
        output.speak("Tu turno.")
        output.older()
        output.newer()
    assert backend.spoken == [
        "Todavía no se ha dicho nada.",
        "Tu turno.",
        "No hay mensajes anteriores.",
        "No hay mensajes posteriores.",
    ]


@pytest.mark.parametrize(
    ("count", "spanish", "english"),
    [
        (0, "Faltaban 0 archivos de sonido", "0 sound files were missing"),
        (1, "Faltaba 1 archivo de sonido", "1 sound file was missing"),
        (2, "Faltaban 2 archivos de sonido", "2 sound files were missing"),
        (9, "Faltaban 9 archivos de sonido", "9 sound files were missing"),
    ],
)
def test_missing_sound_files_are_counted(count: int, spanish: str, english: str) -> None:
    assert _sounds_made_again(count, "X").startswith(english)
    with i18n.speaking("es"):
        assert _sounds_made_again(count, "X").startswith(spanish)


@pytest.mark.parametrize(
    ("extra", "spanish"),
    [
        (1, "El resto de este mensaje, 1 carácter más, no se dijo."),
        (2, "El resto de este mensaje, 2 caracteres más, no se dijo."),
        (4000, "El resto de este mensaje, 4000 caracteres más, no se dijo."),
    ],
)
def test_a_cut_message_says_so_in_spanish(extra: int, spanish: str) -> None:
    with i18n.speaking("es"):
        assert split_speech("x" * (6000 + extra))[-1] == spanish
    assert split_speech("short") == ["short"]  # nothing cut, nothing said (0)


def _espeak_installed() -> bool:
    import ctypes.util

    return ctypes.util.find_library("espeak-ng") is not None or any(
        Path(p).exists() for p in ("/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1",)
    )


@pytest.fixture
def espeak() -> None:
    require(_espeak_installed(), "eSpeak NG is not installed (Debian libespeak-ng1, espeak-ng)")


def _voice_languages(renderer: Pyttsx3Renderer) -> list[str]:
    voices = {voice.id: voice for voice in renderer._engine.getProperty("voices")}
    voice = voices[renderer.voice] if renderer.voice else None
    return [str(language) for language in (voice.languages if voice else [])]


def _frames(data: bytes) -> int:
    with wave.open(io.BytesIO(data)) as file:
        return file.getnframes()


@pytest.mark.real
def test_a_spanish_game_gets_espeak_s_spanish_voice(
    espeak: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    i18n.set_language("es")
    renderer = Pyttsx3Renderer()
    try:
        assert renderer.voice == "roa/es"
        assert _voice_languages(renderer) == ["es"]
        assert _frames(renderer.render("Tu turno. Toma un naipe.")) > 22050 * 0.5
        monkeypatch.setenv("LANG", "es_MX.UTF-8")
        renderer.set_language("es")
        assert _voice_languages(renderer) == ["es-419"]
        renderer.set_language("en")  # back to English: the engine's own voice, as before
        assert renderer.voice is None
    finally:
        renderer.close()


@pytest.mark.real
def test_the_player_s_own_voice_is_kept_in_spanish(espeak: None) -> None:
    i18n.set_language("es")
    renderer = Pyttsx3Renderer(voice="gmw/en-us")
    try:
        renderer.set_language("es")
        assert renderer.voice == "gmw/en-us"
    finally:
        renderer.close()


@pytest.mark.real
def test_the_espeak_program_speaks_spanish_too(
    espeak: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    require(shutil.which("espeak-ng") is not None, "the espeak-ng program is not installed")
    monkeypatch.setenv("LANG", "es_AR.UTF-8")
    with i18n.speaking("es"):
        renderer = EspeakCommandRenderer()
    assert renderer._command[-2:] == ["-v", "es-419"]
    assert renderer.description == "el programa espeak-ng"
    assert _frames(renderer.render("Tu turno.")) > 22050 * 0.3
    renderer.set_language("en")
    assert "-v" not in renderer._command


@pytest.mark.real
def test_speech_writes_a_spanish_wav_with_the_spanish_voice(
    espeak: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    wav = tmp_path / "prueba.wav"
    arguments = ["speech", "--language", "es", "--test", "--backend", "tts", "--wav", str(wav)]
    assert main(arguments) == 0
    assert capsys.readouterr().out == f"Escrito {wav} con pyttsx3 con eSpeak NG.\n"
    spanish = _frames(wav.read_bytes())
    # the same sentence read by the English voice sounds different (another length)
    i18n.set_language("en")
    english = Pyttsx3Renderer()
    try:
        assert english.voice is None
        other = _frames(english.render("Cinco Coronas está listo. El 7 de copas es salvaje."))
    finally:
        english.close()
    assert spanish > 22050 and spanish != other


@pytest.mark.real
def test_a_voice_opened_inside_speaking_es_speaks_spanish(espeak: None) -> None:
    from fivecrowns.storage.settings import OutputSettings

    with i18n.speaking("es"):  # a caller wording for a Spanish player; the process is English
        output, _reason = create_output(
            "tts", sounds=False, audio="null", settings=OutputSettings(), fallback=False
        )
    try:
        output.speak("Tu turno.")
        assert output.backend.wait_idle(30)  # type: ignore[attr-defined]
        backend = output.backend
        assert backend.description == "pyttsx3 con eSpeak NG"  # type: ignore[attr-defined]
        assert backend._language == "es"  # type: ignore[attr-defined]
    finally:
        output.close()


def test_the_voice_for_a_language_from_a_list() -> None:
    voices = [
        ("gmw/en", "English (Great Britain)", ["en-gb"]),
        ("gmw/en-us", "English (America)", ["en-us"]),
        ("roa/es", "Spanish (Spain)", ["es"]),
        ("roa/es-419", "Spanish (Latin America)", ["es-419"]),
    ]
    assert language_voice(voices, "es", "gmw/en", None) == "roa/es"
    assert language_voice(voices, "es", "gmw/en", "co") == "roa/es-419"
    assert language_voice(voices, "es", "roa/es-419", "es") is None  # the default speaks it
    assert language_voice(voices, "en", "gmw/en") is None
    assert language_voice(voices, "en", "roa/es") == "gmw/en"
    assert language_voice(voices[:2], "es", "gmw/en") is None  # none: keep the default


@pytest.mark.real
def test_repick_voice_switches_the_built_in_voice(espeak: None) -> None:
    from fivecrowns.storage.settings import OutputSettings

    output, _reason = create_output(
        "tts", sounds=False, audio="null", settings=OutputSettings(), fallback=False
    )
    try:
        backend = output.backend
        renderers: list[object] = []
        original = backend._set_language  # type: ignore[attr-defined]

        def spy(renderer: object, language: str) -> None:
            renderers.append(renderer)
            original(renderer, language)

        backend._set_language = spy  # type: ignore[attr-defined]
        repick_voice(output, "es")
        output.speak("Tu turno.")
        assert backend.wait_idle(30)  # type: ignore[attr-defined]
        assert len(renderers) == 1
        renderer = renderers[0]
        assert isinstance(renderer, Pyttsx3Renderer)
        assert renderer.voice is not None and "es" in renderer.voice
        repick_voice(output, "en")
        output.speak("Your turn.")
        assert backend.wait_idle(30)  # type: ignore[attr-defined]
        assert renderer.voice is None
    finally:
        output.close()


@pytest.fixture
def bilingual_daemon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    if not sys.platform.startswith("linux"):
        pytest.skip("Speech Dispatcher is the Linux path")
    with speech_dispatcher(tmp_path / "speechd", languages=True) as daemon:
        monkeypatch.setenv("SPEECHD_ADDRESS", daemon.address)
        monkeypatch.setenv("SPEECHD_CMD", "/bin/false")
        monkeypatch.setenv("HOME", str(daemon.home))
        yield daemon


@pytest.mark.real
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_speech_dispatcher_speaks_the_game_s_language(bilingual_daemon: object) -> None:
    daemon = bilingual_daemon
    i18n.set_language("es")
    output, reason = create_output("screenreader", sounds=False)
    with output:
        assert reason == "Voz: tu lector de pantalla (Linux Speech Dispatcher), como elegiste."
        output.speak("Tu turno.")
        assert daemon.wait_for(1) == ["es Tu turno."]  # type: ignore[attr-defined]
        repick_voice(output, "en")
        output.speak("Your turn.")
        assert daemon.wait_for(2) == ["es Tu turno.", "en Your turn."]  # type: ignore[attr-defined]
