"""Five Crowns Solitaire with keys and speech: its command layer over the shared front end.

Keys -> actions (the :data:`SOLITAIRE_ACTIONS` table, data like the main keymap)
-> solitaire moves -> events -> sentences -> speech, braille and the screen. It
runs in the same two presentations as the main game (:class:`~fivecrowns.ui.app.
Presentation`: full screen or line mode) and speaks through the same output
layer; the message history, help list, action menu and quit confirmation work
as in the main game.

Up and Down move between the open hands ("Hand of 7, 7s wild, left over 23
points, 1 card from closing"); Left and Right read the focused hand card by
card; Enter puts the turned card into the focused hand, and then, with Left and
Right on the discard, Enter discards it.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Sequence
from pathlib import Path

from prompt_toolkit.formatted_text import StyleAndTextTuples

from fivecrowns.cards import Card, Rank, spoken_name
from fivecrowns.errors import IllegalMoveError, SaveFileError
from fivecrowns.melds import best_arrangement
from fivecrowns.solitaire import (
    CardDiscarded,
    CardPut,
    CardTurned,
    DiscardCard,
    Event,
    GameLost,
    GameWon,
    Hand,
    HandClosed,
    Phase,
    PutCard,
    Solitaire,
)
from fivecrowns.solitaire_ai import BestStrategy, best_discard, distance
from fivecrowns.ui import storage
from fivecrowns.ui.announce import card_list, join_words, melds_words
from fivecrowns.ui.commands import CommandLayer, MenuItem, Speaker
from fivecrowns.ui.keymap import SOLITAIRE_ACTIONS, Action, KeymapError, jump_index
from fivecrowns.ui.model import TableModel
from fivecrowns.ui.screen import suit_style
from fivecrowns.ui.settings import Settings, data_dir, documents_dir

__all__ = ["SOLITAIRE_ACTIONS", "SolitaireSession", "render_board", "solitaire_save_path"]


_GROUP_TITLES = {
    "turn": "Your turn",
    "hand": "Moving through the hands",
    "info": "Information",
    "messages": "Messages and speech",
    "game": "The game",
    "menu": "In the action menu and the help list",
    "confirm": "When asked to confirm",
}


#: The end of a solitaire game, and the keys that come next.
SOLITAIRE_OVER = "Press {new} for a new deal, {score} for the score, {quit} to leave."
NOTHING_TO_UNDO = "Nothing to undo: undo takes back your last move, once."
UNDONE = "Move taken back. {status}"
NEW_DEAL_LATER = "A new deal comes after this game. To stop this one, press {quit}."


def solitaire_save_path() -> Path:
    """Where the solitaire game in progress is kept for ``--resume``."""
    return data_dir() / "solitaire.json"


class SolitaireSession(CommandLayer):
    """One solitaire game at one keyboard; a :class:`~fivecrowns.ui.app.Controller`."""

    def __init__(
        self,
        game: Solitaire,
        output: Speaker,
        *,
        save_path: Path | None = None,
        autosave: bool = True,
        settings: Settings | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.output = output
        self.settings = settings or Settings()
        # The same settings file as the main game: its [keys] table and verbosity.
        self.keymap, self.problems = self.settings.keymap_for(SOLITAIRE_ACTIONS)
        self.verbosity = self.settings.verbosity
        self.history_recorded = game.phase.is_over  # a finished game loaded is not recorded again
        self.delay = 0.0
        self.save_path = save_path
        self.autosave_enabled = autosave
        open_hands = game.open_hands
        self.focus_hand = open_hands[0].number if open_hands else 3
        self.card_focus = 0
        self.strategy = BestStrategy()
        #: For undo, one move back: the game and where the focus was.
        self._before_last_move: tuple[Solitaire, int, int] | None = None

    # --- the Controller protocol --------------------------------------------------

    def bot_due(self) -> bool:
        return False  # why: solitaire has no computer players; the hint key advises instead

    def step_bot(self) -> None:
        return None

    def table(self) -> TableModel:
        """The main game's screen model is not used: :func:`render_board` draws solitaire."""
        hand = self._focused()
        return TableModel(
            round_number=0,
            wild_rank=hand.wild_rank,
            seats=(),
            top_discard=self.game.turned,
            stock=self.game.stock_count,
            hand=self._cards(hand),
            focus=self.card_focus,
            sort_order="rank",
            status=self.status_words(),
            message=self.last_message,
            you="You",
            overlay=self.overlay(),
        )

    # --- speech ------------------------------------------------------------------

    # --- starting and saving ------------------------------------------------------

    def start(self, resumed: bool = False) -> None:
        game = self.game
        for problem in self.problems:
            self.say(problem)
        if resumed:
            self.say(f"Resumed solitaire. {self.status_words()}")
        else:
            self.say(
                "Five Crowns Solitaire. Eleven hands, from 3 cards with 3s wild to 13 with "
                "Kings wild. Up and Down move between the open hands, Enter puts the turned "
                f"card in. Press {self.keymap.display_keys('help')} for help."
            )
            self._announce(game.events)
        if game.phase is Phase.PUT and resumed:
            assert game.turned is not None
            self.say(f"Turned: {self._turned_words()}.")
        if game.phase is Phase.DISCARD and resumed:
            self.say(f"Discard a card from the hand of {game.target}.")
        if not game.phase.is_over:
            self._speak_hand(interrupt=False)
        self.save_now()

    def save_now(self) -> None:
        if not self.autosave_enabled:
            return
        path = self.save_path or solitaire_save_path()
        try:
            if self.game.phase.is_over:
                path.unlink(missing_ok=True)  # a finished game is not resumed
            else:
                self.game.save(path)
        except (OSError, SaveFileError) as error:
            self.save_problem = str(error)
            self.say(f"The game could not be saved: {error}")
        else:
            self.save_problem = None

    # --- words ---------------------------------------------------------------------

    def _turned_words(self) -> str:
        game = self.game
        assert game.turned is not None
        left = game.stock_count
        return f"{game.turned.spoken}, {left} card{'s' if left != 1 else ''} left in the stock"

    def hand_words(self, hand: Hand) -> str:
        """ "Hand of 7, 7s wild, left over 23 points, 1 card from closing." """
        wild = hand.wild_rank
        head = f"Hand of {hand.number}, {wild.plural} wild"
        if hand.arrangement is not None:
            return f"{head}, closed: {melds_words(hand.arrangement.melds, wild)}."
        if len(hand.cards) > hand.number:
            return f"{head}, {len(hand.cards)} cards: discard one."
        left = f"{head}, left over {hand.leftover_points()} points"
        if self.verbosity == "brief":
            return f"{left}."
        away = distance(hand.cards, wild)
        turns = f"{away} card{'s' if away != 1 else ''} from closing"
        if self.verbosity == "full":
            return f"{left}, {turns}: {card_list(self._cards(hand), wild)}."
        return f"{left}, {turns}."

    def status_words(self) -> str:
        game = self.game
        closed = [hand.number for hand in game.hands if hand.is_closed]
        open_hands = [str(hand.number) for hand in game.open_hands]
        head = f"{len(closed)} of 11 hands closed."
        if game.phase is Phase.WON:
            return f"Won. {head} Stock: {game.stock_count} cards."
        points = f"Points left: {game.points_left()}."
        if game.phase is Phase.LOST:
            return f"Lost: the stock ran out. Open: {join_words(open_hands)}. {points}"
        return f"{head} Open: {join_words(open_hands)}. {points} Stock: {game.stock_count} cards."

    def _announce(self, events: Sequence[Event], own: bool = False) -> None:
        for event in events:
            text, sound = self._event_words(event)
            self.say(text, interrupt=own, sound=sound)
            own = False  # only the first sentence answers the key; the rest queue
            if isinstance(event, GameWon | GameLost):
                self._record_result(isinstance(event, GameWon))

    def _record_result(self, won: bool) -> None:
        """A finished game goes into the history the history key and ``fivecrowns history`` read."""
        if self.history_recorded or not self.autosave_enabled:
            return
        self.history_recorded = True
        try:
            storage.append_solitaire_history(
                won, self.game.points_left(), self.game.seed, game_id=self.game.game_id
            )
        except OSError as error:
            self.say(f"The result could not be recorded: {error.strerror}.")

    def _event_words(self, event: Event) -> tuple[str, str | None]:
        if isinstance(event, CardTurned):
            left = event.stock_left
            if self.verbosity == "brief":
                return (f"Turned: {event.card.spoken}.", "draw_stock")
            return (
                f"Turned: {event.card.spoken}. {left} card{'s' if left != 1 else ''} left.",
                "draw_stock",
            )
        if isinstance(event, CardPut):
            name = spoken_name(event.card, Rank(event.hand))
            if self.verbosity == "brief":
                return (f"{name} into the hand of {event.hand}.", None)
            return (f"{name} into the hand of {event.hand}. Choose the discard.", None)
        if isinstance(event, CardDiscarded):
            name = spoken_name(event.card, Rank(event.hand))
            return (f"Discarded the {name}.", "discard")
        if isinstance(event, HandClosed):
            melds = melds_words(event.arrangement.melds, Rank(event.hand))
            when = " at the deal" if event.at_deal else ""
            return (f"Hand of {event.hand} closed{when}: {melds}.", "went_out")
        if isinstance(event, GameWon):
            return (
                f"You won! Every hand is closed, with {self.game.stock_count} cards "
                "left in the stock.",
                "game_over",
            )
        assert isinstance(event, GameLost)
        hands = join_words([str(number) for number in event.open_hands])
        return (
            f"The stock ran out. Lost, with hands {hands} open. Points left: {event.points_left}.",
            "game_over",
        )

    # --- hands and cards ----------------------------------------------------------------

    def _focused(self) -> Hand:
        game = self.game
        if game.phase is Phase.DISCARD and game.target is not None:
            self.focus_hand = game.target
        hand = game.hand(self.focus_hand)
        if hand.is_closed and game.open_hands:
            hand = min(game.open_hands, key=lambda h: (h.number < self.focus_hand, h.number))
            self.focus_hand = hand.number
        return hand

    def _cards(self, hand: Hand) -> tuple[Card, ...]:
        return tuple(sorted(hand.cards))

    def _speak_hand(self, interrupt: bool = True) -> None:
        self.say(self.hand_words(self._focused()), interrupt=interrupt)

    def _move_hand(self, step: int) -> None:
        game = self.game
        if game.phase.is_over:
            raise IllegalMoveError("The game is over. Press Q to leave, S for the score.")
        if game.phase is Phase.DISCARD:
            raise IllegalMoveError(
                f"Discard a card from the hand of {game.target} first: Left and Right, then Enter."
            )
        numbers = [hand.number for hand in game.open_hands]
        current = self._focused().number
        index = numbers.index(current) + step
        if not 0 <= index < len(numbers):
            edge = "first" if step < 0 else "last"
            self.refuse(f"This is the {edge} open hand. {self.hand_words(self._focused())}")
            return
        self.focus_hand = numbers[index]
        self.card_focus = 0
        self._speak_hand()

    def _move_card(self, index: int) -> None:
        cards = self._cards(self._focused())
        self.card_focus = max(0, min(index, len(cards) - 1))
        self._speak_card()

    def _speak_card(self) -> None:
        hand = self._focused()
        cards = self._cards(hand)
        self.card_focus = max(0, min(self.card_focus, len(cards) - 1))
        card = spoken_name(cards[self.card_focus], hand.wild_rank)
        self.answer(f"{card}, {self.card_focus + 1} of {len(cards)}")

    def _do_previous_hand(self, key: str) -> None:
        self._move_hand(-1)

    def _do_next_hand(self, key: str) -> None:
        self._move_hand(1)

    def _do_previous(self, key: str) -> None:
        self._move_card(self.card_focus - 1)

    def _do_next(self, key: str) -> None:
        self._move_card(self.card_focus + 1)

    def _do_first(self, key: str) -> None:
        self._move_card(0)

    def _do_last(self, key: str) -> None:
        self._move_card(len(self._focused().cards) - 1)

    def _do_jump(self, key: str) -> None:
        count = len(self._focused().cards)
        try:
            index = jump_index(key, self.card_focus, count)
        except KeymapError:
            raise IllegalMoveError(f"This hand has only {count} cards.") from None
        self._move_card(index)

    # --- the move ------------------------------------------------------------------

    def _after_game_words(self) -> str:
        keys = self.keymap.display_keys
        return SOLITAIRE_OVER.format(new=keys("new_game"), score=keys("status"), quit=keys("quit"))

    def _do_current(self, key: str) -> None:
        self._speak_card()

    def _do_undo(self, key: str) -> None:
        if self._before_last_move is None:
            raise IllegalMoveError(NOTHING_TO_UNDO)
        self.game, self.focus_hand, self.card_focus = self._before_last_move
        self._before_last_move = None
        self.save_now()
        self.answer(UNDONE.format(status=self.status_words()))

    def _do_new_game(self, key: str) -> None:
        if not self.game.phase.is_over:
            raise IllegalMoveError(NEW_DEAL_LATER.format(quit=self.keymap.display_keys("quit")))
        self.game = Solitaire.deal(random.SystemRandom().randrange(2**31))
        self.game.game_id = storage.new_game_id()
        self._before_last_move = None
        self.history_recorded = False
        self.focus_hand = self.game.open_hands[0].number
        self.card_focus = 0
        self.start()

    def _do_play(self, key: str) -> None:
        game = self.game
        if game.phase.is_over:
            raise IllegalMoveError(f"The game is over. {self._after_game_words()}")
        before = (copy.deepcopy(game), self.focus_hand, self.card_focus)
        hand = self._focused()
        if game.phase is Phase.PUT:
            assert game.turned is not None
            turned = game.turned
            events = game.apply(PutCard(hand.number))
            self._before_last_move = before
            self.card_focus = self._cards(game.hand(hand.number)).index(turned)
            self._announce(events, own=True)
            self.save_now()
            return
        card = self._cards(hand)[self.card_focus]
        events = game.apply(DiscardCard(card))
        # why no undo after the end: the result is already in the history of games
        self._before_last_move = None if game.phase.is_over else before
        self.save_now()
        self._announce(events, own=True)
        if not game.phase.is_over:
            self.card_focus = 0
            self._speak_hand(interrupt=False)
        else:
            self.say(self._after_game_words())

    # --- information --------------------------------------------------------------------

    def _do_hand(self, key: str) -> None:
        hand = self._focused()
        wild = hand.wild_rank
        cards = self._cards(hand)
        parts = [f"Hand of {hand.number}, {wild.plural} wild: {card_list(cards, wild)}."]
        if hand.arrangement is not None:
            parts.append(f"Closed: {melds_words(hand.arrangement.melds, wild)}.")
        elif len(cards) == hand.number:
            best = best_arrangement(cards, wild)
            if best.melds:
                parts.append(f"Melds: {melds_words(best.melds, wild)}.")
            parts.append(
                f"Left over: {card_list(best.leftover, wild)}, {best.leftover_points} points."
            )
        else:
            parts.append("Discard one card.")
        self.answer(" ".join(parts))

    def hint(self) -> str:
        """The best strategy's advice now, in a sentence or two."""
        game = self.game
        view = game.view()
        if game.phase.is_over:
            return "The game is over."
        if game.phase is Phase.DISCARD:
            assert game.target is not None
            card = best_discard(view, self.strategy)
            hand = game.hand(game.target)
            after = list(hand.cards)
            after.remove(card)
            away = distance(after, hand.wild_rank)
            result = "that closes it" if away == 0 else f"{away} card{'s' if away != 1 else ''}"
            if away:
                result += " from closing"
            return f"Discard the {spoken_name(card, hand.wild_rank)}: {result}."
        play = self.strategy.plan(view)
        assert game.turned is not None
        hand = game.hand(play.hand)
        turned = spoken_name(game.turned, hand.wild_rank)
        discard = spoken_name(play.discard, hand.wild_rank)
        if play.discard == game.turned:
            return (
                f"No hand needs the {turned}: put it into the hand of {hand.number} and discard it."
            )
        after = [*hand.cards, game.turned]
        after.remove(play.discard)
        away = distance(after, hand.wild_rank)
        result = (
            "it closes"
            if away == 0
            else f"it is then {away} card{'s' if away != 1 else ''} from closing"
        )
        return (
            f"Put the {turned} into the hand of {hand.number} and discard the {discard}: {result}."
        )

    def _do_hint(self, key: str) -> None:
        self.answer(self.hint())

    def _do_piles(self, key: str) -> None:
        game = self.game
        discards = len(game.discards)
        if game.phase is Phase.PUT:
            turned = f"Turned: {self._turned_words()}."
        elif game.phase is Phase.DISCARD:
            left = game.stock_count
            turned = f"Discard from the hand of {game.target}. Stock: {left} cards."
        else:
            turned = f"Stock: {game.stock_count} cards."
        self.answer(f"{turned} Discards: {discards}.")

    def _do_status(self, key: str) -> None:
        self.answer(self.status_words())

    def _do_stock_cards(self, key: str) -> None:
        stock = sorted(self.game.stock)
        if not stock:
            self.answer("The stock is empty.")
            return
        self.answer(f"The stock holds {len(stock)} cards: {card_list(stock, None)}.")

    def _do_export(self, key: str) -> None:
        from fivecrowns.export import liblouis_status, render
        from fivecrowns.export.solitaire import board_document

        folder = documents_dir()
        document = board_document(self.game.view())
        written = []
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "solitaire-board.txt").write_text(render(document, "text"), "utf-8")
            written.append("solitaire-board.txt")
            ok, why = liblouis_status()
            if ok:
                (folder / "solitaire-board.brf").write_text(render(document, "brf"), "utf-8")
                written.append("solitaire-board.brf")
        except OSError as error:
            self.refuse(f"The board could not be written to {folder}: {error.strerror}.")
            return
        braille = "" if len(written) > 1 else f" No braille file: {why}"
        self.answer(f"Wrote {join_words(written)} to {folder}.{braille}")

    # --- messages ----------------------------------------------------------------------

    # --- lists ----------------------------------------------------------------------

    def help_lines(self) -> list[str]:
        lines: list[str] = []
        for group, title in _GROUP_TITLES.items():
            lines.append(f"{title}:")
            for action in self.keymap.in_group(group):
                keys = self.keymap.display_keys(action.name)
                lines.append(f"{keys}: {action.label}. {action.help}")
        return [*lines, self.caps_lock_help()]

    def available_actions(self) -> list[Action]:
        names = [] if self.game.phase.is_over else ["play"]
        names += ["hand", "hint", "piles", "status", "stock_cards", "past_games", "export"]
        if self._before_last_move is not None:
            names.append("undo")
        if self.game.phase.is_over:
            names.append("new_game")
        names += ["repeat", "verbosity", "help"]
        names.append("quit")
        return [self.keymap.get(name) for name in names]

    def is_over(self) -> bool:
        return self.game.phase.is_over

    def menu_items(self, action: Action) -> list[MenuItem]:
        if action.name == "play":
            return self._play_items(action, self.keymap.display_keys(action.name))
        return super().menu_items(action)

    def _play_items(self, action: Action, keys: str) -> list[MenuItem]:
        """The move, once per open hand (put) or per distinct card (discard), so the menu
        alone can play any move; the item for the focus shows its key."""
        game = self.game
        focused = self._focused()
        items: list[MenuItem] = []
        if game.phase is Phase.PUT and game.turned is not None:
            for hand in game.open_hands:
                label = f"Put the {spoken_name(game.turned, hand.wild_rank)} into the hand of "
                label += str(hand.number) + (f": {keys}" if hand.number == focused.number else "")
                choose = functools.partial(self._play_at, action, hand.number, 0)
                items.append((label, choose))
            return items
        cards = self._cards(focused)
        on = cards[min(self.card_focus, len(cards) - 1)]
        for card in dict.fromkeys(cards):
            label = f"Discard the {spoken_name(card, focused.wild_rank)}"
            label += f": {keys}" if card == on else ""
            choose = functools.partial(self._play_at, action, focused.number, cards.index(card))
            items.append((label, choose))
        return items

    def _play_at(self, action: Action, hand: int, card: int) -> None:
        self.focus_hand = hand
        self.card_focus = card
        self.run_action(action)

    # --- quitting -----------------------------------------------------------------------

    def render(self) -> StyleAndTextTuples:
        return render_board(self)


