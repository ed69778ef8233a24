"""web/turns.js against the Python catalogue: the page reads the server's sentences for the
parts of another player's turn back into their values and joins them into one sentence with
the terminal's own template (fivecrowns.words.announce._THEIR_TURN). Its copies of those
templates must be the catalogue's, in English and in Spanish (real Chromium, the server's
/web/i18n catalogue), and parts read in two languages are never joined."""

from __future__ import annotations

from typing import Any

import pytest

from fivecrowns.i18n import gettext, speaking
from fivecrowns.words.announce import _THEIR_TURN
from server_support import ServerProcess
from web_support import page_url

pytestmark = [pytest.mark.real]

TURNS = """async () => {
  window.__turns = await import('/web/turns.js');
  window.__i18n = await import('/web/i18n.js');
}"""
# the server's part of a turn (its event kind) -> the shape of its own sentence
PART_SHAPES = {
    "drew_from_stock": [("stock", "", False)],
    "took_discard": [("took", "", False)],
    "laid_down": [("", "nothing", False), ("", "melds", False)],
    "discarded": [("", "", True)],
}
# values as the server words them, in each language (any words would do: they are read back)
VALUES = {
    "en": {
        "name": "Bot 2",
        "card": "the Jack of diamonds",
        "melds": "a book of 5s using a joker",
        "discard": "the 8 of spades",
    },
    "es": {
        "name": "Bot 2",
        "card": "la J de diamantes",
        "melds": "un trío de 5 con un comodín",
        "discard": "el 8 de picas",
    },
}


def ready(browser: Any, server: ServerProcess) -> Any:
    page = browser.new_page()
    page.goto(page_url(server.url))
    page.wait_for_function("() => document.documentElement.dataset.ready === 'true'")
    page.evaluate(TURNS)
    return page


def whole_shape(key: str) -> tuple[str, str, bool]:
    draw, laid, discarded = key.split("|")
    return (draw, laid, discarded == "1")


def test_the_pages_templates_are_the_catalogues(browser: Any, server: ServerProcess) -> None:
    """Every template turns.js copies is the catalogue's, and every shape the terminal says
    (but the brief verbosity's, which the server never sends the page) is in the page."""
    page = ready(browser, server)
    try:
        tables: dict[str, Any] = page.evaluate(
            "() => ({whole: window.__turns.WHOLE, part: window.__turns.PART})"
        )
    finally:
        page.close()
    whole = {whole_shape(key): template for key, template in tables["whole"].items()}
    said = {shape: text for shape, text in _THEIR_TURN.items() if shape[0] != "brief"}
    assert whole == said
    assert sorted(tables["part"]) == sorted(PART_SHAPES)
    for kind, shapes in PART_SHAPES.items():
        copied = [(draw, laid, template) for draw, laid, template in tables["part"][kind]]
        assert copied == [(draw, laid, _THEIR_TURN[(draw, laid, d)]) for draw, laid, d in shapes]


def server_part(shape: tuple[str, str, bool], values: dict[str, str]) -> str:
    """The server's sentence for one part of a turn, in the language being spoken."""
    return gettext(_THEIR_TURN[shape]).format(**values)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_parts_of_a_turn_join_into_the_terminals_sentence(
    browser: Any, server: ServerProcess, language: str
) -> None:
    """Each whole turn the page can build, from the server's part sentences in the player's
    language, is the sentence the terminal says for it, word for word."""
    values = VALUES[language]
    cases: list[dict[str, Any]] = []
    with speaking(language):
        for shape in _THEIR_TURN:
            draw, laid, discarded = shape
            if draw == "brief":
                continue
            parts: list[tuple[str, str]] = []
            if draw == "stock":
                parts.append(("drew_from_stock", server_part(("stock", "", False), values)))
            if draw == "took":
                parts.append(("took_discard", server_part(("took", "", False), values)))
            if laid:
                parts.append(("laid_down", server_part(("", laid, False), values)))
            if discarded:
                parts.append(("discarded", server_part(("", "", True), values)))
            whole = gettext(_THEIR_TURN[shape]).format(**values)
            cases.append({"shape": list(shape), "parts": parts, "whole": whole})
    page = ready(browser, server)
    try:
        assert page.evaluate("(code) => window.__i18n.load(code)", language) == language
        joined = page.evaluate(
            """([cases, name]) => cases.map(({parts}) => {
                 const { turnPart, joinParts } = window.__turns;
                 let part = null, text = null;
                 for (const [kind, said] of parts) {
                   const next = turnPart(kind, 1, name, said);
                   if (!next) return 'not read: ' + said;
                   if (part === null) { part = next; text = said; continue; }
                   const both = joinParts(part, next);
                   if (!both) return 'not joined: ' + said;
                   part = both.part; text = both.text;
                 }
                 return text; })""",
            [cases, values["name"]],
        )
    finally:
        page.close()
    assert joined == [case["whole"] for case in cases]
    if language == "es":  # the Spanish catalogue really was used
        assert all("descartó" in case["whole"] for case in cases if case["shape"][2])


def test_parts_read_in_two_languages_are_not_joined(browser: Any, server: ServerProcess) -> None:
    """The page's language changed while a part waited in the queue: the next part, in the
    new language, stays a sentence of its own (joined, the Spanish sentence named an English
    card). Parts read in the same language still join."""
    with speaking("en"):
        took = server_part(("took", "", False), VALUES["en"])
    with speaking("es"):
        took_es = server_part(("took", "", False), VALUES["es"])
        discarded_es = server_part(("", "", True), VALUES["es"])
    page = ready(browser, server)
    try:
        result = page.evaluate(
            """async ([took, tookEs, discardedEs]) => {
                 const { turnPart, joinParts } = window.__turns;
                 await window.__i18n.load('en');
                 const english = turnPart('took_discard', 1, 'Bot 2', took);
                 await window.__i18n.load('es');
                 const later = turnPart('discarded', 1, 'Bot 2', discardedEs);
                 const spanish = turnPart('took_discard', 1, 'Bot 2', tookEs);
                 return {read: !!english && !!later && !!spanish,
                         mixed: joinParts(english, later),
                         same: joinParts(spanish, later)}; }""",
            [took, took_es, discarded_es],
        )
    finally:
        page.close()
    assert result["read"] is True
    assert result["mixed"] is None
    with speaking("es"):
        whole = gettext(_THEIR_TURN[("took", "", True)]).format(**VALUES["es"])
    assert result["same"]["text"] == whole
