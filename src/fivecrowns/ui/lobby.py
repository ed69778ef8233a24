"""The lobby of ``fivecrowns join --keys``: tables, creating, joining and watching by key.

A :class:`Lobby` is a command layer like the game's session (the same Escape
menu, help list, message history, speech and sounds) over one
:class:`~fivecrowns.net.client.websocket.WebSocketLink`. It serves two screens:

- the lobby itself: the open tables (number, players, round), Up and Down or a
  number key to move through them, J (or Enter) to join, W to watch, I to type an
  invite code, C to create a table one list at a time (seats, computer players,
  their level, public or private);
- a table before its game starts: who sits there, what happens there (people
  sitting down, chat), and for the creator computer players and the start.

When the game starts, :mod:`fivecrowns.ui.join_keys` hands the keyboard to the
game's session; leaving the table comes back here. Every sentence is a whole
sentence with named placeholders (issue 14 translates them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from fivecrowns.ai.loader import LEVELS, level_name
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_, join_list, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.link import table_cue
from fivecrowns.net.client.websocket import GAME_EVENTS, WebSocketLink
from fivecrowns.ui.commands import CommandLayer, MenuItem, Speaker
from fivecrowns.ui.keymap import GROUPS, LOBBY_GROUPS, Action, Keymap
from fivecrowns.ui.lobby_ratings import RatingKeys
from fivecrowns.ui.model import ListScreen
from fivecrowns.words.seats import seat_words

__all__ = ["Lobby", "render_lobby", "table_words"]

WELCOME = N_(
    "The lobby of {url}. Press {list} to hear the tables, {create} to create one, "
    "{help} for help, Escape for the menu."
)
NO_TABLES = N_(
    "No open tables. Press {create} to create one, or {code} to join a private table "
    "by its invite code."
)
TABLE_WAITING = N_("Table {table}, waiting to start: {players}.")
TABLE_PLAYING = N_("Table {table}, round {round} of 11: {players}.")
EMPTY_SEAT = N_("an empty seat")
NO_TABLE_HERE = N_(
    "There is no table here. Press {list} to hear the tables, {create} to create one."
)
NOT_IN_LOBBY = N_("You are at a table. Press {quit} to leave it first.")
NOT_AT_TABLE = N_("You are in the lobby, not at a table. Press {join} to join one.")
SEATED = N_("You sit in seat {seat} at table {table}. Press {seats} to hear who sits here.")
SEATED_CODE = N_(
    "You sit in seat {seat} at table {table}. The invite code is {code}: give it to "
    "the players you invite."
)
CREATOR_TIP = N_(
    "You made this table: press {bot} to add a computer player, {start} to start "
    "once every seat is taken."
)
WATCHING = N_("You are watching table {table}. The game is told as it happens; you have no hand.")
LEFT = N_("You left the table. You are in the lobby.")
SEATS_WORDS = N_("Table {table}, {count} seats: {seats}.")
SEATS_COMING = N_("Table {table}: the seats are still on their way from the server.")
SEATS_WAIT = 2.0  # seconds T waits for the table's first snapshot, which follows "seated"
SEAT_WORDS = N_("seat {number}, {who}")
YOU = N_("{name}, you")
CODE_WORDS = N_("The invite code is {code}.")
NOT_CREATOR_HERE = N_("Only the player who made this table can do that.")
NO_BOTS = N_("There is no computer player at this table.")
TYPE_CODE = N_("Invite code: type it, then Enter to join or Escape to cancel.")
CODE_PROMPT = N_("Invite code: {text}")
CHAT_OPEN = N_("Say to the table: type your line, then Enter to send or Escape to cancel.")
CHAT_PROMPT = N_("Say to the table: {text}")
CANCELLED = N_("Nothing sent.")
EMPTY_LINE = N_("There is nothing to send: type a line first, or Escape to cancel.")
QUIT_QUESTION = N_("Quit fivecrowns join? {yes} to quit, {no} to stay in the lobby.")
GOODBYE = N_("Goodbye.")
STAY = N_("Back to the lobby.")
SENT = N_("Asked the server; the answer comes in a moment.")
#: Accounts (issue 28): the log-in is said once, with the key that logs out.
LOGGED_IN = N_("Logged in as {name}. In the lobby, {log_out} logs out.")
NOT_LOGGED_IN = N_(
    "You are playing as a guest. To log in, start join again with --log-in, or --sign-up to "
    "make an account."
)
LOG_OUT_TITLE = N_("Log out")
LOG_OUT_HERE = N_("Log out here")
LOG_OUT_EVERYWHERE = N_("Log out on every device")
#: The create steps, one list each.
SEATS_TITLE = N_("Create a table: the number of seats")
SEATS_ITEM = N_("{count} seats")
BOTS_TITLE = N_("The number of computer players; the other seats wait for people")
NO_BOTS_ITEM = N_("No computer players")
LEVEL_TITLE = N_("The level of the computer players; at the table, {bot} adds others")
LEVEL_ITEM = N_("Level {level}")
PRIVACY_TITLE = N_("Public or private table")
PUBLIC_ITEM = N_("Public: listed in the lobby")
PRIVATE_ITEM = N_("Private: joined only with its invite code")
ADD_BOT_TITLE = N_("The level of the computer player to add")
REMOVE_BOT_TITLE = N_("The computer player to remove")
REMOVE_BOT_ITEM = N_("Seat {number}, {name}")
REMOVE_PLAYER_TITLE = N_("The player to remove")
REMOVE_PLAYER_ITEM = N_("Remove {name}, seat {number}")
BAN_PLAYER_ITEM = N_("Remove {name}, seat {number}, and let them not sit here again")
NO_PLAYERS = N_("There is no other player at this table.")
#: Menu items of the lobby that name a table.
JOIN_ITEM = N_("Join table {table}: {keys}")
WATCH_ITEM = N_("Watch table {table}: {keys}")
TABLE_ITEM = N_("{item}. {table}")
LEAVE_ITEM = N_("Leave the table, back to the lobby: {keys}")
#: The full screen's lines.
SCREEN_TITLE = N_("Five Crowns. The lobby of {url}. You are {name}.")
SCREEN_TABLE_TITLE = N_("Five Crowns. Table {table}. You are {name}.")
CHAT_LONGEST = 300
CODE_LONGEST = 40


def _seat_words(seat: dict[str, Any]) -> str:
    return seat_words(seat, _(EMPTY_SEAT))


def table_words(info: dict[str, Any]) -> str:
    """One table of the list as a sentence, its name first.

    Why the server's id and not the place in the list: the place changes as tables come
    and go, the id is what every other sentence, ``--table`` and ``--watch`` use.

    >>> table_words({"id": "71f0a1e1", "seats": [{"kind": "human", "name": "Ann"},
    ...              {"kind": "empty"}], "started": False, "round": 0})
    'Table 71f0a1e1, waiting to start: Ann and an empty seat.'
    """
    players = join_list([_seat_words(seat) for seat in info.get("seats", ())])
    table = str(info.get("id", ""))
    if info.get("started"):
        return _(TABLE_PLAYING).format(table=table, round=info.get("round", 0), players=players)
    return _(TABLE_WAITING).format(table=table, players=players)


@dataclass
class _Typing:
    """A line being typed: an invite code or a chat line."""

    prompt: str  # a template with {text}
    text: str
    longest: int
    done: Callable[[str], None]


class Lobby(RatingKeys, CommandLayer):
    """The lobby and a table before its game, at one keyboard, over one link."""

    def __init__(
        self,
        link: WebSocketLink,
        output: Speaker,
        keymap: Keymap,
        verbosity: str = "normal",
        *,
        auto_start: bool = False,
        fallback_code: str | None = None,
        fallback_watch: str | None = None,
    ) -> None:
        super().__init__()
        self.link = link
        self.output = output
        self.keymap = keymap
        self.verbosity = verbosity
        self.delay = 0.0
        self.focus = 0
        self.typing: _Typing | None = None
        #: (table, seat) as last told; None in the lobby.
        self.at: tuple[str, int | None] | None = None
        self.told_seq = 0  # the table's events said so far while it waits
        self.tables_told = 0  # table lists heard so far
        #: Table lists to say as they come: the first one, and each asked for with L.
        self.lists_wanted = 1
        self.auto_start = auto_start  # --start: the creator's table starts once full
        self.start_sent = False
        self.fallback_code = fallback_code  # --table: tried as an invite code if no table has it
        self.fallback_watch = fallback_watch  # --watch: likewise, to watch (a private table)
        self.account_told = False  # "Logged in as" was said

    # --- what the command layer asks ---------------------------------------------------

    def is_over(self) -> bool:
        return False

    def save_now(self) -> None:
        """Nothing is saved here: the server keeps the tables."""

    def bot_due(self) -> bool:
        return False

    def step_bot(self) -> None:
        return None

    @property
    def tables(self) -> list[dict[str, Any]]:
        return self.link.tables

    def _keys(self, name: str) -> str:
        return self.keymap.display_keys(name)

    def start(self) -> None:
        self.say(
            _(WELCOME).format(
                url=self.link.url,
                list=self._keys("tables"),
                create=self._keys("create"),
                help=self._keys("help"),
            )
        )

    # --- news from the server -------------------------------------------------------------

    def receive_news(self) -> None:
        """Tell what came: errors, seats, table events before the start, new table lists."""
        link = self.link
        if link.account is not None and not self.account_told:
            self.account_told = True
            self.say(_(LOGGED_IN).format(name=link.account, log_out=self._keys("log_out")))
        for text in link.take_notices():
            self.say(text)
        if link.ended:  # why quit: logged out (or replaced); nothing more can be asked here
            self.exit_requested = True
            return
        for error in link.take_errors():
            if error.get("code") == "no_table" and link.table is None and self._try_as_code():
                continue
            self.refuse(str(error.get("text", "")))
        now = None if link.table is None else (link.table, link.seat)
        if now != self.at:
            self._moved(now)
        if self.at is not None:
            self._table_news()
        elif link.tables_heard != self.tables_told:
            self.tables_told = link.tables_heard
            self.focus = max(0, min(self.focus, len(self.tables) - 1))
            if self.lists_wanted > 0:
                # why a count: the list that follows the hello may come after an L is pressed
                self.lists_wanted -= 1
                self._say_tables()

    def _try_as_code(self) -> bool:
        """No table has the number given to join or watch: try it as an invite code."""
        for verb, code in (("join", self.fallback_code), ("watch", self.fallback_watch)):
            if code:
                self.link.send({"type": verb, "code": code})
                self.fallback_code = self.fallback_watch = None
                return True
        return False

    def _moved(self, now: tuple[str, int | None] | None) -> None:
        self.list_state = None
        self.typing = None
        was = self.at
        self.at = now
        self.told_seq = 0
        self.start_sent = False
        if now is None:
            if was is not None:
                self.say(_(LEFT))
            self.lists_wanted += 1
            self.link.send({"type": "list_tables"})
            return
        table, seat = now
        if seat is not None and self.link.started:
            return  # why: back in a game in progress, the game tells where it is (issue 26, 17)
        if seat is None:
            self.say(_(WATCHING).format(table=table))
        elif self.link.code:
            self.say(_(SEATED_CODE).format(seat=seat + 1, table=table, code=self.link.code))
        else:
            self.say(_(SEATED).format(seat=seat + 1, table=table, seats=self._keys("seats")))
        if seat is not None and self.link.creator:
            self.say(_(CREATOR_TIP).format(bot=self._keys("add_bot"), start=self._keys("start")))

    def _table_news(self) -> None:
        link = self.link
        if link.catching_up:
            return  # why: a seat taken back hears where the game is, not its whole story
        if link.came_back_at is not None:
            self.told_seq = max(self.told_seq, link.came_back_at)
        for frame in link.events_since(0, self.told_seq):
            self.told_seq = int(frame["seq"])
            # why not game events: the game's session tells those once it has the keyboard
            if frame.get("text") and frame.get("kind") not in GAME_EVENTS:
                self.say(str(frame["text"]), sound=table_cue(frame))
        shot = link.last_snapshot
        full = shot is not None and all(seat["kind"] != "empty" for seat in shot["seats"])
        if self.auto_start and link.creator and full and not self.start_sent:
            link.send({"type": "start"})
            self.start_sent = True

    def game_ready(self) -> bool:
        """The game at this table has started: the game's session takes the keyboard."""
        shot = self.link.last_snapshot
        if self.link.catching_up:  # why: the game is told once its earlier events are here
            return False
        return self.at is not None and shot is not None and shot.get("view") is not None

    # --- keys ------------------------------------------------------------------------------

    def press(self, key: str) -> None:
        if self.typing is not None:
            self._type_key(key)
            return
        super().press(key)

    def _type_key(self, key: str) -> None:
        typing = self.typing
        assert typing is not None
        if key == "escape":
            self.typing = None
            self.answer(_(CANCELLED))
        elif key == "c-m":
            text = " ".join(typing.text.split())
            if not text:
                self.refuse(_(EMPTY_LINE))
                return
            self.typing = None
            typing.done(text)
        elif key in ("c-h", "backspace"):
            before, typing.text = typing.text, typing.text[:-1]
            self.echo_typing(before, typing.text)
        elif len(key) == 1 and key.isprintable() and len(typing.text) < typing.longest:
            typing.text += key
            self.echo_typing(typing.text[:-1], typing.text)

    def overlay(self) -> ListScreen | None:
        if self.typing is not None:
            return ListScreen(_(self.typing.prompt).format(text=self.typing.text), (), 0)
        return super().overlay()

    def help_lines(self) -> list[str]:
        groups = {
            **LOBBY_GROUPS,
            **{name: GROUPS[name] for name in ("messages", "game", "menu", "confirm")},
        }
        return [*self.keymap.help_lines(groups), self.caps_lock_help()]

    def available_actions(self) -> list[Action]:
        if self.at is None:
            names = ["tables", "join", "watch", "invite_code", "create"]
            names += ["my_record", "player_record", "leaderboard", "my_games", "read_game"]
            if self.link.account is not None:
                names.append("log_out")
        else:
            names = ["seats"]
            if self.at[1] is not None and self.link.creator:
                names += ["start", "add_bot", "remove_bot", "remove_player"]
            names.append("chat")
        names += ["repeat", "verbosity", "settings", "help", "quit"]
        return [self.keymap.get(name) for name in names]

    def menu_items(self, action: Action) -> list[MenuItem]:
        if action.name in ("join", "watch"):
            template = _(JOIN_ITEM) if action.name == "join" else _(WATCH_ITEM)
            keys = self._keys(action.name)
            return [
                (
                    _(TABLE_ITEM).format(
                        item=template.format(table=info.get("id", ""), keys=keys),
                        table=table_words(info),
                    ),
                    functools.partial(self._go, action.name, index),
                )
                for index, info in enumerate(self.tables)
            ]
        if action.name == "quit" and self.at is not None:
            return [(_(LEAVE_ITEM).format(keys=self._keys("quit")), self._leave)]
        return super().menu_items(action)

    # --- the lobby's actions ----------------------------------------------------------------

    def _in_lobby(self) -> None:
        if self.at is not None:
            raise FiveCrownsError(_(NOT_IN_LOBBY).format(quit=self._keys("quit")))

    def _at_table(self) -> None:
        if self.at is None:
            raise FiveCrownsError(_(NOT_AT_TABLE).format(join=self._keys("join")))

    def _say_tables(self) -> None:
        if not self.tables:
            self.say(
                _(NO_TABLES).format(create=self._keys("create"), code=self._keys("invite_code"))
            )
            return
        for info in self.tables:
            self.say(table_words(info))

    def _do_tables(self, key: str) -> None:
        self._in_lobby()
        self.output.stop()
        self.lists_wanted += 1  # why not the list we have: the server's answer is fresher
        self.link.send({"type": "list_tables"})

    def _focus_table(self, index: int) -> None:
        self._in_lobby()
        if not self.tables:
            raise FiveCrownsError(
                _(NO_TABLE_HERE).format(list=self._keys("tables"), create=self._keys("create"))
            )
        self.focus = max(0, min(index, len(self.tables) - 1))
        self.answer(table_words(self.tables[self.focus]))

    def _do_previous_table(self, key: str) -> None:
        self._focus_table(self.focus - 1)

    def _do_next_table(self, key: str) -> None:
        self._focus_table(self.focus + 1)

    def _do_table_number(self, key: str) -> None:
        if key.isdigit() and int(key) > len(self.tables) and self.tables:
            raise FiveCrownsError(
                _(NO_TABLE_HERE).format(list=self._keys("tables"), create=self._keys("create"))
            )
        self._focus_table(int(key) - 1 if key.isdigit() else 0)

    def _go(self, what: str, index: int) -> None:
        self._in_lobby()
        if not 0 <= index < len(self.tables):
            raise FiveCrownsError(
                _(NO_TABLE_HERE).format(list=self._keys("tables"), create=self._keys("create"))
            )
        self.focus = index
        self.link.send({"type": what, "table": self.tables[index]["id"]})
        self.answer(_(SENT))

    def _do_join(self, key: str) -> None:
        self._go("join", self.focus)

    def _do_watch(self, key: str) -> None:
        self._go("watch", self.focus)

    def _do_invite_code(self, key: str) -> None:
        self._in_lobby()

        def join(code: str) -> None:
            self.link.send({"type": "join", "code": code})
            self.answer(_(SENT))

        self.list_state = None
        self.typing = _Typing(CODE_PROMPT, "", CODE_LONGEST, join)
        self.answer(_(TYPE_CODE))

    def _do_create(self, key: str) -> None:
        self._in_lobby()
        items: list[MenuItem] = [
            (_(SEATS_ITEM).format(count=count), functools.partial(self._create_bots, count))
            for count in range(2, 8)
        ]
        self._open_list("menu", _(SEATS_TITLE), items, selected=2)  # 4 seats, the usual table

    def _do_log_out(self, key: str) -> None:
        self._in_lobby()
        if self.link.account is None:
            raise FiveCrownsError(_(NOT_LOGGED_IN))

        def log_out(everywhere: bool) -> None:
            self.link.send({"type": "log_out", "everywhere": everywhere})
            self.answer(_(SENT))

        items: list[MenuItem] = [
            (_(LOG_OUT_HERE), functools.partial(log_out, False)),
            (_(LOG_OUT_EVERYWHERE), functools.partial(log_out, True)),
        ]
        self._open_list("menu", _(LOG_OUT_TITLE), items)

    def _create_bots(self, seats: int) -> None:
        items: list[MenuItem] = [
            (_(NO_BOTS_ITEM), functools.partial(self._create_privacy, seats, []))
        ]
        for count in range(1, seats):
            label = ngettext("{count} computer player", "{count} computer players", count).format(
                count=count
            )
            items.append((label, functools.partial(self._create_level, seats, count)))
        self._open_list("menu", _(BOTS_TITLE), items)

    def _create_level(self, seats: int, count: int) -> None:
        items: list[MenuItem] = [
            (
                _(LEVEL_ITEM).format(level=level_name(level)),
                functools.partial(self._create_privacy, seats, [level] * count),
            )
            for level in LEVELS
        ]
        title = _(LEVEL_TITLE).format(bot=self._keys("add_bot"))
        self._open_list("menu", title, items, selected=1)  # medium

    def _create_privacy(self, seats: int, bots: list[str]) -> None:
        def create(private: bool) -> None:
            self.link.send(
                {"type": "create_table", "seats": seats, "bots": bots, "private": private}
            )
            self.answer(_(SENT))

        items: list[MenuItem] = [
            (_(PUBLIC_ITEM), functools.partial(create, False)),
            (_(PRIVATE_ITEM), functools.partial(create, True)),
        ]
        self._open_list("menu", _(PRIVACY_TITLE), items)

    # --- at a table before its game -----------------------------------------------------------

    def seat_list(self) -> list[dict[str, Any]]:
        shot = self.link.last_snapshot
        return list(shot["seats"]) if shot is not None else []

    def _seats_sentence(self) -> str:
        assert self.at is not None
        if self.link.last_snapshot is None:  # why: "seated" comes just before the seats
            return _(SEATS_COMING).format(table=self.at[0])
        names = []
        for index, seat in enumerate(self.seat_list()):
            who = _seat_words(seat)
            if index == self.at[1]:
                who = _(YOU).format(name=who)
            names.append(_(SEAT_WORDS).format(number=index + 1, who=who))
        text = _(SEATS_WORDS).format(table=self.at[0], count=len(names), seats=join_list(names))
        if self.link.code:
            text += " " + _(CODE_WORDS).format(code=self.link.code)
        return text

    def _do_seats(self, key: str) -> None:
        self._at_table()
        self.link.wait_for(lambda: self.link.last_snapshot is not None, SEATS_WAIT)
        self.answer(self._seats_sentence())

    def _creator(self) -> None:
        self._at_table()
        if not self.link.creator or self.at is None or self.at[1] is None:
            raise FiveCrownsError(_(NOT_CREATOR_HERE))

    def _do_start(self, key: str) -> None:
        self._creator()
        self.link.send({"type": "start"})
        self.answer(_(SENT))

    def _do_add_bot(self, key: str) -> None:
        self._creator()

        def add(level: str) -> None:
            self.link.send({"type": "add_bot", "level": level})
            self.answer(_(SENT))

        items: list[MenuItem] = [
            (_(LEVEL_ITEM).format(level=level_name(level)), functools.partial(add, level))
            for level in LEVELS
        ]
        self._open_list("menu", _(ADD_BOT_TITLE), items)

    def _do_remove_bot(self, key: str) -> None:
        self._creator()

        def remove(seat: int) -> None:
            self.link.send({"type": "remove_bot", "seat": seat})
            self.answer(_(SENT))

        items: list[MenuItem] = [
            (
                _(REMOVE_BOT_ITEM).format(number=index + 1, name=seat["name"]),
                functools.partial(remove, index),
            )
            for index, seat in enumerate(self.seat_list())
            if seat.get("kind") == "bot"
        ]
        if not items:
            raise FiveCrownsError(_(NO_BOTS))
        self._open_list("menu", _(REMOVE_BOT_TITLE), items)

    def _do_remove_player(self, key: str) -> None:
        self._creator()
        mine = None if self.at is None else self.at[1]

        def remove(seat: int, ban: bool) -> None:
            self.link.send({"type": "kick", "seat": seat, "ban": ban})
            self.answer(_(SENT))

        items: list[MenuItem] = []
        for index, seat in enumerate(self.seat_list()):
            if seat.get("kind") != "human" or index == mine:
                continue
            for ban, template in ((False, REMOVE_PLAYER_ITEM), (True, BAN_PLAYER_ITEM)):
                text = _(template).format(name=seat["name"], number=index + 1)
                items.append((text, functools.partial(remove, index, ban)))
        if not items:
            raise FiveCrownsError(_(NO_PLAYERS))
        self._open_list("menu", _(REMOVE_PLAYER_TITLE), items)

    def _do_chat(self, key: str) -> None:
        self._at_table()

        def send(text: str) -> None:
            self.link.chat(text)  # everyone there, you too, hears it as "NAME says: ..."

        self.list_state = None
        self.typing = _Typing(CHAT_PROMPT, "", CHAT_LONGEST, send)
        self.answer(_(CHAT_OPEN))

    def _leave(self) -> None:
        self.link.send({"type": "leave"})
        self.answer(_(SENT))

    def _do_quit(self, key: str) -> None:
        if self.at is not None and not self.link.offline:  # why offline: quit, the seat is kept
            self._leave()
            return

        def leave() -> None:
            self.answer(_(GOODBYE))
            self.exit_requested = True

        yes, no = self._keys("confirm_yes"), self._keys("confirm_no")
        question = _(QUIT_QUESTION).format(yes=yes, no=no)
        self.confirm = (question, leave)
        self.answer(question)

    def _do_confirm_no(self, key: str) -> None:
        self.confirm = None
        self.answer(_(STAY))

    # --- the full screen ------------------------------------------------------------------------

    def screen_lines(self) -> list[tuple[str, str]]:
        """What the full screen shows, as (style, text) lines; everything here is also said."""
        lines: list[tuple[str, str]] = []
        if self.at is None:
            lines.append(
                ("class:title", _(SCREEN_TITLE).format(url=self.link.url, name=self.link.name))
            )
            if not self.tables:
                create, code = self._keys("create"), self._keys("invite_code")
                lines.append(("", _(NO_TABLES).format(create=create, code=code)))
            for index, info in enumerate(self.tables):
                marker = "> " if index == self.focus else "  "
                style = "class:selected" if index == self.focus else ""
                lines.append((style, marker + table_words(info)))
        else:
            lines.append(
                ("class:title", _(SCREEN_TABLE_TITLE).format(table=self.at[0], name=self.link.name))
            )
            lines.append(("", self._seats_sentence()))
        return lines


