"""The line client in Spanish (issue 14): its own sentences, and the hello that asks the
server for Spanish. The event sentences come worded by the server
(tests/net/test_server_i18n.py)."""

from __future__ import annotations

from typing import Any

import pytest

from fivecrowns import i18n
from fivecrowns.ui.join_line import HELP, LineClient
from i18n_support import english_words

#: What the player types: the same words in every language (as the keys stay the same letters).
COMMAND_WORDS = {"list", "create", "join", "code", "watch", "bot", "unbot", "start", "leave"}
COMMAND_WORDS |= {"say", "help", "private", "medium", "new"}
COMMAND_WORDS |= {"record", "top", "games", "game", "unrated"}  # ratings (help says them)


def _said_in(language: str) -> tuple[list[str], LineClient]:
    said: list[str] = []
    with i18n.speaking(language):
        client = LineClient("ws://127.0.0.1:1/ws", "Ana", say=said.append)
        client.receive({"type": "welcome", "token": "old"})
        client.receive({"type": "seated", "table": "3", "seat": 1, "code": None, "creator": False})
        client.receive({"type": "seated", "table": "4", "seat": 0, "code": "xy", "creator": True})
        client.receive({"type": "tables", "tables": []})
        seats: list[dict[str, Any]] = [
            {"name": "Ana", "kind": "human"},
            {"name": "", "kind": "empty"},
            {"name": "Ben", "kind": "human"},
        ]
        client.receive(
            {
                "type": "tables",
                "tables": [
                    {"id": "a1", "seats": seats, "round": 0, "started": False},
                    {"id": "b2", "seats": seats[:1], "round": 3, "started": True},
                ],
            }
        )
        client.receive(
            {
                "type": "snapshot",
                "seq": 9,
                "legal": [{"move": m} for m in ("draw_stock", "take_discard")],
                "view": {"round": 1, "phase": "draw", "hand": [], "players": ["Ana", "Ben"]},
            }
        )
        for line in ("help", "zzz", "x", "h"):
            client.command(line)
        client.snapshot = {
            "view": {"round": 2, "players": ["Ana", "Ben", "Eva"], "totals": [5, 0, 12]}
        }
        client.command("s")
        client.receive({"type": "left"})
        client.receive({"type": "error", "code": "bad_token", "text": "x"})
    return said, client


def test_the_line_client_speaks_spanish_and_asks_the_server_for_it() -> None:
    said, client = _said_in("es")
    assert said[:4] == [
        "Te sientas en el asiento 2 de la mesa 3.",
        "Te sientas en el asiento 1 de la mesa 4; el código de invitación es xy.",
        "No hay mesas abiertas. Escribe create 4 medium medium para crear una.",
        "Mesa a1: Ana, asiento libre y Ben; espera para empezar.",
    ]
    assert "Mesa b2: Ana; ronda 3." in said
    assert "Puedes: d, tomar de la pila de extracción; t, tomar el descarte." in said
    assert "Ronda 2. Totales: Ana 5, Ben 0 y Eva 12." in said
    assert said[-2:] == [
        "Dejaste la mesa.",
        "El servidor ya no conoce tu asiento; entras de nuevo como jugador nuevo.",
    ]
    for line in said:
        # the typed commands (list, create, medium ...) stay the same words in every language
        words = [w for w in english_words(line) if w not in COMMAND_WORDS]
        assert words == [], line
    assert client.connection.outbox == [{"type": "hello", "v": 1, "name": "Ana", "language": "es"}]
    with i18n.speaking("es"):
        assert i18n.gettext(HELP).startswith("Órdenes: list; create ASIENTOS")


@pytest.mark.parametrize(
    ("players", "english", "spanish"),
    [
        (["Ana"], "Ana 5", "Ana 5"),
        (["Ana", "Ben"], "Ana 5 and Ben 0", "Ana 5 y Ben 0"),
        (["Ana", "Ben", "Eva"], "Ana 5, Ben 0 and Eva 12", "Ana 5, Ben 0 y Eva 12"),
    ],
)
def test_the_scores_list_follows_each_language(
    players: list[str], english: str, spanish: str
) -> None:
    for language, expected in (("en", english), ("es", spanish)):
        said: list[str] = []
        with i18n.speaking(language):
            client = LineClient("ws://127.0.0.1:1/ws", "Ana", say=said.append)
            totals = [5, 0, 12][: len(players)]
            client.snapshot = {"view": {"round": 2, "players": players, "totals": totals}}
            client.command("s")
        prefix = "Round 2. Totals: " if language == "en" else "Ronda 2. Totales: "
        assert said == [f"{prefix}{expected}."]


def test_a_player_with_no_name_and_no_login_sits_down_as_player_in_their_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import getpass

    from fivecrowns.commands.join import player_name

    def no_login() -> str:
        raise KeyError("getpwuid(): uid not found: 1234")

    monkeypatch.setattr(getpass, "getuser", no_login)
    assert player_name(None) == "Player"
    assert player_name("   ") == "Player"
    with i18n.speaking("es"):
        assert player_name(None) == "Jugador"
        assert player_name("Ana") == "Ana"
