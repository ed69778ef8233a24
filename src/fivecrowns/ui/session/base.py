"""What every part of the session shares: its state, what it reads, and what one part asks
of another.

:class:`~fivecrowns.ui.session.Session` is put together from parts, one module each: the
hand keys (``hand``), the information keys (``info``), telling each seat its news
(``news``), the hot-seat privacy screen (``hotseat``), the moves and the computer players'
turns (``moves``), the action menu, help and export (``menus``), chat (``chat``), and in
``session`` the start, the keys' dispatch and the screen. Each part is a class over
:class:`SessionBase`: the state is made here, the readers every part uses are here, and a
method one part calls on another is declared here, so each part reads (and type-checks) on
its own. What differs between local play, a network seat and watching is the mode's
(``modes``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fivecrowns.core.cards import Card, Rank
from fivecrowns.core.game import Game
from fivecrowns.core.moves import Event
from fivecrowns.net.client.link import SeatClient
from fivecrowns.output.history import History
from fivecrowns.ui.commands import CommandLayer, Speaker
from fivecrowns.ui.keymap import Keymap
from fivecrowns.ui.seat_log import SeatLog
from fivecrowns.ui.session.modes import Mode, RemoteLink, mode_for
from fivecrowns.ui.session.seats import Bot, Seat, SeatState, sort_key
from fivecrowns.ui.settings import Settings
from fivecrowns.words import answers

__all__ = ["SessionBase"]


class SessionBase(CommandLayer):
    """One game at one keyboard: the state of the screens around the game."""

    def __init__(
        self,
        game: Game | None,
        seats: Sequence[Seat],
        output: Speaker,
        settings: Settings | None = None,
        *,
        bots: dict[int, Bot] | None = None,
        bot_loader: Callable[[str, int], Bot] | None = None,
        save_path: Path | None = None,
        autosave: bool = True,
        delay: float | None = None,
        remote: tuple[RemoteLink, int] | None = None,
        game_id: str | None = None,
    ) -> None:
        """A local game (``game``, its computer players from ``bots`` or ``bot_loader``; a
        resumed one keeps its ``game_id``), or with ``remote`` = (link, seat) one seat at a
        table reached through ``link``."""
        super().__init__()
        self._seats = list(seats)
        self._followed: tuple[Sequence[dict[str, Any]], list[Seat]] | None = None
        self.output = output
        self.settings = settings or Settings()
        self.keymap: Keymap = self.settings.keymap
        self.verbosity = self.settings.verbosity
        self.delay = self.settings.delay if delay is None else delay
        #: Local play, a seat at a network table, or watching one: what differs between them.
        self.mode: Mode = mode_for(
            game,
            self._seats,
            remote,
            bots=bots,
            bot_loader=bot_loader,
            save_path=save_path,
            autosave=autosave,
            game_id=game_id,
        )
        self.link: RemoteLink = self.mode.link
        self.humans = self.mode.humans
        self.clients = {i: SeatClient(self.link, i) for i in self.humans}
        self.at_keyboard = self.humans[0]
        self.seat_state = {i: SeatState(SeatLog(i)) for i in self.humans}
        self.privacy_for: int | None = None
        self.last_explanation: str | None = None
        #: What speaks and why, from the start-up: the speech-details key says it.
        self.speech_report = ""
        self.keyboard_confirmed = False  # hot seat: nobody has pressed Enter on the privacy screen
        #: A round is over and the next is dealt but not yet told: its events and their mover.
        self.next_round: tuple[dict[int, list[Event]], int] | None = None
        #: The chat line being typed (None when not typing one).
        self.chat_line: str | None = None

    # --- what the seat at the keyboard knows ------------------------------------------

    @property
    def game(self) -> Game:
        """The local table's game, for tests; the session reads only its seats' clients."""
        return self.mode.game

    @property
    def watching(self) -> bool:
        """A spectator at a network table (seat WATCHER): the public view, no hand, no turn."""
        return self.mode.watching

    @property
    def seats(self) -> list[Seat]:
        """Who sits in each seat. At a network table, as the newest snapshot has them: who
        left and whose connection dropped change during a game, and a seat list made at the
        start said "Ann (medium)" for a player who had left, or "Ann" for one who left later."""
        told = self.mode.seats_told(self.client)
        if len(told) != len(self._seats):
            return self._seats  # local play (its seats never change), or no seats told
        if self._followed is None or self._followed[0] is not told:
            self._followed = (told, [Seat.from_json(info) for info in told])
        return self._followed[1]

    @property
    def client(self) -> SeatClient:
        """What the seat at the keyboard knows (its snapshot and its events)."""
        return self.clients[self.at_keyboard]

    def _sync(self) -> dict[int, list[Event]]:
        """Every human seat's news since the last sync, each as that seat may see it."""
        return {seat: client.sync() for seat, client in self.clients.items()}

    @property
    def you(self) -> int:
        return self.at_keyboard

    def is_over(self) -> bool:
        return self.client.is_over

    def hand(self, seat: int | None = None) -> list[Card]:
        seat = self.at_keyboard if seat is None else seat
        order = self.seat_state[seat].sort if seat in self.seat_state else "rank"
        return sorted(self.clients[seat].hand, key=sort_key(order))

    def focus(self) -> int:
        hand = self.hand()
        state = self.seat_state[self.at_keyboard]
        state.focus = max(0, min(state.focus, len(hand) - 1))
        return state.focus

    def messages(self) -> History:
        """The history of the seat at the keyboard: only its own messages."""
        return self.seat_state[self.at_keyboard].log.history

    def _record(self, text: str) -> None:
        self.seat_state[self.at_keyboard].log.record(text)

    def _round_words(self) -> str:
        game = self.client
        return answers.round_words(game.round, game.wild_rank)

    def _heard_names(self, capital: bool = False) -> list[str]:
        """The players' names as the seat at the keyboard hears them: its own is "you"."""
        you = answers.you_word(capital)
        return [you if i == self.at_keyboard else s.name for i, s in enumerate(self.seats)]

    def _others_moves(self, unheard: bool = False) -> str:
        """Every public event since the last turn of the seat at the keyboard (with
        ``unheard``: only what it has not heard yet)."""
        log = self.seat_state[self.at_keyboard].log
        names = [seat.name for seat in self.seats]
        return " ".join(log.since_last_turn(names, self.verbosity, unheard=unheard))

    # --- saving: the mode says what is kept here --------------------------------------

    def save_payload(self) -> dict[str, Any]:
        """The save file's content: the local table's game, and this keyboard's settings."""
        return self.mode.save_payload(self.at_keyboard, self.verbosity)

    def save_now(self) -> None:
        """Write the autosave now (after starting or resuming, so a kill loses nothing)."""
        self.mode.autosave(self)

    # --- what one part asks of another: each is written in the part named ------------

    def _announce(
        self,
        news: dict[int, list[Event]],
        wild: Rank,
        mover: int | None = None,
        resumed: bool = False,
        own_note: str | None = None,
    ) -> None:
        raise NotImplementedError  # news

    def _your_turn(self) -> None:
        raise NotImplementedError  # news

    def _pause_words(self) -> str:
        raise NotImplementedError  # news

    def _deal_next(self) -> None:
        raise NotImplementedError  # news

    def _after_game_words(self) -> str:
        raise NotImplementedError  # news

    def _check_hot_seat(self) -> None:
        raise NotImplementedError  # hotseat

    def _privacy_text(self) -> str:
        raise NotImplementedError  # hotseat

    def _status_words(self) -> str:
        raise NotImplementedError  # info

    def _refocus(self, seat: int, before: list[Card], focused: Card | None) -> list[Card]:
        raise NotImplementedError  # hand

    def _new_game(self) -> None:
        raise NotImplementedError  # session
