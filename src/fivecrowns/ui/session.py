"""The command layer: keys -> actions -> game moves -> events -> announcements.

One :class:`Session` serves both presentations. A presentation forwards every
key press to :meth:`Session.press`; the session looks the key up in the keymap
table for the screen that is open (play, the action menu or help list, a
confirmation, the hot-seat privacy screen), runs the action, and speaks the
result through the output layer. What the player asked for interrupts; what
other players did queues (STYLE practice 9). A refused action is answered with
its sentence and the invalid-action sound, and changes nothing.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fivecrowns.ai.loader import level_name
from fivecrowns.core.cards import Card, Rank, spoken_name
from fivecrowns.core.codec import game_from_json, move_from_json
from fivecrowns.core.errors import FiveCrownsError, IllegalMoveError, SaveFileError
from fivecrowns.core.game import Game, Phase, last_turn_discard
from fivecrowns.core.melds.solver import (
    best_arrangement,
    best_with_discard,
    going_out_discards,
    least_leftover,
)
from fivecrowns.core.moves import (
    Discard,
    DrawFromStock,
    Event,
    GameOver,
    GoOut,
    LastTurnStarted,
    Move,
    RoundScored,
    RoundStarted,
    TakeDiscard,
    TurnStarted,
)
from fivecrowns.i18n import N_, join_list, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.inprocess import InProcessLink
from fivecrowns.net.client.link import LinkError, SeatClient, TableLink
from fivecrowns.output.history import History
from fivecrowns.storage import autosave as storage
from fivecrowns.storage import history as game_history
from fivecrowns.storage.paths import documents_dir
from fivecrowns.ui.commands import ACTIONS_TITLE, MENU_ITEM, CommandLayer, MenuItem, Speaker
from fivecrowns.ui.keymap import GROUPS, Action, Keymap, KeymapError, display_key, jump_index
from fivecrowns.ui.model import ListScreen, SeatLine, TableModel
from fivecrowns.ui.seat_log import SeatLog
from fivecrowns.ui.settings import Settings
from fivecrowns.words import answers
from fivecrowns.words.announce import (
    card_list,
    game_result,
    melds_words,
    round_detail,
    round_result,
)
from fivecrowns.words.answers import advised_discard
from fivecrowns.words.seats import LEFT_SEAT, STANDIN_SEAT

#: Between rounds: the result stays until the player deals the next round.
NEXT_ROUND = N_("Round {round} next. Press {keys} to deal it.")
#: The action menu's item between rounds.
DEAL_ITEM = N_("Deal round {round}: {keys}")

#: Another human player's turn at a network table (the server's words for it, too).
THEIR_TURN = N_("{name}'s turn.")

#: The card on the discard pile, said when it is yours to take.
TOP_DISCARD = N_("Top discard: {card}.")

#: The speech-details key.
NO_SPEECH_REPORT = N_("Speech: as the game was started.")
SPEECH_LIST_TIP = N_("For every choice and why, run: fivecrowns speech --list.")

#: After drawing or taking: where the new card went (the focus stays where it was).
DRAWN_PLACE = N_("It is card {index} of {count}.")

#: How many earlier messages the full screen shows above the message line.
RECENT_LINES = 4
GAME_IS_OVER = answers.GAME_IS_OVER

#: The last-round key before any round has ended.
NO_ROUND_YET = answers.NO_ROUND_YET

#: The last-moves key when nobody has done anything since your turn.
NO_NEWS = N_("Nothing has happened since your last turn.")

#: Starting and resuming.
NEW_GAME = N_("New game: {names}. Press {help} for help, {menu} for the action menu.")
#: A computer player in the list of players at the start: "Ann (medium)".
COMPUTER_SEAT = N_("{name} ({level})")
RESUMED = N_("Resumed. {round}")
THIS_GAME_IS_OVER = N_("This game is over.")
HAND_HIDDEN = N_("The hand is hidden. Press {ready} when ready, {help} for help, {quit} to quit.")
NOT_YOUR_TURN = N_("It is {name}'s turn, not yours. Press N to hear what happens.")
OVER_THEN = N_("The game is over. {after}")
DRAW_FIRST = N_("You must draw before you discard: press D or T.")
DRAW_BEFORE_OUT = N_("You must draw before you go out: press D or T.")


def not_yet(count: int) -> str:
    return ngettext(
        "Not yet: left over would be {cards}, {count} point.",
        "Not yet: left over would be {cards}, {count} points.",
        count,
    )


YOUR_HAND = N_("Your hand: {cards}.")
TOP_NONE = N_("Top discard: none.")
YOUR_TURN_BRIEF = N_("Your turn.")
YOUR_TURN_TOP = N_("Your turn. Top discard: {card}.")
YOUR_TURN_EMPTY = N_("Your turn. The discard pile is empty.")
PASS_TO = N_("Pass to {name}. Press {keys} when ready.")
READY = N_("{name}. {round} Your hand: {cards}.")
NOT_RECORDED = N_("The result could not be recorded: {why}.")
AFTER_GAME = N_("Press {new} for a new game, {scores} for scores, {quit} to leave.")
NOT_SAVED = N_("The game could not be saved: {why}.")
SORTED = {"rank": N_("Sorted by rank."), "suit": N_("Sorted by suit.")}
FOCUS = N_("{card}, {index} of {count}")
FOCUS_FIRST = N_("First card: {card}, {index} of {count}")
FOCUS_LAST = N_("Last card: {card}, {index} of {count}")
NEW_GAME_ITEM = N_("New game, same players")
TAKE_ITEM = N_("Take the {card}")
DISCARD_ITEM = N_("Discard the {card}")
GO_OUT_ITEM = N_("Go out, discarding the {card}")


def lay_down_item(count: int) -> str:
    return ngettext(
        "Lay down and discard the {card}, leaving {count} point",
        "Lay down and discard the {card}, leaving {count} points",
        count,
    )


def lay_down_best_item(count: int) -> str:
    return ngettext(
        "Lay down your best melds and discard the {card}, leaving {count} point",
        "Lay down your best melds and discard the {card}, leaving {count} points",
        count,
    )


#: The screen's note beside a seat.
WENT_OUT_NOTE = N_("went out")
COMPUTER_NOTE = N_("computer, {level}")
# TRANSLATORS: the screen's note beside a player who left a network table's game
LEFT_NOTE = N_("left; a computer player plays in their place")
# TRANSLATORS: the screen's note beside a player whose connection dropped
STANDIN_NOTE = N_("connection dropped; a computer player plays until they are back")

#: The keys that work on the hot-seat privacy screen besides Enter: none shows the hand.
PRIVACY_SAFE = frozenset({"quit", "help", "stop_speech"})

__all__ = [
    "WATCHER",
    "Bot",
    "Seat",
    "Session",
    "Speaker",
    "advised_discard",
    "game_from_save",
    "new_seed",
]

#: Help and tips for a seat at a network table (nothing is saved here; no hot seat).
NETWORK_QUIT_HELP = N_(
    "Leave the table, back to the lobby; during the game a computer player takes your seat."
)
WATCHING_QUIT_HELP = N_("Stop watching, back to the lobby.")
#: After the game at a network table, for everyone but the player who made it.
AFTER_GAME_GUEST = N_(
    "Press {scores} for scores, {quit} to leave. The player who made the table can start "
    "a new game."
)
#: Shift+S at a network table: the protocol carries no past games.
REMOTE_PAST_GAMES = N_(
    "At a network table, past games are kept by the server and cannot be heard here."
)

#: The new-game key at a network table: the server holds the table, not this keyboard.
REMOTE_NEW_GAME = N_("This table's game is over. To play again, create a new table in the lobby.")
REMOTE_NEW_GAME_ASKED = N_("Asked the server for a new game with the same players.")


class RemoteLink(TableLink, Protocol):
    """A table link as the session uses it: moves and news, and the pacing of computer
    players when the table is local (a network table paces its own: ``bot_due`` is False)."""

    def bot_due(self) -> bool: ...
    def step_bot(self) -> str | None: ...
    def explain_last_bot_turn(self) -> str | None: ...


#: Chat at a network table (the slash key).
CHAT_OPEN = N_("Say to the table: type your line, then Enter to send or Escape to cancel.")
CHAT_PROMPT = N_("Say to the table: {text}")
CHAT_CANCELLED = N_("Nothing sent.")
CHAT_LOCAL = N_("Chat is for network tables: everyone here shares this keyboard.")
CHAT_EMPTY = N_("There is nothing to send: type a line first, or Escape to cancel.")
CHAT_LONGEST = 300

#: The seat number of a spectator at a network table (no seat's number).
WATCHER = -1
WATCHING_NO_TURN = N_("You are watching this table: you have no turn. Press N to hear whose it is.")
WATCHING_NO_HAND = N_("You are watching this table: you have no hand.")
WATCHING_NO_NEWS = N_("Nothing has happened since you last asked.")
WATCHING_GAME = N_(
    "You are watching a game in progress: {names}. {round} Press {help} for help, "
    "{menu} for the action menu."
)
# TRANSLATORS: {scores} lists "name points", e.g. "Ann 0, Ben 23"
ROUND_BEFORE_WATCHING = N_("Round {round} ended before you began watching: {scores}.")

#: Quitting at a network table: nothing is saved here; the server seats a computer player.
REMOTE_QUIT = N_(
    "Quit? You leave the table, and a computer player takes your seat for the rest of "
    "the game. {yes} to quit, {no} to keep playing."
)

#: Why a save failed, as the quit question and goodbye say it (issue 16: never "Saved" then).
SAVE_FAILED = N_("the game could not be written to {folder} ({why}).")


class Bot(Protocol):
    def decide(self, view: Any) -> Any: ...


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a human at this keyboard, or a computer player of ``level``.

    At a network table also: ``left``, the person ``name`` left and a computer player
    (``level``) plays in their place for good; ``standin``, their connection dropped and a
    computer plays for them until they are back.
    """

    name: str
    level: str | None = None  # None: a human
    left: bool = False
    standin: bool = False

    @property
    def human(self) -> bool:
        """A person plays this seat now (not a computer player, nor one standing in)."""
        return self.level is None and not self.standin

    @classmethod
    def from_json(cls, info: dict[str, Any]) -> Seat:
        """A seat of a protocol snapshot (``{kind, name, level, standin, left}``).

        >>> Seat.from_json({"kind": "bot", "name": "Ann", "level": "medium", "left": True})
        Seat(name='Ann', level='medium', left=True, standin=False)
        """
        level = info.get("level") if info.get("kind") == "bot" else None
        return cls(
            str(info.get("name") or ""),
            level,
            left=bool(info.get("left")),
            standin=bool(info.get("standin")),
        )


