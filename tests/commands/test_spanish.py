"""Spanish in the commands and the output layer (issue 14): ``--help`` of every command,
messages, a damaged or missing save, a missing speech engine, ``solve`` and ``simulate``,
plurals; and the voice: eSpeak NG's Spanish voice and Speech Dispatcher's language when
the game speaks Spanish (real components, which must run under CI=true)."""

from __future__ import annotations

import argparse
import io
import json
import sys
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from fivecrowns import i18n
from fivecrowns.cli import COMMANDS, build_parser, main
from fivecrowns.core.errors import SaveFileError
from fivecrowns.output import Output, RecordingBackend, create_output, repick_voice
from fivecrowns.output.base import OutputError
from fivecrowns.output.factory import _sounds_made_again
from fivecrowns.output.sounds import sound_files_status
from fivecrowns.output.tts import (
    EspeakCommandRenderer,
    Pyttsx3Renderer,
    language_voice,
    split_speech,
)
from fivecrowns.storage.saves import (
    MAX_SAVE_BYTES,
    check_autosave,
    load_solitaire,
    read_bounded,
    read_game_file,
)
from i18n_support import english_words
from output_support import require, speech_dispatcher

OURS = [name for name in COMMANDS if name != "solitaire"]  # solitaire: es-solitaire-export
#: Values a player types (levels, --resume words, JSON keys): data, the same in every
#: language, like option names; the Spanish help explains each one in Spanish.
TYPED = {"easy", "medium", "hard", "expert", "simple", "last", "previous", "list"}
JSON_KEYS = "cards wild leftover_points melds leftover discard can_go_out"


def _typed_values(parser: argparse.ArgumentParser) -> set[str]:
    """Every choice an option of ``parser`` accepts (``--what hand``, ``--verbosity brief``)."""
    values = set(TYPED)
    for action in parser._actions:
        values.update(str(choice) for choice in action.choices or ())
    return values


