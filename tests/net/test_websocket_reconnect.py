"""The WebSocket link's reconnection (net/client/websocket.py), as ``join --keys`` lives it: while
the connection is down, after a server restart (playtest items 2, 3), and when the restarted
server forgot the seat.

- A dropped connection is taken up again for minutes (not ~22 s, before the server's
  30-second grace ended); giving up says a short sentence, never aiohttp's own text.
- While offline, a key that needs the server says so at once ("Offline: ..."), not old
  state or "Asked the server"; Q then Y quits (the server keeps the seat).
- After kill -9 and a restart on the same port, players hear "Connected again." once, and
  a spectator watches again by itself, hearing the moves made after the restart, nothing
  missed and nothing twice, and never a hand.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import aiohttp
import pytest

from fivecrowns.net.client import websocket
from fivecrowns.net.client.retry import RECONNECT
from fivecrowns.net.client.websocket import (
    CONNECTED_AGAIN,
    NOT_CONNECTED,
    OFFLINE_KEYS,
    SEAT_GONE,
    WebSocketLink,
)
from fivecrowns.ui.join_keys import OFFLINE_GOODBYE
from fivecrowns.ui.lobby import GOODBYE
from fivecrowns.ui.session import WATCHING_NO_NEWS
from join_support import Player, _free_port, _play_a_turn, start_with_an_easy_computer
from server_support import FAST, Client, RecordingLink, ServerProcess, no_leaks


def test_a_dropped_connection_is_tried_again_for_minutes_and_gives_up_in_plain_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing listens on the port: the link keeps trying past the server's grace (the old
    bound gave up after ten attempts, 22.5 s), its pauses capped, then says so plainly."""
    clock = [1000.0]
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:  # why fake time: minutes of retrying in a moment
        pauses.append(seconds)
        clock[0] += seconds

    monkeypatch.setattr(websocket.asyncio, "sleep", sleep)
    monkeypatch.setattr(websocket.time, "monotonic", lambda: clock[0])
    url = f"ws://127.0.0.1:{_free_port()}/ws"
    link = WebSocketLink(url, "Ann")
    link.connection.token = "a-token"  # as after a first welcome

    async def again() -> bool:
        async with aiohttp.ClientSession() as session:
            return await link.connection.connect(session, again=True)

    assert asyncio.run(again()) is False
    assert sum(pauses) >= 120, sum(pauses)  # well past the server's 30-second grace
    assert max(pauses) <= RECONNECT.longest_pause
    assert link.gave_up is not None
    notices = link.take_notices()
    assert notices == [link.gave_up]
    assert "Cannot connect" not in link.gave_up and "ssl" not in link.gave_up
    assert link.gave_up.startswith("Offline:")


def test_a_first_connection_that_fails_says_a_short_sentence(tmp_path: Path) -> None:
    url = f"ws://127.0.0.1:{_free_port()}/ws"
    link = WebSocketLink(url, "Ann", tries=1)
    with pytest.raises(Exception) as raised:
        link.connect(timeout=10)
    link.close()
    assert str(raised.value) == NOT_CONNECTED.format(url=url)
    assert "Connect call failed" not in str(raised.value)


def _create_and_start(ann: Player) -> None:
    ann.wait(r"No open tables")
    ann.keys("c", "home", "c-m", "down", "c-m", "up", "c-m", "c-m")  # 2 seats, 1 easy
    ann.wait(r"You sit in seat 1 at table")
    ann.keys("s")
    ann.wait(r"New game: Ann and .+ \(easy\)\.")


def test_offline_keys_say_so_at_once_and_q_then_y_quits(tmp_path: Path) -> None:
    data, port = tmp_path / "server", _free_port()
    server = ServerProcess(data, *FAST, "--grace", "30", port=port).start()
    ann: Player | None = None
    try:
        ann = Player(server.url, "Ann")
        _create_and_start(ann)
        server.kill9()
        server.stop()
        ann.wait(r"The connection dropped; connecting again\.")
        assert ann.link.wait_for(lambda: ann.link.offline, 10)
        for key in ("n", "l", "d", "s"):  # whose turn, last moves, draw, scores
            mark = ann.mark()
            started = time.monotonic()
            ann.keys(key)
            assert time.monotonic() - started < 2.0  # at once, not after a 10-second wait
            said = ann.said_since(mark)
            assert said == OFFLINE_KEYS.format(quit="Q or Ctrl+C"), (key, said)
        ann.keys("right")  # moving through one's own hand needs nobody
        # the server comes back: one "Connected again.", and the game answers again
        server = ServerProcess(data, *FAST, "--grace", "30", port=port).start()
        ann.wait(re.escape(CONNECTED_AGAIN))
        assert ann.link.wait_for(lambda: ann.link.connected, 30)
        mark = ann.mark()
        ann.keys("n")
        ann.play.news()
        assert "Offline" not in ann.said_since(mark)
        # down again: Q then Y quits the program, at once, with the seat kept
        server.kill9()
        server.stop()
        assert ann.link.wait_for(lambda: ann.link.offline, 10)
        mark = ann.mark()
        started = time.monotonic()
        ann.keys("q", "y")
        assert time.monotonic() - started < 2.0
        assert ann.play.wants_exit()
        assert OFFLINE_GOODBYE in ann.said_since(mark)
        assert ann.said().count(CONNECTED_AGAIN) == 1
    finally:
        if ann is not None:
            ann.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors


def _watch(sam: Player, pattern: str, after: int = 0) -> None:
    """Wait until the spectator says ``pattern``, dealing a next round if it is held back."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        game = sam.play.game
        if game is not None and game.next_round is not None:
            sam.keys("c-m")  # why: a spectator's session may wait for Enter between rounds
        sam.play.news()
        if re.search(pattern, sam.said_since(after)):
            return
        sam.link.wait_for(lambda: False, 0.05)
    raise AssertionError(f"Sam never said {pattern!r}:\n{sam.said()[-3000:]}")


def test_a_spectator_watches_again_after_a_server_restart(tmp_path: Path) -> None:
    data, port = tmp_path / "server", _free_port()
    server = ServerProcess(data, *FAST, "--grace", "30", port=port).start()
    ann: Player | None = None
    sam: Player | None = None
    try:
        ann = Player(server.url, "Ann")
        _create_and_start(ann)
        table = ann.link.table
        assert table is not None
        watcher = RecordingLink(server.url, "Sam")
        sam = Player(server.url, "Sam", link=watcher)
        sam.wait(rf"Table {table}, round 1")  # the lobby names a table by its id
        sam.keys("w")
        sam.wait(r"You are watching table")
        _play_a_turn(ann)
        _watch(sam, r"Ann drew")
        before = len(watcher.frames)
        server.kill9()
        server.stop()
        sam.wait(r"The connection dropped; connecting again\.")
        server = ServerProcess(data, *FAST, "--grace", "30", port=port).start()
        sam.wait(re.escape(CONNECTED_AGAIN))
        ann.wait(re.escape(CONNECTED_AGAIN))
        assert ann.link.wait_for(lambda: ann.link.connected, 30)
        mark = sam.mark()
        seq = watcher.last_seq()
        for _ in range(3):
            _play_a_turn(ann)
        # the spectator hears the moves made after the restart, by itself
        _watch(sam, r"Ann (drew|took)", after=mark)
        assert watcher.wait_for(lambda: watcher.last_seq() > seq, 10)
        seqs = [int(frame["seq"]) for frame in watcher.frames]
        # nothing missed, nothing twice (from the event the spectator started watching at)
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        assert len(seqs) > before
        assert watcher.seat is None and watcher.table == table
        said = sam.said()
        assert said.count("Round 1 of 11") <= 1
        assert said.count(CONNECTED_AGAIN) == 1
        no_leaks(None, watcher.received)
        # L: this round's moves since the last look, then nothing new (playtest item 4)
        sam.play.news()
        mark = sam.mark()
        sam.keys("l")
        first = sam.said_since(mark)
        assert first and len(first) < 1500, first
        mark = sam.mark()
        sam.keys("l")
        assert sam.said_since(mark) == WATCHING_NO_NEWS

        async def spectators() -> int:
            lobby = await Client("Zoe").connect(server.url)
            try:
                listing = await lobby.until(lambda m: m["type"] == "tables")
            finally:
                await lobby.close()
            return int(next(t["spectators"] for t in listing["tables"] if t["id"] == table))

        assert asyncio.run(spectators()) == 1
    finally:
        for player in (ann, sam):
            if player is not None:
                player.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors


# When the server forgot this player's seat (a playtest leftover): a ``--memory`` server
# restarted on the same port knows no token, so the reconnection's hello is refused with
# ``bad_token``. The player hears one sentence saying the seat is gone and what to do, the
# link stops trying (before, it stayed "connecting again" for minutes while the connection
# was open), keys that need the server repeat that sentence at once, and Q then Y quits with
# a plain goodbye (not "the server keeps your seat").
def test_a_server_that_forgot_the_seat_is_said_once_and_the_link_stops_trying() -> None:
    port = _free_port()
    server = ServerProcess(None, *FAST, "--grace", "30", port=port).start()
    ann: Player | None = None
    try:
        ann = Player(server.url, "Ann")
        start_with_an_easy_computer(ann)
        server.stop()  # SIGTERM: the server says it is stopping, and keeps no tables
        ann.wait(r"The server is stopping\. It keeps no tables")
        ann.wait(r"The connection dropped; connecting again\.")
        server = ServerProcess(None, *FAST, "--grace", "30", port=port).start()
        ann.wait(re.escape(SEAT_GONE), timeout=30)
        link = ann.link
        assert link.seat_gone and not link.retrying and link.offline
        # the link's thread ends: no more attempts (bounded wait)
        assert link._thread is not None
        link._thread.join(10)
        assert not link._thread.is_alive()
        mark = ann.mark()
        started = time.monotonic()
        ann.keys("n")  # whose turn: needs the server, which forgot us
        assert time.monotonic() - started < 2.0
        assert ann.said_since(mark) == SEAT_GONE
        ann.play.news()
        said = ann.said()
        assert said.count(SEAT_GONE) == 2  # once by itself, once for the key
        assert "token" not in said.lower()  # the server's protocol sentence is not said
        assert "Connected again" not in said
        mark = ann.mark()
        ann.keys("q", "y")
        assert ann.play.wants_exit()
        assert ann.said_since(mark).endswith(GOODBYE)
        assert "keeps your seat" not in ann.said_since(mark)
    finally:
        if ann is not None:
            ann.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors
