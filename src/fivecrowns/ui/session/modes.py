"""Where this keyboard's game is: local play, a seat at a network table, or watching one.

The session asks its :class:`Mode` whatever differs between the three instead of branching
on them: which seats are at this keyboard, whether the seat list follows the table's
snapshots, what is saved and recorded here, whether a round's result waits for the next
deal, who may start a new game and how, how Q leaves and what help says about it, what the
why-key and the past-games key can tell, and what a spectator may not do.

Moves go through the mode's link either way (:meth:`TableLink.act`), and so does the
pacing of computer players: an in-process table plays them when the session steps them; a
network table's server plays its own (its link's ``bot_due`` is False).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from fivecrowns.core.errors import FiveCrownsError, IllegalMoveError
from fivecrowns.core.game import Game
from fivecrowns.core.moves import RoundStarted
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.inprocess import InProcessLink
from fivecrowns.net.client.link import SeatClient, TableLink
from fivecrowns.storage import autosave as storage
from fivecrowns.storage import history as game_history
from fivecrowns.ui.session.resume import new_seed
from fivecrowns.ui.session.seats import WATCHER, Bot, Seat

if TYPE_CHECKING:
    from fivecrowns.ui.session.base import SessionBase

__all__ = [
    "LocalMode",
    "Mode",
    "NetworkMode",
    "RemoteLink",
    "WatchingMode",
    "mode_for",
]

#: The last-moves key when nobody has done anything since your turn.
NO_NEWS = N_("Nothing has happened since your last turn.")
NOT_RECORDED = N_("The result could not be recorded: {why}.")
NOT_SAVED = N_("The game could not be saved: {why}.")
#: Why a save failed, as the quit question and goodbye say it (issue 16: never "Saved" then).
SAVE_FAILED = N_("the game could not be written to {folder} ({why}).")

#: Help and tips for a seat at a network table (nothing is saved here; no hot seat).
NETWORK_QUIT_HELP = N_(
    "Leave the table, back to the lobby; during the game a computer player takes your seat."
)
WATCHING_QUIT_HELP = N_("Stop watching, back to the lobby.")
#: Shift+S at a network table: the protocol carries no past games.
REMOTE_PAST_GAMES = N_(
    "At a network table, past games are kept by the server and cannot be heard here."
)
#: The new-game key at a network table: the server holds the table, not this keyboard.
REMOTE_NEW_GAME = N_("This table's game is over. To play again, create a new table in the lobby.")

#: The review key over a link that cannot ask its table (none of the game's own links).
REMOTE_NO_REVIEW = N_("This table cannot review a round.")

WATCHING_NO_TURN = N_("You are watching this table: you have no turn. Press N to hear whose it is.")
WATCHING_NO_HAND = N_("You are watching this table: you have no hand.")
WATCHING_NO_NEWS = N_("Nothing has happened since you last asked.")


class RemoteLink(TableLink, Protocol):
    """A table link as the session uses it: moves and news, and the pacing of computer
    players when the table is local (a network table paces its own: ``bot_due`` is False)."""

    def bot_due(self) -> bool: ...
    def step_bot(self) -> str | None: ...
    def explain_last_bot_turn(self) -> str | None: ...


class Mode(Protocol):
    """What differs between local play, a seat at a network table and watching one."""

    #: The table, reached in process (local play) or through the network.
    link: RemoteLink
    #: The seats played at this keyboard (in local play every human one: hot seat).
    humans: list[int]
    #: A spectator (seat WATCHER): the public view, no hand, no turn.
    watching: bool
    #: After a round's result the next round waits for this keyboard's key (local play); a
    #: network table's server has dealt it and plays on.
    pauses_between_rounds: bool
    #: Another human player's turn is told when it begins (they are at their own computer).
    tells_their_turn: bool
    #: What help says Q does, or None: the keymap's own help (saving; the hot-seat keys).
    quit_help: str | None
    #: The past-games key reads this computer's history (a network table's is the server's).
    keeps_past_games: bool
    #: The last-moves key when there is nothing to tell.
    no_news: str
    #: The last-moves key tells what happened since it was last pressed, not since a turn.
    news_from_last_look: bool

    @property
    def game(self) -> Game:
        """The local table's game (a network table's stays on its server)."""
        ...

    def seats_told(self, client: SeatClient) -> Sequence[dict[str, Any]]:
        """The seats as the table's newest snapshot has them (none: the seats never change)."""
        ...

    def check_hand(self) -> None:
        """Raise with the reason when the keys about a hand mean nothing here."""
        ...

    def check_turn(self) -> None:
        """Raise with the reason when this keyboard never has a turn."""
        ...

    def came_mid_game(self, client: SeatClient) -> bool:
        """Whether this keyboard came after the game began (and hears where it stands)."""
        ...

    def may_deal_again(self) -> bool:
        """Whether this keyboard may start a new game after this one."""
        ...

    def deal_again(self) -> bool:
        """Start a new game with the same seats: True when it was dealt here, False when
        the server was asked (and deals it, or says why not); raises when it cannot be."""
        ...

    def explanation(self, told: str | None) -> str | None:
        """The why-key's answer, given what this keyboard was told of the last computer turn."""
        ...

    def review(self, seat: int, full: bool) -> str:
        """The review of ``seat``'s last round, worded by the table (here, or its server's)."""
        ...

    def leave(self) -> Callable[[], None] | None:
        """How Q leaves the table, or None: Q quits this program, saving the game."""
        ...

    def save_payload(self, at_keyboard: int, verbosity: str) -> dict[str, Any]:
        """The save file's content (only a local table is saved here)."""
        ...

    def autosave(self, session: SessionBase) -> None:
        """Write the autosave, if this keyboard keeps one, and say when it cannot."""
        ...

    def record_result(self, session: SessionBase) -> None:
        """Keep the finished game in this computer's history, if it is kept here."""
        ...


