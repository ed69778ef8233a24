"""A player who changes language mid-game (F2) tells the server, whose sentences follow
(playtest 2026-11-23, item 5: after F2 the server's sentences stayed English)."""

from __future__ import annotations

import asyncio
from typing import Any

from fivecrowns import i18n
from fivecrowns.net.protocol import SetLanguage, decode_client
from fivecrowns.ui.commands import CommandLayer
from server_support import (
    Client,
    ServerProcess,
)


def test_the_language_message_is_validated() -> None:
    message = decode_client(b'{"type": "language", "language": "es"}')
    assert isinstance(message, SetLanguage) and message.language == "es"


def test_the_server_words_its_sentences_in_the_new_language(server: ServerProcess) -> None:
    async def scenario() -> None:
        client = Client("Ana")
        await client.connect(server.url, hello=False)
        await client.send({"type": "hello", "v": 1, "name": "Ana", "language": "en"})
        await client.until(lambda m: m["type"] == "welcome")
        await client.send({"type": "leave"})
        error = await client.until(lambda m: m["type"] == "error")
        assert error["text"] == "You are not at a table: create, join or watch one first."
        # a bad language is one error and changes nothing
        for bad in ("fr", "ES", 7, None):
            await client.send({"type": "language", "language": bad})
            error = await client.until(lambda m: m["type"] == "error")
            assert error["code"] == "bad_message"
        await client.send({"type": "leave"})
        error = await client.until(lambda m: m["type"] == "error")
        assert error["text"] == "You are not at a table: create, join or watch one first."
        await client.send({"type": "language", "language": "es"})
        await client.send({"type": "leave"})
        error = await client.until(lambda m: m["type"] == "error")
        assert (
            error["text"]
            == "No estás en una mesa: primero crea una, siéntate en una u observa una."
        )
        await client.close()

    asyncio.run(scenario())


class _Link:
    def __init__(self) -> None:
        self.told: list[str] = []

    def tell_language(self, code: str) -> None:
        self.told.append(code)


def test_choosing_a_language_tells_the_link() -> None:
    """The settings menu's language choice reaches a network link (the lobby and a network
    table have one; a local game's link has no tell_language and is left alone)."""
    from fivecrowns.output import Output, RecordingBackend

    class Layer(CommandLayer):
        def __init__(self) -> None:
            super().__init__()
            self.output: Any = Output(RecordingBackend())
            self.link = _Link()

    layer = Layer()
    layer.choose_language("es")
    assert layer.link.told == ["es"]
    assert i18n.current_language() == "es"