def _start_words(seat: Seat) -> str:
    """A seat in the list of players at the start: "Ann", "Bot 2 (medium)", and at a network
    table the lobby's words for a player who left or whose connection dropped."""
    if seat.left:
        return _(LEFT_SEAT).format(name=seat.name)
    if seat.standin:
        return _(STANDIN_SEAT).format(name=seat.name)
    if seat.level is None:
        return seat.name
    return _(COMPUTER_SEAT).format(name=seat.name, level=level_name(seat.level))


@dataclass
class _SeatState:
    log: SeatLog  # this seat's own messages: in hot seat nobody else can page through them
    focus: int = 0
    sort: str = "rank"


def _sort_key(order: str) -> Callable[[Card], tuple[int, int]]:
    def by_rank(card: Card) -> tuple[int, int]:
        return (
            99 if card.rank is None else int(card.rank),
            9 if card.suit is None else card.suit.index,
        )

    def by_suit(card: Card) -> tuple[int, int]:
        return (
            9 if card.suit is None else card.suit.index,
            99 if card.rank is None else int(card.rank),
        )

    return by_suit if order == "suit" else by_rank


class Session(CommandLayer):
    """One game at one keyboard: the state of the screens around the game, and every action."""

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
    ) -> None:
        """A local game (``game``, its computer players from ``bots`` or ``bot_loader``), or
        with ``remote`` = (link, seat) one seat at a table reached through ``link``."""
        super().__init__()
        self._seats = list(seats)
        self._followed: tuple[tuple[dict[str, Any], ...], list[Seat]] | None = None
        self.output = output
        self.settings = settings or Settings()
        self.keymap: Keymap = self.settings.keymap
        self.verbosity = self.settings.verbosity
        self.delay = self.settings.delay if delay is None else delay
        self.save_path = save_path
        self.autosave_enabled = autosave and remote is None
        self.bots: dict[int, Bot] = dict(bots or {})
        for seat_index, seat in enumerate(self._seats if remote is None else ()):
            if seat.level is not None and seat_index not in self.bots:
                if bot_loader is None:
                    raise FiveCrownsError(
                        _("No way to start the computer player {name}.").format(name=seat.name)
                    )
                self.bots[seat_index] = bot_loader(seat.level, seat_index)
        humans = [i for i, seat in enumerate(self._seats) if seat.human]
        if remote is not None:
            humans = [remote[1]]  # one seat: the others are at their own computers
        #: A spectator at a network table (seat WATCHER): the public view, no hand, no turn.
        self.watching = remote is not None and remote[1] == WATCHER
        if not humans:
            raise FiveCrownsError(_("A game here needs at least one human player."))
        self.humans = humans
        # Local play goes through the in-process transport: the table owns the game, and
        # each human seat here knows only what its own snapshot and events tell it.
        self.local: InProcessLink | None = None
        self.link: RemoteLink
        if remote is None:
            assert game is not None
            seat_list = [(s.name, s.level) for s in self._seats]
            self.local = self.link = InProcessLink(game, seat_list, self.bots)
        else:
            self.link = remote[0]
        self.clients = {i: SeatClient(self.link, i) for i in humans}
        self.at_keyboard = humans[0]
        self.seat_state = {i: _SeatState(SeatLog(i)) for i in humans}
        self.privacy_for: int | None = None
        self.last_explanation: str | None = None
        self.history_recorded = False
        #: What speaks and why, from the start-up: the speech-details key says it.
        self.speech_report = ""
        # why an id: a kill between recording the result and deleting the autosave must
        # not record the same game twice when it is resumed (issue 16)
        self.game_id = game_history.new_game_id()
        self.keyboard_confirmed = False  # hot seat: nobody has pressed Enter on the privacy screen
        #: A round is over and the next is dealt but not yet told: its events and their mover.
        self.next_round: tuple[dict[int, list[Event]], int] | None = None
        #: The chat line being typed (None when not typing one).
        self.chat_line: str | None = None

    @property
    def game(self) -> Game:
        """The local table's game, for tests; the session reads only its seats' clients."""
        assert self.local is not None, "a remote table's game stays on the server"
        return self.local.game

    def receive_news(self) -> None:
        """Tell what arrived from the table without a key (a network table's other players)."""
        wild = self.client.wild_rank
        news = self._sync()
        events = news[self.at_keyboard]
        if events:
            mover = next((e.player for e in events if hasattr(e, "player")), None)
            self._announce(news, wild, mover=mover)
        for text in self.client.take_notices():
            self.say(text)  # someone's chat, a stand-in, someone leaving: queued, never lost

    @property
    def seats(self) -> list[Seat]:
        """Who sits in each seat. At a network table, as the newest snapshot has them: who
        left and whose connection dropped change during a game, and a seat list made at the
        start said "Ann (medium)" for a player who had left, or "Ann" for one who left later."""
        told = self.client.seats if self.local is None else ()
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

    # --- starting -------------------------------------------------------------

    def start(self, resumed: bool = False) -> None:
        """Announce the start (or the resumed position) and any settings problems."""
        for problem in self.settings.problems:
            self.say(problem)
        if self.client.is_over:
            self.say(_(THIS_GAME_IS_OVER))
            return
        if resumed:
            # why not replay the round's events aloud: the round start would list today's
            # hand as the dealt one, and "Your turn" would ask for a draw already made.
            # They are kept silently, so the last-moves key tells what happened.
            for seat, state in self.seat_state.items():
                events = self.clients[seat].events
                first_wild = next(
                    (e.wild_rank for e in events if isinstance(e, RoundStarted)),
                    self.clients[seat].wild_rank,
                )
                state.log.note(events, first_wild)
            self.last_explanation = self.link.explain_last_bot_turn()
            self.say(_(RESUMED).format(round=self._round_words()))
            self._check_hot_seat()
            if self.privacy_for is None:
                self._tell_position()
            return
        names = join_list([_start_words(seat) for seat in self.seats])
        if self.watching and not any(isinstance(e, RoundStarted) for e in self.client.events):
            self._start_watching(names)  # why: the game began before this spectator came
            return
        self.say(
            _(NEW_GAME).format(names=names, help=display_key("f1"), menu=display_key("escape"))
        )
        self._check_hot_seat()
        if self.privacy_for is None:
            self._announce(
                {seat: list(client.round_events) for seat, client in self.clients.items()},
                self.client.wild_rank,
            )

    def run_action(self, action: Action, key: str = "") -> None:
        if self.watching and action.group == "hand":
            self.refuse(_(WATCHING_NO_HAND))  # why: a spectator has no hand to move through
            return
        super().run_action(action, key)

    def _start_watching(self, names: str) -> None:
        """A spectator who came mid-game hears where it stands, as a resumed seat would."""
        game = self.client
        for state in self.seat_state.values():
            state.log.note(game.events, game.wild_rank)
        help_key, menu = display_key("f1"), display_key("escape")
        round_words = self._round_words()
        self.say(_(WATCHING_GAME).format(names=names, round=round_words, help=help_key, menu=menu))
        text = self._status_words()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW) and game.top_discard is not None:
            top = spoken_name(game.top_discard, game.wild_rank)
            text = f"{text} {_(TOP_DISCARD).format(card=top)}"
        self.say(text)
        if game.round_scores:
            self.say(answers.scores_words(self._heard_names(), game.totals, game.round_scores))

    # --- speech ------------------------------------------------------------------

    def messages(self) -> History:
        """The history of the seat at the keyboard: only its own messages."""
        return self.seat_state[self.at_keyboard].log.history

    def _record(self, text: str) -> None:
        self.seat_state[self.at_keyboard].log.record(text)

    # --- keys --------------------------------------------------------------------

    def context(self) -> str:
        # A question or the help list opened on the privacy screen comes first.
        if self.privacy_for is not None and self.confirm is None and self.list_state is None:
            return "privacy"
        return super().context()

    def press(self, key: str) -> None:
        if self.chat_line is not None:
            self._chat_key(key)
            return
        key = self.plain_key(key, self.context())
        if self.next_round is not None and self.context() == "normal":
            action = self.keymap.action_for(key, "normal")
            if key in ("c-m", " ") or (action is not None and action.name == "discard"):
                self._deal_next()
                return
            if action is not None and action.group == "turn":
                self.refuse(self._pause_words())
                return
        if self.privacy_for is None:
            super().press(key)
            return
        # The privacy screen: only Enter, and the keys that cannot show the hand
        # (quit with its question, help, stop speech); every other key is refused.
        context = self.context()
        action = self.keymap.action_for(key, context)
        if action is None and context in ("privacy", "menu"):
            normal = self.keymap.action_for(key, "normal")
            if normal is not None and normal.name in PRIVACY_SAFE:
                self.list_state = None
                action = normal
        if action is None:
            if (key.startswith("<") and len(key) > 1) or key == "c-@":
                return  # terminal reports and modifier-only codes
            self._unknown_key(key, "privacy" if context == "menu" else context)
            return
        self.run_action(action, key)

    def is_over(self) -> bool:
        return self.client.is_over

    def _unknown_key(self, key: str, context: str) -> None:
        if context == "privacy":
            keys = self.keymap.display_keys
            self.refuse(
                _(HAND_HIDDEN).format(ready=keys("ready"), help=keys("help"), quit=keys("quit"))
            )
        else:
            super()._unknown_key(key, context)

    # --- what the presentations read --------------------------------------------

    def bot_due(self) -> bool:
        return (
            not self.client.is_over
            and not self.exit_requested
            and self.privacy_for is None
            and self.next_round is None
            and self.link.bot_due()
        )

    @property
    def you(self) -> int:
        return self.at_keyboard

    def hand(self, seat: int | None = None) -> list[Card]:
        seat = self.at_keyboard if seat is None else seat
        order = self.seat_state[seat].sort if seat in self.seat_state else "rank"
        return sorted(self.clients[seat].hand, key=_sort_key(order))

    def focus(self) -> int:
        hand = self.hand()
        state = self.seat_state[self.at_keyboard]
        state.focus = max(0, min(state.focus, len(hand) - 1))
        return state.focus

    def table(self) -> TableModel:
        game = self.client
        view = game.view
        seats = []
        for i, seat in enumerate(self.seats):
            note = ""
            if view.went_out == i:
                note = _(WENT_OUT_NOTE)
            elif seat.left:
                note = _(LEFT_NOTE)
            elif seat.standin:
                note = _(STANDIN_NOTE)
            elif seat.level is not None:
                note = _(COMPUTER_NOTE).format(level=level_name(seat.level))
            round_points = game.round_scores[-1][i] if game.round_scores else None
            seats.append(
                SeatLine(
                    name=seat.name,
                    cards=view.hand_counts[i],
                    total=view.totals[i],
                    round_points=round_points,
                    is_turn=not view.game_over and view.current_player == i,
                    is_you=i == self.at_keyboard and self.privacy_for is None,
                    note=note,
                )
            )
        overlay = self.overlay()
        melds = tuple(
            f"{self.seats[i].name}: {melds_words(m, view.wild_rank)}"
            for i, m in enumerate(view.laid_down)
            if m
        )
        privacy = None
        if self.privacy_for is not None:
            privacy = self._privacy_text()
        return TableModel(
            round_number=view.round,
            wild_rank=view.wild_rank,
            seats=tuple(seats),
            top_discard=view.top_discard,
            stock=view.stock_count,
            hand=tuple(self.hand()) if privacy is None else (),
            focus=self.focus() if privacy is None else 0,
            sort_order=self.seat_state[self.at_keyboard].sort,
            status=self._status_words(),
            message=self.last_message,
            recent=self._recent() if privacy is None else (),
            melds_key=self.keymap.display_keys("melds"),
            you="You" if self.watching else self.seats[self.at_keyboard].name,
            watching=self.watching,
            privacy=privacy,
            overlay=overlay,
            melds=melds,
        )

    def _recent(self) -> tuple[str, ...]:
        """The last few moves and results told to the seat at the keyboard (not the message
        line's own sentence), oldest first."""
        texts = list(self.seat_state[self.at_keyboard].log.recent_news)
        if texts and texts[-1] == self.last_message:
            texts.pop()
        return tuple(texts[-RECENT_LINES:])

    # --- moves -------------------------------------------------------------------

    def _require_my_turn(self) -> None:
        if self.watching:
            raise IllegalMoveError(_(WATCHING_NO_TURN))
        game = self.client
        if game.is_over:
            raise IllegalMoveError(_(OVER_THEN).format(after=self._after_game_words()))
        if game.current_player != self.at_keyboard:
            name = self.seats[game.current_player].name
            raise IllegalMoveError(_(NOT_YOUR_TURN).format(name=name))

    def _apply(self, seat: int, move: Move) -> None:
        wild_before = self.client.wild_rank
        before = self.hand(seat)
        focused = before[self.focus()] if before and seat == self.at_keyboard else None
        round_before = self.client.round
        try:
            self.link.act(seat, move, self.clients[seat].seq)
        except LinkError as error:
            raise IllegalMoveError(str(error)) from None
        news = self._sync()
        self._autosave()
        added: list[Card] = []
        if seat in self.seat_state and self.client.round == round_before:
            added = self._refocus(seat, before, focused)
        note = None
        if added and seat == self.at_keyboard:
            hand = self.hand(seat)
            note = _(DRAWN_PLACE).format(index=hand.index(added[0]) + 1, count=len(hand))
        self._announce(news, wild_before, mover=seat, own_note=note)

    def _refocus(self, seat: int, before: list[Card], focused: Card | None) -> list[Card]:
        """Keep the focus on the same card (a drawn card never takes it: Enter right after D
        must not throw away what you drew); returns the cards that came into the hand."""
        from collections import Counter

        after = self.hand(seat)
        state = self.seat_state[seat]
        added = list((Counter(after) - Counter(before)).elements())
        if focused is not None and focused in after:
            state.focus = after.index(focused)
        else:
            state.focus = min(state.focus, max(0, len(after) - 1))
        return added

    def _do_draw(self, key: str) -> None:
        self._require_my_turn()
        self._apply(self.at_keyboard, DrawFromStock())

    def _do_take(self, key: str) -> None:
        self._require_my_turn()
        self._apply(self.at_keyboard, TakeDiscard())

    def _do_discard(self, key: str) -> None:
        self._require_my_turn()
        hand = self.hand()
        if self.client.phase in (Phase.DRAW, Phase.LAST_DRAW):
            raise IllegalMoveError(_(DRAW_FIRST))
        card = hand[self.focus()]
        self._apply(self.at_keyboard, Discard(card))

    def _do_go_out(self, key: str) -> None:
        self._require_my_turn()
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            raise IllegalMoveError(_(DRAW_BEFORE_OUT))
        instead = last_turn_discard(game.phase, hand, wild)
        if instead is not None:
            self._apply(self.at_keyboard, instead)
            return
        discards = going_out_discards(hand, wild)
        if not discards:
            best = best_with_discard(hand, wild)
            left = best.leftover
            points = best.leftover_points
            self.refuse(not_yet(points).format(cards=card_list(left, wild), count=points))
            return
        focused = hand[self.focus()]
        advised = advised_discard(hand, wild, avoid=game.taken_discard)
        card = focused if focused in discards else advised.discard
        assert card is not None
        self._apply(self.at_keyboard, GoOut(card))

    # --- computer players -----------------------------------------------------------

    def step_bot(self) -> None:
        """Play one whole turn of the computer player whose turn it is (move by move,
        through the table)."""
        if not self.bot_due():
            return
        game = self.client
        seat = game.current_player
        wild = game.wild_rank
        news: dict[int, list[Event]] = {human: [] for human in self.clients}
        explanations: list[str] = []
        start_round = game.round
        for _step in range(4):  # draw, (lay down), discard: at most three moves in a turn
            explanation = self.link.step_bot()
            if explanation:
                explanations.append(explanation)
            for human, events in self._sync().items():
                news[human] += events
            game = self.client
            if game.is_over or game.current_player != seat or game.round != start_round:
                break
            if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
                break
        self._autosave()
        if explanations:
            self.last_explanation = answers.why_words(
                self.seats[seat].name, " ".join(explanations), private=False
            )
        self._announce(news, wild, mover=seat)

    # --- announcements ------------------------------------------------------------

    def _announce(
        self,
        news: dict[int, list[Event]],
        wild: Rank,
        mover: int | None = None,
        resumed: bool = False,
        own_note: str | None = None,
    ) -> None:
        """Tell each human seat its own ``news`` (the events as that seat received them);
        ``own_note`` ends the mover's own first sentence when the mover is at the keyboard
        (where a drawn card went)."""
        you = self.at_keyboard
        events = news[you]  # every seat gets the same events, each redacted for itself
        split = next((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), 0)
        if mover is not None and split > 0:
            self._announce({seat: seen[:split] for seat, seen in news.items()}, wild, mover)
            rest = {seat: seen[split:] for seat, seen in news.items()}
            if self.local is None:
                # why no pause at a network table: its server has dealt the next round and
                # plays on; the new round is told at once, before the moves that follow it
                self._announce(rest, self.client.wild_rank, mover=mover)
                return
            # A round ended: its result stays the last word until the player deals the next.
            self.next_round = (rest, mover)
            self.list_state = None
            self.say(self._pause_words())
            return
        names = [seat.name for seat in self.seats]
        announcements = []
        # Each human seat hears the events it was sent, in its own history; only the
        # seat at the keyboard's words are spoken.
        for seat, state in self.seat_state.items():
            heard = state.log.hear(
                news[seat], names, wild, self.verbosity, hand_at_start=self.hand(seat)
            )
            if seat == you:
                announcements = heard
                if self.privacy_for is None:
                    state.log.mark_heard()  # the seat at the keyboard hears it now
        own = mover == you
        for announcement in announcements:
            text = announcement.text
            if own and own_note:
                text = f"{text} {own_note}"
                self.seat_state[you].log.record(own_note)
            self._emit(text, interrupt=own, sound=announcement.sound)
            own = False  # only the first sentence answers the key; the rest queue
        if any(isinstance(event, GameOver) for event in events):
            self._game_over()
            return
        if any(isinstance(event, RoundScored) for event in events):
            # why: the turns told here belong to the round that just ended (a network table
            # may send a last turn's start with the moves that end the round); the next
            # round's first turn is told when it is dealt
            return
        if mover is not None and any(
            isinstance(event, TurnStarted | LastTurnStarted) for event in events
        ):
            self._check_hot_seat()
        turn_started = any(isinstance(e, TurnStarted | LastTurnStarted) for e in events)
        if (
            self.privacy_for is None
            and self.client.current_player == you
            and (resumed or turn_started)
        ):
            self._your_turn()
        elif self.local is None:
            self._their_turn(events)

    def _their_turn(self, events: Sequence[Event]) -> None:
        """At a network table: another human player's turn began and they have not moved yet.

        why not for computer players: their moves are told right after, so it would be noise.
        """
        started = [e for e in events if isinstance(e, TurnStarted)]
        current = self.client.current_player
        if (
            started
            and started[-1].player == current
            and current != self.at_keyboard
            and self.seats[current].human
            and not self.client.is_over
            and self.client.phase is Phase.DRAW
        ):
            self.say(_(THEIR_TURN).format(name=self.seats[current].name))

    def _tell_position(self) -> None:
        """Where a resumed game stands: your hand, then whose turn it is and what to do."""
        game = self.client
        wild = game.wild_rank
        self.say(_(YOUR_HAND).format(cards=card_list(self.hand(), wild)))
        mine = game.current_player == self.at_keyboard
        text = self._status_words()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            top = game.top_discard
            if top is None:
                text = f"{text} {_(TOP_NONE)}"
            else:
                text = f"{text} {_(TOP_DISCARD).format(card=spoken_name(top, wild))}"
        self.say(text, sound="your_turn" if mine else None)

    def _your_turn(self) -> None:
        game = self.client
        top = game.top_discard
        if game.phase is Phase.LAST_DRAW:
            # "This is your last turn" was said with its sound; what you may take is news.
            if top is not None:
                self.say(_(TOP_DISCARD).format(card=spoken_name(top, game.wild_rank)))
            return
        if game.phase is not Phase.DRAW:  # already drawn (a resumed game): say what is left
            self.say(self._status_words(), sound="your_turn")
            return
        if self.verbosity == "brief":
            text = _(YOUR_TURN_BRIEF)
        elif top is not None:
            text = _(YOUR_TURN_TOP).format(card=spoken_name(top, game.wild_rank))
        else:
            text = _(YOUR_TURN_EMPTY)
        if self.verbosity == "full":
            left = least_leftover(self.hand(), game.wild_rank)
            text = f"{text} {answers.hint_wait_left(left).format(count=left)}"
        self.say(text, sound="your_turn")

    def _check_hot_seat(self) -> None:
        """Between two different humans' turns, hide the hand until the next one is ready."""
        current = self.client.current_player
        if self.client.is_over or current not in self.seat_state or len(self.humans) == 1:
            return
        if current != self.at_keyboard or not self.keyboard_confirmed:
            self.privacy_for = current
            self.list_state = None
            self.confirm = None
            for clear in self.clear_listeners:
                clear()  # line mode: the previous player's lines leave the screen
            self.say(self._privacy_text())

    def _privacy_text(self) -> str:
        assert self.privacy_for is not None
        name = self.seats[self.privacy_for].name
        return _(PASS_TO).format(name=name, keys=self.keymap.display_keys("ready"))

    def _do_ready(self, key: str) -> None:
        assert self.privacy_for is not None
        self.at_keyboard = self.privacy_for
        self.privacy_for = None
        self.keyboard_confirmed = True
        name = self.seats[self.at_keyboard].name
        hand = self.hand()
        wild = self.client.wild_rank
        self.answer(
            _(READY).format(name=name, round=self._round_words(), cards=card_list(hand, wild))
        )
        moves = self._others_moves(unheard=True)
        if moves:
            self.say(moves)
        self._your_turn()

    def _pause_words(self) -> str:
        keys = self.keymap.display_keys("discard")
        return _(NEXT_ROUND).format(round=self.client.round, keys=keys)

    def _deal_next(self) -> None:
        """After a round's result: tell the new round (and whose turn it is)."""
        assert self.next_round is not None
        events, mover = self.next_round
        self.next_round = None
        self._announce(events, self.client.wild_rank, mover=mover)

    def _do_menu(self, key: str) -> None:
        if self.next_round is None:
            super()._do_menu(key)
            return
        keys = self.keymap.display_keys("discard")
        items: list[MenuItem] = [
            (_(DEAL_ITEM).format(round=self.client.round, keys=keys), self._deal_next)
        ]
        for action in self.available_actions():
            if action.group != "turn":
                items += self.menu_items(action)
        self._open_list("menu", _(ACTIONS_TITLE), items)

    def _game_over(self) -> None:
        # why only local: a network table's server records its own finished games
        if not self.history_recorded and self.local is not None:
            self.history_recorded = True
            try:
                game_history.append_history(
                    [seat.name for seat in self.seats],
                    list(self.client.totals),
                    game_id=self.game_id,
                )
                if self.autosave_enabled:
                    storage.delete_autosave(self.save_path)
            except OSError as error:
                self.say(_(NOT_RECORDED).format(why=error.strerror))
        self.say(self._after_game_words())

    def _may_deal_again(self) -> bool:
        """Whether this seat may start a new game after this one: always in local play; at
        a network table only its creator (the server refuses anyone else)."""
        return self.local is not None or bool(getattr(self.link, "creator", False))

    def _after_game_words(self) -> str:
        keys = self.keymap.display_keys
        if not self._may_deal_again():
            # why: only the table's creator may start a new game there (the server says so)
            return _(AFTER_GAME_GUEST).format(scores=keys("scores"), quit=keys("quit"))
        return _(AFTER_GAME).format(
            new=keys("whose_turn"), scores=keys("scores"), quit=keys("quit")
        )

    # --- information keys (never change the game) ----------------------------------

    def _round_words(self) -> str:
        game = self.client
        return answers.round_words(game.round, game.wild_rank)

    def _status_words(self) -> str:
        game = self.client
        if game.is_over:
            over = [e for e in game.events if isinstance(e, GameOver)]
            names = [seat.name for seat in self.seats]
            return game_result(over[-1], names, self.at_keyboard) if over else _(GAME_IS_OVER)
        if self.privacy_for is not None:
            return self._privacy_text()
        if self.next_round is not None:
            return self._pause_words()
        current = game.current_player
        name = None if current == self.at_keyboard else self.seats[current].name
        return answers.turn_words(game.phase, name)

    def _others_moves(self, unheard: bool = False) -> str:
        """Every public event since the last turn of the seat at the keyboard (with
        ``unheard``: only what it has not heard yet)."""
        log = self.seat_state[self.at_keyboard].log
        names = [seat.name for seat in self.seats]
        return " ".join(log.since_last_turn(names, self.verbosity, unheard=unheard))

    def _do_hand(self, key: str) -> None:
        if self.watching:
            raise FiveCrownsError(_(WATCHING_NO_HAND))
        game = self.client
        sort = self.seat_state[self.at_keyboard].sort
        self.answer(answers.hand_words(self.hand(), game.wild_rank, game.hand_size, sort))

    def _do_round(self, key: str) -> None:
        game = self.client
        dealer = self.seats[game.dealer].name
        self.answer(answers.round_answer(game.round, game.wild_rank, game.hand_size, dealer))

    def _do_piles(self, key: str) -> None:
        view = self.client.view
        self.answer(
            answers.piles_words(
                view.top_discard, view.wild_rank, view.stock_count, view.discard_count
            )
        )

    def _do_scores(self, key: str) -> None:
        game = self.client
        self.answer(answers.scores_words(self._heard_names(), game.totals, game.round_scores))

    def _do_round_detail(self, key: str) -> None:
        scored = [e for e in self.client.events if isinstance(e, RoundScored)]
        if not scored and self.client.round_scores:
            # why: a spectator who came later has the points of the rounds before, not their
            # events; what it has is better than "no round has ended yet"
            points = self.client.round_scores[-1]
            names = self._heard_names()
            scores = ", ".join(f"{names[i]} {score}" for i, score in enumerate(points))
            count = len(self.client.round_scores)
            self.answer(_(ROUND_BEFORE_WATCHING).format(round=count, scores=scores))
            return
        if not scored:
            self.answer(_(NO_ROUND_YET))
            return
        last = scored[-1]
        wild = next(
            e.wild_rank
            for e in self.client.events
            if isinstance(e, RoundStarted) and e.round == last.round
        )
        names = [seat.name for seat in self.seats]
        result = round_result(last, names, self.at_keyboard)
        self.answer(f"{result} {round_detail(last, names, self.at_keyboard, wild)}")

    def _heard_names(self, capital: bool = False) -> list[str]:
        """The players' names as the seat at the keyboard hears them: its own is "you"."""
        you = answers.you_word(capital)
        return [you if i == self.at_keyboard else s.name for i, s in enumerate(self.seats)]

    def _do_melds(self, key: str) -> None:
        view = self.client.view
        self.answer(answers.melds_answer(self._heard_names(True), view.laid_down, view.wild_rank))

    def _do_counts(self, key: str) -> None:
        view = self.client.view
        brief = self.verbosity == "brief"
        seats = self.seats
        levels = [None if brief else seat.level for seat in seats]
        in_place = [seat.left or seat.standin for seat in seats]  # as the server's C says them
        self.answer(
            answers.counts_words(
                self._heard_names(True),
                view.hand_counts,
                view.stock_count,
                view.went_out,
                levels,
                in_place,
            )
        )

    def _do_last_moves(self, key: str) -> None:
        moves = self._others_moves()
        if self.watching:  # why: a spectator has no turn; its news runs from its last look
            self.seat_state[self.at_keyboard].log.forget_news()
            self.answer(moves or _(WATCHING_NO_NEWS))
            return
        self.answer(moves or _(NO_NEWS))

    def _do_whose_turn(self, key: str) -> None:
        if self.client.is_over and self._may_deal_again():
            self._new_game()  # why this key: "what happens next?" after the game is a new one
            return
        if self.client.is_over:  # why: a guest is told the result and who may deal again
            self.answer(self._status_words())
            self.say(self._after_game_words())
            return
        self.answer(self._status_words())

    def _new_game(self) -> None:
        """A new game at the same table: same seats and computer players, a new deal."""
        if self.local is None:
            ask = getattr(self.link, "new_game", None)
            if ask is None:
                raise FiveCrownsError(_(REMOTE_NEW_GAME))
            ask()  # the server deals it (the creator's right), or says why not
            self.answer(_(REMOTE_NEW_GAME_ASKED))
            return
        self.local.new_game(seed=new_seed())
        self.clients = {i: SeatClient(self.link, i) for i in self.humans}
        # why keep each seat's log: the last game's result stays in its history for review
        self.seat_state = {i: _SeatState(self.seat_state[i].log) for i in self.humans}
        for state in self.seat_state.values():
            state.log.forget_news()
        self.at_keyboard = self.humans[0]
        self.privacy_for = None
        self.keyboard_confirmed = False
        self.next_round = None
        self.last_explanation = None
        self.history_recorded = False
        # why an id: a kill between recording the result and deleting the autosave must
        # not record the same game twice when it is resumed (issue 16)
        self.game_id = game_history.new_game_id()
        self.list_state = None
        self.confirm = None
        self.start()
        self.save_now()

    def _do_chat(self, key: str) -> None:
        if getattr(self.link, "chat", None) is None:
            raise FiveCrownsError(_(CHAT_LOCAL))
        self.chat_line = ""
        self.list_state = None
        self.answer(_(CHAT_OPEN))

    def _chat_key(self, key: str) -> None:
        """A key while typing a chat line: characters, Backspace, Enter sends, Escape cancels."""
        assert self.chat_line is not None
        if key == "escape":
            self.chat_line = None
            self.answer(_(CHAT_CANCELLED))
        elif key == "c-m":
            text = " ".join(self.chat_line.split())
            if not text:
                self.refuse(_(CHAT_EMPTY))
                return
            self.chat_line = None
            send = getattr(self.link, "chat", None)
            if send is not None:
                send(text)  # everyone there, you too, hears it as "NAME says: ..."
        elif key in ("c-h", "backspace"):
            before, self.chat_line = self.chat_line, self.chat_line[:-1]
            self.echo_typing(before, self.chat_line)  # said and, in line mode, printed
        elif len(key) == 1 and key.isprintable() and len(self.chat_line) < CHAT_LONGEST:
            self.chat_line += key
            self.echo_typing(self.chat_line[:-1], self.chat_line)

    def overlay(self) -> ListScreen | None:
        if self.chat_line is not None:
            return ListScreen(_(CHAT_PROMPT).format(text=self.chat_line), (), 0)
        return super().overlay()

    def _do_quit(self, key: str) -> None:
        leave = getattr(self.link, "leave", None)
        if self.local is not None or leave is None:
            super()._do_quit(key)
            return

        def leave_table() -> None:
            leave()  # why no goodbye: the lobby takes the keyboard back and says where you are
            self.exit_requested = True

        if self.is_over() or self.watching:  # why no question: nothing is lost by leaving
            leave_table()
            return

        keys = self.keymap.display_keys
        question = _(REMOTE_QUIT).format(yes=keys("confirm_yes"), no=keys("confirm_no"))
        self.confirm = (question, leave_table)
        self.answer(question)

    def help_lines(self) -> list[str]:
        if self.local is None:
            # a network seat: Q leaves the table (nothing is saved here), and no hot seat
            quit_help = WATCHING_QUIT_HELP if self.watching else NETWORK_QUIT_HELP
            actions = tuple(
                dataclasses.replace(action, help_text=quit_help)
                if action.name == "quit"
                else action
                for action in self.keymap.actions
                if action.group != "privacy"
            )
            groups = {name: title for name, title in GROUPS.items() if name != "privacy"}
            return [*Keymap(actions).help_lines(groups), self.caps_lock_help()]
        return super().help_lines()

    def _do_past_games(self, key: str) -> None:
        if self.local is None:
            self.answer(_(REMOTE_PAST_GAMES))
            return
        super()._do_past_games(key)

    def _do_why(self, key: str) -> None:
        if self.local is None:
            # why ask: the server runs a network table's computer players; it tells their
            # moves, never their reasons (those name cards in their hands)
            self.last_explanation = self.link.explain_last_bot_turn()
        self.answer(self.last_explanation or _(answers.NO_WHY))

    def _do_speech(self, key: str) -> None:
        self.answer(f"{self.speech_report or _(NO_SPEECH_REPORT)} {_(SPEECH_LIST_TIP)}")

    def _do_hint(self, key: str) -> None:
        if self.watching:
            raise FiveCrownsError(_(WATCHING_NO_HAND))
        self.answer(self.hint())

    def hint(self) -> str:
        """The solver's advice for the player at the keyboard, in one or two sentences."""
        game = self.client
        if game.is_over:
            return _(OVER_THEN).format(after=self._after_game_words())
        current = game.current_player
        return answers.hint_words(
            game.phase,
            self.hand(),
            game.wild_rank,
            game.hand_size,
            game.top_discard,
            game.taken_discard,
            None if current == self.at_keyboard else self.seats[current].name,
            focused=self.hand()[self.focus()] if self.hand() else None,
        )

    def _do_sort(self, key: str) -> None:
        state = self.seat_state[self.at_keyboard]
        hand = self.hand()
        card = hand[self.focus()] if hand else None
        state.sort = "suit" if state.sort == "rank" else "rank"
        if card is not None:
            state.focus = self.hand().index(card)
        self.answer(_(SORTED[state.sort]))

    def _do_export(self, key: str) -> None:
        from fivecrowns.export.files import write_game_exports

        written = write_game_exports(self.client.view, documents_dir())
        self.answer(written.message)

    # --- moving through the hand -------------------------------------------------

    def _speak_focus(self, edge: str = "") -> None:
        hand = self.hand()
        if not hand:
            self.answer(_(answers.EMPTY_HAND))
            return
        index = self.focus()
        card = spoken_name(hand[index], self.client.wild_rank)
        template = {"first": FOCUS_FIRST, "last": FOCUS_LAST}.get(edge, FOCUS)
        self.answer(_(template).format(card=card, index=index + 1, count=len(hand)))

    def _move_focus(self, index: int) -> None:
        hand = self.hand()
        state = self.seat_state[self.at_keyboard]
        state.focus = max(0, min(index, len(hand) - 1))
        # Moving past an end says so first, so a repeated card is not taken for a new one.
        edge = "last" if index >= len(hand) else "first" if index < 0 else ""
        self._speak_focus(edge)

    def _do_previous(self, key: str) -> None:
        self._move_focus(self.focus() - 1)

    def _do_next(self, key: str) -> None:
        self._move_focus(self.focus() + 1)

    def _do_current(self, key: str) -> None:
        self._speak_focus()

    def _do_first(self, key: str) -> None:
        self._move_focus(0)

    def _do_last(self, key: str) -> None:
        self._move_focus(len(self.hand()) - 1)

    def _do_jump(self, key: str) -> None:
        try:
            index = jump_index(key, self.focus(), len(self.hand()))
        except KeymapError as error:
            raise FiveCrownsError(str(error)) from None
        self._move_focus(index)

    # --- messages --------------------------------------------------------------------

    # --- lists: the action menu and help ------------------------------------------------

    def menu_items(self, action: Action) -> list[MenuItem]:
        if action.name in ("discard", "go_out"):
            return self._card_items(action)
        keys = self.keymap.display_keys(action.name)
        label = self._menu_label(action)
        return [
            (
                _(MENU_ITEM).format(label=label, keys=keys),
                functools.partial(self.run_action, action),
            )
        ]

    def _card_items(self, action: Action) -> list[MenuItem]:
        """One menu item per distinct card the action can take, so a player who uses only
        the menu can discard (or go out with) any card; choosing one focuses that card and
        runs the same action as the key."""
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        focused = hand[self.focus()] if hand else None
        keys = self.keymap.display_keys(action.name)
        last_turn = game.phase in (Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD)
        items: list[MenuItem] = []
        if action.name == "go_out":
            if last_turn:
                best = best_with_discard(hand, wild)
                assert best.discard is not None
                points = best.leftover_points
                label = lay_down_best_item(points).format(
                    card=spoken_name(best.discard, wild), count=points
                )
                item = _(MENU_ITEM).format(label=label, keys=keys)
                return [(item, functools.partial(self.run_action, action))]
            cards: Sequence[Card] = going_out_discards(hand, wild)
        else:
            cards = list(dict.fromkeys(hand))
        for card in cards:
            name = spoken_name(card, wild)
            if action.name == "go_out":
                label = _(GO_OUT_ITEM).format(card=name)
            elif last_turn and game.phase is Phase.LAST_LAY_DOWN:
                rest = list(hand)
                rest.remove(card)
                left = best_arrangement(rest, wild).leftover_points
                label = lay_down_item(left).format(card=name, count=left)
            else:
                label = _(DISCARD_ITEM).format(card=name)
            if card == focused:
                label = _(MENU_ITEM).format(label=label, keys=keys)
            items.append((label, functools.partial(self._card_action, action, card)))
        return items

    def _card_action(self, action: Action, card: Card) -> None:
        hand = self.hand()
        if card in hand:
            self.seat_state[self.at_keyboard].focus = hand.index(card)
        self.run_action(action)

    def _menu_label(self, action: Action) -> str:
        game = self.client
        wild = game.wild_rank
        if action.name == "whose_turn" and game.is_over and self._may_deal_again():
            return _(NEW_GAME_ITEM)
        if action.name == "take" and game.top_discard is not None:
            return _(TAKE_ITEM).format(card=spoken_name(game.top_discard, wild))
        return action.label

    def available_actions(self) -> list[Action]:
        """Every action that does something now: the menu lists these."""
        game = self.client
        mine = not game.is_over and game.current_player == self.at_keyboard
        names: list[str] = []
        if mine and game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            names.append("draw")
            if game.top_discard is not None:
                names.append("take")
        if mine and game.phase in (Phase.DISCARD, Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD):
            names.append("discard")
            hand = self.hand()
            if game.phase is not Phase.DISCARD or going_out_discards(hand, game.wild_rank):
                names.append("go_out")
        names += [
            "hand", "hint", "round", "piles", "scores", "round_detail", "melds", "counts",
            "last_moves", "whose_turn", "why", "current", "sort", "past_games", "export", "repeat",
            *(["chat"] if getattr(self.link, "chat", None) is not None else []),
            "verbosity", "speech", "settings", "help", "quit",
        ]  # fmt: skip
        return [self.keymap.get(name) for name in names]

    # --- quitting ----------------------------------------------------------------------

    # --- saving ------------------------------------------------------------------------

    def save_payload(self) -> dict[str, Any]:
        """The save file's content: the local table's game, and this keyboard's settings."""
        assert self.local is not None, "a remote table is saved by its server"
        return self.local.save_payload(self.at_keyboard, self.verbosity, self.game_id)

    def save_now(self) -> None:
        """Write the autosave now (after starting or resuming, so a kill loses nothing)."""
        self._autosave()

    def _autosave(self) -> None:
        if not self.autosave_enabled or self.client.is_over:
            return
        path = self.save_path or storage.autosave_path()
        try:
            storage.write_autosave(self.save_payload(), self.save_path)
        except OSError as error:
            why = error.strerror or error
            self.save_problem = _(SAVE_FAILED).format(folder=path.parent, why=why)
            self.say(_(NOT_SAVED).format(why=error.strerror))
        else:
            self.save_problem = None


