"""The session itself: its parts put together, the start, the keys' dispatch, the screen.

A key goes first to a chat line being typed, then to the round's pause, then to the
privacy screen or the keymap of the screen that is open (:meth:`Session.press`).
"""

from __future__ import annotations

from fivecrowns.ai.loader import level_name
from fivecrowns.core.cards import spoken_name
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import Phase
from fivecrowns.core.moves import RoundStarted
from fivecrowns.i18n import N_, join_list
from fivecrowns.i18n import gettext as _
from fivecrowns.net.client.link import SeatClient
from fivecrowns.ui.keymap import Action, display_key
from fivecrowns.ui.model import SeatLine, TableModel
from fivecrowns.ui.session.chat import Chat
from fivecrowns.ui.session.hand import HandKeys
from fivecrowns.ui.session.hotseat import HotSeat
from fivecrowns.ui.session.info import InfoKeys
from fivecrowns.ui.session.menus import Menus
from fivecrowns.ui.session.moves import Moves
from fivecrowns.ui.session.news import TOP_DISCARD, News
from fivecrowns.ui.session.seats import SeatState, start_words
from fivecrowns.words import answers
from fivecrowns.words.announce import melds_words

__all__ = ["Session"]

#: How many earlier messages the full screen shows above the message line.
RECENT_LINES = 4

#: Starting and resuming.
NEW_GAME = N_("New game: {names}. Press {help} for help, {menu} for the action menu.")
RESUMED = N_("Resumed. {round}")
THIS_GAME_IS_OVER = N_("This game is over.")
#: A seat taken back in a game in progress, by a client started again (issue 26, item 17).
BACK_IN_GAME = N_(
    "You are back in your seat, in a game in progress: {names}. {round} Press {help} for help, "
    "{menu} for the action menu."
)
WATCHING_GAME = N_(
    "You are watching a game in progress: {names}. {round} Press {help} for help, "
    "{menu} for the action menu."
)

#: The screen's note beside a seat.
WENT_OUT_NOTE = N_("went out")
COMPUTER_NOTE = N_("computer, {level}")
# TRANSLATORS: the screen's note beside a player who left a network table's game
LEFT_NOTE = N_("left; a computer player plays in their place")
# TRANSLATORS: the screen's note beside a player whose connection dropped
STANDIN_NOTE = N_("connection dropped; a computer player plays until they are back")

#: Quitting at a network table: nothing is saved here; the server seats a computer player.
REMOTE_QUIT = N_(
    "Quit? You leave the table, and a computer player takes your seat for the rest of "
    "the game. {yes} to quit, {no} to keep playing."
)
REMOTE_NEW_GAME_ASKED = N_("Asked the server for a new game with the same players.")


class Session(Chat, Menus, Moves, News, HotSeat, InfoKeys, HandKeys):
    """One game at one keyboard: the state of the screens around the game, and every action."""

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
        names = join_list([start_words(seat) for seat in self.seats])
        if self.mode.came_mid_game(self.client) and self.watching:
            self._start_watching(names)  # why: the game began before this spectator came
            return
        if self.mode.came_mid_game(self.client):
            self._start_returning(names)  # why: "New game" mid-round misled (issue 26, 17)
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

    def _start_returning(self, names: str) -> None:
        """Back in one's seat mid-game after a restart: where the game is, and the turn; what
        happened (a computer's moves in this seat too) is kept for the last-moves key."""
        game = self.client
        for state in self.seat_state.values():
            state.log.note(game.events, game.wild_rank, by_standin=game.by_standin)
        help_key, menu = display_key("f1"), display_key("escape")
        round_words = self._round_words()
        self.say(_(BACK_IN_GAME).format(names=names, round=round_words, help=help_key, menu=menu))
        self._tell_position()  # your hand, whose turn it is ("Your turn" again if it is)

    def _new_game(self) -> None:
        """A new game at the same table: same seats and computer players, a new deal."""
        if not self.mode.deal_again():
            self.answer(_(REMOTE_NEW_GAME_ASKED))
            return
        self.clients = {i: SeatClient(self.link, i) for i in self.humans}
        # why keep each seat's log: the last game's result stays in its history for review
        self.seat_state = {i: SeatState(self.seat_state[i].log) for i in self.humans}
        for state in self.seat_state.values():
            state.log.forget_news()
        self.at_keyboard = self.humans[0]
        self.privacy_for = None
        self.keyboard_confirmed = False
        self.next_round = None
        self.last_explanation = None
        self.list_state = None
        self.confirm = None
        self.start()
        self.save_now()

    # --- keys --------------------------------------------------------------------

    def run_action(self, action: Action, key: str = "") -> None:
        if action.group == "hand":
            try:
                self.mode.check_hand()  # a spectator has no hand to move through
            except FiveCrownsError as error:
                self.refuse(str(error))
                return
        super().run_action(action, key)

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
        self._press_hidden(key)

    def _do_quit(self, key: str) -> None:
        leave = self.mode.leave()
        if leave is None:  # local play: quitting saves the game for --resume
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

    # --- what the presentations read --------------------------------------------

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