def render_lobby(lobby: Lobby, width: int = 80, height: int = 24) -> StyleAndTextTuples:
    """The lobby's full screen: the tables (the one you are on marked), the message, the list."""
    import textwrap

    width = max(20, width - 1)
    rows: list[tuple[str, str]] = []
    cursor_row = 0
    for style, text in lobby.screen_lines():
        if style == "class:selected":
            cursor_row = len(rows)
        rows += [(style, part) for part in textwrap.wrap(text, width) or [""]]
    rows.append(("", ""))
    rows += [("class:message", part) for part in textwrap.wrap(lobby.last_message, width)]
    overlay = lobby.overlay()
    if overlay is not None:
        rows.append(("", ""))
        rows += [("class:overlay", part) for part in textwrap.wrap(overlay.title, width)]
        room = max(3, height - len(rows))
        items: Sequence[str] = overlay.items
        first = max(0, min(overlay.selected - room // 2, len(items) - room))
        for index in range(first, min(len(items), first + room)):
            if index == overlay.selected:
                cursor_row = len(rows)
                rows.append(("class:selected", f"> {items[index]}"[:width]))
            else:
                rows.append(("", f"  {items[index]}"[:width]))
    out: StyleAndTextTuples = []
    for index, (style, text) in enumerate(rows[: max(height, 1)]):
        if index == cursor_row:
            out.append(("[SetCursorPosition]", ""))
        out.append((style, text))
        out.append(("", "\n"))
    return out[:-1] if out else out
