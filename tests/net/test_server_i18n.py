"""One server table, several languages (issue 14): each connection's sentences are worded
in the language its hello named, and nothing else about what it receives changes.

The server runs as a real process on loopback, as in tests/net/test_server.py.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from fivecrowns import i18n
from fivecrowns.core.cards import Rank
from fivecrowns.core.moves import DrewFromStock
from fivecrowns.table import Table
from fivecrowns.words.announce import describe_events
from i18n_support import english_words
from server_support import (
    TABLE_EVENTS,
    Client,
    ServerProcess,
    check_no_leak,
    play_until,
    replayed,
)


async def _hello(url: str, name: str, language: str | None) -> Client:
    client = Client(name)
    await client.connect(url, hello=False)
    hello: dict[str, Any] = {"type": "hello", "v": 1, "name": name}
    if language is not None:
        hello["language"] = language
    await client.send(hello)
    await client.until(lambda m: m["type"] == "welcome")
    return client


def _events_in_spanish() -> bool:
    """Whether the game's own event sentences (helper es-core's) are translated yet."""
    with i18n.speaking("es"):
        said = describe_events([DrewFromStock(1, None)], ["Ana", "Ben"], 0, Rank.THREE, "normal")
    return all(english_words(a.text) == [] for a in said)


def _own_sentence(frame: dict[str, Any]) -> bool:
    """A sentence the table words itself (not the game's announcements, helper es-core's)."""
    return frame["kind"] in TABLE_EVENTS or frame["kind"] == "turn_started"


def test_a_spanish_seat_an_english_seat_and_spectators_each_hear_their_own_language(
    server: ServerProcess, data: Path
) -> None:
    async def scenario() -> None:
        ana = await _hello(server.url, "Ana", "es")
        ben = await _hello(server.url, "Ben", None)  # no language: English
        await ana.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
        await ana.until(lambda m: m["type"] == "snapshot")
        await ben.send({"type": "join", "table": ana.table})
        await ben.until(lambda m: m["type"] == "snapshot")
        eva = await _hello(server.url, "Eva", "es")
        cy = await _hello(server.url, "Cy", "en")
        for spectator in (eva, cy):
            await spectator.send({"type": "watch", "table": ana.table})
            await spectator.until(lambda m: m["type"] == "snapshot")
        # the same refusal, each in its own language
        for client in (ana, ben):
            await client.send({"type": "chat", "text": "   "})
            await client.until(lambda m: m["type"] == "error")
        assert ana.errors[-1] == {
            "type": "error",
            "code": "empty_chat",
            "text": "No hay nada que decir: el mensaje está vacío.",
        }
        assert ben.errors[-1]["text"] == "There is nothing to say: the message is empty."
        ana.errors.clear()
        ben.errors.clear()
        await ana.send({"type": "start"})
        await ben.send({"type": "chat", "text": "Good luck!"})
        await eva.send({"type": "chat", "text": "¡Suerte!"})

        async def watch(client: Client) -> None:
            await client.until(lambda m: m["type"] == "event" and m["kind"] == "game_over", 120)

        await asyncio.gather(play_until([ana, ben], lambda c: c.game_over()), watch(eva), watch(cy))
        assert ana.table is not None
        truth = replayed(data, ana.table)
        assert truth.is_over
        seats = ((ana, 0, "es"), (ben, 2, "en"), (eva, None, "es"), (cy, None, "en"))
        for client, viewer, language in seats:
            assert client.errors == []
            assert client.seq == truth.seq
            # every frame as the table words it for this viewer in this language: the same
            # frames, numbers and data as any other language, only the text differs
            if language == "en":
                check_no_leak(client, truth, viewer)
            else:
                check_no_leak(client, truth, viewer, "es")
            with i18n.speaking("en" if language == "es" else "es"):
                other = truth.frames_since(0, viewer)
            mine = client.events
            other = [f for f in other if f["seq"] >= mine[0]["seq"]]
            assert [(f["seq"], f["kind"], f["data"]) for f in mine] == [
                (f["seq"], f["kind"], f["data"]) for f in other
            ]
            chat = [e["text"] for e in mine if e["kind"] == "chat"]
            own = [e["text"] for e in mine if _own_sentence(e)]
            assert len(own) > 20
            if language == "es":
                assert chat == ["Ben dice: Good luck!", "Eva dice: ¡Suerte!"]
                assert "Empieza la partida." in own
                assert all(english_words(text) == [] for text in own if " dice: " not in text)
                if _events_in_spanish():  # helper es-core's event sentences are in: every text
                    texts = [e["text"] for e in mine if e["kind"] != "chat"]
                    assert [t for t in texts if english_words(t)] == []
                for event in mine:
                    if event["kind"] == "turn_started":
                        player = event["data"]["player"]
                        name = truth.names()[player]
                        mine_turn = player == viewer
                        assert event["text"] == ("Tu turno." if mine_turn else f"Turno de {name}.")
            else:
                assert chat == ["Ben says: Good luck!", "Eva says: ¡Suerte!"]
                assert "The game starts." in own
                assert "Empieza la partida." not in own
        # a computer player's name is the same in every language (playtest 2026-11-23:
        # "Automático 2", named in the table-maker's language, reached English players)
        assert truth.names() == ["Ana", "Bot 2", "Ben"]
        for client in (ana, ben, eva, cy):
            await client.close()

    asyncio.run(scenario())


def test_a_bad_language_is_refused_and_changes_nothing(server: ServerProcess) -> None:
    async def scenario() -> None:
        client = Client("Ana")
        await client.connect(server.url, hello=False)
        for language in ("fr", "ES", "", "es-ES", 7, None, ["es"], "e" * 5000):
            await client.send({"type": "hello", "v": 1, "name": "Ana", "language": language})
            error = await client.until(lambda m: m["type"] in ("error", "welcome"))
            assert error["type"] == "error" and error["code"] in ("bad_message", "too_big")
            assert error["text"]
        # still no player: nothing changed
        await client.send({"type": "list_tables"})
        error = await client.until(lambda m: m["type"] == "error")
        assert error["code"] == "hello_first"
        assert error["text"] == "Say hello first, with your name."
        # a good hello then works, and its language sticks: a second hello cannot change it
        await client.send({"type": "hello", "v": 1, "name": "Ana", "language": "es"})
        await client.until(lambda m: m["type"] == "welcome")
        await client.send({"type": "hello", "v": 1, "name": "Ana", "language": "en"})
        error = await client.until(lambda m: m["type"] == "error")
        assert error == {
            "type": "error",
            "code": "already_hello",
            "text": "Ya saludaste en esta conexión.",
        }
        await client.send("{not json")
        error = await client.until(lambda m: m["type"] == "error")
        assert error["text"] == "Ese mensaje no es JSON válido."
        # a refused first hello is answered in the language it named, and changes nothing
        other = Client("Ben")
        await other.connect(server.url, hello=False)
        await other.send({"type": "hello", "v": 2, "name": "Ben", "language": "es"})
        error = await other.until(lambda m: m["type"] == "error")
        assert error["code"] == "version"
        assert english_words(error["text"]) == [], error["text"]
        await other.send({"type": "list_tables"})
        error = await other.until(lambda m: m["type"] == "error")
        assert error["text"] == "Say hello first, with your name."
        for each in (client, other):
            await each.close()

    asyncio.run(scenario())


class _Conn:
    """Stands in for a server connection: its language, and what it was sent."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.player = None  # no player: nobody's chat is muted (rooms.muted_chat)
        self.sent: list[bytes] = []

    def send_raw(self, data: bytes) -> None:
        self.sent.append(data)