def _spanish_words(text: str, leave_out: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English words in ``text``, leaving out typed values and data words."""
    found = english_words(text)
    return [word for word in found if word not in leave_out]


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise AssertionError(name)


@pytest.mark.parametrize("command", OURS)
def test_every_command_help_is_spanish(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--language", "es", "--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"uso: fivecrowns {command}")
    # the command's own name is a word typed, like an option
    body = text.replace(f"fivecrowns {command}", "fivecrowns")
    leave_out = _typed_values(_subparser(command)) | set(JSON_KEYS.replace("_", " ").split())
    assert _spanish_words(body, leave_out) == [], body
    # the same help in English is unchanged by the catalog: English has no catalog
    main_text = _english_help(command, capsys)
    assert "usage: fivecrowns" in main_text and "uso:" not in main_text


def _english_help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    i18n.set_language("en")
    with pytest.raises(SystemExit):
        main([command, "--language", "en", "--help"])
    return capsys.readouterr().out


def _damaged_autosave() -> bytes:
    return json.dumps(
        {"version": 1, "seats": [{"name": "Ana"}, {"name": "Ben"}], "seed": 1,
         "first_dealer": 0, "moves": [], "decks": "two"}
    ).encode()  # fmt: skip


@pytest.mark.parametrize(
    ("content", "spanish"),
    [
        (b'{"seats": "\xff\xfe"}', "no es texto"),
        (b'{"seats": [1, 2', "(los datos terminan antes de tiempo)"),
        (b'{"seats": [1, 2]} x', "(JSON mal formado: caracteres de más al final (byte 19))"),
        (b"[1, 2, 3]", "no es una partida guardada de Cinco Coronas"),
        (b'{"format": "fivecrowns-save", "version": 7}', "está dañada y no se puede continuar"),
        (_damaged_autosave(), "se esperaba int y hay str (en decks)"),
    ],
    ids=["not-text", "cut-short", "trailing", "not-ours", "wrong-version", "wrong-type"],
)
def test_a_damaged_save_is_said_in_spanish(tmp_path: Path, content: bytes, spanish: str) -> None:
    path = tmp_path / "partida.json"
    path.write_bytes(content)
    with i18n.speaking("es"), pytest.raises(SaveFileError) as refused:
        read_game_file(path)
    message = str(refused.value)
    assert spanish in message, message
    assert _spanish_words(message.replace(str(path), "")) == [], message


def test_a_missing_or_odd_save_is_said_in_spanish(tmp_path: Path) -> None:
    with i18n.speaking("es"):
        sentences = []
        for action in (
            lambda: read_game_file(tmp_path / "nada.json"),
            lambda: load_solitaire(tmp_path / "nada.json"),
            lambda: read_bounded(tmp_path, "saved game"),  # a folder, not a plain file
            lambda: check_autosave(b'{"version": 1, "seats": [], "seed": 1, "first_dealer": 0}'),
        ):
            with pytest.raises(SaveFileError) as refused:
                action()
            sentences.append(str(refused.value).replace(str(tmp_path), "CARPETA"))
    assert sentences[0] == "No hay ninguna partida guardada en CARPETA/nada.json."
    assert sentences[1] == "No hay ningún solitario guardado en CARPETA/nada.json."
    assert sentences[2] == (
        "La partida guardada CARPETA no es un archivo normal, así que no se leyó."
    )
    assert sentences[3] == (
        "La partida guardada file está dañada y no se puede continuar: "
        "se esperaba array de longitud >= 2 (en seats)."
    )


def test_a_huge_save_gives_spanish_numbers(tmp_path: Path) -> None:
    path = tmp_path / "grande.json"
    path.write_bytes(b" " * (MAX_SAVE_BYTES + 1))
    with i18n.speaking("es"), pytest.raises(SaveFileError) as refused:
        read_game_file(path)
    assert str(refused.value) == (
        f"La partida guardada {path} ocupa 4.000.001 bytes, más que cualquier partida real "
        "(4.000.000 como máximo), así que no se leyó."
    )
    with pytest.raises(SaveFileError) as english:
        read_game_file(path)
    assert "is 4,000,001 bytes, more than any real one (4,000,000 at most)" in str(english.value)


def test_export_of_a_missing_save_is_spanish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--language", "es", "--game", str(tmp_path / "no.json")]) == 1
    assert capsys.readouterr().err == f"No hay ninguna partida guardada en {tmp_path}/no.json.\n"


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


def test_solve_prints_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--language", "es", "3h", "4h", "5h", "jk", "Qd", "9c"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Salvajes: 6; 6 naipes en la mano."
    assert lines[2] == "Puntos sobrantes: 21."
    assert main(["solve", "--language", "es", "--discard", "3h", "4h", "5h", "7c", "7d", "jk"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Salvajes: 5; 6 naipes después de tomar."
    assert lines[-1] == "No puedes salir con esta mano."
    assert main(["solve", "--language", "es", "--round", "1", "3h", "4h", "5h"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Salvajes: 3; 3 naipes en la mano."
    assert lines[-1] == "Todos los naipes están en una combinación."
    for line in (lines[0], lines[-1]):
        assert _spanish_words(line) == []


def test_solve_names_every_way_out_as_one_list(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["--discard", "--round", "1", "7h", "7d", "7c", "7st"]
    assert main(["solve", *hand]) == 0
    english = capsys.readouterr().out.splitlines()[-1]
    assert main(["solve", "--language", "es", *hand]) == 0
    spanish = capsys.readouterr().out.splitlines()[-1]
    assert english.startswith("You can go out by discarding the ")
    assert english.endswith("7 of hearts, 7 of clubs or 7 of diamonds.")  # no serial comma
    assert spanish.startswith("Puedes salir si descartas: ")
    assert spanish.count(", ") == 2 and spanish.count(" o ") == 1 and " or " not in spanish


def test_a_solve_usage_error_is_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--language", "es", "--round", "x", "3h"]) == 2
    assert capsys.readouterr().err == (
        "fivecrowns solve: «x» no es una ronda: las rondas van de 1 a 11.\n"
    )


@pytest.mark.parametrize(
    ("games", "first"),
    [(1, "1 partida, 2 jugadores, semilla 3."), (2, "2 partidas, 2 jugadores, semilla 3.")],
)
def test_simulate_prints_spanish(
    games: int, first: str, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["simulate", "--language", "es", "--ai", "simple", "--players", "2"]
    assert main([*arguments, "--games", str(games), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == first
    assert lines[1].startswith("Asiento 1 (sencillo): media de puntos ")  # the level in words
    assert lines[-1].endswith(" partidas por segundo.")
    assert "," in lines[-1] and "." not in lines[-1][:-1]  # the Spanish decimal mark
    assert _spanish_words(out) == []


def test_simulate_refusals_are_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--language", "es", "--games", "0"]) == 2
    assert main(["simulate", "--language", "es", "--players", "30"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "El número de partidas debe ser 1 o más, no 0."
    assert err[1].startswith("Una partida necesita de 2 a 7 jugadores")
    assert _spanish_words(" ".join(err)) == []


def test_history_counts_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    with i18n.speaking("es"):
        kept = [
            i18n.ngettext(
                "1 finished game in all, kept in {path}.",
                "{count} finished games in all, kept in {path}.",
                count,
            ).format(count=count, path="H")
            for count in (0, 1, 2, 1500)
        ]
    assert kept == [
        "0 partidas terminadas en total, guardadas en H.",
        "1 partida terminada en total, guardada en H.",
        "2 partidas terminadas en total, guardadas en H.",
        "1500 partidas terminadas en total, guardadas en H.",
    ]
    assert main(["history", "--language", "es", "--last", "0"]) == 2
    assert capsys.readouterr().err == "--last debe ser 1 o más, no 0.\n"


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


def test_the_sound_list_is_spanish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with i18n.speaking("es"):
        status = sound_files_status()
    assert status.startswith("Sonidos: 10 de 10 archivos de sonido encontrados en ")
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    monkeypatch.setenv("FIVECROWNS_AUDIO", "null")
    assert main(["speech", "--language", "es", "--sounds", "--backend", "print"]) == 0
    out = capsys.readouterr().out
    assert "tomar de la pila de extracción: Alguien tomó un naipe de la pila de extracción." in out
    assert _spanish_words(out) == []


def test_speech_list_is_spanish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FIVECROWNS_AUDIO", "nosuchbackend")
    monkeypatch.setenv("SPEECHD_ADDRESS", "unix_socket:/nonexistent/speechd")
    monkeypatch.setenv("SPEECHD_CMD", "/bin/false")
    assert main(["speech", "--language", "es", "--list"]) == 0
    out = capsys.readouterr().out
    assert "print: disponible. Cada anuncio como una línea de texto simple." in out
    assert "none: disponible. En silencio; la transcripción sigue registrando." in out
    assert "Archivo de configuración: " in out


# -- the voice ---------------------------------------------------------------------


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