class LocalMode(Mode):
    """The whole table is here: hot-seat humans and computer players in this process.

    This keyboard saves the game after every move, records its result, deals the next
    round when asked and starts a new game with the same seats.
    """

    watching = False
    pauses_between_rounds = True
    tells_their_turn = False  # why: in hot seat the privacy screen says whose turn it is
    quit_help = None
    keeps_past_games = True
    no_news = NO_NEWS
    news_from_last_look = False

    def __init__(
        self,
        game: Game | None,
        seats: Sequence[Seat],
        *,
        bots: dict[int, Bot] | None = None,
        bot_loader: Callable[[str, int], Bot] | None = None,
        save_path: Path | None = None,
        autosave: bool = True,
        game_id: str | None = None,
    ) -> None:
        self.bots: dict[int, Bot] = dict(bots or {})
        for seat_index, seat in enumerate(seats):
            if seat.level is not None and seat_index not in self.bots:
                if bot_loader is None:
                    raise FiveCrownsError(
                        _("No way to start the computer player {name}.").format(name=seat.name)
                    )
                self.bots[seat_index] = bot_loader(seat.level, seat_index)
        self.humans = [i for i, seat in enumerate(seats) if seat.human]
        if not self.humans:
            raise FiveCrownsError(_("A game here needs at least one human player."))
        assert game is not None
        # Local play goes through the in-process transport: the table owns the game, and
        # each human seat here knows only what its own snapshot and events tell it.
        seat_list = [(s.name, s.level) for s in seats]
        self.link: InProcessLink = InProcessLink(game, seat_list, self.bots)
        self.save_path = save_path
        self.autosave_enabled = autosave
        self.history_recorded = False
        # why an id: a kill between recording the result and deleting the autosave must
        # not record the same game twice when it is resumed (issue 16)
        self.game_id = game_id or game_history.new_game_id()

    @property
    def game(self) -> Game:
        return self.link.game

    def seats_told(self, client: SeatClient) -> Sequence[dict[str, Any]]:
        return ()  # local play: its seats never change

    def check_hand(self) -> None:
        pass

    def check_turn(self) -> None:
        pass

    def came_mid_game(self, client: SeatClient) -> bool:
        return False

    def may_deal_again(self) -> bool:
        return True

    def deal_again(self) -> bool:
        self.link.new_game(seed=new_seed())
        self.history_recorded = False
        self.game_id = game_history.new_game_id()
        return True

    def explanation(self, told: str | None) -> str | None:
        return told

    def review(self, seat: int, full: bool) -> str:
        return self.link.ask(seat, "review_all" if full else "review")

    def leave(self) -> Callable[[], None] | None:
        return None

    def save_payload(self, at_keyboard: int, verbosity: str) -> dict[str, Any]:
        return self.link.save_payload(at_keyboard, verbosity, self.game_id)

    def autosave(self, session: SessionBase) -> None:
        if not self.autosave_enabled or session.client.is_over:
            return
        path = self.save_path or storage.autosave_path()
        try:
            payload = self.save_payload(session.at_keyboard, session.verbosity)
            storage.write_autosave(payload, self.save_path)
        except OSError as error:
            why = error.strerror or error
            session.save_problem = _(SAVE_FAILED).format(folder=path.parent, why=why)
            session.say(_(NOT_SAVED).format(why=error.strerror))
        else:
            session.save_problem = None

    def record_result(self, session: SessionBase) -> None:
        if self.history_recorded:
            return
        self.history_recorded = True
        try:
            game_history.append_history(
                [seat.name for seat in session.seats],
                list(session.client.totals),
                game_id=self.game_id,
            )
            if self.autosave_enabled:
                storage.delete_autosave(self.save_path)
        except OSError as error:
            session.say(_(NOT_RECORDED).format(why=error.strerror))


class NetworkMode(Mode):
    """One seat at a table reached through a link (a server's): the other players are at
    their own computers, and the server saves the game, records it and deals again."""

    watching = False
    pauses_between_rounds = False
    tells_their_turn = True
    quit_help: str | None = NETWORK_QUIT_HELP
    keeps_past_games = False
    no_news = NO_NEWS
    news_from_last_look = False

    def __init__(self, link: RemoteLink, seat: int) -> None:
        self.link = link
        self.humans = [seat]  # one seat: the others are at their own computers

    @property
    def game(self) -> Game:
        raise AssertionError("a remote table's game stays on the server")

    def seats_told(self, client: SeatClient) -> Sequence[dict[str, Any]]:
        return client.seats

    def check_hand(self) -> None:
        pass

    def check_turn(self) -> None:
        pass

    def came_mid_game(self, client: SeatClient) -> bool:
        # why: a client started again after a crash took its seat back in a game in progress
        # (issue 26, item 17); a new game dealt since then is a new game to it
        back = getattr(self.link, "came_back_at", None)
        if back is None:
            return False
        starts = [
            int(frame["seq"])
            for frame in self.link.events_since(client.seat, 0)
            if frame.get("kind") in ("game_started", "new_game")
        ]
        return not starts or starts[-1] <= back

    def may_deal_again(self) -> bool:
        return bool(getattr(self.link, "creator", False))  # the server refuses anyone else

    def deal_again(self) -> bool:
        ask = getattr(self.link, "new_game", None)
        if ask is None:
            raise FiveCrownsError(_(REMOTE_NEW_GAME))
        ask()  # the server deals it (the creator's right), or says why not
        return False

    def explanation(self, told: str | None) -> str | None:
        # why ask: the server runs a network table's computer players; it tells their
        # moves, never their reasons (those name cards in their hands)
        return self.link.explain_last_bot_turn()

    def review(self, seat: int, full: bool) -> str:
        # why ask: the server holds the game and words the review from this seat's history
        ask: Callable[[str], str] | None = getattr(self.link, "ask", None)
        if ask is None:
            raise FiveCrownsError(_(REMOTE_NO_REVIEW))
        return ask("review_all" if full else "review")

    def leave(self) -> Callable[[], None] | None:
        leave: Callable[[], None] | None = getattr(self.link, "leave", None)
        return leave

    def save_payload(self, at_keyboard: int, verbosity: str) -> dict[str, Any]:
        raise AssertionError("a remote table is saved by its server")

    def autosave(self, session: SessionBase) -> None:
        pass  # the server keeps the table

    def record_result(self, session: SessionBase) -> None:
        pass  # a network table's server records its own finished games


class WatchingMode(NetworkMode):
    """A spectator at a network table: the public view, no hand, no turn."""

    watching = True
    quit_help = WATCHING_QUIT_HELP
    no_news = WATCHING_NO_NEWS
    news_from_last_look = True  # why: a spectator has no turn; its news runs from its last look

    def __init__(self, link: RemoteLink) -> None:
        super().__init__(link, WATCHER)

    def check_hand(self) -> None:
        raise FiveCrownsError(_(WATCHING_NO_HAND))

    def check_turn(self) -> None:
        raise IllegalMoveError(_(WATCHING_NO_TURN))

    def came_mid_game(self, client: SeatClient) -> bool:
        # why: the game began before this spectator came, so its start was never sent
        return not any(isinstance(e, RoundStarted) for e in client.events)


def mode_for(
    game: Game | None,
    seats: Sequence[Seat],
    remote: tuple[RemoteLink, int] | None,
    *,
    bots: dict[int, Bot] | None = None,
    bot_loader: Callable[[str, int], Bot] | None = None,
    save_path: Path | None = None,
    autosave: bool = True,
    game_id: str | None = None,
) -> Mode:
    """Local play of ``game`` (its computer players from ``bots`` or ``bot_loader``), or with
    ``remote`` = (link, seat) one seat at a table reached through ``link`` (WATCHER: none)."""
    if remote is None:
        return LocalMode(
            game,
            seats,
            bots=bots,
            bot_loader=bot_loader,
            save_path=save_path,
            autosave=autosave,
            game_id=game_id,
        )
    link, seat = remote
    if seat == WATCHER:
        return WatchingMode(link)
    return NetworkMode(link, seat)
