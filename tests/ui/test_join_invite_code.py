"""Both terminal clients join by an invite code typed as it is heard: in lower case, with a
space between its two groups instead of the hyphen (issue 26, item 19)."""

from __future__ import annotations

import asyncio

from join_support import Player, TypedClient
from server_support import Client, ServerProcess, private_table


def _private_table(url: str) -> tuple[Client, str, asyncio.AbstractEventLoop]:
    """Ann's private table (her connection stays open); its code, as spoken: "7kq2m xw9rd"."""
    ann, code, loop = private_table(url)
    return ann, code.lower().replace("-", " "), loop


def test_fivecrowns_join_takes_a_code_in_lower_case_with_a_space(server: ServerProcess) -> None:
    ann, spoken, loop = _private_table(server.url)
    ben = TypedClient(server.url, "Ben")
    try:
        ben.until(lambda line: line.startswith("No open tables"))
        ben.type(f"code {spoken}")
        ben.until(lambda line: line.startswith("You sit in seat 2 at table"))
    finally:
        ben.type("q")
        ben.proc.wait(timeout=10)
        loop.run_until_complete(ann.close())
        loop.close()


def test_join_keys_takes_a_code_in_lower_case_with_a_space(server: ServerProcess) -> None:
    ann, spoken, loop = _private_table(server.url)
    cy = Player(server.url, "Cy")
    try:
        cy.wait(r"No open tables")
        cy.keys("i", *spoken, "c-m")
        cy.wait(r"You sit in seat 2 at table")
    finally:
        cy.close()
        loop.run_until_complete(ann.close())
        loop.close()