def render_board(session: SolitaireSession) -> StyleAndTextTuples:
    """The full screen: every hand on its own line, the turned card, the message; the
    cursor on the focused card (screen readers and braille displays follow it)."""
    game = session.game
    focused = session._focused()
    out: StyleAndTextTuples = []

    def line(text: str = "", style: str = "") -> None:
        out.append((style, text + "\n"))

    line("Five Crowns Solitaire.", "class:title")
    if game.turned is not None:
        out.append(("", "Turned: "))
        out.append((suit_style(game.turned) + " class:card", game.turned.token))
        out.append(("", f" ({game.turned.spoken}).   Stock: {game.stock_count} cards.\n"))
    else:
        line(f"Stock: {game.stock_count} cards.")
    line()
    for hand in game.hands:
        is_focus = hand.number == focused.number and not game.phase.is_over
        marker = "> " if is_focus else "  "
        state = "closed" if hand.is_closed else f"{hand.leftover_points():>3} pts"
        if len(hand.cards) > hand.number:
            state = "discard"
        wild = f"({hand.wild_rank.plural} wild)"
        label = f"{marker}{hand.number:>2} {wild:<15} {state:<8} "
        out.append(("class:turn" if is_focus else "", label))
        for index, card in enumerate(session._cards(hand)):
            style = suit_style(card)
            if card.rank is None or card.rank == hand.wild_rank:
                style += " class:wild"
            if is_focus and index == session.card_focus:
                out.append(("[SetCursorPosition]", ""))
                style += " class:focused"
            out.append((style, card.token))
            out.append(("", " "))
        line()
    line()
    line(session.status_words(), "class:message")
    overlay = session.overlay()
    if overlay is None or session.last_message != overlay.title:
        line(session.last_message, "class:message")  # a question is shown once, in its overlay
    if overlay is not None:
        line()
        line(overlay.title, "class:overlay")
        for index, item in enumerate(overlay.items):
            if index == overlay.selected:
                out.append(("[SetCursorPosition]", ""))
                line(f"> {item}", "class:selected")
            else:
                line(f"  {item}")
    return out
