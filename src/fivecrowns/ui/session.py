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

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from fivecrowns.cards import Card, Rank, is_wild, spoken_name
from fivecrowns.client.inprocess import InProcessLink
from fivecrowns.client.link import LinkError, SeatClient, TableLink
from fivecrowns.errors import FiveCrownsError, IllegalMoveError, SaveFileError
from fivecrowns.game import (
    Discard,
    DrawFromStock,
    Event,
    Game,
    GameOver,
    GoOut,
    LastTurnStarted,
    Move,
    Phase,
    RoundScored,
    RoundStarted,
    TakeDiscard,
    TurnStarted,
    game_from_json,
    move_from_json,
)
from fivecrowns.melds import (
    Arrangement,
    best_arrangement,
    best_with_discard,
    going_out_discards,
    least_leftover,
)
from fivecrowns.output.history import History
from fivecrowns.ui import storage
from fivecrowns.ui.announce import (
    card_list,
    game_result,
    join_words,
    melds_words,
    round_detail,
    round_result,
)
from fivecrowns.ui.commands import CommandLayer, MenuItem, Speaker
from fivecrowns.ui.keymap import Action, Keymap, KeymapError, jump_index
from fivecrowns.ui.model import ListScreen, SeatLine, TableModel
from fivecrowns.ui.seat_log import SeatLog
from fivecrowns.ui.settings import Settings, documents_dir

#: Between rounds: the result stays until the player deals the next round.
NEXT_ROUND = "Round {round} next. Press {keys} to deal it."
#: The action menu's item between rounds.
DEAL_ITEM = "Deal round {round}: {keys}"

#: The card on the discard pile, said when it is yours to take.
TOP_DISCARD = "Top discard: {card}."

#: The speech-details key.
NO_SPEECH_REPORT = "Speech: as the game was started."
SPEECH_LIST_TIP = "For every choice and why, run: fivecrowns speech --list."

#: The hint in a last turn, in the words of the menu item that does it.
LAST_TURN_HINT = "Lay down and discard the {card}, leaving {points} points."

#: After drawing or taking: where the new card went (the focus stays where it was).
DRAWN_PLACE = "It is card {index} of {count}."

#: How many earlier messages the full screen shows above the message line.
RECENT_LINES = 4
GAME_IS_OVER = "The game is over."

#: The last-round key before any round has ended.
NO_ROUND_YET = "No round has ended yet."

#: The last-moves key when nobody has done anything since your turn.
NO_NEWS = "Nothing has happened since your last turn."

#: The keys that work on the hot-seat privacy screen besides Enter: none shows the hand.
PRIVACY_SAFE = frozenset({"quit", "help", "stop_speech"})

__all__ = [
    "Bot",
    "Seat",
    "Session",
    "Speaker",
    "advised_discard",
    "game_from_save",
    "new_seed",
]

#: The new-game key at a network table: the server holds the table, not this keyboard.
REMOTE_NEW_GAME = "This table's game is over. To play again, create a new table in the lobby."


class RemoteLink(TableLink, Protocol):
    """A table link as the session uses it: moves and news, and the pacing of computer
    players when the table is local (a network table paces its own: ``bot_due`` is False)."""

    def bot_due(self) -> bool: ...
    def step_bot(self) -> str | None: ...
    def explain_last_bot_turn(self) -> str | None: ...


#: Chat at a network table (the slash key).
CHAT_OPEN = "Say to the table: type your line, then Enter to send or Escape to cancel."
CHAT_PROMPT = "Say to the table: {text}"
CHAT_CANCELLED = "Nothing sent."
CHAT_LOCAL = "Chat is for network tables: everyone here shares this keyboard."
CHAT_EMPTY = "There is nothing to send: type a line first, or Escape to cancel."
CHAT_LONGEST = 300

#: Quitting at a network table: nothing is saved here; the server seats a computer player.
REMOTE_QUIT = (
    "Quit? You leave the table, and a computer player takes your seat for the rest of "
    "the game. {yes} to quit, {no} to keep playing."
)
REMOTE_GOODBYE = "You left the table. Goodbye."

#: Why a save failed, as the quit question and goodbye say it (issue 16: never "Saved" then).
SAVE_FAILED = "the game could not be written to {folder} ({why})."


class Bot(Protocol):
    def decide(self, view: Any) -> Any: ...


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a human at this keyboard, or a computer player of ``level``."""

    name: str
    level: str | None = None  # None: a human

    @property
    def human(self) -> bool:
        return self.level is None


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
        self.seats = list(seats)
        self.output = output
        self.settings = settings or Settings()
        self.keymap: Keymap = self.settings.keymap
        self.verbosity = self.settings.verbosity
        self.delay = self.settings.delay if delay is None else delay
        self.save_path = save_path
        self.autosave_enabled = autosave and remote is None
        self.bots: dict[int, Bot] = dict(bots or {})
        for seat_index, seat in enumerate(self.seats if remote is None else ()):
            if seat.level is not None and seat_index not in self.bots:
                if bot_loader is None:
                    raise FiveCrownsError(f"No way to start the computer player {seat.name}.")
                self.bots[seat_index] = bot_loader(seat.level, seat_index)
        humans = [i for i, seat in enumerate(self.seats) if seat.human]
        if remote is not None:
            humans = [remote[1]]  # one seat: the others are at their own computers
        if not humans:
            raise FiveCrownsError("A game here needs at least one human player.")
        self.humans = humans
        # Local play goes through the in-process transport: the table owns the game, and
        # each human seat here knows only what its own snapshot and events tell it.
        self.local: InProcessLink | None = None
        self.link: RemoteLink
        if remote is None:
            assert game is not None
            seat_list = [(s.name, s.level) for s in self.seats]
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
        self.game_id = storage.new_game_id()
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
            self.say("This game is over.")
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
            self.say(f"Resumed. {self._round_words()}")
            self._check_hot_seat()
            if self.privacy_for is None:
                self._tell_position()
            return
        names = join_words(
            [seat.name + ("" if seat.human else f" ({seat.level})") for seat in self.seats]
        )
        self.say(f"New game: {names}. Press F1 for help, Escape for the action menu.")
        self._check_hot_seat()
        if self.privacy_for is None:
            self._announce(
                {seat: list(client.round_events) for seat, client in self.clients.items()},
                self.client.wild_rank,
            )

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
                f"The hand is hidden. Press {keys('ready')} when ready, {keys('help')} for help, "
                f"{keys('quit')} to quit."
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
                note = "went out"
            elif not seat.human:
                note = f"computer, {seat.level}"
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
            you=self.seats[self.at_keyboard].name,
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
        game = self.client
        if game.is_over:
            raise IllegalMoveError(f"The game is over. {self._after_game_words()}")
        if game.current_player != self.at_keyboard:
            name = self.seats[game.current_player].name
            raise IllegalMoveError(f"It is {name}'s turn, not yours. Press N to hear what happens.")

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
            note = DRAWN_PLACE.format(index=hand.index(added[0]) + 1, count=len(hand))
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
            raise IllegalMoveError("You must draw before you discard: press D or T.")
        card = hand[self.focus()]
        self._apply(self.at_keyboard, Discard(card))

    def _do_go_out(self, key: str) -> None:
        self._require_my_turn()
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            raise IllegalMoveError("You must draw before you go out: press D or T.")
        if game.phase in (Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD):
            best = best_with_discard(hand, wild)
            assert best.discard is not None
            self._apply(self.at_keyboard, Discard(best.discard))
            return
        discards = going_out_discards(hand, wild)
        if not discards:
            best = best_with_discard(hand, wild)
            left = best.leftover
            self.refuse(
                f"Not yet: left over would be {card_list(left, wild)}, "
                f"{best.leftover_points} points."
            )
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
        for _ in range(4):  # draw, (lay down), discard: at most three moves in a turn
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
            self.last_explanation = f"{self.seats[seat].name}: " + " ".join(explanations)
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
            # A round ended: its result stays the last word until the player deals the next.
            self._announce({seat: seen[:split] for seat, seen in news.items()}, wild, mover)
            self.next_round = ({seat: seen[split:] for seat, seen in news.items()}, mover)
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

    def _tell_position(self) -> None:
        """Where a resumed game stands: your hand, then whose turn it is and what to do."""
        game = self.client
        wild = game.wild_rank
        self.say(f"Your hand: {card_list(self.hand(), wild)}.")
        mine = game.current_player == self.at_keyboard
        text = self._status_words()
        if game.phase in (Phase.DRAW, Phase.LAST_DRAW):
            top = game.top_discard
            text += f" Top discard: {'none' if top is None else spoken_name(top, wild)}."
        self.say(text, sound="your_turn" if mine else None)

    def _your_turn(self) -> None:
        game = self.client
        top = game.top_discard
        if game.phase is Phase.LAST_DRAW:
            # "This is your last turn" was said with its sound; what you may take is news.
            if top is not None:
                self.say(TOP_DISCARD.format(card=spoken_name(top, game.wild_rank)))
            return
        if game.phase is not Phase.DRAW:  # already drawn (a resumed game): say what is left
            self.say(self._status_words(), sound="your_turn")
            return
        if self.verbosity == "brief":
            text = "Your turn."
        elif top is not None:
            text = f"Your turn. Top discard: {spoken_name(top, game.wild_rank)}."
        else:
            text = "Your turn. The discard pile is empty."
        if self.verbosity == "full":
            left = least_leftover(self.hand(), game.wild_rank)
            text += f" Your hand now leaves {left} points."
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
        return f"Pass to {name}. Press {self.keymap.display_keys('ready')} when ready."

    def _do_ready(self, key: str) -> None:
        assert self.privacy_for is not None
        self.at_keyboard = self.privacy_for
        self.privacy_for = None
        self.keyboard_confirmed = True
        name = self.seats[self.at_keyboard].name
        hand = self.hand()
        wild = self.client.wild_rank
        self.answer(f"{name}. {self._round_words()} Your hand: {card_list(hand, wild)}.")
        moves = self._others_moves(unheard=True)
        if moves:
            self.say(moves)
        self._your_turn()

    def _pause_words(self) -> str:
        return NEXT_ROUND.format(round=self.client.round, keys=self.keymap.display_keys("discard"))

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
            (DEAL_ITEM.format(round=self.client.round, keys=keys), self._deal_next)
        ]
        for action in self.available_actions():
            if action.group != "turn":
                items += self.menu_items(action)
        self._open_list("menu", "Actions", items)

    def _game_over(self) -> None:
        # why only local: a network table's server records its own finished games
        if not self.history_recorded and self.local is not None:
            self.history_recorded = True
            try:
                storage.append_history(
                    [seat.name for seat in self.seats],
                    list(self.client.totals),
                    game_id=self.game_id,
                )
                if self.autosave_enabled:
                    storage.delete_autosave(self.save_path)
            except OSError as error:
                self.say(f"The result could not be recorded: {error.strerror}.")
        self.say(self._after_game_words())

    def _after_game_words(self) -> str:
        keys = self.keymap.display_keys
        return (
            f"Press {keys('whose_turn')} for a new game, {keys('scores')} for scores, "
            f"{keys('quit')} to leave."
        )

    # --- information keys (never change the game) ----------------------------------

    def _round_words(self) -> str:
        game = self.client
        return f"Round {game.round} of 11. {game.wild_rank.plural} are wild, and jokers."

    def _status_words(self) -> str:
        game = self.client
        if game.is_over:
            over = [e for e in game.events if isinstance(e, GameOver)]
            names = [seat.name for seat in self.seats]
            return game_result(over[-1], names, self.at_keyboard) if over else GAME_IS_OVER
        if self.privacy_for is not None:
            return self._privacy_text()
        if self.next_round is not None:
            return self._pause_words()
        current = game.current_player
        owner = "Your" if current == self.at_keyboard else f"{self.seats[current].name}'s"
        spoken = game.phase.spoken
        if current != self.at_keyboard:
            spoken = spoken.replace("your", "their")
        if spoken.startswith("last turn: "):
            return f"{owner} last turn: {spoken.removeprefix('last turn: ')}."
        return f"{owner} turn: {spoken}."

    def _others_moves(self, unheard: bool = False) -> str:
        """Every public event since the last turn of the seat at the keyboard (with
        ``unheard``: only what it has not heard yet)."""
        log = self.seat_state[self.at_keyboard].log
        names = [seat.name for seat in self.seats]
        return " ".join(log.since_last_turn(names, self.verbosity, unheard=unheard))

    def _do_hand(self, key: str) -> None:
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        if not hand:
            self.answer("Your hand is empty.")
            return
        if len(hand) > game.hand_size:
            best = advised_discard(hand, wild)
        else:
            best = best_arrangement(hand, wild)
        parts = [f"{len(hand)} cards, sorted by {self.seat_state[self.at_keyboard].sort}."]
        if best.melds:
            parts.append(f"Melds: {melds_words(best.melds, wild)}.")
        if best.leftover:
            parts.append(
                f"Left over: {card_list(best.leftover, wild)}, {best.leftover_points} points."
            )
        else:
            parts.append("Nothing left over.")
        if best.discard is not None:
            parts.append(f"Discard: {spoken_name(best.discard, wild)}.")
        self.answer(" ".join(parts))

    def _do_round(self, key: str) -> None:
        game = self.client
        dealer = self.seats[game.dealer].name
        self.answer(f"{self._round_words()} {game.hand_size} cards each. {dealer} dealt.")

    def _do_piles(self, key: str) -> None:
        view = self.client.view
        top = view.top_discard
        top_words = "empty" if top is None else spoken_name(top, view.wild_rank)
        self.answer(
            f"Top discard: {top_words}. Stock: {_cards(view.stock_count)}. "
            f"Discard pile: {_cards(view.discard_count)}."
        )

    def _do_scores(self, key: str) -> None:
        game = self.client
        rounds = len(game.round_scores)
        order = sorted(range(len(self.seats)), key=lambda i: (game.totals[i], i))
        scores = ", ".join(f"{self._name(i)} {game.totals[i]}" for i in order)
        done = f"after {rounds} round{'s' if rounds != 1 else ''}" if rounds else "no rounds yet"
        last = ""
        if game.round_scores:
            last_round = game.round_scores[-1]
            last = (
                " Last round: " + ", ".join(f"{self._name(i)} {last_round[i]}" for i in order) + "."
            )
        self.answer(f"Scores, {done}: {scores}.{last}")

    def _do_round_detail(self, key: str) -> None:
        scored = [e for e in self.client.events if isinstance(e, RoundScored)]
        if not scored:
            self.answer(NO_ROUND_YET)
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

    def _name(self, seat: int) -> str:
        return "you" if seat == self.at_keyboard else self.seats[seat].name

    def _do_melds(self, key: str) -> None:
        view = self.client.view
        parts = [
            f"{self._name(i).capitalize()}: {melds_words(m, view.wild_rank)}."
            for i, m in enumerate(view.laid_down)
            if m
        ]
        self.answer(" ".join(parts) if parts else "No melds laid down this round.")

    def _do_counts(self, key: str) -> None:
        view = self.client.view
        parts = []
        for i, count in enumerate(view.hand_counts):
            notes = []
            if view.went_out == i:
                notes.append("went out")
            if self.verbosity != "brief" and self.seats[i].level is not None:
                notes.append(f"computer, {self.seats[i].level}")
            note = f" ({'; '.join(notes)})" if notes else ""
            parts.append(f"{self._name(i).capitalize()} {count}{note}")
        self.answer(f"Cards: {', '.join(parts)}. Stock {view.stock_count}.")

    def _do_last_moves(self, key: str) -> None:
        moves = self._others_moves()
        self.answer(moves or NO_NEWS)

    def _do_whose_turn(self, key: str) -> None:
        if self.client.is_over:
            self._new_game()  # why this key: "what happens next?" after the game is a new one
            return
        self.answer(self._status_words())

    def _new_game(self) -> None:
        """A new game at the same table: same seats and computer players, a new deal."""
        if self.local is None:
            raise FiveCrownsError(REMOTE_NEW_GAME)
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
        self.game_id = storage.new_game_id()
        self.list_state = None
        self.confirm = None
        self.start()
        self.save_now()

    def _do_chat(self, key: str) -> None:
        if getattr(self.link, "chat", None) is None:
            raise FiveCrownsError(CHAT_LOCAL)
        self.chat_line = ""
        self.list_state = None
        self.answer(CHAT_OPEN)

    def _chat_key(self, key: str) -> None:
        """A key while typing a chat line: characters, Backspace, Enter sends, Escape cancels."""
        assert self.chat_line is not None
        if key == "escape":
            self.chat_line = None
            self.answer(CHAT_CANCELLED)
        elif key == "c-m":
            text = " ".join(self.chat_line.split())
            if not text:
                self.refuse(CHAT_EMPTY)
                return
            self.chat_line = None
            send = getattr(self.link, "chat", None)
            if send is not None:
                send(text)  # everyone there, you too, hears it as "NAME says: ..."
        elif key in ("c-h", "backspace"):
            self.chat_line = self.chat_line[:-1]
        elif len(key) == 1 and key.isprintable() and len(self.chat_line) < CHAT_LONGEST:
            self.chat_line += key

    def overlay(self) -> ListScreen | None:
        if self.chat_line is not None:
            return ListScreen(CHAT_PROMPT.format(text=self.chat_line), (), 0)
        return super().overlay()

    def _do_quit(self, key: str) -> None:
        leave = getattr(self.link, "leave", None)
        if self.local is not None or leave is None or self.is_over():
            super()._do_quit(key)
            return

        def leave_table() -> None:
            leave()
            self.answer(REMOTE_GOODBYE)
            self.exit_requested = True

        keys = self.keymap.display_keys
        question = REMOTE_QUIT.format(yes=keys("confirm_yes"), no=keys("confirm_no"))
        self.confirm = (question, leave_table)
        self.answer(question)

    def _do_why(self, key: str) -> None:
        self.answer(self.last_explanation or "No computer player has moved yet.")

    def _do_speech(self, key: str) -> None:
        self.answer(f"{self.speech_report or NO_SPEECH_REPORT} {SPEECH_LIST_TIP}")

    def _do_hint(self, key: str) -> None:
        self.answer(self.hint())

    def hint(self) -> str:
        """The solver's advice for the player at the keyboard, in one or two sentences."""
        game = self.client
        wild = game.wild_rank
        hand = self.hand()
        mine = game.current_player == self.at_keyboard and not game.is_over
        phase = game.phase
        if game.is_over:
            return f"The game is over. {self._after_game_words()}"
        if not mine:
            now = best_arrangement(hand, wild) if len(hand) <= game.hand_size else None
            left = f" Your hand now leaves {now.leftover_points} points." if now else ""
            return f"Wait: it is {self.seats[game.current_player].name}'s turn.{left}"
        if phase in (Phase.DRAW, Phase.LAST_DRAW):
            now = best_arrangement(hand, wild)
            top = game.top_discard
            if top is None:
                return "Draw from the stock: the discard pile is empty."
            # why advised_discard: the same card the hint names after taking, and G discards
            with_top = advised_discard([*hand, top], wild, avoid=top)
            top_name = spoken_name(top, wild)
            if with_top.leftover_points < now.leftover_points and with_top.discard != top:
                assert with_top.discard is not None
                out = " and go out" if with_top.leftover_points == 0 and phase is Phase.DRAW else ""
                return (
                    f"Take the {top_name} (T): then discard the "
                    f"{spoken_name(with_top.discard, wild)}{out}, leaving "
                    f"{with_top.leftover_points} points instead of {now.leftover_points}."
                )
            if now.leftover_points == 0:
                return f"Draw from the stock (D): all your cards meld; the {top_name} adds nothing."
            return (
                f"Draw from the stock (D): the {top_name} does not lower your "
                f"{now.leftover_points} leftover points."
            )
        best = advised_discard(hand, wild, avoid=game.taken_discard)
        if phase is Phase.DISCARD and best.all_melded:
            assert best.discard is not None
            return f"Go out (G), discarding the {spoken_name(best.discard, wild)}."
        assert best.discard is not None
        if phase is Phase.LAST_LAY_DOWN:  # the words of the menu item that does it
            return LAST_TURN_HINT.format(
                card=spoken_name(best.discard, wild), points=best.leftover_points
            )
        melds = f" Keep {melds_words(best.melds, wild)}." if best.melds else ""
        return (
            f"Discard the {spoken_name(best.discard, wild)}: that leaves "
            f"{best.leftover_points} points.{melds}"
        )

    def _do_sort(self, key: str) -> None:
        state = self.seat_state[self.at_keyboard]
        hand = self.hand()
        card = hand[self.focus()] if hand else None
        state.sort = "suit" if state.sort == "rank" else "rank"
        if card is not None:
            state.focus = self.hand().index(card)
        self.answer(f"Sorted by {state.sort}.")

    def _do_export(self, key: str) -> None:
        from fivecrowns.export.files import write_game_exports

        written = write_game_exports(self.client.view, documents_dir())
        self.answer(written.message)

    # --- moving through the hand -------------------------------------------------

    def _speak_focus(self, edge: str = "") -> None:
        hand = self.hand()
        if not hand:
            self.answer("Your hand is empty.")
            return
        index = self.focus()
        card = spoken_name(hand[index], self.client.wild_rank)
        self.answer(f"{edge}{card}, {index + 1} of {len(hand)}")

    def _move_focus(self, index: int) -> None:
        hand = self.hand()
        state = self.seat_state[self.at_keyboard]
        state.focus = max(0, min(index, len(hand) - 1))
        # Moving past an end says so first, so a repeated card is not taken for a new one.
        edge = "Last card: " if index >= len(hand) else "First card: " if index < 0 else ""
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
        return [(f"{label}: {keys}", functools.partial(self.run_action, action))]

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
                label = (
                    f"Lay down your best melds and discard the {spoken_name(best.discard, wild)}, "
                    f"leaving {best.leftover_points} points"
                )
                return [(f"{label}: {keys}", functools.partial(self.run_action, action))]
            cards: Sequence[Card] = going_out_discards(hand, wild)
        else:
            cards = list(dict.fromkeys(hand))
        for card in cards:
            name = spoken_name(card, wild)
            if action.name == "go_out":
                label = f"Go out, discarding the {name}"
            elif last_turn and game.phase is Phase.LAST_LAY_DOWN:
                rest = list(hand)
                rest.remove(card)
                left = best_arrangement(rest, wild).leftover_points
                label = f"Lay down and discard the {name}, leaving {left} points"
            else:
                label = f"Discard the {name}"
            shortcut = f": {keys}" if card == focused else ""
            items.append((label + shortcut, functools.partial(self._card_action, action, card)))
        return items

    def _card_action(self, action: Action, card: Card) -> None:
        hand = self.hand()
        if card in hand:
            self.seat_state[self.at_keyboard].focus = hand.index(card)
        self.run_action(action)

    def _menu_label(self, action: Action) -> str:
        game = self.client
        wild = game.wild_rank
        if action.name == "whose_turn" and game.is_over:
            return "New game, same players"
        if action.name == "take" and game.top_discard is not None:
            return f"Take the {spoken_name(game.top_discard, wild)}"
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
            "verbosity", "speech", "help", "quit",
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
            self.save_problem = SAVE_FAILED.format(folder=path.parent, why=error.strerror or error)
            self.say(f"The game could not be saved: {error.strerror}.")
        else:
            self.save_problem = None


def game_from_save(data: dict[str, Any]) -> tuple[Game, list[Seat], int]:
    """Rebuild an autosaved game: from its full state, else by replaying its moves.

    The seats, seed and moves are kept beside the full state so that the game
    can also be replayed from its seed (``fivecrowns export --game`` does that).
    """
    from fivecrowns.game import GameOptions

    try:
        seats = [Seat(str(s["name"]), s["level"]) for s in data["seats"]]
        at_keyboard = int(data.get("at_keyboard", 0))
    except (KeyError, TypeError, ValueError) as error:
        raise SaveFileError(f"The saved game has no seats: {error}.") from None
    for seat in seats:
        if seat.level is not None and not isinstance(seat.level, str):
            raise SaveFileError(f"The saved game's seat {seat.name} has no valid level.")
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
        raise SaveFileError(f"The saved game cannot be replayed: {error}.") from None
    return game, seats, at_keyboard


def advised_discard(hand: Sequence[Card], wild: Rank, avoid: Card | None = None) -> Arrangement:
    """The one discard H, Shift+H and G agree on, for a hand after drawing.

    why: best_with_discard and going_out_discards may pick different cards when several
    let you go out; going out scores 0 whichever it is, so keep wild cards (the next
    player's gain) out of the discard and discard the first non-wild card that goes out.
    """
    best = best_with_discard(hand, wild)
    outs = going_out_discards(hand, wild)
    if not outs:
        return best
    # ``avoid``: the card taken from the discard pile this turn; throwing it back wastes the take
    card = next(
        (c for c in outs if not is_wild(c, wild) and c != avoid),
        next((c for c in outs if c != avoid), outs[0]),
    )
    rest = list(hand)
    rest.remove(card)
    return replace(best_arrangement(rest, wild), discard=card)


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def new_seed() -> int:
    return random.SystemRandom().randrange(2**31)
