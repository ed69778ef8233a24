"""A line-by-line terminal client for a game server: type a command, hear the table.

Every line it prints is a whole sentence a screen reader reads as it comes; the
server words the events (the same sentences as local play). It holds only what
its seat may know: the last snapshot and the events. Its connection is the one
``join --keys`` uses too (:class:`~fivecrowns.net.client.connection.ServerConnection`,
in this client's event loop): a dropped connection is retried by itself with the
token, asking for every event after the last one it had, so nothing is missed or
said twice. This module keeps the typed commands and the words it prints.

``fivecrowns join --keys`` plays instead with the session and presentations of
``fivecrowns play`` (:mod:`fivecrowns.ui.join_keys`); this client also does
the lobby and watching.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from typing import Any

from fivecrowns.core.cards import parse_card, spoken_name, wild_rank_for_round
from fivecrowns.i18n import N_, join_list, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.connection import Ending, ServerConnection
from fivecrowns.storage.seats import FORGOTTEN, SavedSeats
from fivecrowns.words.seats import seat_words
from fivecrowns.words.text import printable

__all__ = ["HELP", "HELP_RATINGS", "LineClient"]

# Module-level templates: N_ marks them, _ translates them where they are said. The typed
# commands (list, create, d, x 7h ...) are the same letters and words in every language.
# TRANSLATORS: the command words (list, create, join, code, watch, bot, unbot, start, leave,
# d, t, x, g, l, h, s, say, mute, spectators, help, q; and nobody, everyone, on, off) and the
# placeholders in capitals are typed as they are
HELP = N_(
    "Commands: list; create SEATS [LEVEL ...] [private]; join TABLE; code INVITE; "
    "watch TABLE; bot LEVEL; unbot SEAT; start; new for a new game after the last; leave; "
    "d to draw from the stock; t to take the discard; x CARD to discard (x 7h, or x 2 for "
    "the second card of your hand); g CARD to go out; "
    "l to lay down your best melds; h for your hand; s for the scores; "
    "say TEXT to chat; mute spectators, mute everyone or mute nobody to hear chat without "
    "words or with them again; spectators off or on, at your own table, to let its "
    "spectators chat or not; help; q to quit."
)
# TRANSLATORS: the command words (friends, friend, accept, decline, unfriend, block, unblock,
# tell, kick, ban) are typed as they are; the placeholders in capitals are words of your language
HELP_FRIENDS = N_(
    "Logged in to an account: friends for your friends and who is online; friend NAME to ask "
    "someone to be your friend; accept NAME or decline NAME to answer; unfriend NAME; "
    "tell NAME TEXT for a private message (a name of more words: tell NAME: TEXT); "
    "block NAME and unblock NAME. At your own table before the start: kick SEAT to remove "
    "a player, ban SEAT to remove them for good."
)
ASKS_HINT = N_("Type accept {name} or decline {name} to answer.")
NEEDS_NAME = N_("Say whose name, for example {command} Ana.")
NEEDS_TEXT = N_("Say to whom and what, for example tell Ana See you at eight.")
NEEDS_SEAT = N_("Say which seat, for example {command} 2.")
# TRANSLATORS: the command words (record, top, unrated) and the placeholders in capitals are
# typed as they are
HELP_RATINGS = N_(
    "Ratings: record for yours; record NAME for a player's; top for the leaderboard, top PAGE "
    "for another page; games for your rated games, games NAME for a player's, with a PAGE "
    "after it for another page; game NUMBER for one game round by round; create SEATS ... "
    "unrated for a table that moves no rating."
)
CONNECTED = N_("Connected to {url} as {name}.")
NOT_YET = N_("No answer from the server yet; trying again ({attempt} of {tries}).")
# why no reason: aiohttp's own text helps no player; it goes to errors.log
GAVE_UP = N_("Could not reach the server at {url}. Check the address, and that the server runs.")
BACK = N_("Connected again; you hear what you missed.")
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
NEEDS_GAME = N_("Say which game, by its number in the list of games: game a1b2c3d4-1.")
BAD_PAGE = N_("{page} is not a page number; type top, or top 2 for the second page.")
# why both: a private table is not listed, so its number alone never finds it (issue 26, 20)
NO_TABLE_OR_CODE = N_(
    "No table has the number or invite code {given}. A private table is watched or joined "
    "with its invite code."
)

LOGGED_IN = N_(
    "Logged in as {name}. Type logout to log out, or logout all to log out on every device."
)

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
        self._print = say
        self.connection = ServerConnection(url, name, self, tries=tries)
        self.seq = 0
        self.snapshot: dict[str, Any] | None = None
        self.done = False
        self.fallback_code: str | None = None  # --table: tried as an invite code if no table
        self.fallback_watch: str | None = None  # --watch, watch X: the same, to watch
        self._tried_code: str | None = None  # an invite code tried after no table had it
        self._said: tuple[Any, ...] = ()
        self._opened = asyncio.Event()  # typed lines wait for the first connection
        self.failed = False  # the log-in or sign-up was refused: the exit status says so

    def take_back_from(
        self, seats: SavedSeats, first: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Keep this player's seats in ``seats``; when an earlier run kept one at this server,
        ask for it back in the first hello, unless ``first`` (what the command line asks
        for at once) wants something else. Returns what to send after the hello.
        """
        return self.connection.take_back_from(seats, first)

    # --- connection ---------------------------------------------------------------

    async def run(self, lines: asyncio.Queue[str | None], first: list[dict[str, Any]]) -> int:
        """Play until ``q`` or the end of input; returns an exit status."""
        reader = asyncio.create_task(self._read_commands(lines))
        try:
            ending = await self.connection.run(first)
        finally:
            reader.cancel()
        if ending is Ending.TOO_MANY_DROPS:
            self.say(_(TOO_MANY_DROPS).format(count=self.connection.retry.drops))
        return 0 if ending is Ending.CLOSED and not self.failed else 1

    def say(self, text: str) -> None:
        """Print ``text``, cleaned first: what a server sends (a name, a chat line, its own
        sentences) must not drive the player's terminal, even from a hostile server."""
        self._print(printable(text))

    def notice(self, text: str) -> None:
        self.say(text)

    def last_seq(self) -> int:
        return self.seq

    def trying_again(self, attempt: int, tries: int) -> None:
        self.say(_(NOT_YET).format(attempt=attempt, tries=tries))

    def opened(self, again: bool) -> None:
        if again:
            self.reconnected()
            return
        self.say(_(CONNECTED).format(url=self.url, name=self.name))
        if not self.connection.logging_in():  # why: typed lines wait for the log-in's answer
            self._opened.set()

    def dropped(self) -> None:
        minutes = self.connection.retry.minutes
        # why said once, not at each attempt: minutes of attempts would be dozens of lines
        self.say(
            ngettext(
                "The connection dropped; trying again for up to {count} minute.",
                "The connection dropped; trying again for up to {count} minutes.",
                minutes,
            ).format(count=minutes)
        )

    def gave_up_trying(self, again: bool) -> None:
        if not again:
            self.say(_(GAVE_UP).format(url=self.url))
            return
        minutes = self.connection.retry.minutes
        self.say(
            ngettext(
                "The server did not answer for {count} minute, so this client stopped "
                "trying. Start join again to take your seat back while the server keeps it.",
                "The server did not answer for {count} minutes, so this client stopped "
                "trying. Start join again to take your seat back while the server keeps it.",
                minutes,
            ).format(count=minutes)
        )

    def reconnected(self) -> None:
        """Back after a drop: the next snapshot says the hand and the moves again."""
        # why: a move typed while the connection was down was lost, and the player must hear
        # that it is still their turn, even when the table has not moved since
        self._said = ()
        self.say(_(BACK))

    async def _read_commands(self, lines: asyncio.Queue[str | None]) -> None:
        await self._opened.wait()
        for _pass in range(10_000_000):  # why bounded: one pass per typed line
            line = await lines.get()
            if line is None:
                self.done = True
                await self.connection.close()
                return
            for message in self.command(line):
                await self.connection.send(message)
            if self.done:
                await self.connection.close()
                return

    # --- from the server -----------------------------------------------------------

    def receive(self, data: dict[str, Any]) -> None:
        connection = self.connection
        kind = data.get("type")
        refused = kind == "error" and connection.logging_in()
        ended = connection.ended_by(data)
        if ended is not None:
            self.say(ended)
            self.failed = self.failed or refused  # the exit status says a log-in was refused
            self._end()
            return
        if kind == "welcome":
            connection.welcomed(data)
            self._opened.set()
        elif kind == "account":  # the tokens stay unsaid: only the hello needed them
            self.say(_(LOGGED_IN).format(name=data["name"]))
        elif kind == "event":
            if data["seq"] <= self.seq:
                return  # why: already heard before the connection dropped
            self.seq = data["seq"]
            if data["text"]:
                self.say(data["text"])
            if data["kind"] == "game_over":
                connection.forget_seat()  # why: nothing is left to take back
            elif data["kind"] == "new_game":
                connection.keep_seat()
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
            connection.listed()
            self._say_tables(data["tables"])
        elif kind == "seated":
            # why: after a reconnection the server seats us again; a known seat is not said twice
            known = (connection.table, connection.seat)
            if connection.table is not None and known == (data["table"], data["seat"]):
                return
            connection.sat_down(data)
            self.fallback_code = self.fallback_watch = self._tried_code = None  # found
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
        elif kind in ("friends", "presence", "record", "rating") or (
            kind == "answer" and data.get("what") in ("mute_chat", "tell", "kick")
        ):
            self.say(data["text"])
        elif kind in ("leaderboard", "games", "game"):
            for line in data["lines"]:
                self.say(line)
        elif kind == "friend":
            self.say(data["text"])
            if data["what"] == "asks" and data["name"]:
                self.say(_(ASKS_HINT).format(name=data["name"]))
        elif kind == "private_message":
            self.say(data["message"]["said"])
        elif kind == "inbox":
            self.say(data["text"])
            for line in data["messages"]:
                self.say(line["said"])
        elif kind == "left":
            connection.left_table()
            self.snapshot, self.seq = None, 0
            self.say(_(LEFT))
        elif kind == "error":
            if data["code"] == "bad_token":
                # why: the server's data was moved or wiped; without this every later command
                # got "Say hello first" and the player was stuck
                connection.start_afresh()
                self.snapshot, self.seq = None, 0
                self.say(_(FORGOTTEN))
                return
            if data["code"] == "no_table" and self._try_as_code():
                return
            if data["code"] == "no_table" and self._tried_code is not None:
                self.say(_(NO_TABLE_OR_CODE).format(given=self._tried_code))
                self._tried_code = None
                return
            self.say(data["text"])

    def _end(self) -> None:
        """The server ends this player's connection (or refused it): stop, take nothing up
        again, and let the typed lines end."""
        self.done = True
        self.connection.stop()
        self._opened.set()

    def _try_as_code(self) -> bool:
        """No table has the number given to join or watch: try it as an invite code."""
        for verb, code in (("join", self.fallback_code), ("watch", self.fallback_watch)):
            if code is not None:
                self.connection.outbox.append({"type": verb, "code": code})
                self.fallback_code = self.fallback_watch = None
                self._tried_code = code
                return True
        return False

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

    def _friend_command(
        self, verb: str, typed: str, rest: list[str], line: str
    ) -> list[dict[str, Any]]:
        """The message for a friends command (``friends``, ``friend Ana`` ...), or a sentence
        saying what it needs."""
        if verb in ("kick", "ban"):
            if not (rest and rest[0].isdigit()):
                self.say(_(NEEDS_SEAT).format(command=typed))
                return []
            return [{"type": "kick", "seat": int(rest[0]) - 1, "ban": verb == "ban"}]
        message = dict(_FRIEND_VERBS[verb])
        if verb == "friends":
            return [message]
        if verb == "tell":
            # why the colon: a name may have several words ("tell Ana Maria: hello")
            after = line.split(None, 1)[1] if len(rest) >= 2 else ""
            name, colon, text = after.partition(":")
            if not colon or not name.strip():
                name, _space, text = after.partition(" ")
            if not name.strip() or not text.strip():
                self.say(_(NEEDS_TEXT))
                return []
            message.update(name=" ".join(name.split()), text=text.strip())
            return [message]
        if not rest:
            self.say(_(NEEDS_NAME).format(command=typed))
            return []
        message["name"] = " ".join(rest)
        return [message]

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
            self.say(_(HELP_FRIENDS))
            self.say(_(HELP_RATINGS))
            return []
        if verb in _FRIEND_VERBS or verb in ("kick", "ban"):
            return self._friend_command(verb, words[0], rest, line)
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
        if verb == "record":
            return [{"type": "record", "player": " ".join(rest)} if rest else {"type": "record"}]
        if verb == "top":
            if rest and not (rest[0].isdigit() and int(rest[0]) >= 1):
                self.say(_(BAD_PAGE).format(page=rest[0]))
                return []
            return [{"type": "leaderboard", "page": int(rest[0]) if rest else 1}]
        if verb == "games":
            page = int(rest.pop()) if rest and rest[-1].isdigit() and int(rest[-1]) >= 1 else 1
            asked: dict[str, Any] = {"type": "games", "page": page}
            if rest:
                asked["player"] = " ".join(rest)
            return [asked]
        if verb == "game":
            if not rest:
                self.say(_(NEEDS_GAME))
                return []
            return [{"type": "game", "id": rest[0]}]
        if verb == "logout":
            return [{"type": "log_out", "everywhere": rest[:1] == ["all"]}]
        if verb == "say" and rest:
            return [{"type": "chat", "text": " ".join(rest)}]
        if verb == "mute" and rest and rest[0] in ("nobody", "spectators", "everyone"):
            return [{"type": "mute_chat", "who": rest[0]}]
        if verb == "spectators" and rest and rest[0] in ("on", "off"):
            return [{"type": "spectator_chat", "allowed": rest[0] == "on"}]
        if verb in ("join", "watch") and rest:
            if verb == "watch":  # why: a private table is watched by its invite code
                self.fallback_watch = " ".join(rest)
            return [{"type": verb, "table": rest[0]}]
        if verb == "code" and rest:  # why every word: "code 7kq2m xw9rd" is one code
            return [{"type": "join", "code": " ".join(rest)}]
        if verb == "bot" and rest:
            return [{"type": "add_bot", "level": rest[0]}]
        if verb == "unbot" and rest and rest[0].isdigit():
            return [{"type": "remove_bot", "seat": int(rest[0]) - 1}]
        if verb == "create":
            seats = int(rest[0]) if rest and rest[0].isdigit() else 4
            levels = [word for word in rest[1:] if word not in ("private", "unrated")]
            made: dict[str, Any] = {
                "type": "create_table",
                "seats": seats,
                "bots": levels,
                "private": "private" in rest,
            }
            if "unrated" in rest:  # why only then: a server older than ratings refuses the field
                made["rated"] = False
            return [made]
        self.say(_(UNKNOWN).format(command=words[0]))
        return []


#: A typed friends command (with a name after it) and the message it sends.
_FRIEND_VERBS: dict[str, dict[str, Any]] = {
    "friends": {"type": "friends"},
    "friend": {"type": "friend_ask"},
    "accept": {"type": "friend_answer", "accept": True},
    "decline": {"type": "friend_answer", "accept": False},
    "unfriend": {"type": "friend_remove"},
    "block": {"type": "block"},
    "unblock": {"type": "unblock"},
    "tell": {"type": "tell"},
}


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
