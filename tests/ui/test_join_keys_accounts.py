"""`fivecrowns join --keys` with accounts (issue 28, item 1), against a real server: the
full-screen client logs in or signs up through the same connection code as `join`, says the
log-in once with the key that logs out, logs out from the lobby by a list (here or on every
device) and then ends; a refused log-in is one sentence; a guest's Shift+O says how to log in."""

from __future__ import annotations

from pathlib import Path

import pytest

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.net.client.websocket import WebSocketLink
from join_support import Player
from server_support import FAST, ServerProcess

PASSWORD = "correct horse battery"


def _link(url: str, name: str, kind: str, password: str = PASSWORD) -> WebSocketLink:
    link = WebSocketLink(url, name)
    link.connection.credentials = (kind, password)
    return link


def test_sign_up_log_out_and_a_refused_log_in_at_full_screen(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST).start()
    players: list[Player] = []
    try:
        ann = Player(server.url, "Ann", _link(server.url, "Ann", "sign_up"))
        players.append(ann)
        ann.wait(r"Logged in as Ann\. In the lobby, Shift\+O logs out\.")
        ann.wait(r"No open tables")
        assert ann.said().count("Logged in as Ann.") == 1
        # O opens the list; the first item logs out here; the client then ends
        ann.keys("O")
        assert ann.backend.spoken[-1] == "Log out. 2 items. Log out here"
        ann.keys("c-m")
        ann.wait(r"You are logged out\.")
        assert ann.play.wants_exit()
        # a wrong password: one sentence, the same as for no account
        with pytest.raises(FiveCrownsError) as wrong:
            _link(server.url, "Ann", "log_in", "not the password").connect()
        with pytest.raises(FiveCrownsError) as unknown:
            _link(server.url, "Nobody", "log_in", "not the password").connect()
        assert str(wrong.value) == str(unknown.value)
        assert str(wrong.value) == "That name and password do not match an account here."
        # log in again (another case); out on every device from the list's second item
        back = Player(server.url, "ann", _link(server.url, "ann", "log_in"))
        players.append(back)
        back.wait(r"Logged in as Ann\.")
        back.keys("O", "down", "c-m")
        back.wait(r"You are logged out on every device\.")
        assert back.play.wants_exit()
        # a guest's Shift+O says how to log in, and sends nothing
        guest = Player(server.url, "Bob")
        players.append(guest)
        guest.wait(r"No open tables")
        guest.keys("O")
        assert guest.backend.spoken[-1].startswith("You are playing as a guest. To log in")
        assert PASSWORD not in "\n".join(player.said() for player in players)
    finally:
        for player in players:
            player.close()
        errors = server.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors
