"""One client's connection to a game server, shared by both ``fivecrowns join`` clients.

A :class:`ServerConnection` runs in an asyncio event loop and does what every client of
the server does the same way (``docs/protocol.md``):

- opens the WebSocket (aiohttp) and says ``hello`` in the player's language;
- takes the seat back: with the token of its ``welcome`` and the last ``seq`` its owner
  heard after a drop (a spectator names the table it watched, since a server started
  again keeps seats, not who watched what), or with a seat kept in ``seats.json`` by an
  earlier run of the client (:mod:`fivecrowns.storage.seats`);
- takes a dropped connection up again by itself, with the shared
  :data:`~fivecrowns.net.client.retry.RECONNECT` policy;
- decodes every frame with :func:`~fivecrowns.net.client.link.read_frame`: a frame it
  cannot read becomes one sentence, and it goes on listening.

What the frames mean to the player, and every other sentence, are its owner's
(:class:`ConnectionOwner`): the line client (:mod:`fivecrowns.ui.join_line`) in the same
event loop, and :class:`~fivecrowns.net.client.websocket.WebSocketLink`, the synchronous
face ``join --keys`` uses, in a thread of its own. The owner keeps the seat bookkeeping in
step by calling :meth:`ServerConnection.welcomed`, :meth:`~ServerConnection.sat_down`,
:meth:`~ServerConnection.left_table` and the others where its frames say so.

Every wait is bounded in time, and every loop in count.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import time
from typing import Any, Protocol

import aiohttp

from fivecrowns.i18n import N_, current_language
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.link import read_frame
from fivecrowns.net.client.retry import RECONNECT, RetryPolicy
from fivecrowns.net.protocol import ProtocolError
from fivecrowns.storage.seats import NO_LONGER_KEPT, TAKING_BACK, SavedSeat, SavedSeats

__all__ = ["UNREADABLE", "ConnectionOwner", "Ending", "ServerConnection"]

# TRANSLATORS: {why} is the parser's own English detail
UNREADABLE = N_("The server sent a message this client cannot read, so it was left out ({why}).")


class Ending(enum.Enum):
    """Why :meth:`ServerConnection.run` returned."""

    CLOSED = "closed"  # the owner closed it (the player quit, or nothing more can help)
    UNREACHABLE = "unreachable"  # the first connection found nobody
    GAVE_UP = "gave_up"  # a dropped connection was tried again for the whole window
    TOO_MANY_DROPS = "too_many_drops"  # the policy's drops in one run, all taken up again


class ConnectionOwner(Protocol):
    """What a client tells its player about its connection (called in the connection's loop)."""

    def receive(self, data: dict[str, Any]) -> None:
        """One frame from the server, decoded and checked."""
        ...

    def notice(self, text: str) -> None:
        """A sentence of the connection's own: a frame left out, a seat kept or not."""
        ...

    def last_seq(self) -> int:
        """The newest event heard: a connection taken up again asks for every one after it."""
        ...

    def trying_again(self, attempt: int, tries: int) -> None:
        """The first connection found nobody yet; attempt ``attempt`` of ``tries`` follows."""
        ...

    def opened(self, again: bool) -> None:
        """The connection is open and its hello sent (``again``: after a drop)."""
        ...

    def dropped(self) -> None:
        """The connection dropped; it is tried again now."""
        ...

    def gave_up_trying(self, again: bool) -> None:
        """Nobody answered: ``tries`` attempts at first, or the policy's window after a drop."""
        ...


class ServerConnection:
    """The WebSocket to the server at ``url`` for the player ``name``, and their seat there."""

    def __init__(
        self,
        url: str,
        name: str,
        owner: ConnectionOwner,
        *,
        tries: int = 10,
        retry: RetryPolicy = RECONNECT,
    ) -> None:
        self.url = url
        self.name = name
        self.owner = owner
        self.tries = tries
        self.retry = retry  # how a dropped connection is tried again (shared by clients)
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        #: The token of the server's ``welcome``: who this player is there.
        self.token: str | None = None
        self.table: str | None = None
        self.seat: int | None = None  # None at a table: watching it
        self.code: str | None = None  # a private table's invite code
        #: True from the server's ``welcome`` until the connection drops.
        self.connected = False
        self.retrying = False  # the connection dropped and is being taken up again
        #: No connection is taken up again after this: the owner closed it, or stopped it.
        self.stopping = False
        #: Messages an owner's :meth:`ConnectionOwner.receive` asks to send, sent once the
        #: frame at hand is handled.
        self.outbox: list[dict[str, Any]] = []
        #: Where this player's seats are kept for a restart (None: not kept; tests of parts).
        self.seats: SavedSeats | None = None
        #: A seat kept by an earlier run, asked back in the first hello (cleared once answered).
        self.saved: SavedSeat | None = None
        #: ``("log_in" or "sign_up", password)``: the first hello logs in to an account (or
        #: makes one); forgotten once the server has welcomed this player.
        self.credentials: tuple[str, str] | None = None
        #: What to send once welcomed (why: a log-in is answered after its password is checked,
        #: and a message sent meanwhile would come before the hello)
        self._after_welcome: list[dict[str, Any]] = []

    # --- the socket ---------------------------------------------------------------------

    async def run(self, first: list[dict[str, Any]]) -> Ending:
        """Connect, say hello, send ``first``, then listen, taking every drop up again, until
        the owner closes the connection or nothing more can help."""
        async with aiohttp.ClientSession() as session:
            if not await self.connect(session, again=False, then=first):
                return Ending.CLOSED if self.stopping else Ending.UNREACHABLE
            # why bounded: each pass is one connection; failures in a row are bounded in
            # connect, this bounds the drops of a whole run
            for _drop in range(self.retry.drops):
                await self.listen()
                self.connected = False
                self.retrying = not self.stopping
                if self.stopping:
                    return Ending.CLOSED
                if not await self.reconnect(session):
                    self.retrying = False
                    return Ending.CLOSED if self.stopping else Ending.GAVE_UP
            self.retrying = False
            return Ending.TOO_MANY_DROPS

    async def reconnect(self, session: aiohttp.ClientSession) -> bool:
        """After a drop: tell the owner, then take the connection up again."""
        self.owner.dropped()
        return await self.connect(session, again=True)

    async def connect(
        self,
        session: aiohttp.ClientSession,
        *,
        again: bool,
        then: list[dict[str, Any]] | None = None,
    ) -> bool:
        """One connection, its hello, and ``then``. The first one gives up after ``tries``
        attempts (a wrong address is said soon); one taken up again follows the shared policy
        (:data:`~fivecrowns.net.client.retry.RECONNECT`): longer than the server keeps a
        dropped seat (30 s by default)."""
        policy = self.retry
        attempts = policy.attempts if again else self.tries
        deadline = time.monotonic() + policy.window
        failure: BaseException | None = None
        for attempt in range(1, attempts + 1):
            if self.stopping:
                return False
            if not again and attempt > 1:
                self.owner.trying_again(attempt, attempts)
            try:
                self.ws = await session.ws_connect(self.url, heartbeat=20.0)
                await self.send(self.hello())
                if self.logging_in() and then:
                    self._after_welcome, then = list(then), []
                for message in then or []:
                    await self.send(message)
                self.owner.opened(again)
                return True
            except (aiohttp.ClientError, OSError) as error:
                failure = error
                if again and time.monotonic() >= deadline:
                    break
                await asyncio.sleep(policy.pause(attempt))
        if failure is not None:
            from fivecrowns.storage.errorlog import log_error

            log_error(f"could not reach the server at {self.url}", failure)
        self.owner.gave_up_trying(again)
        return False

    def ended_by(self, data: dict[str, Any]) -> str | None:
        """The sentence of a frame after which this connection ends for good (it is stopped
        here): a refused log-in or sign-up, an account made that waits for approval, a
        log-out, or another device that took this player's seat; ``None`` for any other.
        Both clients (``join`` and ``join --keys``) end on the same frames through this."""
        kind = data.get("type")
        refused = kind == "error" and self.logging_in()
        # why stop at "replaced": taking the seat back would take it from the other device,
        # and that one from this, forever
        replaced = kind == "error" and data.get("code") == "replaced"
        if kind in ("account_pending", "logged_out") or refused or replaced:
            self.stop()
            return str(data.get("text", ""))
        return None

    def logging_in(self) -> bool:
        """The first hello logs in to an account (or makes one), not yet answered."""
        return self.credentials is not None and self.token is None

    def hello(self) -> dict[str, Any]:
        """The hello: with the token after a drop, or with a seat kept by an earlier run; a
        log-in (``credentials``) until the server welcomes this player."""
        if self.credentials is not None and self.token is None:
            kind, password = self.credentials
            language = current_language()
            return {
                "type": kind,
                "v": 1,
                "name": self.name,
                "password": password,
                "language": language,
            }
        hello = self.plain_hello()
        if self.token is not None:
            hello.update(token=self.token, last_seq=self.owner.last_seq())
            if self.table is not None and self.seat is None:
                # why: a server restarted since keeps seats, not what one watched
                hello["watch"] = self.table
                if self.code is not None:
                    hello["watch_code"] = self.code
        elif self.saved is not None:
            # why no last_seq: a restarted client wants the seat now, not the whole log
            hello.update(token=self.saved.token)
        return hello

    def plain_hello(self) -> dict[str, Any]:
        """A new player's hello, naming the player's language: the server words this
        connection's sentences in it."""
        return {"type": "hello", "v": 1, "name": self.name, "language": current_language()}

    async def listen(self) -> None:
        """Hand every frame to the owner until the connection drops or is closed."""
        ws = self.ws
        assert ws is not None
        async for message in ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            try:
                data = read_frame(message.data)
            except ProtocolError as error:  # why: one sentence, and never stop listening
                self.owner.notice(_(UNREADABLE).format(why=str(error)[:80]))
                continue
            self.owner.receive(data)
            while self.outbox:
                await self.send(self.outbox.pop(0))
            if self.stopping:
                await ws.close()
                return

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (lost if the connection is down: the hello after a drop asks for
        what was missed)."""
        ws = self.ws
        if ws is None or ws.closed:
            return
        # why suppress: a send on a dropped connection is lost; the listener reconnects
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            await ws.send_str(json.dumps(message))

    def stop(self) -> None:
        """Take no dropped connection up again (safe from any thread: one flag)."""
        self.stopping = True
        self.retrying = False

    async def close(self) -> None:
        """Stop, and close the connection: :meth:`run` returns ``Ending.CLOSED``."""
        self.stop()
        if self.ws is not None:
            await self.ws.close()

    # --- the seat, as the owner's frames tell it -------------------------------------------

    def welcomed(self, data: dict[str, Any]) -> bool:
        """The server's ``welcome``; returns whether it is a connection taken up again."""
        again = self.token is not None
        self.token = data["token"]
        self.connected = True
        self.retrying = False
        self.credentials = None  # why: the password is needed no more; the token takes over
        self.outbox.extend(self._after_welcome)
        self._after_welcome = []
        return again

    def sat_down(self, data: dict[str, Any]) -> None:
        """The server's ``seated``: keep the seat for a restart (a spectator keeps none)."""
        self.table, self.seat, self.code = data["table"], data["seat"], data.get("code")
        self.saved = None
        self.keep_seat()

    def left_table(self) -> None:
        """The server's ``left``: nothing is left to take back."""
        self.forget_seat()
        self.table, self.seat = None, None

    def listed(self) -> None:
        """The server's ``tables``: when it came for a kept seat's hello, the seat is not kept."""
        if self.saved is not None and self.table is None:
            self.owner.notice(_(NO_LONGER_KEPT).format(table=self.saved.table))
            self.forget_seat(self.saved.table)
            self.saved = None

    def start_afresh(self) -> None:
        """The server does not know this player's token (its data was moved or wiped): cross
        the seat off and say hello as a new player, as a first run would."""
        self.forget_seat(self.saved.table if self.saved is not None else None)
        self.saved = None
        self.token, self.table, self.seat = None, None, None
        self.outbox.append(self.plain_hello())

    # --- seats.json ---------------------------------------------------------------------

    def take_back_from(
        self, seats: SavedSeats, first: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Keep this player's seats in ``seats``; when an earlier run kept one at this server,
        ask for it back in the first hello, unless ``first`` (what the command line asks
        for at once) wants something else. Returns what to send after the hello.
        Call before :meth:`run`.
        """
        self.seats = seats
        saved = seats.find(self.url, self.name)
        self._tell_problems(seats)
        if saved is None or any(
            message != {"type": "join", "table": saved.table} for message in first
        ):
            return first
        self.saved = saved
        self.owner.notice(_(TAKING_BACK).format(table=saved.table))
        return []  # why: the hello itself asks for the seat

    def keep_seat(self) -> None:
        """Write the seat down for a restart (a spectator has no seat to keep)."""
        seats, table, token = self.seats, self.table, self.token
        if seats is None or self.seat is None or table is None or token is None:
            return
        seats.keep(self.url, table, self.name, token)
        self._tell_problems(seats)

    def forget_seat(self, table: str | None = None) -> None:
        """Cross the seat at ``table`` (this one by default) off the seats kept."""
        table = table if table is not None else self.table
        if self.seats is None or table is None:
            return
        self.seats.forget(self.url, table, self.name)
        self._tell_problems(self.seats)

    def _tell_problems(self, seats: SavedSeats) -> None:
        for problem in seats.take_problems():
            self.owner.notice(problem)
