"""A line-by-line terminal client for a game server: type a command, hear the table.

Every line it prints is a whole sentence a screen reader reads as it comes; the
server words the events (the same sentences as local play). It holds only what
its seat may know: the last snapshot and the events. A dropped connection is
retried by itself with the token, asking for every event after the last one it
had, so nothing is missed or said twice.

``fivecrowns join --keys`` plays instead with the session and presentations of
``fivecrowns play`` (:mod:`fivecrowns.ui.join_keys`); this client also does
the lobby and watching.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from fivecrowns.core.cards import parse_card, spoken_name, wild_rank_for_round
from fivecrowns.i18n import N_, current_language, join_list, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.link import read_frame
from fivecrowns.net.client.retry import RECONNECT, RetryPolicy
from fivecrowns.net.protocol import ProtocolError
from fivecrowns.storage.seats import NO_LONGER_KEPT, TAKING_BACK, SavedSeat, SavedSeats
from fivecrowns.words.seats import seat_words

__all__ = ["HELP", "LineClient"]

# Module-level templates: N_ marks them, _ translates them where they are said. The typed
# commands (list, create, d, x 7h ...) are the same letters and words in every language.
# TRANSLATORS: the command words (list, create, join, code, watch, bot, unbot, start, leave,
# d, t, x, g, l, h, s, say, help, q) and the placeholders in capitals are typed as they are
HELP = N_(
    "Commands: list; create SEATS [LEVEL ...] [private]; join TABLE; code INVITE; "
    "watch TABLE; bot LEVEL; unbot SEAT; start; new for a new game after the last; leave; "
    "d to draw from the stock; t to take the discard; x CARD to discard (x 7h, or x 2 for "
    "the second card of your hand); g CARD to go out; "
    "l to lay down your best melds; h for your hand; s for the scores; "
    "say TEXT to chat; help; q to quit."
)
CONNECTED = N_("Connected to {url} as {name}.")
NOT_YET = N_("No answer from the server yet; trying again ({attempt} of {tries}).")
# why no reason: aiohttp's own text helps no player; it goes to errors.log
GAVE_UP = N_("Could not reach the server at {url}. Check the address, and that the server runs.")
BACK = N_("Connected again; you hear what you missed.")
FORGOTTEN = N_("The server no longer knows your seat; joining again as a new player.")
TOO_MANY_DROPS = N_("The connection dropped {count} times; stopping. Start join again to go on.")
NO_TABLES = N_("No open tables. Type create 4 medium medium to make one.")
TABLE_WAITING = N_("Table {id}: {players}, waiting to start.")
TABLE_PLAYING = N_("Table {id}: {players}, round {round}.")
EMPTY_SEAT = N_("empty seat")
SEATED = N_("You sit in seat {seat} at table {table}.")
SEATED_CODE = N_("You sit in seat {seat} at table {table}; the invite code is {code}.")
WATCHING = N_("You are watching table {table}.")
LEFT = N_("You left the table.")
HAND = N_("Your hand: {cards}.")
NO_HAND = N_("You have no hand now.")
YOUR_MOVES = N_("You can: {moves}.")
SCORES = N_("Round {round}. Totals: {totals}.")
NOT_STARTED = N_("The game has not started.")
# TRANSLATORS: one player's total in the scores, as in "Ana 25"
SCORE_ITEM = N_("{name} {points}")
UNKNOWN = N_("{command} is not a command here. Type help for the list.")
NEEDS_CARD = N_("Say which card, for example x 7h.")
UNREADABLE = N_("The server sent a message this client cannot read, so it was left out ({why}).")

# TRANSLATORS: the letters and CARD are what the player types
_MOVE_WORDS = {
    "draw_stock": N_("d, draw from the stock"),
    "take_discard": N_("t, take the discard"),
    "discard": N_("x CARD, discard"),
    "go_out": N_("g CARD, go out"),
    "lay_down": N_("l, lay down"),
}


class LineClient:
    """Reads commands from ``read_line`` and prints with ``say``; one server at ``url``."""

    def __init__(
        self,
        url: str,
        name: str,
        say: Callable[[str], None] = print,
        tries: int = 10,
    ) -> None:
        self.url = url
        self.name = name
        self.say = say
        self.tries = tries
        self.retry = RECONNECT  # how a dropped connection is tried again (shared by clients)
        # why: reconnecting after a drop is normal, but an endless loop is not
        self.max_connections = self.retry.drops
        self.table: str | None = None
        self.token: str | None = None
        self.seq = 0
        self.snapshot: dict[str, Any] | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.seat: int | None = None
        self.done = False
        self.fallback_code: str | None = None  # --table: tried as an invite code if no table
        self.outbox: list[dict[str, Any]] = []
        self._said: tuple[Any, ...] = ()
        #: Where this player's seats are kept for a restart (None: not kept; tests of parts).
        self.seats: SavedSeats | None = None
        #: A seat kept by an earlier run, asked back in the first hello (cleared once answered).
        self.saved: SavedSeat | None = None

    def take_back_from(
        self, seats: SavedSeats, first: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Keep this player's seats in ``seats``; when an earlier run kept one at this server,
        ask for it back in the first hello, unless ``first`` (what the command line asks
        for at once) wants something else. Returns what to send after the hello.
        """
        self.seats = seats
        saved = seats.find(self.url, self.name)
        for problem in seats.take_problems():
            self.say(problem)
        if saved is None or any(
            message != {"type": "join", "table": saved.table} for message in first
        ):
            return first
        self.saved = saved
        self.say(_(TAKING_BACK).format(table=saved.table))
        return []  # why: the hello itself asks for the seat

    # --- connection ---------------------------------------------------------------

    async def run(self, lines: asyncio.Queue[str | None], first: list[dict[str, Any]]) -> int:
        """Play until ``q`` or the end of input; returns an exit status."""
        async with aiohttp.ClientSession() as session:
            if not await self._connect(session, first_time=True):
                return 1
            for message in first:
                await self._send(message)
            reader = asyncio.create_task(self._read_commands(lines))
            try:
                # why bounded: each pass is one connection; failures in a row are bounded in
                # _connect, this bounds the drops of a whole run
                for _pass in range(self.max_connections):
                    await self._listen()
                    if self.done:
                        return 0
                    if not await self._connect(session, first_time=False):
                        return 1
                self.say(_(TOO_MANY_DROPS).format(count=self.max_connections))
                return 1
            finally:
                reader.cancel()

    async def _connect(self, session: aiohttp.ClientSession, first_time: bool) -> bool:
        """One connection and its hello. The first one gives up after ``tries`` attempts (a
        wrong address is said soon); one taken up again follows the shared policy
        (:data:`~fivecrowns.net.client.retry.RECONNECT`), past the server's grace for a seat."""
        policy: RetryPolicy = self.retry
        attempts = self.tries if first_time else policy.attempts
        deadline = time.monotonic() + policy.window
        if not first_time:
            # why said once, not at each attempt: minutes of attempts would be dozens of lines
            self.say(
                ngettext(
                    "The connection dropped; trying again for up to {count} minute.",
                    "The connection dropped; trying again for up to {count} minutes.",
                    policy.minutes,
                ).format(count=policy.minutes)
            )
        failure: BaseException | None = None
        for attempt in range(1, attempts + 1):
            if first_time and attempt > 1:
                self.say(_(NOT_YET).format(attempt=attempt, tries=attempts))
            try:
                self.ws = await session.ws_connect(self.url, heartbeat=20.0)
                hello = self._hello()
                if self.token is not None:
                    hello.update(token=self.token, last_seq=self.seq)
                elif self.saved is not None:
                    # why no last_seq: a restarted client wants the seat now, not the whole log
                    hello.update(token=self.saved.token)
                await self._send(hello)
                if first_time:
                    self.say(_(CONNECTED).format(url=self.url, name=self.name))
                else:
                    self.reconnected()
                return True
            except (aiohttp.ClientError, OSError) as error:
                failure = error
                if not first_time and time.monotonic() >= deadline:
                    break
                await asyncio.sleep(policy.pause(attempt))
        if failure is not None:
            from fivecrowns.storage.errorlog import log_error

            log_error(f"could not reach the server at {self.url}", failure)
        if first_time:
            self.say(_(GAVE_UP).format(url=self.url))
        else:
            self.say(
                ngettext(
                    "The server did not answer for {count} minute, so this client stopped "
                    "trying. Start join again to take your seat back while the server keeps it.",
                    "The server did not answer for {count} minutes, so this client stopped "
                    "trying. Start join again to take your seat back while the server keeps it.",
                    policy.minutes,
                ).format(count=policy.minutes)
            )
        return False

    def _hello(self) -> dict[str, Any]:
        """The hello, naming the player's language: the server words this seat's sentences in it."""
        return {"type": "hello", "v": 1, "name": self.name, "language": current_language()}

    def reconnected(self) -> None:
        """Back after a drop: the next snapshot says the hand and the moves again."""
        # why: a move typed while the connection was down was lost, and the player must hear
        # that it is still their turn, even when the table has not moved since
        self._said = ()
        self.say(_(BACK))

    async def _listen(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            try:
                data = read_frame(message.data)
            except ProtocolError as error:  # why: one sentence, and never stop listening
                self.say(_(UNREADABLE).format(why=str(error)[:80]))
                continue
            self.receive(data)
            while self.outbox:
                await self._send(self.outbox.pop(0))
            if self.done:
                await self.ws.close()
                return

    async def _send(self, message: dict[str, Any]) -> None:
        if self.ws is None or self.ws.closed:
            return
        # why suppress: a send on a dropped connection is lost; the listener reconnects
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            await self.ws.send_str(json.dumps(message))

    async def _read_commands(self, lines: asyncio.Queue[str | None]) -> None:
        for _pass in range(10_000_000):  # why bounded: one pass per typed line
            line = await lines.get()
            if line is None:
                self.done = True
                if self.ws is not None:
                    await self.ws.close()
                return
            for message in self.command(line):
                await self._send(message)
            if self.done and self.ws is not None:
                await self.ws.close()
                return

    # --- from the server -----------------------------------------------------------

    def receive(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "welcome":
            self.token = data["token"]
        elif kind == "event":
            if data["seq"] <= self.seq:
                return  # why: already heard before the connection dropped
            self.seq = data["seq"]
            if data["text"]:
                self.say(data["text"])
            if data["kind"] == "game_over":
                self._forget_seat()  # why: nothing is left to take back
            elif data["kind"] == "new_game":
                self._keep_seat()
        elif kind == "snapshot":
            self.snapshot = data
            self.seq = max(self.seq, data["seq"])
            view = data["view"] or {}
            moment = (view.get("round"), view.get("phase"), view.get("hand"), bool(data["legal"]))
            # why: a snapshot after chat or a seat change repeats nothing already said
            if data["legal"] and moment != self._said:
                self.say(self._hand_words())
                self.say(self._moves_words())
            self._said = moment
        elif kind == "tables":
            if self.saved is not None and self.table is None:
                # why: the server answered the kept seat's hello with the lobby
                self.say(_(NO_LONGER_KEPT).format(table=self.saved.table))
                self._forget_seat(self.saved.table)
                self.saved = None
            self._say_tables(data["tables"])
        elif kind == "seated":
            # why: after a reconnection the server seats us again; a known seat is not said twice
            if self.table is not None and (self.table, self.seat) == (data["table"], data["seat"]):
                return
            self.seat, self.table = data["seat"], data["table"]
            self.saved = None
            self._keep_seat()
            if data["seat"] is None:
                self.say(_(WATCHING).format(table=data["table"]))
            elif data["code"]:
                self.say(
                    _(SEATED_CODE).format(
                        seat=data["seat"] + 1, table=data["table"], code=data["code"]
                    )
                )
            else:
                self.say(_(SEATED).format(seat=data["seat"] + 1, table=data["table"]))
        elif kind == "left":
            self._forget_seat()
            self.seat, self.table, self.snapshot, self.seq = None, None, None, 0
            self.say(_(LEFT))
        elif kind == "error":
            if data["code"] == "bad_token":
                # why: the server's data was moved or wiped; without this every later command
                # got "Say hello first" and the player was stuck
                self._forget_seat(self.saved.table if self.saved is not None else None)
                self.saved = None
                self.token, self.seat, self.table = None, None, None
                self.snapshot, self.seq = None, 0
                self.say(_(FORGOTTEN))
                self.outbox.append(self._hello())
                return
            if data["code"] == "no_table" and self.fallback_code is not None:
                self.outbox.append({"type": "join", "code": self.fallback_code})
                self.fallback_code = None
                return
            self.say(data["text"])

    def _keep_seat(self) -> None:
        """Write the seat down for a restart (a spectator has no seat to keep)."""
        if self.seats is None or None in (self.seat, self.table, self.token):
            return
        assert self.table is not None and self.token is not None
        self.seats.keep(self.url, self.table, self.name, self.token)
        for problem in self.seats.take_problems():
            self.say(problem)

    def _forget_seat(self, table: str | None = None) -> None:
        """Cross the seat at ``table`` (this one by default) off the seats kept."""
        table = table if table is not None else self.table
        if self.seats is None or table is None:
            return
        self.seats.forget(self.url, table, self.name)
        for problem in self.seats.take_problems():
            self.say(problem)

    def _say_tables(self, tables: list[dict[str, Any]]) -> None:
        if not tables:
            self.say(_(NO_TABLES))
            return
        for info in tables:
            # why the lobby's words: who left, whose connection dropped, and which seats
            # computer players take, in the words of ``join --keys``
            empty = _(EMPTY_SEAT)
            names = join_list([seat_words(seat, empty) for seat in info["seats"]])
            line = TABLE_PLAYING if info["started"] else TABLE_WAITING
            self.say(_(line).format(id=info["id"], players=names, round=info["round"]))

    def _hand_words(self) -> str:
        view = (self.snapshot or {}).get("view") or {}
        hand = view.get("hand")
        if not hand:
            return _(NO_HAND)
        wild = wild_rank_for_round(view["round"])
        return _(HAND).format(cards=join_list([spoken_name(parse_card(t), wild) for t in hand]))

    def _moves_words(self) -> str:
        legal = (self.snapshot or {}).get("legal") or []
        kinds = list(dict.fromkeys(move["move"] for move in legal))
        return _(YOUR_MOVES).format(moves="; ".join(_(_MOVE_WORDS[kind]) for kind in kinds))

    # --- typed commands -------------------------------------------------------------

    def command(self, line: str) -> list[dict[str, Any]]:
        """The messages for one typed line (empty when it is answered locally)."""
        words = line.split()
        if not words:
            return []
        verb, rest = words[0].lower(), words[1:]
        seq = self.seq
        if verb in ("q", "quit"):
            self.done = True
            return []
        if verb == "help":
            self.say(_(HELP))
            return []
        if verb == "h":
            self.say(self._hand_words())
            return []
        if verb == "s":
            view = (self.snapshot or {}).get("view")
            if view is None:
                self.say(_(NOT_STARTED))
            else:
                totals = join_list(
                    [
                        _(SCORE_ITEM).format(name=name, points=points)
                        for name, points in zip(view["players"], view["totals"], strict=True)
                    ]
                )
                self.say(_(SCORES).format(round=view["round"], totals=totals))
            return []
        simple: dict[str, dict[str, Any]] = {
            "list": {"type": "list_tables"},
            "start": {"type": "start"},
            "new": {"type": "new_game"},
            "leave": {"type": "leave"},
            "d": {"type": "act", "action": "draw_stock", "args": {}, "seq": seq},
            "t": {"type": "act", "action": "take_discard", "args": {}, "seq": seq},
            "l": {"type": "act", "action": "lay_down", "args": {}, "seq": seq},
        }
        if verb in simple:
            return [simple[verb]]
        if verb in ("x", "g"):
            if not rest:
                self.say(_(NEEDS_CARD))
                return []
            action = "discard" if verb == "x" else "go_out"
            card = rest[0]
            hand = ((self.snapshot or {}).get("view") or {}).get("hand") or []
            if card.isdigit() and 1 <= int(card) <= len(hand):  # a place in the hand: x 1
                card = hand[int(card) - 1]
            return [{"type": "act", "action": action, "args": {"card": card}, "seq": seq}]
        if verb == "say" and rest:
            return [{"type": "chat", "text": " ".join(rest)}]
        if verb in ("join", "watch") and rest:
            return [{"type": verb, "table": rest[0]}]
        if verb == "code" and rest:
            return [{"type": "join", "code": rest[0]}]
        if verb == "bot" and rest:
            return [{"type": "add_bot", "level": rest[0]}]
        if verb == "unbot" and rest and rest[0].isdigit():
            return [{"type": "remove_bot", "seat": int(rest[0]) - 1}]
        if verb == "create":
            seats = int(rest[0]) if rest and rest[0].isdigit() else 4
            levels = [word for word in rest[1:] if word != "private"]
            return [
                {
                    "type": "create_table",
                    "seats": seats,
                    "bots": levels,
                    "private": "private" in rest,
                }
            ]
        self.say(_(UNKNOWN).format(command=words[0]))
        return []


def stdin_lines(queue: asyncio.Queue[str | None]) -> None:
    """Typed lines into ``queue`` (``None`` at the end of input), from a daemon thread.

    why a daemon thread, not asyncio.to_thread: a thread blocked in readline would keep
    asyncio.run from returning after ``q`` until the next line was typed.
    """
    loop = asyncio.get_running_loop()

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, name="stdin", daemon=True).start()
