"""A client restarted after a crash takes its seat back (playtest item 2, its last part).

The seat's token is kept in the user's data folder (``seats.json``, readable by its owner
only), keyed by the server and the table; ``fivecrowns join`` to the same server says hello
with it, and the server (the only authority) seats the player again with the same hand.
Leaving the table or the end of the game removes it. A damaged file is one sentence (the
file itself: tests/storage/test_seats.py).
"""

from __future__ import annotations

import json
import os
import signal
import stat
from pathlib import Path

from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.storage.seats import SavedSeats, seats_path
from join_support import Player, TypedClient, start_with_an_easy_computer
from server_support import FAST, ServerProcess


def _hand(client: TypedClient) -> str:
    client.type("h")
    return client.until(lambda line: line.startswith("Your hand:"))


def test_a_killed_line_client_started_again_takes_its_seat_and_hand_back(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST, "--grace", "30").start()
    ann = TypedClient(server.url, "Ann")
    again: TypedClient | None = None
    try:
        ann.until(lambda line: line.startswith("No open tables"))
        ann.type("create 2 easy")
        seated = ann.until(lambda line: line.startswith("You sit in seat 1 at table"))
        table = seated.removeprefix("You sit in seat 1 at table ").rstrip(".")
        ann.type("start")
        ann.until(lambda line: line == "The game starts.")
        hand = _hand(ann)
        path = seats_path()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        kept = json.loads(path.read_text(encoding="utf-8"))["seats"]
        assert [(s["server"], s["table"], s["name"]) for s in kept] == [(server.url, table, "Ann")]
        token = kept[0]["token"]
        assert all(token not in line for line in ann.transcript)  # a secret: never printed

        ann.proc.send_signal(signal.SIGKILL)  # a crash: no leave, no goodbye
        ann.proc.wait(timeout=10)
        again = TypedClient(server.url, "Ann")
        again.until(
            lambda line: line == f"You still have a seat at table {table} here; taking it back."
        )
        again.until(lambda line: line == f"You sit in seat 1 at table {table}.")
        assert _hand(again) == hand  # the same seat, the same cards
        assert not any("No open tables" in line for line in again.transcript)

        again.type("leave")
        again.until(lambda line: line == "You left the table.")
        assert not path.exists()  # nothing left to take back
        assert all(token not in line for line in again.transcript)
    finally:
        for client in (ann, again):
            if client is not None and client.proc.poll() is None:
                client.proc.kill()
                client.proc.wait(timeout=10)
        errors = server.stop()
    assert "Traceback" not in errors


def _keeping_link(url: str) -> WebSocketLink:
    """A link as ``join --keys`` makes it: its seats kept in the data folder."""
    link = WebSocketLink(url, "Ann")
    link.take_back_from(SavedSeats(), [])
    return link


def test_a_keys_client_started_again_takes_its_seat_back(tmp_path: Path) -> None:
    """``join --keys`` keeps the seat the same way (its link; the server as a real process)."""
    server = ServerProcess(tmp_path / "server", *FAST, "--grace", "30").start()
    ann = Player(server.url, "Ann", link=_keeping_link(server.url))
    again: Player | None = None
    try:
        game = start_with_an_easy_computer(ann)
        table = ann.link.table
        hand = game.client.view.hand
        ann.link.close()  # a crash: the connection ends with no leave
        again = Player(server.url, "Ann", link=_keeping_link(server.url))
        again.wait(rf"You still have a seat at table {table} here; taking it back\.")
        again.wait(r"New game: |Round 1 of 11")
        assert again.link.table == table and again.link.seat == 0
        assert again.play.game is not None
        assert again.play.game.client.view.hand == hand
        assert "already started" not in again.said()
    finally:
        ann.close()
        if again is not None:
            again.close()
        errors = server.stop()
    assert "Traceback" not in errors


