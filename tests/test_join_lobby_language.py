"""F2 (settings) in the lobby of ``join --keys`` (2026-11-23 playtest): it did nothing there.

It opens the same settings list as in a game; choosing español makes the lobby's own words
Spanish at once, tells the server (its sentences follow), and is kept for the next games.
"""

from __future__ import annotations

import json

from fivecrowns import i18n
from fivecrowns.storage.paths import config_dir
from join_support import Player
from server_support import ServerProcess


def test_f2_in_the_lobby_switches_its_language_at_once(server: ServerProcess) -> None:
    ann = Player(server.url, "Ann")
    try:
        ann.wait(r"No open tables\. Press C to create one")
        assert "F2: Settings. The language (English or español) and the verbosity." in " ".join(
            ann.play.lobby.help_lines()
        )
        lobby = ann.play.lobby
        menu = [label for act in lobby.available_actions() for label, _ in lobby.menu_items(act)]
        assert "Settings: F2" in menu  # every action is also in the Escape menu
        mark = ann.mark()
        ann.keys("f2")
        ann.wait(r"Settings\. 2 items\. Language: English", after=mark)
        ann.keys("c-m")  # the language list, on English
        ann.keys("down")
        ann.wait(r"español", after=mark)
        mark = ann.mark()
        ann.keys("c-m")
        ann.wait(r"Idioma: español\. Guardado también para las próximas partidas\.", after=mark)
        assert i18n.current_language() == "es"
        # the lobby's own words, at once
        mark = ann.mark()
        ann.keys("l")
        ann.wait(r"No hay mesas abiertas\. Pulsa C para crear una", after=mark)
        # and the server's: it was told the new language
        mark = ann.mark()
        ann.keys("c", "home", "c-m", "down", "c-m", "up", "c-m", "c-m")  # 2 seats, 1 easy
        ann.wait(r"Te sientas en el asiento 1 de la mesa", after=mark)
        said = ann.said_since(mark)
        assert "You sit" not in said and "Asked the server" not in said, said
        settings = json.loads((config_dir() / "settings.json").read_text(encoding="utf-8"))
        assert settings["output"]["language"] == "es"
    finally:
        ann.close()
