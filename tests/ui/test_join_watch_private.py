"""A private table is watched by its invite code from both terminal clients (issue 26, item 20):
``join --watch CODE``, the typed ``watch CODE``, and ``join --keys --watch CODE``. Its table
number alone finds no table (a private table is not listed), and the sentence says so and how
to watch it, instead of "There is no such table". A real server process.
"""

from __future__ import annotations

from join_support import Player, TypedClient
from server_support import ServerProcess, private_table


def _stop(client: TypedClient) -> None:
    if client.proc.poll() is None:
        client.proc.kill()
    client.proc.wait(timeout=10)


def test_join_watch_takes_an_invite_code(server: ServerProcess) -> None:
    ann, code, loop = private_table(server.url)
    spoken = code.lower().replace("-", " ")  # as heard: lower case, a space for the hyphen
    ben = TypedClient(server.url, "Ben", "--watch", spoken)
    cy = TypedClient(server.url, "Cy")
    try:
        ben.until(lambda line: line == f"You are watching table {ann.table}.")
        cy.until(lambda line: line.startswith("No open tables"))
        cy.type(f"watch {code}")
        cy.until(lambda line: line == f"You are watching table {ann.table}.")
        assert not any("no such table" in line for line in ben.transcript + cy.transcript)
    finally:
        for client in (ben, cy):
            _stop(client)
        loop.run_until_complete(ann.close())
        loop.close()


def test_a_private_tables_number_says_to_watch_it_by_its_code(server: ServerProcess) -> None:
    ann, _code, loop = private_table(server.url)
    ben = TypedClient(server.url, "Ben", "--watch", str(ann.table))
    try:
        said = ben.until(lambda line: line.startswith("No table has"))
        assert said == (
            f"No table has the number or invite code {ann.table}. A private table is watched "
            "or joined with its invite code."
        )
        ben.type("list")  # still in the lobby, and still answering
        ben.until(lambda line: line.startswith("No open tables"))
    finally:
        _stop(ben)
        loop.run_until_complete(ann.close())
        loop.close()


def test_join_keys_watch_takes_an_invite_code(server: ServerProcess) -> None:
    ann, code, loop = private_table(server.url)
    first: list[dict[str, object]] = [{"type": "watch", "table": code}]  # as run_keys asks
    cy = Player(server.url, "Cy", first=first, fallback_watch=code)
    try:
        cy.wait(rf"You are watching table {ann.table}\.")
        assert "no such table" not in cy.said()
    finally:
        cy.close()
        loop.run_until_complete(ann.close())
        loop.close()