def game_from_save(data: dict[str, Any]) -> tuple[Game, list[Seat], int]:
    """Rebuild an autosaved game: from its full state, else by replaying its moves.

    The seats, seed and moves are kept beside the full state so that the game
    can also be replayed from its seed (``fivecrowns export --game`` does that).
    """
    from fivecrowns.core.game import GameOptions

    try:
        seats = [Seat(str(s["name"]), s["level"]) for s in data["seats"]]
        at_keyboard = int(data.get("at_keyboard", 0))
    except (KeyError, TypeError, ValueError) as error:
        raise SaveFileError(_("The saved game has no seats: {why}.").format(why=error)) from None
    for seat in seats:
        if seat.level is not None and not isinstance(seat.level, str):
            raise SaveFileError(
                _("The saved game's seat {name} has no valid level.").format(name=seat.name)
            )
    if "game" in data:
        return game_from_json(data["game"]), seats, at_keyboard
    try:
        game = Game(
            [seat.name for seat in seats],
            seed=int(data["seed"]),
            first_dealer=int(data["first_dealer"]),
            options=GameOptions(decks=int(data.get("decks", 2))),
        )
        for player, move_data in data["moves"]:
            game.apply(int(player), move_from_json(move_data))
    except (KeyError, TypeError, ValueError, FiveCrownsError) as error:
        raise SaveFileError(
            _("The saved game cannot be replayed: {why}.").format(why=error)
        ) from None
    return game, seats, at_keyboard


def new_seed() -> int:
    return random.SystemRandom().randrange(2**31)
