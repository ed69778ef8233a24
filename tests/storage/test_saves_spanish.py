"""Saves in Spanish (issue 14): a damaged, missing, odd or huge save is said in Spanish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivecrowns import i18n
from fivecrowns.core.errors import SaveFileError
from fivecrowns.storage.saves import (
    MAX_SAVE_BYTES,
    check_autosave,
    load_solitaire,
    read_bounded,
    read_game_file,
)
from i18n_support import english_words


def _spanish_words(text: str, leave_out: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English words in ``text``, leaving out typed values and data words."""
    found = english_words(text)
    return [word for word in found if word not in leave_out]


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
