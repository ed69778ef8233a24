"""Friends typed in `fivecrowns join` against a real server (issue 28 item 4): asking,
accepting, presence, a private message kept while away and told once, blocking, and the
creator's kick; each answer is one whole line, the name first."""

from __future__ import annotations

from pathlib import Path

from join_support import TypedClient
from server_support import FAST, ServerProcess

PASSWORD = "correct horse battery"


def _account(url: str, name: str, how: str) -> TypedClient:
    client = TypedClient(url, name, how)
    client.type(PASSWORD)
    client.until(lambda line: line.startswith(f"Logged in as {name}."))
    return client


def _done(client: TypedClient) -> None:
    client.type("q")
    client.proc.communicate(timeout=30)


def test_two_accounts_become_friends_message_block_and_kick_typed(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST).start()
    try:
        ann = _account(server.url, "Ann", "--sign-up")
        bob = _account(server.url, "Bob", "--sign-up")
        ann.type("friend bob")
        ann.until(lambda line: line == "Asked Bob to be your friend; you hear when they answer.")
        bob.until(lambda line: line == "Ann asks to be your friend.")
        bob.until(lambda line: line == "Type accept Ann or decline Ann to answer.")
        bob.type("accept Ann")
        bob.until(lambda line: line == "Ann is your friend now.")
        ann.until(lambda line: line == "Bob is your friend now.")
        ann.until(lambda line: line == "Bob is in the lobby.")
        bob.type("friends")
        bob.until(lambda line: line == "Friends: Ann, in the lobby.")
        bob.type("tell")
        bob.until(lambda line: line.startswith("Say to whom and what"))
        _done(bob)
        ann.until(lambda line: line == "Bob is offline.")
        ann.type("tell Bob: See you at eight.")
        ann.until(lambda line: line.startswith("Bob is not connected"))
        bob = _account(server.url, "Bob", "--log-in")
        bob.until(lambda line: line == "1 private message while you were away:")
        bob.until(lambda line: line == "Ann, privately: See you at eight.")
        ann.type("create 3")
        ann.until(lambda line: line.startswith("You sit in seat 1"))
        bob.type("block Ann")
        bob.until(lambda line: line.startswith("Ann is blocked: they cannot message you"))
        ann.type("tell Bob hello")
        ann.until(lambda line: line.startswith("Only friends send private messages"))
        bob.type("list")
        table = bob.until(lambda line: line.startswith("Table ")).split()[1].rstrip(":")
        bob.type(f"join {table}")
        bob.until(lambda line: line.startswith("You sit in seat 2"))
        ann.type("kick")
        ann.until(lambda line: line == "Say which seat, for example kick 2.")
        ann.type("ban 2")
        ann.until(lambda line: line == "Bob is removed from the table, and may not sit here again.")
        bob.until(lambda line: line == "Ann, who made the table, removed you from it.")
        bob.type(f"join {table}")
        bob.until(lambda line: line == "You cannot sit at this table; pick another.")
        for client in (ann, bob):
            _done(client)
    finally:
        errors = server.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors
