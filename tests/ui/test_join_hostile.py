"""A hostile server cannot drive the player's terminal (issue 26, item 5).

A small fake server on loopback sends names, chat, a table list and an error full of escape
sequences (window title, clipboard, clear line, carriage return), BEL, backspace, NUL, C1
controls and bidi overrides. ``fivecrowns join`` (a real process) and ``join --keys --line``
(its line-mode presentation) print every one of them without those characters.
"""

from __future__ import annotations

import io
import json
import time
import unicodedata

from aiohttp import web
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.output import Output, PrintBackend, RecordingBackend
from fivecrowns.ui.app import Presentation
from fivecrowns.ui.join_keys import NetworkPlay
from fivecrowns.ui.settings import Settings
from join_support import TypedClient
from server_support import fake_server

EVIL = "\x1b]0;owned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2K\r\x08\x00\x9b2J\u202e\u2066\u200b"
FORGED = "Server: Ann went out."
WELCOME = {"type": "welcome", "v": 1, "player": "p", "name": "Ann", "token": "t"}
TABLES = {
    "type": "tables",
    "tables": [
        {
            "id": "t1" + EVIL,
            "seats": [{"kind": "human", "name": "Ben" + EVIL, "level": None, "standin": False}],
            "round": 0,
            "started": False,
            "over": False,
            "spectators": 0,
        }
    ],
}
SEATED = {"type": "seated", "table": "t1", "seat": 0, "code": None, "creator": True}
CHAT = {
    "type": "event",
    "seq": 1,
    "kind": "chat",
    "data": {"seat": 1, "name": "Ben", "text": "hi" + EVIL + FORGED},
    "text": "Ben says: hi" + EVIL + FORGED,
}
ERROR = {"type": "error", "code": "x", "text": "Refused." + EVIL + FORGED}


async def _handler(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    await ws.receive()  # the hello
    for message in (WELCOME, TABLES, SEATED, CHAT, ERROR):
        await ws.send_str(json.dumps(message))
    for _ in range(20):
        message = await ws.receive()
        if message.type is not web.WSMsgType.TEXT:
            break
    return ws


def _controls(text: str) -> list[str]:
    """The control and format characters in ``text``, line breaks aside."""
    return [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf")]


def test_fivecrowns_join_prints_no_control_or_format_character() -> None:
    with fake_server(_handler) as url:
        client = TypedClient(url, "Ann")
        try:
            client.until(lambda line: line.startswith("Refused."))
        finally:
            client.type("q")
            client.proc.wait(timeout=10)
        printed = "\n".join(client.transcript)
    assert _controls(printed) == [], repr(printed)
    assert any(line.startswith("Ben says: hi]0;owned") for line in client.transcript)
    assert any(line.startswith("Table t1]0;owned") for line in client.transcript)
    # why: a carriage return or a cursor move could have put the forged news on a line of its own
    assert not any(line.startswith(FORGED) for line in client.transcript), client.transcript


def test_join_keys_line_mode_prints_no_control_or_format_character() -> None:
    with fake_server(_handler) as url:
        link = WebSocketLink(url, "Ann")
        link.connect()
        backend = RecordingBackend()
        play = NetworkPlay(link, Output(backend), Settings(delay=0.0))
        console = io.StringIO()
        with create_pipe_input() as pipe:
            Presentation(play, line_mode=True, input=pipe, output=DummyOutput(), stdout=console)
            play.start()
            deadline = time.monotonic() + 10
            while "Refused." not in console.getvalue():
                assert time.monotonic() < deadline, console.getvalue()
                play.news()
                time.sleep(0.02)
        link.close()
    printed = console.getvalue()
    assert "Ben says: hi]0;owned" in printed
    assert _controls(printed) == [], repr(printed)
    assert not any(line.startswith(FORGED) for line in printed.splitlines())


def test_the_print_speech_backend_prints_no_control_or_format_character() -> None:
    stream = io.StringIO()
    PrintBackend(stream).speak(CHAT["text"])  # type: ignore[arg-type]
    assert _controls(stream.getvalue()) == [] and stream.getvalue().startswith("Ben says: hi")
