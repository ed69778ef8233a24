"""Only the server's own page, pages its operator allows, and programs (which send no
``Origin``) may open a WebSocket to a real `fivecrowns serve` (issue 26, item 12: any page a
player visited could play, chat or flood in their name)."""

from __future__ import annotations

import aiohttp
import pytest

from server_support import FAST, Client, ServerProcess, run_against


async def _status(url: str, origin: str | None, language: str = "en") -> tuple[int, str]:
    """The handshake's HTTP status (101 when let in) and the refusal's text."""
    headers = {"Accept-Language": language}
    if origin is not None:
        headers["Origin"] = origin
    async with aiohttp.ClientSession() as session:
        try:
            ws = await session.ws_connect(url, headers=headers)
        except aiohttp.WSServerHandshakeError as refused:
            async with session.get(url.replace("ws://", "http://"), headers=headers) as answer:
                return refused.status, await answer.text()
        await ws.send_json({"type": "hello", "v": 1, "name": "Ann"})
        welcome = await ws.receive_json(timeout=10)
        assert welcome["type"] == "welcome"
        await ws.close()
        return 101, ""


def test_pages_of_other_origins_are_refused() -> None:
    server = ServerProcess(None, *FAST).start()
    own = server.url.replace("ws://", "http://").removesuffix("/ws")

    async def scenario() -> None:
        assert await _status(server.url, own) == (101, "")  # the server's own page
        assert (await _status(server.url, None))[0] == 101  # the terminal client, a program
        status, text = await _status(server.url, "http://evil.example")
        assert status == 403
        assert text == (
            "Pages from http://evil.example may not connect to this server; only its own page "
            "and those its operator allows may.\n"
        )
        status, text = await _status(server.url, "null", "es")
        assert status == 403 and text.startswith("Las páginas de null no pueden conectarse")
        # the port is part of the origin: another server's page on this machine is another
        other_port = own.rsplit(":", 1)[0] + ":1"
        assert (await _status(server.url, other_port))[0] == 403
        # the refused ones hold no slot, and the terminal client still plays
        ann = await Client("Ann").connect(server.url)
        assert ann.token
        await ann.close()

    run_against(server, scenario)


@pytest.mark.parametrize("allowed", ["https://cards.example", "*"])
def test_serve_allow_origin_lets_more_pages_in(allowed: str) -> None:
    server = ServerProcess(None, *FAST, "--allow-origin", allowed).start()

    async def scenario() -> None:
        assert (await _status(server.url, "https://cards.example"))[0] == 101
        expected = 101 if allowed == "*" else 403
        assert (await _status(server.url, "https://other.example"))[0] == expected

    run_against(server, scenario)
