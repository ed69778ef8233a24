"""The web page in Spanish (issue 14): a browser whose language is Spanish gets the page,
its announcements and the server's sentences in Spanish, with <html lang="es">, and axe
still finds nothing; the language switch before connecting changes the page in place.

A real Chromium against a real ``fivecrowns serve`` on 127.0.0.1, as tests/web/test_browser.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from fivecrowns import i18n
from fivecrowns.core.cards import Rank
from fivecrowns.core.moves import DrewFromStock
from fivecrowns.words.announce import describe_events
from i18n_support import english_words
from server_support import ServerProcess
from web_support import (
    WebPlayer,
    axe_violations,
    page_url,
)

pytestmark = [pytest.mark.real]

# What the page itself words (visible text outside the regions that carry the server's
# event sentences, whose Spanish is helper es-core's) and the table's own sentences.
OWN_TEXT = """() => {
  const clone = document.body.cloneNode(true);
  for (const id of ['log', 'answer', 'result', 'help']) {
    const region = clone.querySelector('#' + id);
    if (region) region.remove();
  }
  for (const hidden of clone.querySelectorAll('[hidden], .visually-hidden')) hidden.remove();
  const labels = [...document.querySelectorAll('[aria-label]')]
    .map(e => e.getAttribute('aria-label'));
  return [clone.innerText, ...labels].join('\\n');
}"""


# Every [selector, attribute, sentence] of page.js against the page as served (before any
# script ran): the element is there and says that sentence.
PAGE_DRIFT = """async () => {
  const { PAGE } = await import('/web/page.js');
  const html = await (await fetch('/')).text();
  const raw = new DOMParser().parseFromString(html, 'text/html');
  const wrong = [];
  for (const [selector, attribute, sentence] of PAGE) {
    const element = raw.querySelector(selector);
    if (!element) {
      wrong.push(`missing: ${selector}`);
      continue;
    }
    const texts = [...element.childNodes]
      .filter(node => node.nodeType === Node.TEXT_NODE && node.nodeValue.trim())
      .map(node => node.nodeValue.trim());
    const found = attribute ? element.getAttribute(attribute) : (texts[0] ?? '');
    if (found !== sentence) wrong.push(`${selector}: ${found} != ${sentence}`);
  }
  return wrong;
}"""


def _events_in_spanish() -> bool:
    """Whether the game's own event sentences (helper es-core's) are translated yet."""
    with i18n.speaking("es"):
        said = describe_events([DrewFromStock(1, None)], ["Ana", "Ben"], 0, Rank.THREE, "normal")
    return all(english_words(a.text) == [] for a in said)


def test_a_spanish_browser_gets_the_page_and_the_table_in_spanish(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(locale="es-ES")
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        assert page.evaluate("() => document.documentElement.lang") == "es"
        assert page.title() == "Cinco Coronas"
        assert page.locator("#language").input_value() == "es"
        before = page.evaluate(OWN_TEXT)
        assert "Tu nombre" in before and "Conectar" in before, before
        assert english_words(before) == [], before
        assert axe_violations(page) == [], "the page before connecting"
        web.connect("Ana")
        page.locator("#seats").select_option("2")
        chosen = page.locator("#seat-2 option:checked").inner_text()
        assert "medio" in chosen and english_words(chosen) == [], chosen
        lobby = page.evaluate(OWN_TEXT)
        assert english_words(lobby) == [], lobby
        assert axe_violations(page) == [], "lobby"
        web.create_table()
        web.start()
        web.wait_turn()
        page.locator("#hand").focus()
        # the page's own answers: sort, the edges of the hand, the help
        page.keyboard.press("o")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(
            "() => document.getElementById('answer').textContent.startsWith('Primer naipe: ')",
            timeout=10_000,
        )
        for _step in range(6):
            web.play_one()
            web.wait_turn()
        table = page.evaluate(OWN_TEXT)
        assert re.search(
            r"Ronda \d+ de 11\. Los \d+ son salvajes, y también los comodines\.", table
        ), table
        assert english_words(table) == [], table
        said = web.said()
        texts = [entry["text"] for entry in said]
        news = [entry["text"] for entry in said if entry["region"] == "log"]
        assert news[0].startswith("Te sientas en el asiento 1 de la mesa "), news[:3]
        assert "Ordenada por color." in texts
        # "Tu turno. Descarte visible: …", as the terminal's session says it in Spanish
        turns = [text for text in texts if text.startswith("Tu turno. Descarte visible: ")]
        assert "Empieza la partida." in texts and turns, texts
        own = {
            "Empieza la partida.",
            "Ordenada por color.",
            *turns,
        }
        strict = _events_in_spanish()
        for text in texts:
            if strict or text in own or text.startswith(("Te sientas", "Primer naipe")):
                assert english_words(text) == [], text
        # every frame's text came worded in Spanish by the server: none is the English one
        events = [json.loads(f) for f in web.frames if '"type":"event"' in f.replace(" ", "")]
        starts = [e["text"] for e in events if e["kind"] in ("game_started", "turn_started")]
        assert starts and all(english_words(text) == [] for text in starts), starts
        assert axe_violations(page) == [], "table"
        page.keyboard.press("F1")
        help_text = page.locator("#help").inner_text()
        assert "Tomar de la pila de extracción" in help_text
        assert english_words(help_text) == [], help_text
        assert axe_violations(page) == [], "help"
        page.keyboard.press("Escape")
        assert web.errors == []
    finally:
        context.close()


def test_the_language_switch_changes_the_page_and_the_hello(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        assert page.evaluate("() => document.documentElement.lang") == "en"
        assert page.locator("label[for=name]").inner_text() == "Your name"
        # page.js's English sentences are index.html's own: the two cannot drift apart
        drift = page.evaluate(PAGE_DRIFT)
        assert drift == [], drift
        page.locator("#language").select_option("es")
        page.wait_for_function("() => document.documentElement.lang === 'es'", timeout=10_000)
        assert page.locator("label[for=name]").inner_text() == "Tu nombre"
        assert page.locator("label:has(#voice)").inner_text().strip() == "Voz propia"
        assert page.locator("#voice").count() == 1  # the check box is still in its label
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(str(data))))
        web.connect("Ana")
        hello = json.loads(next(frame for frame in sent if '"hello"' in frame))
        assert hello["language"] == "es"
        assert page.locator("#connection").inner_text() == "Conectado como Ana."
        # the same tab with ?lang=en: the same player again (its token), now in English
        sent.clear()
        page.goto(page_url(server.url) + "?lang=en")
        page.wait_for_selector("html[data-ready=true]", timeout=10_000)
        page.wait_for_selector("#lobby-body:not([hidden])", timeout=10_000)
        assert page.locator("#connection").inner_text() == "Connected as Ana."
        hello = json.loads(next(frame for frame in sent if '"hello"' in frame))
        assert hello["language"] == "en" and hello["token"]
        # the choice is remembered: a new page in this browser is Spanish too
        again = context.new_page()
        WebPlayer(again, page_url(server.url))
        assert again.evaluate("() => document.documentElement.lang") == "es"
        again.close()
        assert web.errors == []
    finally:
        context.close()


def test_the_page_s_sentences_come_from_the_catalog(server: ServerProcess) -> None:
    """The JSON the page loads holds every sentence its scripts mark, translated."""
    import urllib.error
    import urllib.request

    base = server.url.replace("ws://", "http://").removesuffix("/ws")

    def get(path: str) -> tuple[int, bytes]:
        # why urllib: Playwright's sync API keeps an event loop running in this thread
        try:
            with urllib.request.urlopen(base + path, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, b""

    status, body = get("/web/i18n/es.json")
    assert status == 200
    messages = json.loads(body)["messages"]
    assert messages["Your name"] == "Tu nombre"
    assert messages["Stock: {count} card."] == [
        "Pila de extracción: {count} naipe.",
        "Pila de extracción: {count} naipes.",
    ]
    assert messages["suit\u0004hearts"] == "copas"
    assert all(messages.values()), [key for key, value in messages.items() if not value]
    english = json.loads(get("/web/i18n/en.json")[1])["messages"]
    assert english["Your name"] == "Your name" and english.keys() == messages.keys()
    for bad in ("/web/i18n/fr.json", "/web/i18n/..%2Fes.json", "/web/i18n/ES.json"):
        assert get(bad)[0] == 404, bad
