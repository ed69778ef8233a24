"""What the server adds for the web client, without a browser: the page's files from the
package, ``serve --seed``, and the ``ask`` message that words the information keys."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from importlib import resources

import aiohttp
import pytest

from fivecrowns.core.cards import parse_card, spoken_name, wild_rank_for_round
from fivecrowns.table import Table
from fivecrowns.table.info import answer
from fivecrowns.words.questions import QUESTIONS
from server_support import Client, ServerProcess

FAST = ("--bot-delay", "0", "--rate", "1000")


@pytest.fixture
def server() -> Iterator[ServerProcess]:
    process = ServerProcess(None, *FAST, "--seed", "77").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors


def _http(url: str) -> str:
    return url.replace("ws://", "http://").removesuffix("/ws")


async def _get(url: str) -> tuple[int, str, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.content_type, await response.read()


def test_the_page_its_modules_and_the_sounds_come_from_the_package(
    server: ServerProcess,
) -> None:
    base = _http(server.url)
    web = resources.files("fivecrowns").joinpath("web")

    async def main() -> None:
        status, kind, body = await _get(base + "/")
        assert (status, kind) == (200, "text/html")
        assert body == web.joinpath("index.html").read_bytes()
        for name in re.findall(rb'(?:src|href)="/web/([a-z]+\.(?:js|css))"', body):
            status, kind, _ = await _get(f"{base}/web/{name.decode()}")
            assert status == 200 and kind in ("text/javascript", "text/css")
        for module in ("app.js", "cards.js", "keys.js", "speech.js"):
            status, kind, body = await _get(f"{base}/web/{module}")
            assert (status, kind) == (200, "text/javascript")
            assert body == web.joinpath(module).read_bytes()
        status, kind, body = await _get(f"{base}/sounds/your_turn.wav")
        assert (status, kind) == (200, "audio/wav") and body.startswith(b"RIFF")
        # only the package's own files: nothing else, whatever the name
        for bad in ("/web/nothing.js", "/web/..%2Fprotocol.py", "/web/app.py", "/sounds/x.wav"):
            status, _, body = await _get(base + bad)
            assert (status, body) == (404, b"There is no such file here.\n"), bad
        # the 404's sentence in the language the browser asks for
        async with (
            aiohttp.ClientSession() as session,
            session.get(base + "/web/x.js", headers={"Accept-Language": "es-ES,es;q=0.9"}) as got,
        ):
            assert got.status == 404
            assert await got.text() == "Aquí no hay ningún archivo con ese nombre.\n"

    asyncio.run(main())


def test_every_response_has_the_security_headers_and_no_server_versions(
    server: ServerProcess,
) -> None:
    """Issue 26 item 16: 404s, refusals and the WebSocket upgrade too, not only the files."""
    base = _http(server.url)

    async def main() -> None:
        async with aiohttp.ClientSession() as session:
            asks = [
                ("GET", "/", 200),
                ("GET", "/web/app.js", 200),
                ("GET", "/web/i18n/es.json", 200),
                ("GET", "/nothing/here", 404),
                ("GET", "/web/nothing.js", 404),
                ("GET", "/web/i18n/fr.json", 404),
                ("POST", "/", 405),
                ("GET", "/ws", 400),  # a plain GET where a WebSocket upgrade belongs
            ]
            for method, path, status in asks:
                async with session.request(method, base + path) as got:
                    assert got.status == status, (path, got.status)
                    headers = got.headers
                    assert headers.get("X-Content-Type-Options") == "nosniff", path
                    csp = headers.get("Content-Security-Policy", "")
                    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
                    server_header = headers.get("Server", "")
                    assert "aiohttp" not in server_header.lower(), (path, server_header)
                    assert "python" not in server_header.lower(), (path, server_header)
                    assert not re.search(r"\d", server_header), (path, server_header)
            async with session.ws_connect(server.url) as ws:  # the upgrade's 101 too
                assert ws._response.headers.get("X-Content-Type-Options") == "nosniff"
                assert "aiohttp" not in ws._response.headers.get("Server", "").lower()

    asyncio.run(main())


def test_every_information_key_is_answered_for_the_seat_that_asks(
    server: ServerProcess,
) -> None:
    async def main() -> None:
        ann, eve = Client("Ann"), Client("Eve")
        await ann.connect(server.url)
        await eve.connect(server.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "ask", "what": "hand"})
        said = await ann.until(lambda m: m["type"] in ("answer", "error"))
        assert said == {"type": "answer", "what": "hand", "text": "The game has not started yet."}
        await ann.send({"type": "start"})
        await ann.until(lambda m: m["type"] == "snapshot" and bool(m["legal"]))
        await eve.send({"type": "watch", "table": ann.table})
        await eve.until(lambda m: m["type"] == "snapshot")
        answers = {}
        for what in QUESTIONS:
            await ann.send({"type": "ask", "what": what})
            reply = await ann.until(lambda m: m["type"] in ("answer", "error"))
            assert reply["type"] == "answer" and reply["what"] == what
            answers[what] = reply["text"]
        assert ann.snapshot is not None
        view = ann.snapshot["view"]
        wild = wild_rank_for_round(view["round"])
        hand = [parse_card(token) for token in view["hand"]]
        assert answers["hand"].startswith(f"{len(hand)} cards. ")
        assert answers["round"].startswith("Round 1 of 11. 3s are wild, and jokers. 3 cards each.")
        assert answers["whose_turn"] == "Your turn: draw a card."
        assert answers["scores"] == "Scores, no rounds yet: you, 0 points; Bot 2, 0 points."
        assert (
            answers["counts"] == "Cards: You, 3 cards; Bot 2 (computer, easy), 3 cards. Stock 109."
        )
        assert answers["melds"] == "No melds laid down this round."
        assert answers["round_detail"] == "No round has ended yet."
        assert answers["why"] == "No computer player has moved yet."
        top = spoken_name(parse_card(view["top_discard"]), wild)
        assert answers["piles"] == f"Top discard: {top}. Stock: 109 cards. Discard pile: 1 card."
        assert answers["hint"].startswith(("Take the", "Draw from the stock"))
        # a spectator has no hand, and is told so; the public answers are the same words
        for what, expected in (("hand", "You are watching: you have no hand."),):
            await eve.send({"type": "ask", "what": what})
            reply = await eve.until(lambda m: m["type"] == "answer")
            assert reply["text"] == expected
        await eve.send({"type": "ask", "what": "whose_turn"})
        reply = await eve.until(lambda m: m["type"] == "answer")
        assert reply["text"] == "Ann's turn: draw a card."
        # a question that is not one is refused with a sentence and changes nothing
        await ann.send({"type": "ask", "what": "seed"})
        refused = await ann.until(lambda m: m["type"] == "error")
        assert refused["code"] == "bad_message" and "$.what" in refused["text"]
        # the computer player's turn in words everyone may hear, never its reasons
        await ann.act({"move": "draw_stock"})
        await ann.until(lambda m: m["type"] == "snapshot" and bool(m["legal"]))
        await ann.act({"move": "discard", "discard": ann.snapshot["view"]["hand"][0]})
        await ann.until(
            lambda m: (m["type"] == "snapshot" and bool(m["legal"])) or m.get("kind") == "game_over"
        )
        await ann.send({"type": "ask", "what": "why"})
        why = (await ann.until(lambda m: m["type"] == "answer"))["text"]
        assert why.startswith("Bot 2: ")
        assert why.endswith("reasons stay private: they tell its cards.")
        assert ":" not in why.removeprefix("Bot 2: ").split(" At a network")[0]
        for client in (ann, eve):
            await client.close()

    asyncio.run(main())


def test_every_question_has_a_whole_sentence_at_every_moment_of_a_game() -> None:
    """Each question, for the seat and for a spectator, after every move of a whole game."""
    table = Table(2, creator_name="Ann", creator_id="p1")
    table.add_bot("easy")
    table.start(seed=5)
    game = table.game
    assert game is not None
    for _ in range(2000):
        for what in QUESTIONS:
            for viewer in (0, None):
                text = answer(table, viewer, what)
                assert text.strip() and "{" not in text and "None" not in text, (what, text)
            if what in ("hand", "hint"):
                assert answer(table, None, what) == "You are watching: you have no hand."
        if game.is_over:
            break
        if table.bot_due() is not None:
            table.step_bot()
        else:
            table.act("p1", game.legal_moves(0)[0], table.seq)
    assert game.is_over
    assert answer(table, 0, "whose_turn").startswith("Game over.")
