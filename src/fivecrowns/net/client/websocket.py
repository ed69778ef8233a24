"""The WebSocket transport: a :class:`~fivecrowns.net.client.link.TableLink` to a game server.

The terminal session is synchronous (a key runs an action to its end), so this
link gives it a synchronous face over an asyncio
:class:`~fivecrowns.net.client.connection.ServerConnection` (the one the line client
uses too) that runs in a thread of its own:

- every event frame the server sends is kept once, by its ``seq`` (a frame
  heard again after a reconnection is dropped: nothing is said twice);
- a dropped connection is taken up again by itself, with the player's token
  and the last ``seq`` it had, so the server sends every event missed;
- :meth:`act` sends a move and waits for what follows it (its events, or the
  server's refusal, which becomes the sentence the player hears);
- :meth:`snapshot` asks the server for a fresh one (``resume``) when events came
  after the last snapshot, so the seat's view is never behind what it heard;
- ``on_news`` is called (from the connection's thread) when events arrive, so a
  presentation can tell them without waiting for a key.

Every wait is bounded in time, and every loop in count.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.moves import Move
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.connection import ServerConnection
from fivecrowns.net.client.link import GAME_EVENTS, LinkError
from fivecrowns.net.protocol import act_message
from fivecrowns.storage.seats import FORGOTTEN, SavedSeats

__all__ = ["GAME_EVENTS", "WebSocketLink"]

#: How long a move or a snapshot may take before the player hears that the server is slow.
WAIT = 10.0
FRESH_ASKS = 20  # snapshots asked for at most, one after another, to catch up with the events
NO_ANSWER = N_("The server did not answer in time; press the key again, or wait a moment.")
# why no detail: aiohttp's text ("Cannot connect to host ... ssl:default [...]") helps no player;
# the reason goes to errors.log
NOT_CONNECTED = N_(
    "Could not reach the server at {url}. Check the address, and that the server runs."
)
NO_REPLY = N_("Could not reach the server at {url}: no answer.")
DROPPED = N_("The connection dropped; connecting again.")
CONNECTED_AGAIN = N_("Connected again.")
#: Said by a move or any key that needs the server while the connection is down.
OFFLINE = N_("Offline: connecting again.")
OFFLINE_KEYS = N_("Offline: connecting again. The server keeps your seat; {quit} quits.")
GAVE_UP = N_(
    "Offline: the server did not answer for {minutes} minutes, so this client stopped trying. "
    "The server keeps your seat a while: quit, then join the table again."
)
#: Said once when a reconnection's hello is refused with ``bad_token``: the server forgot
#: this player (restarted without its tables, as ``serve --memory`` does), so trying again
#: can never give the seat back.
SEAT_GONE = N_(
    "Your seat is gone: the server started again without its tables. "
    "To play on, quit, then join the server again."
)


#: How long a seat taken back waits at most for the table's earlier events.
CATCH_UP_SECONDS = 5.0


def _seq_of(frame: dict[str, Any]) -> int:
    return int(frame["seq"])


class WebSocketLink:
    """One player's connection to a game server, seen as a table link."""

    #: A remote table keeps no save file here and paces its own computer players.
    local = False

    def __init__(self, url: str, name: str, *, tries: int = 10) -> None:
        self.url = url
        self.name = name
        self.connection = ServerConnection(url, name, self, tries=tries)
        self.creator = False
        self.started = False
        self.frames: list[dict[str, Any]] = []  # every event frame, in order, once
        self.last_snapshot: dict[str, Any] | None = None
        self.tables: list[dict[str, Any]] = []
        self.tables_heard = 0  # how many table lists came (the lobby tells a new one)
        self.notices: list[str] = []  # sentences for the player: errors, seats, connection
        self.leaderboard_pages = 0  # the leaderboard's pages, as its last page said
        self.games_pages = 0  # the pages of your rated games, as their last page said
        self.on_news: Callable[[], None] | None = None
        self._errors: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._ready = threading.Event()  # the first welcome came, or the connection ended
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self.gave_up: str | None = None
        #: The server no longer knows this player's token: no reconnection can help.
        self.seat_gone = False
        #: The name of the account this connection is logged in to, if any.
        self.account: str | None = None
        #: The server ended this connection for good (a log-out, a refused log-in, another
        #: device took the seat): :attr:`gave_up` says why.
        self.ended = False
        #: The server's ``answer``s not yet taken by :meth:`ask`.
        self.answers: list[dict[str, Any]] = []
        #: A seat taken back by a client started again after a crash (issue 26, item 17): the
        #: newest event when it came back, and whether the table's earlier events (asked for
        #: with ``resume``, so the game can be told and the last-moves key knows what the
        #: stand-in did) are still coming. None: this run sat down at the table itself.
        self.came_back_at: int | None = None
        self._catching_up = False
        self._catch_up_until = 0.0  # why a deadline: a lost answer must not hide the game
        self._old_frames_came = False
        self._catch_up_snapshots = 0

    # --- the connection's state, as the lobby and the session read it ---------------------

    @property
    def token(self) -> str | None:
        return self.connection.token

    @property
    def table(self) -> str | None:
        return self.connection.table

    @property
    def seat(self) -> int | None:
        return self.connection.seat

    @property
    def code(self) -> str | None:
        return self.connection.code

    @property
    def connected(self) -> bool:
        """True from the server's ``welcome`` until the connection drops."""
        return self.connection.connected

    @property
    def retrying(self) -> bool:
        """The connection dropped and is being taken up again."""
        return self.connection.retrying

    def take_back_from(
        self, seats: SavedSeats, first: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Keep this player's seats in ``seats``; when an earlier run kept one at this server,
        ask for it back in the first hello, unless ``first`` (what the command line asks
        for at once) wants something else. Returns what to send after the hello.
        Call before :meth:`connect`; what to say is in :attr:`notices`.
        """
        return self.connection.take_back_from(seats, first)

    # --- the connection's thread ------------------------------------------------------

    def connect(self, first: list[dict[str, Any]] | None = None, timeout: float = WAIT) -> None:
        """Connect, say hello and send ``first``; raises FiveCrownsError if nobody answers."""
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._main(list(first or []))),
            name="fivecrowns-websocket",
            daemon=True,  # why: a lost server must never keep the program from ending
        )
        self._thread.start()
        if not self._ready.wait(timeout) or self.token is None:
            raise FiveCrownsError(self.gave_up or _(NO_REPLY).format(url=self.url))

    def close(self) -> None:
        self._closing = True
        self.connection.stop()  # why here too: a connection being taken up again stops at once
        loop = self._loop
        if loop is not None and self.connection.ws is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(self.connection.close(), loop).result(2.0)
        if self._thread is not None:
            self._thread.join(3.0)

    @property
    def offline(self) -> bool:
        """The connection dropped (it is being taken up again, or this client gave up)."""
        return self.token is not None and not self.connected and not self._closing

    def offline_text(self, quit_keys: str | None = None) -> str:
        """What a key that needs the server says while offline (with the quit key, if given)."""
        if not self.retrying:
            return self.gave_up or _(GAVE_UP).format(minutes=self.connection.retry.minutes)
        if quit_keys is None:
            return _(OFFLINE)
        return _(OFFLINE_KEYS).format(quit=quit_keys)

    async def _main(self, first: list[dict[str, Any]]) -> None:
        self._loop = asyncio.get_running_loop()
        await self.connection.run(first)
        with self._changed:
            self._changed.notify_all()
        self._ready.set()
        self._news()

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` from any thread (lost if the connection is down)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(self.connection.send(message), loop)

    def tell_language(self, code: str) -> None:
        """Ask the server to word this connection's sentences in ``code`` from now on (the
        player chose another language; a reconnection's hello names it again anyway)."""
        self.send({"type": "language", "language": code})

    def _news(self) -> None:
        if self.on_news is not None:
            self.on_news()

    # --- what the connection tells this link (in the connection's thread) -------------------

    def notice(self, text: str) -> None:
        with self._changed:
            self.notices.append(text)
            self._changed.notify_all()
        self._news()

    def last_seq(self) -> int:
        """The number of the newest event received."""
        return int(self.frames[-1]["seq"]) if self.frames else 0

    @property
    def catching_up(self) -> bool:
        """A seat taken back is still hearing the table's earlier events (bounded in time)."""
        return self._catching_up and time.monotonic() < self._catch_up_until

    def _catch_up(self, data: dict[str, Any]) -> bool:
        """An event from before this client came back: put it in its place, once."""
        self._old_frames_came = True
        seq = int(data["seq"])
        place = bisect.bisect_left(self.frames, seq, key=_seq_of)
        if place < len(self.frames) and _seq_of(self.frames[place]) == seq:
            return False
        self.frames.insert(place, data)
        return True

    def trying_again(self, attempt: int, tries: int) -> None:
        return None  # why silent: the first connection's wait is bounded, then said in full

    def opened(self, again: bool) -> None:
        return None  # why silent: "Connected again." waits for the welcome

    def dropped(self) -> None:
        self.notice(_(DROPPED))

    def gave_up_trying(self, again: bool) -> None:
        if again:
            self.gave_up = _(GAVE_UP).format(minutes=self.connection.retry.minutes)
        else:
            self.gave_up = _(NOT_CONNECTED).format(url=self.url)
        self.notice(self.gave_up)

    def receive(self, data: dict[str, Any]) -> None:
        connection = self.connection
        kind = data.get("type")
        news = False
        ended = connection.ended_by(data)
        with self._changed:
            if ended is not None:
                # why not an error: no key was refused; the connection ends, and says why
                self.gave_up = ended
                self.ended = True
                self.notices.append(ended)
                news = True
            elif kind == "account":  # the tokens stay unsaid: only the hello needed them
                self.account = str(data["name"])
                news = True
            elif kind == "welcome":
                if connection.welcomed(data):
                    self.notices.append(_(CONNECTED_AGAIN))
                    news = True
            elif kind == "event":
                if self._catching_up and int(data["seq"]) <= self.last_seq():
                    news = self._catch_up(data) or news
                elif int(data["seq"]) > self.last_seq():  # why: heard again after a reconnection
                    self.frames.append(data)
                    news = True
                    if data["kind"] == "game_started":
                        self.started = True
                    elif data["kind"] == "game_over":
                        connection.forget_seat()  # why: nothing is left to take back
                    elif data["kind"] == "new_game":
                        connection.keep_seat()
            elif kind == "snapshot":
                if self.came_back_at is None and self._catching_up:
                    self.came_back_at = int(data["seq"])
                elif self._catching_up:
                    self._catch_up_snapshots += 1
                    # why a bound: a server that answers the resume with no earlier events (a
                    # trimmed log) must not keep the game from being told
                    # (every change at the table sends a snapshot to everyone there)
                    self._catching_up = not self._old_frames_came and self._catch_up_snapshots < 20
                self.last_snapshot = data
                self.started = self.started or bool(data.get("started"))
                news = True
            elif kind == "tables":
                connection.listed()
                self.tables = list(data["tables"])
                self.tables_heard += 1
                news = True
            elif kind == "seated":
                if data["table"] != self.table:  # why: each table numbers its events from 1
                    self.frames, self.last_snapshot, self.started = [], None, False
                if connection.saved is not None and data["seat"] is not None:
                    # why: a client started again after a crash has heard none of the game;
                    # after the hello's snapshot, everything before it comes, once
                    self._catching_up, self.came_back_at = True, None
                    self._catch_up_until = time.monotonic() + CATCH_UP_SECONDS
                    self._old_frames_came, self._catch_up_snapshots = False, 0
                    connection.outbox.append({"type": "resume", "last_seq": 0})
                connection.sat_down(data)
                self.creator = bool(data.get("creator"))
                self.started = self.started or bool(data.get("started"))
                news = True
            elif kind == "left":
                connection.left_table()
                self.started = False
                self.frames, self.last_snapshot = [], None
                news = True
            elif kind == "error" and data.get("code") == "bad_token" and self.token is None:
                # why: a kept seat's token this server does not know (its data was wiped):
                # cross it off and say hello as a new player, as a first run would
                self.notices.append(_(FORGOTTEN))
                connection.start_afresh()
                news = True
            elif kind == "error" and data.get("code") == "bad_token" and self.token is not None:
                # why not an error: no key was refused; the reconnection's hello was, for good
                self.seat_gone = True
                connection.stop()
                self.gave_up = _(SEAT_GONE)
                self.notices.append(self.gave_up)
                connection.forget_seat()  # why: the kept seat can never be taken back
                news = True
            elif kind == "error" and data.get("code") == "server_stopping":
                # why a notice, not an error: no key of the player's was refused; the drop
                # that follows is said next ("connecting again")
                self.notices.append(str(data.get("text", "")))
                news = True
            elif kind == "error":
                code = data.get("code")
                if code == "table_gone" or (code == "too_many_spectators" and self.seat is None):
                    # why: said after a reconnection when the watch (or the seat: the server
                    # closed a table nobody was connected to) could not be taken up again
                    connection.table, self.started = None, False
                    self.frames, self.last_snapshot = [], None
                self._errors.append(data)
                news = True
            elif kind == "answer":
                self.answers.append(data)  # why not news: the key that asked waits for it
            elif kind in ("record", "rating"):  # ratings: said as they come, numbers first
                self.notices.append(str(data.get("text", "")))
                news = True
            elif kind in ("leaderboard", "games", "game"):
                if kind == "leaderboard":
                    self.leaderboard_pages = int(data.get("pages", 0))
                elif kind == "games":
                    self.games_pages = int(data.get("pages", 0))
                self.notices.extend(str(line) for line in data.get("lines", ()))
                news = True
            self._changed.notify_all()
        if self.token is not None or self.ended:
            self._ready.set()
        if news:
            self._news()

    def has_errors(self) -> bool:
        return bool(self._errors)

    def wait_for(self, ready: Callable[[], bool], timeout: float = WAIT) -> bool:
        """Wait until ``ready()`` (checked whenever something arrives), at most ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not ready():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    def take_errors(self) -> list[dict[str, Any]]:
        with self._changed:
            errors, self._errors = self._errors, []
            return errors

    def take_notices(self) -> list[str]:
        with self._changed:
            notices, self.notices = self.notices, []
            return notices

    # --- the TableLink interface ------------------------------------------------------

    def snapshot(self, seat: int) -> dict[str, Any]:
        """The newest snapshot; a fresh one is asked for when events came after it."""

        def fresh() -> bool:
            shot = self.last_snapshot
            return shot is not None and int(shot["seq"]) >= self.last_seq()

        # why ask again: a computer player may move between our ask and the server's answer,
        # so the answer can be older than the newest event, and no newer snapshot comes to a
        # seat whose turn it is not (a run under load timed out on this); bounded in count
        for _pass in range(FRESH_ASKS):
            if fresh():
                break
            if self.offline:  # why: the answer cannot come; say so at once, not in 10 s
                raise LinkError("offline", self.offline_text())
            asked = self.last_snapshot

            def answered(asked: dict[str, Any] | None = asked) -> bool:
                return fresh() or self.last_snapshot is not asked

            self.send({"type": "resume", "last_seq": self.last_seq()})
            if not self.wait_for(answered):
                raise LinkError("timeout", _(NO_ANSWER))
        if not fresh():
            raise LinkError("timeout", _(NO_ANSWER))
        assert self.last_snapshot is not None
        return self.last_snapshot

    def events_since(self, seat: int, last_seq: int) -> list[dict[str, Any]]:
        with self._changed:
            return [frame for frame in self.frames if int(frame["seq"]) > last_seq]

    def act(self, seat: int, move: Move, seq: int) -> None:
        """Send ``move`` and wait for its first event, or the server's refusal."""
        if self.offline:
            raise LinkError("offline", self.offline_text())
        self.take_errors()  # why: only an error after this move is its answer

        def answered() -> bool:
            moved = any(
                int(frame["seq"]) > seq and frame["kind"] in GAME_EVENTS
                for frame in self.frames[-8:]
            )
            return moved or bool(self._errors)

        self.send(act_message(move, seq))
        if not self.wait_for(answered):
            raise LinkError("timeout", _(NO_ANSWER))
        errors = self.take_errors()
        if errors:
            raise LinkError(str(errors[0]["code"]), str(errors[0]["text"]))

    def chat(self, text: str) -> None:
        """A line for everyone at the table (the server sends it back to all, you too)."""
        self.send({"type": "chat", "text": text})

    def new_game(self) -> None:
        """After game over, ask for a new game with the same seats (the creator may)."""
        self.send({"type": "new_game"})

    def leave(self) -> None:
        """Leave the table for good (a computer player takes the seat)."""
        self.send({"type": "leave"})
        if not self.offline:  # why: no answer can come; the server keeps the seat meanwhile
            self.wait_for(lambda: self.table is None, 2.0)

    # --- what only a local table does: nothing here ------------------------------------

    def bot_due(self) -> bool:
        return False  # the server paces its computer players

    def step_bot(self) -> str | None:
        return None

    def explain_last_bot_turn(self) -> str | None:
        """The why-key's answer: the server runs the computer players, so it words it, from
        their public moves only (their reasons would tell their cards)."""
        return self.ask("why")

    def ask(self, what: str) -> str:
        """An information key's question (the protocol's ``ask``); the server's sentence."""
        if self.offline:  # why: the answer cannot come; say so at once, not in 10 s
            raise LinkError("offline", self.offline_text())
        with self._changed:
            self.answers.clear()  # why: an answer that came too late for its key is stale
        self.send({"type": "ask", "what": what})

        def answered() -> bool:
            return any(answer["what"] == what for answer in self.answers)

        if not self.wait_for(answered):
            raise LinkError("timeout", _(NO_ANSWER))
        with self._changed:
            answer = next(answer for answer in self.answers if answer["what"] == what)
            self.answers.clear()
        return str(answer["text"])
