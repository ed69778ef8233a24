"""``join --keys`` when the server forgot this player's seat (playtest leftover).

A ``--memory`` server restarted on the same port knows no token: the reconnection's hello
is refused with ``bad_token``. The player hears one sentence saying the seat is gone and
what to do, the link stops trying (before, it stayed "connecting again" for minutes while
the connection was open), keys that need the server repeat that sentence at once, and Q
then Y quits with a plain goodbye (not "the server keeps your seat").
"""

from __future__ import annotations

import re
import time

from fivecrowns.net.client.websocket import SEAT_GONE
from fivecrowns.ui.lobby import GOODBYE
from join_support import Player, _free_port, start_with_an_easy_computer
from server_support import FAST, ServerProcess


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
