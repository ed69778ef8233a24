"""A server behind a reverse proxy (``serve --trusted-proxy``): each client's own address,
from the proxy's ``X-Forwarded-For``, counts for the limits per address; nobody else's
header is believed. Real server processes on 127.0.0.1, which plays the proxy."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import aiohttp
import pytest

from server_support import FAST, ServerProcess, run_against

OPEN: list[aiohttp.ClientWebSocketResponse] = []  # closed with their session, each test

ONLY_THROUGH = (
    "This server takes connections only through its proxy; connect to the address its "
    "operator gave you.\n"
)


async def _hello(session: aiohttp.ClientSession, url: str, forwarded: str | None) -> str:
    """Opens a WebSocket as a proxy would pass it on; "welcome", or the HTTP status refused."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    try:
        ws = await session.ws_connect(url, headers=headers)
        OPEN.append(ws)  # why kept: a WebSocket nobody refers to is closed, freeing its slot
    except aiohttp.WSServerHandshakeError as error:
        return str(error.status)
    await ws.send_json({"type": "hello", "v": 1, "name": f"P{forwarded}".replace(".", "")})
    answer = await asyncio.wait_for(ws.receive_json(), 10)
    assert answer["type"] == "welcome", answer  # the socket stays open: it holds its slot
    return "welcome"


def test_behind_a_trusted_proxy_each_client_has_its_own_share_of_connections() -> None:
    server = ServerProcess(None, *FAST, "--max-per-address", "1", "--trusted-proxy", "127.0.0.1")
    server.start()

    async def scenario() -> None:
        async with aiohttp.ClientSession() as session:
            url = server.url
            assert await _hello(session, url, "203.0.113.5") == "welcome"
            assert await _hello(session, url, "203.0.113.6") == "welcome"  # another player
            assert await _hello(session, url, "203.0.113.5") == "429"  # the first one's share
            # a request that did not come through the proxy: no client named
            assert await _hello(session, url, None) == "400"
            # a client's own header the proxy appended to: it would choose its address
            assert await _hello(session, url, "198.51.100.1, 203.0.113.7") == "400"
            http = url.replace("ws://", "http://").removesuffix("/ws") + "/"
            async with session.get(http) as page:
                assert page.status == 400
                assert await page.text() == ONLY_THROUGH
            async with session.get(http, headers={"X-Forwarded-For": "203.0.113.9"}) as page:
                assert page.status == 200  # the page itself, through the proxy

    errors = run_against(server, scenario)
    # three refusals in a few seconds: the operator hears of a refused header once
    assert errors.count("X-Forwarded-For") == 1, errors


def test_without_a_trusted_proxy_a_forwarded_header_is_not_believed() -> None:
    server = ServerProcess(None, *FAST, "--max-per-address", "1").start()

    async def scenario() -> None:
        async with aiohttp.ClientSession() as session:
            assert await _hello(session, server.url, "203.0.113.5") == "welcome"
            # the same socket address, whatever the header says
            assert await _hello(session, server.url, "203.0.113.6") == "429"

    run_against(server, scenario)


@pytest.mark.parametrize("value", ["proxy.example.org", "10.0.0.300", ""])
def test_a_trusted_proxy_that_is_no_address_is_refused_in_one_sentence(value: str) -> None:
    command = [sys.executable, "-m", "fivecrowns", "serve", "--memory", "--port", "0"]
    done = subprocess.run(
        [*command, "--trusted-proxy", value], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"--trusted-proxy takes an address or a network such as 10.0.0.0/8, not {value}.\n"
    )
