"""Spanish in the commands (issue 14): ``--help`` of every command, ``export`` of a missing
save, ``solve``, ``simulate``, ``history`` and ``speech``, with their plurals. The saves and
the output layer in Spanish are in tests/storage/test_saves_spanish.py and
tests/output/test_spanish.py."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from fivecrowns import i18n
from fivecrowns.cli import COMMANDS, build_parser, main
from fivecrowns.output.sounds import SOUND_NAMES, sound_files_status
from i18n_support import english_words

OURS = [name for name in COMMANDS if name != "solitaire"]  # solitaire: es-solitaire-export
#: Values a player types (levels, --resume words, JSON keys): data, the same in every
#: language, like option names; the Spanish help explains each one in Spanish.
TYPED = {"easy", "medium", "hard", "simple", "hint", "last", "previous", "list"}
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


def test_export_of_a_missing_save_is_spanish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--language", "es", "--game", str(tmp_path / "no.json")]) == 1
    assert capsys.readouterr().err == f"No hay ninguna partida guardada en {tmp_path}/no.json.\n"


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


def test_the_sound_list_is_spanish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with i18n.speaking("es"):
        status = sound_files_status()
    count = len(SOUND_NAMES)
    assert status.startswith(f"Sonidos: {count} de {count} archivos de sonido encontrados en ")
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    monkeypatch.setenv("FIVECROWNS_AUDIO", "null")
    assert main(["speech", "--language", "es", "--sounds", "--backend", "print"]) == 0
    out = capsys.readouterr().out
    assert "tomar de la pila de extracción: Tomaste un naipe de la pila de extracción." in out
    assert "turno de otro jugador: Es el turno de otro jugador." in out
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