def test_a_damaged_seats_file_at_join_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    path = seats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00garbage")
    server = ServerProcess(tmp_path / "server", *FAST).start()
    ann = TypedClient(server.url, "Ann")
    try:
        ann.until(lambda line: "could not be read" in line)
        ann.until(lambda line: line.startswith("No open tables"))
    finally:
        ann.proc.kill()
        ann.proc.wait(timeout=10)
        server.stop()
    assert ann.proc.stderr is not None
    assert "Traceback" not in ann.proc.stderr.read()


def test_a_named_pipe_as_seats_file_at_join_is_a_sentence_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """``seats.json`` as a named pipe hung ``fivecrowns join`` for ever (issue 26 item 15): it is
    one sentence, the game goes on, and the pipe stays as it was after a seat is taken."""
    path = seats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    server = ServerProcess(tmp_path / "server", *FAST).start()
    ann = TypedClient(server.url, "Ann")
    try:
        ann.until(lambda line: "is not an ordinary file" in line and "left as it is" in line)
        ann.until(lambda line: line.startswith("No open tables"))
        ann.type("create 2 easy")
        ann.until(lambda line: line.startswith("You sit in seat 1 at table"))
        ann.type("leave")
        ann.until(lambda line: line == "You left the table.")
    finally:
        ann.proc.kill()
        ann.proc.wait(timeout=10)
        server.stop()
    assert stat.S_ISFIFO(path.stat().st_mode)
    assert sorted(p.name for p in path.parent.iterdir()) == ["seats.json"]
    assert ann.proc.stderr is not None
    assert "Traceback" not in ann.proc.stderr.read()


def test_the_line_client_crosses_the_seat_off_when_the_game_ends_and_when_it_is_gone() -> None:
    from fivecrowns.ui.join_line import FORGOTTEN, LineClient

    url = "ws://127.0.0.1:1/ws"
    said: list[str] = []
    client = LineClient(url, "Ann", say=said.append)
    assert client.take_back_from(SavedSeats(), []) == []  # nothing kept yet: nothing asked
    client.receive({"type": "welcome", "token": "secret-1"})
    client.receive({"type": "seated", "table": "7", "seat": 0, "code": None, "creator": True})
    assert SavedSeats().find(url, "Ann") is not None
    over = {"type": "event", "seq": 5, "kind": "game_over", "text": "Game over.", "data": {}}
    client.receive(over)
    assert SavedSeats().find(url, "Ann") is None  # nothing left to take back
    new = {"type": "event", "seq": 6, "kind": "new_game", "text": "", "data": {}}
    client.receive(new)
    assert SavedSeats().find(url, "Ann") is not None  # same players, a new game: kept again

    # a client started again asks for the seat; the server answers with the lobby
    again: list[str] = []
    restarted = LineClient(url, "Ann", say=again.append)
    asked = [{"type": "join", "table": "7"}]
    assert restarted.take_back_from(SavedSeats(), asked) == []  # the hello asks for it
    assert again == ["You still have a seat at table 7 here; taking it back."]
    restarted.receive({"type": "welcome", "token": "secret-2"})
    restarted.receive({"type": "tables", "tables": []})
    assert again[1] == "The server no longer keeps your seat at table 7."
    assert SavedSeats().find(url, "Ann") is None

    # a token the server does not know is crossed off too, and a plain hello follows
    client.receive(new | {"seq": 7})
    assert SavedSeats().find(url, "Ann") is not None
    third: list[str] = []
    late = LineClient(url, "Ann", say=third.append)
    late.take_back_from(SavedSeats(), [])
    late.receive({"type": "error", "code": "bad_token", "text": "That token is not known here."})
    assert third[-1] == FORGOTTEN and SavedSeats().find(url, "Ann") is None
    assert late.connection.outbox == [{"type": "hello", "v": 1, "name": "Ann", "language": "en"}]
    # another table asked for on the command line: the kept seat is not asked back
    client.receive(new | {"seq": 8})
    other = LineClient(url, "Ann", say=third.append)
    wanted = [{"type": "join", "table": "9"}]
    assert other.take_back_from(SavedSeats(), wanted) == wanted and other.connection.saved is None
    assert all("secret" not in line for line in said + again + third)
