"""The exports in Spanish: a hand, the melds, the score sheet and the game log of a seeded
game as text, BRF (Spanish braille through liblouis, back-translated) and Unicode braille,
with no English game word left (tests/support/i18n_support.english_words).

Meld lines name ranks and suits (core/cards.py: another helper's area). The ``stand_ins``
fixture puts Spanish words in their place so these tests check the exports' own
sentences; ``test_everything_in_spanish`` checks the real names and is an expected
failure (strict) until cards.py speaks Spanish. The score sheet names no card: it is
checked as it is.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from export_support import BRF_ALLOWED, brf_pages, hide_louis_module, require_liblouis
from fivecrowns import i18n
from fivecrowns.commands.export import build_document, play_seeded_game
from fivecrowns.core.cards import Rank, Suit
from fivecrowns.core.game import Game
from fivecrowns.export import MAX_WIDTH, Document, Section, export_text, render
from fivecrowns.export.braille import LANGUAGE_TABLES, Translator
from fivecrowns.export.files import WrittenExports
from i18n_support import english_words

WHATS = ("hand", "melds", "scores", "log")


@pytest.fixture(scope="module")
def game() -> Game:
    return play_seeded_game(7, 3)


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spanish words in place of the rank and suit names cards.py gives."""
    monkeypatch.setattr(Rank, "plural", property(lambda rank: "sotas"))
    monkeypatch.setattr(Suit, "word", property(lambda suit: "copas"))


def _words(text: str) -> list[str]:
    """Words and numbers, Spanish letters included, for comparing print with braille."""
    return re.findall(r"[a-z0-9áéíóúüñ]+", text.lower())


def _spanish(game: Game, what: str) -> Document:
    with i18n.speaking("es"):
        return build_document(game, what)


@pytest.mark.usefixtures("stand_ins")
@pytest.mark.parametrize("what", WHATS)
def test_text_export_in_spanish_has_no_english_word(game: Game, what: str) -> None:
    document = _spanish(game, what)
    assert document.language == "es"
    for width in (40, 20):
        text = render(document, "text", width)
        assert all(len(line) <= width for line in text.splitlines())
        assert english_words(text) == [], text


def test_score_sheet_in_spanish_as_it_is(game: Game) -> None:
    text = render(_spanish(game, "scores"), "text")
    assert text.startswith("Hoja de puntos.\nFin de la partida.\nGana: ")
    assert "3 jugadores: Ana, Ben y Cy." in text
    header = next(line for line in text.splitlines() if line.startswith("Ronda  "))
    assert header.split() == ["Ronda", "Ana", "Ben", "Cy"]
    assert any(line.split()[:1] == ["Total"] for line in text.splitlines())
    assert "Totales, de menor a mayor." in text
    assert english_words(text) == [], text
    assert render(build_document(game, "scores"), "text").startswith("Score sheet.\nGame over.")


@pytest.mark.usefixtures("stand_ins")
@pytest.mark.parametrize("what", WHATS)
def test_spanish_brf_back_translates_to_the_spanish_text(game: Game, what: str) -> None:
    require_liblouis()
    document = _spanish(game, what)
    expected = _words(export_text(document, MAX_WIDTH, columns=False))
    translator = Translator(1, "brf", "es")
    out = render(document, "brf")
    assert set(out) <= BRF_ALLOWED
    pages = brf_pages(out)
    assert all(len(page) <= 25 and all(len(line) <= 40 for line in page) for page in pages)
    back = " ".join(translator.back_translate(line) for page in pages for line in page[1:])
    assert _words(back) == expected, what
    assert english_words(back) == []
    numbers = [translator.back_translate(page[0].strip()) for page in pages]
    assert numbers == [str(n) for n in range(1, len(pages) + 1)]


@pytest.mark.usefixtures("stand_ins")
@pytest.mark.parametrize("what", WHATS)
def test_spanish_unicode_braille_back_translates(game: Game, what: str) -> None:
    require_liblouis()
    document = _spanish(game, what)
    lines = render(document, "unicode", 32).splitlines()
    assert all("\u2800" <= char <= "\u28ff" for line in lines for char in line)
    back = " ".join(Translator(1, "unicode", "es").back_translate(line) for line in lines)
    assert _words(back) == _words(export_text(document, MAX_WIDTH, columns=False)), what
    assert english_words(back) == []


def test_spanish_braille_is_spanish_braille() -> None:
    """Spanish letters have their own cells (not dropped accents), a card token after a
    number gets the dot 5 (else "7c" reads as 73), and grade 2 is es-g2."""
    require_liblouis()
    document = Document("Año: 7c 8h 10d 3st tréboles.", language="es")
    brf = render(document, "brf")
    line = brf_pages(brf)[0][1]
    assert line == '.A]O3 #G"C #H"H #AJ"D #CST TR!BOLES\''
    assert Translator(1, "brf", "es").back_translate(line) == document.title
    assert "es-g2.ctb" in LANGUAGE_TABLES["es"][2]
    assert render(document, "brf", grade=2) != brf  # contracted
    english = render(Document("Ano: 7c."), "brf")
    assert english != render(Document("Ano: 7c.", language="es"), "brf")


def test_a_spanish_document_keeps_its_letters_and_an_english_one_does_not() -> None:
    text = "Aún sin combinaciones: ¿año? Zoë"
    assert export_text(Document(text, language="es")) == "Aún sin combinaciones: ¿año? Zoe\n"
    assert export_text(Document(text, language="en")) == "Aun sin combinaciones: ?ano? Zoe\n"


@pytest.mark.parametrize(
    ("count", "spanish"),
    [(0, ": 0 archivos."), (1, ": 1 archivo."), (2, ": 2 archivos."), (7, ": 7 archivos.")],
)
def test_exported_files_sentence_with_0_1_2_and_many(count: int, spanish: str) -> None:
    written = WrittenExports(Path("/tmp/x"), tuple(Path(f"/tmp/x/{n}") for n in range(count)))
    assert written.message.endswith(f"{count} file{'s' if count != 1 else ''}.")
    with i18n.speaking("es"):
        assert written.message == f"Hoja de puntos y tu mano exportadas a /tmp/x{spanish}"


@pytest.mark.parametrize(
    ("names", "spanish"),
    [
        (["Ana"], "Gana: Ana, 0 puntos."),
        (["Ana", "Ben"], "Ganan: Ana y Ben, 0 puntos."),
        (["Ana", "Ben", "Cy"], "Ganan: Ana, Ben y Cy, 0 puntos."),
    ],
)
def test_winners_lists_with_1_2_and_3_names(names: list[str], spanish: str) -> None:
    from fivecrowns.export.content import _winners_line

    with i18n.speaking("es"):
        assert _winners_line(names, 0) == spanish
        assert _winners_line(names, 1).endswith(", 1 punto.")
        assert _winners_line(names, 2).endswith(", 2 puntos.")


def test_a_spanish_section_in_an_english_process_stays_spanish() -> None:
    """The language is the document's, fixed when it is made: a server can word one export
    per player."""
    with i18n.speaking("es"):
        document = Document("Hoja de puntos.", (Section("Rondas.", ("Ronda 1: Ana 12",)),))
    assert document.with_sections(Section("Más.")).language == "es"


def _others_speak_spanish() -> bool:
    with i18n.speaking("es"):
        return not english_words(f"{Rank.QUEEN.plural} {Suit.HEARTS.word}")


@pytest.mark.xfail(
    not _others_speak_spanish(),
    reason="rank and suit names (core/cards.py, another helper's area) are not Spanish yet",
    strict=True,
)
def test_everything_in_spanish(game: Game) -> None:
    text = "\n".join(render(_spanish(game, what), "text") for what in WHATS)
    assert english_words(text) == [], text


@pytest.mark.usefixtures("stand_ins")
def test_without_the_louis_module_lou_translate_gives_the_same_spanish_braille(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our two small tables are named by path; the lou_translate program reads them too."""
    require_liblouis()
    document = _spanish(game, "hand")
    with_module = [render(document, "brf", 40, grade) for grade in (1, 2)]
    with_module.append(render(document, "unicode"))
    hide_louis_module(monkeypatch)
    with_program = [render(document, "brf", 40, grade) for grade in (1, 2)]
    with_program.append(render(document, "unicode"))
    assert with_program == with_module


def test_every_turn_shape_of_the_log_is_one_whole_sentence_in_each_language(game: Game) -> None:
    """The log's turn lines are whole messages (no verb phrases glued by code), one per shape."""
    from fivecrowns.export.content import _LOG_TURNS

    values = {"name": "Ana", "card": "7h", "melds": "familia de 8", "discard": "Kc"}
    for language in ("en", "es"):
        with i18n.speaking(language):
            said = {i18n.gettext(template).format(**values) for template in _LOG_TURNS.values()}
        assert len(said) == len(_LOG_TURNS), language  # every shape its own sentence
        assert all(s.startswith("Ana") and s.endswith(".") and "{" not in s for s in said)
    document = _spanish(game, "log")
    spanish = "\n".join(b for s in document.sections for b in s.blocks if isinstance(b, str))
    assert re.search(r"^\w+, último turno: toma (de la pila|el descarte)", spanish, re.M), spanish
    assert re.search(r"^\w+ toma (de la pila|el descarte) .*, descarta \w+\.$", spanish, re.M)
