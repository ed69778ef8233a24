"""``fivecrowns join --keys``: the lobby and the terminal session of ``fivecrowns play``.

Without a table option the player lands in a spoken lobby (:class:`~fivecrowns.ui.lobby.Lobby`):
the tables, creating, joining and watching, by key and from the Escape menu.
``--create SEATS --bots LEVEL,... [--private] [--start]``, ``--table ID|CODE`` and
``--watch ID|CODE`` do the first of those from the command line. Once a table's game
starts, the seat is played with the same session, keys, speech, braille and
sounds as local play, full screen or (``--line``) line mode, over the WebSocket
transport (:class:`~fivecrowns.net.client.websocket.WebSocketLink`). Leaving the table
(Q) comes back to the lobby; Q in the lobby quits.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.link import LinkError
from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.storage.seats import SavedSeats
from fivecrowns.ui.commands import CommandLayer, Speaker
from fivecrowns.ui.keymap import LOBBY_ACTIONS, Keymap
from fivecrowns.ui.lobby import GOODBYE, Lobby, render_lobby
from fivecrowns.ui.model import TableModel
from fivecrowns.ui.session import WATCHER, Seat, Session
from fivecrowns.ui.settings import Settings

__all__ = ["NetworkPlay", "run_keys"]

#: Key groups that ask the server, or tell the game's state, which is old while offline.
OFFLINE_GROUPS = frozenset({"turn", "info", "lobby", "waiting"})
OFFLINE_GOODBYE = N_(
    "Goodbye. The server keeps your seat a while; join the table again to take it."
)

#: How long a session may run (a ticker checks for news at most this long).
DAY = 24 * 3600.0
#: Seconds between two checks for news a lost wake-up might have left untold.
TICK = 2.0


def _say(text: str) -> None:
    print(text, flush=True)


def first_messages(args: argparse.Namespace) -> list[dict[str, Any]]:
    """What the command line's table options ask the server for at once."""
    if args.create:
        levels = [level.strip() for level in (args.bots or "").split(",") if level.strip()]
        return [
            {"type": "create_table", "seats": args.create, "bots": levels, "private": args.private}
        ]
    if args.table:  # a table number; tried as an invite code if no table has it
        return [{"type": "join", "table": args.table}]
    if args.watch:
        return [{"type": "watch", "table": args.watch}]
    return []


class NetworkPlay:
    """The controller of ``join --keys``: the lobby, or the game at a table, at one keyboard.

    A presentation drives it like a local session; it hands each key to the lobby or
    to the game's :class:`Session`, and switches between them as the table's game
    starts and as the player leaves it.
    """

    delay = 0.0  # the server paces its computer players

    def __init__(
        self,
        link: WebSocketLink,
        output: Speaker,
        settings: Settings,
        *,
        auto_start: bool = False,
        fallback_code: str | None = None,
        fallback_watch: str | None = None,
        speech_report: str = "",
    ) -> None:
        self.link = link
        self.output = output
        self.settings = settings
        lobby_keys, _ = settings.keymap_for(LOBBY_ACTIONS)  # why _: the game's keymap said them
        self.lobby = Lobby(
            link,
            output,
            lobby_keys,
            settings.verbosity,
            auto_start=auto_start,
            fallback_code=fallback_code,
            fallback_watch=fallback_watch,
        )
        #: Only for the presentation's key bindings: every key either screen uses.
        self.keymap = Keymap((*settings.keymap.actions, *lobby_keys.actions))
        self.game: Session | None = None
        self.speech_report = speech_report
        self.speech_tip: str | None = None  # said once, when the first game starts
        self.leaving = False  # the game's session quit; the server has not yet said "left"
        self.listeners: list[Callable[[str], None]] = []
        self.clear_listeners: list[Callable[[], None]] = []

    @property
    def current(self) -> CommandLayer:
        return self.game if self.game is not None else self.lobby

    # --- the Controller protocol ---------------------------------------------------------

    def press(self, key: str) -> None:
        if self.link.offline and self._needs_server(key):
            # why: old state would mislead, and an ask would wait for an answer that cannot come
            self.current.answer(self.link.offline_text(self.current.keymap.display_keys("quit")))
            return
        self.current.press(key)
        self.settle()

    def _needs_server(self, key: str) -> bool:
        """The key asks about the game or the tables, which only the server knows now."""
        layer = self.current
        typing = getattr(layer, "typing", None) or getattr(layer, "chat_line", None)
        if layer.confirm is not None or layer.list_state is not None or typing is not None:
            return False  # why: a question, a list or a line being typed takes its own keys
        action = layer.keymap.action_for(layer.plain_key(key, "normal"), "normal")
        return action is not None and action.group in OFFLINE_GROUPS

    def table(self) -> TableModel:
        assert self.game is not None, "the lobby draws its own screen"
        return self.game.table()

    def render(self, width: int, height: int) -> StyleAndTextTuples:
        from fivecrowns.ui.screen import render_table

        if self.game is not None:
            return render_table(self.game.table(), width, height)
        return render_lobby(self.lobby, width, height)

    def bot_due(self) -> bool:
        return False

    def step_bot(self) -> None:
        return None

    def wants_exit(self) -> bool:
        return self.lobby.exit_requested

    def add_listener(self, listener: Callable[[str], None]) -> None:
        self.listeners.append(listener)
        self.current.add_listener(listener)

    def add_clear_listener(self, listener: Callable[[], None]) -> None:
        self.clear_listeners.append(listener)
        self.current.add_clear_listener(listener)

    # --- news and the switch between the lobby and a game --------------------------------

    def start(self) -> None:
        self.lobby.start()
        self.news()

    def news(self) -> None:
        """Tell what came from the server, to whichever screen has the keyboard."""
        game = self.game
        if game is not None and not self.leaving and self._new_game_dealt(game):
            self._enter_game()  # why a new session: a new game's screens, focus and news
            return
        if game is not None and not self.leaving:
            for text in self.link.take_notices():
                game.say(text)
            for error in self.link.take_errors():
                game.refuse(str(error.get("text", "")))
            if self.link.table is not None:
                # why quiet: nobody asked (offline, the link refuses a stale view at once, not
                # after a wait); the next news or tick tells it all, once
                with contextlib.suppress(LinkError):
                    game.receive_news()
        self.settle()

    def settle(self) -> None:
        """Hand the keyboard to the game when it starts, back to the lobby when it is left."""
        link = self.link
        if self.game is not None and self.game.exit_requested and link.offline:
            # why quit, not the lobby: nothing can be asked offline, and the server keeps the seat
            # (unless it forgot it: then the seat-gone sentence was said, and goodbye is all)
            self.lobby.say(_(GOODBYE) if link.seat_gone else _(OFFLINE_GOODBYE))
            self.lobby.exit_requested = True
            return
        if self.game is not None and (self.game.exit_requested or link.table is None):
            if link.table is not None:
                link.send({"type": "leave"})
            self.game = None
            self.leaving = link.table is not None
        if self.game is None:
            if self.leaving and link.table is None:
                self.leaving = False
            self.lobby.receive_news()
            if not self.leaving and self.lobby.game_ready():
                self._enter_game()

    def _new_game_dealt(self, game: Session) -> bool:
        """The table's creator started a new game after this one ended."""
        if not game.client.is_over:
            return False
        news = self.link.events_since(0, game.client.seq)
        return any(frame.get("kind") == "new_game" for frame in news)

    def _enter_game(self) -> None:
        link = self.link
        shot = link.last_snapshot
        assert shot is not None
        seat = WATCHER if link.seat is None else link.seat
        seats = [Seat.from_json(info) for info in shot["seats"]]
        game = Session(None, seats, self.output, self.settings, remote=(link, seat))
        game.speech_report = self.speech_report
        for listener in self.listeners:
            game.add_listener(listener)
        for clear in self.clear_listeners:
            game.add_clear_listener(clear)
        self.lobby.list_state = None
        self.game = game
        game.start()
        if (
            self.speech_tip
        ):  # why here: the speech-details key is a game key (the lobby's I invites)
            game.say(self.speech_tip)
            self.speech_tip = None


