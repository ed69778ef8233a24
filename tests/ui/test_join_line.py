"""`fivecrowns join`, the line-by-line terminal client, against a real server process.

Ann types into a real `fivecrowns join` process; Ben is a protocol client. The server is
killed with kill -9 mid-game and restarted on the same port: Ann's client reconnects by
itself and the game goes on to the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from pathlib import Path

from join_support import TypedClient, _free_port
from server_support import Client, ServerProcess, play_until


def _ann_plays(ann: TypedClient, stop: object, timeout: float) -> None:
    """Ann answers every "You can" line: draw from the stock, then throw her first card."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = ann.next_line(0.2)
        if line is None:
            continue
        if stop(line):  # type: ignore[operator]
            return
        if line.startswith("You can: d, draw"):
            ann.type("d")
        elif line.startswith("You can:"):
            ann.type("x 1")
    raise AssertionError(f"Ann did not finish; last lines: {ann.transcript[-8:]}")


def test_join_plays_a_game_and_reconnects_by_itself_after_a_server_crash(tmp_path: Path) -> None:
    data = tmp_path / "server"
    port = _free_port()
    options = ("--bot-delay", "0", "--rate", "1000", "--grace", "30")
    server = ServerProcess(data, *options, port=port).start()
    ann = TypedClient(server.url, "Ann")
    try:
        ann.until(lambda line: line.startswith("No open tables"))
        ann.type("create 3 easy private")
        seated = ann.until(lambda line: "invite code is" in line)
        code = seated.rsplit(" ", 1)[1].rstrip(".")

        async def ben_joins() -> Client:
            ben = Client("Ben")
            await ben.connect(server.url)
            await ben.send({"type": "join", "code": code})
            await ben.until(lambda m: m["type"] == "snapshot")
            return ben

        loop = asyncio.new_event_loop()
        ben = loop.run_until_complete(ben_joins())
        ann.until(lambda line: line == "Ben sat down in seat 3.")
        ann.type("say Hello Ben")
        ann.type("start")

        def ben_plays(seconds: float, stop: object) -> None:
            # why suppress: the server is killed under Ben; he comes back as a new client
            with contextlib.suppress(TimeoutError, ConnectionError):
                loop.run_until_complete(play_until([ben], stop, seconds))

        # Ann and Ben play into round 2 (Ben in a thread of his own; Ann types)
        thread = threading.Thread(target=ben_plays, args=(60, lambda c: c.game_over()))
        thread.start()
        _ann_plays(ann, lambda line: line.startswith("Round 2 of 11"), 60)
        server.kill9()
        thread.join(timeout=70)
        server.stop()
        # the server comes back on the same port; Ann's client reconnects without a word typed
        server = ServerProcess(data, *options, port=port).start()
        ann.until(lambda line: line.startswith("Connected again"), 30)

        async def ben_returns() -> Client:
            back = Client("Ben")
            back.token, back.seq = ben.token, ben.seq
            await back.connect(server.url)
            await back.until(lambda m: m["type"] == "snapshot")
            return back

        back = loop.run_until_complete(ben_returns())
        thread = threading.Thread(
            target=lambda: loop.run_until_complete(play_until([back], lambda c: c.game_over(), 150))
        )
        thread.start()
        _ann_plays(ann, lambda line: line.startswith("Game over."), 150)
        thread.join(timeout=160)
        assert back.game_over() and back.errors == []
        text = "\n".join(ann.transcript)
        assert "Ann says: Hello Ben" in text
        assert "Traceback" not in text
        # what Ann heard before the crash is not said twice after it
        assert text.count("Round 2 of 11") == 1
        ann.type("q")
        assert ann.proc.wait(timeout=10) == 0
    finally:
        if ann.proc.poll() is None:
            ann.proc.kill()
        errors = server.stop()
    assert "Traceback" not in errors, errors


def test_join_mutes_spectators_chat_and_turns_it_off_at_its_own_table(tmp_path: Path) -> None:
    """Issue 26 item 6 in the line client: ``mute spectators`` (a chat line of a spectator
    is then printed as nothing), and ``spectators off`` at the table Ann made."""
    server = ServerProcess(tmp_path / "server", "--bot-delay", "0", "--rate", "1000").start()
    ann = TypedClient(server.url, "Ann")

    async def sam_says(text: str, table: str) -> None:
        sam = await Client("Sam").connect(server.url)
        try:
            await sam.send({"type": "watch", "table": table})
            await sam.until(lambda m: m["type"] == "snapshot")
            await sam.send({"type": "chat", "text": text})
            await sam.until(lambda m: m["type"] == "error" or m.get("kind") == "chat")
        finally:
            await sam.close()

    try:
        ann.until(lambda line: line.startswith("No open tables"))
        ann.type("create 2 easy")
        seated = ann.until(lambda line: line.startswith("You sit in seat 1 at table"))
        table = seated.removeprefix("You sit in seat 1 at table ").rstrip(".")
        asyncio.run(sam_says("first", table))
        ann.until(lambda line: line == "Sam says: first")
        ann.type("mute spectators")
        ann.until(lambda line: line.startswith("Spectators' chat is silent for you"))
        asyncio.run(sam_says("psst", table))
        ann.type("say mine")
        ann.until(lambda line: line == "Ann says: mine")
        ann.type("spectators off")
        ann.until(lambda line: line == "Spectators' chat is off: only the players can chat here.")
        assert not any("psst" in line for line in ann.transcript), ann.transcript
    finally:
        ann.proc.kill()
        ann.proc.wait(timeout=10)
        errors = server.stop()
    assert "Traceback" not in errors