def test_the_fan_out_words_each_entry_once_per_viewer_class_and_language() -> None:
    from fivecrowns.net.server.rooms import LocalFanout, Room

    table = Table(3, creator_name="Ana", creator_id="p1")
    table.add_bot("easy")
    table.sit("Ben", "p2")
    before = table.seq
    table.start(seed=5)
    entries = table.log[before:]
    ana_es, ana_en = _Conn("es"), _Conn("en")
    ben_en, eva_es, cy_en, dan_en = _Conn("en"), _Conn("es"), _Conn("en"), _Conn("en")
    room = Room("t1", table, None, False)
    room.conns = {0: {ana_es, ana_en}, 2: {ben_en}, None: {eva_es, cy_en, dan_en}}  # type: ignore[dict-item]
    worded: list[tuple[int | None, str]] = []
    frame = table.frame

    def counting(entry: Any, viewer: int | None) -> dict[str, Any]:
        worded.append((viewer, i18n.current_language()))
        return frame(entry, viewer)

    table.frame = counting  # type: ignore[method-assign]
    LocalFanout().publish(room, entries)
    viewers = {ana_es: 0, ana_en: 0, ben_en: 2, eva_es: None, cy_en: None, dan_en: None}
    for conn, viewer in viewers.items():
        # one frame per entry, each the one the table words for that viewer in that language
        assert len(conn.sent) == len(entries)
        with i18n.speaking(conn.language):
            expected = [json.dumps(frame(entry, viewer), sort_keys=True) for entry in entries]
        got = [json.loads(raw) for raw in conn.sent]
        assert [
            json.dumps({k: v for k, v in g.items() if k != "type"}, sort_keys=True) for g in got
        ] == expected
    # two spectators in English share one encoding; Spanish and English never do
    assert all(a is b for a, b in zip(cy_en.sent, dan_en.sent, strict=True))
    game_started = entries[0]
    assert game_started.kind == "game_started"
    assert json.loads(eva_es.sent[0])["text"] == "Empieza la partida."
    assert json.loads(cy_en.sent[0])["text"] == "The game starts."
    for index, entry in enumerate(entries):
        classes = {(table.frame_class(entry, v), c.language) for c, v in viewers.items()}
        assert len({id(c.sent[index]) for c in viewers}) == len(classes)
    assert len(worded) == sum(
        len({(table.frame_class(entry, v), c.language) for c, v in viewers.items()})
        for entry in entries
    )


# A player who changes language mid-game (F2) tells the server, whose sentences follow
# (playtest 2026-11-23, item 5: after F2 the server's sentences stayed English).
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


@pytest.mark.parametrize("spoken", ["en", "es"])
def test_the_fan_out_words_each_frame_in_its_connections_language_whatever_is_spoken(
    spoken: str,
) -> None:
    """The fan-out words a frame without a block of its own when the connection's language is
    the one spoken already (the mover's; issue 29): every other connection still hears its
    own, and the language spoken after a switch is the one used, never an earlier one."""
    from fivecrowns.net.server.rooms import LocalFanout, Room

    table = Table(3, creator_name="Ana", creator_id="p1")
    table.add_bot("easy")
    table.sit("Ben", "p2")
    room = Room("t1", table, None, False)
    ana, ben, eva = _Conn("es"), _Conn("en"), _Conn(spoken)
    room.conns = {0: {ana}, 2: {ben}, None: {eva}}  # type: ignore[dict-item]
    before = table.seq
    with i18n.speaking(spoken):
        table.start(seed=5)
        entries = table.log[before:]
        LocalFanout().publish(room, entries)
    ana.language, ben.language = "en", "es"  # both switch (set_language) mid-game
    before = table.seq
    with i18n.speaking(spoken):
        assert table.game is not None
        seat = table.game.current_player
        if table.bot_due() is not None:
            table.step_bot()
        else:
            move = table.game.legal_moves(seat)[0]
            table.act({0: "p1", 2: "p2"}[seat], move, table.seq)
        later = table.log[before:]
        LocalFanout().publish(room, later)
    assert later
    heard = {ana: (0, ["es"] * len(entries) + ["en"] * len(later))}
    heard[ben] = (2, ["en"] * len(entries) + ["es"] * len(later))
    heard[eva] = (None, [spoken] * (len(entries) + len(later)))
    for conn, (viewer, languages) in heard.items():
        expected = []
        for entry, language in zip(entries + later, languages, strict=True):
            with i18n.speaking(language):
                expected.append(table.frame(entry, viewer)["text"])
        assert [json.loads(raw)["text"] for raw in conn.sent] == expected
    assert json.loads(ana.sent[0])["text"] == "Empieza la partida."
    assert json.loads(ben.sent[0])["text"] == "The game starts."