def _tick(poke: Callable[[], None], link: WebSocketLink) -> None:
    for _tick_number in range(int(DAY / TICK)):  # why bounded: a day of play at most
        time.sleep(TICK)
        if link.on_news is None:
            return
        poke()


def run_keys(
    args: argparse.Namespace,
    url: str,
    name: str,
    credentials: tuple[str, str] | None = None,
) -> int:
    """``fivecrowns join --keys``: the lobby and the game at full screen; with
    ``credentials`` (``("log_in" or "sign_up", password)``) the hello logs in to an account,
    as ``join``'s does (the same :class:`ServerConnection`)."""
    from prompt_toolkit.application.current import get_app

    from fivecrowns.ui.app import Presentation
    from fivecrowns.ui.launch import open_output, speech_note
    from fivecrowns.ui.settings import load_settings

    if not sys.stdin.isatty():
        _say(_("fivecrowns join --keys reads single key presses, so it needs a terminal."))
        return 1
    link = WebSocketLink(url, name)
    link.connection.credentials = credentials
    try:
        # why: a client started again after a crash takes its seat back (seats.json)
        link.connect(link.take_back_from(SavedSeats(), first_messages(args)))
        settings = load_settings()
        if args.verbosity:
            settings.verbosity = args.verbosity
        output, reason = open_output(args)
        try:
            play = NetworkPlay(
                link,
                output,
                settings,
                auto_start=args.start,
                fallback_code=args.table,
                fallback_watch=args.watch,
                speech_report=reason,
            )

            def fitted() -> StyleAndTextTuples:
                size = get_app().output.get_size()
                return play.render(size.columns, size.rows)

            presentation = Presentation(play, line_mode=args.line, render=fitted)
            link.on_news = lambda: presentation.call_soon(play.news)
            # why also every few seconds: a wake-up lost anywhere must not leave the player
            # waiting for news that already came (checking costs nothing when none did)
            ticker = threading.Thread(
                target=_tick, args=(lambda: presentation.call_soon(play.news), link), daemon=True
            )
            ticker.start()
            for problem in settings.problems:
                play.lobby.say(problem)
            play.speech_tip = speech_note(
                reason, output.backend.name, settings.keymap.display_keys("speech")
            )
            play.start()
            presentation.run()
        finally:
            link.on_news = None
            output.close()
    except FiveCrownsError as error:
        _say(str(error))
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        link.close()
    return 0
