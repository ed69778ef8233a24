# One file (~750 lines): Solitaire's command layer and screen share one state and one keymap.
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

from fivecrowns.core.cards import Card, Rank, spoken_name
from fivecrowns.core.errors import IllegalMoveError, SaveFileError
from fivecrowns.core.melds.solver import best_arrangement
from fivecrowns.core.solitaire.player import BestStrategy, best_discard, distance
from fivecrowns.core.solitaire.rules import (
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
from fivecrowns.i18n import N_, join_list, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.storage import history as game_history
from fivecrowns.storage.paths import data_dir, documents_dir
from fivecrowns.storage.saves import save_solitaire
from fivecrowns.ui.commands import CommandLayer, MenuItem, Speaker
from fivecrowns.ui.keymap import SOLITAIRE_ACTIONS, Action, KeymapError, jump_index
from fivecrowns.ui.model import TableModel
from fivecrowns.ui.screen import suit_style
from fivecrowns.ui.settings import Settings
from fivecrowns.words.announce import card_list, melds_words

__all__ = ["SOLITAIRE_ACTIONS", "SolitaireSession", "render_board", "solitaire_save_path"]


_GROUP_TITLES = {
    "turn": N_("Your turn"),
    "hand": N_("Moving through the hands"),
    "info": N_("Information"),
    "messages": N_("Messages and speech"),
    "game": N_("The game"),
    "menu": N_("In the action menu and the help list"),
    "confirm": N_("When asked to confirm"),
}


#: The end of a solitaire game, and the keys that come next.
SOLITAIRE_OVER = N_("Press {new} for a new deal, {score} for the score, {quit} to leave.")
NOTHING_TO_UNDO = N_("Nothing to undo: undo takes back your last move, once.")
UNDONE = N_("Move taken back. {status}")
NEW_DEAL_LATER = N_("A new deal comes after this game. To stop this one, press {quit}.")
WELCOME = N_(
    "Five Crowns Solitaire. Eleven hands, from 3 cards with 3s wild to 13 with "
    "Kings wild. Up and Down move between the open hands, Enter puts the turned "
    "card in. Press {keys} for help."
)


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
            you=_("You"),
            overlay=self.overlay(),
        )

    # --- speech ------------------------------------------------------------------

    # --- starting and saving ------------------------------------------------------

    def start(self, resumed: bool = False) -> None:
        game = self.game
        for problem in self.problems:
            self.say(problem)
        if resumed:
            self.say(_("Resumed solitaire. {status}").format(status=self.status_words()))
        else:
            self.say(_(WELCOME).format(keys=self.keymap.display_keys("help")))
            self._announce(game.events)
        if game.phase is Phase.PUT and resumed:
            assert game.turned is not None
            self.say(self._turned_sentence())
        if game.phase is Phase.DISCARD and resumed:
            self.say(_("Discard a card from the hand of {hand}.").format(hand=game.target))
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
                save_solitaire(self.game, path)
        except (OSError, SaveFileError) as error:
            self.save_problem = str(error)
            self.say(_("The game could not be saved: {reason}").format(reason=error))
        else:
            self.save_problem = None

    # --- words ---------------------------------------------------------------------

    def _turned_sentence(self) -> str:
        """ "Turned: 7 of hearts, 20 cards left in the stock." """
        game = self.game
        assert game.turned is not None
        left = game.stock_count
        # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
        return ngettext(
            "Turned: {card}, {count} card left in the stock.",
            "Turned: {card}, {count} cards left in the stock.",
            left,
        ).format(card=game.turned.spoken, count=left)

    def hand_words(self, hand: Hand) -> str:
        """ "Hand of 7, 7s wild, left over 23 points, 1 card from closing." """
        wild = hand.wild_rank
        ranks = wild.plural
        if hand.arrangement is not None:
            melds = melds_words(hand.arrangement.melds, wild)
            # TRANSLATORS: {ranks} is a rank in the plural ("7s", "Kings"); {melds} lists melds
            return _("Hand of {hand}, {ranks} wild, closed: {melds}.").format(
                hand=hand.number, ranks=ranks, melds=melds
            )
        count = len(hand.cards)
        if count > hand.number:
            return ngettext(
                "Hand of {hand}, {ranks} wild, {count} card: discard one.",
                "Hand of {hand}, {ranks} wild, {count} cards: discard one.",
                count,
            ).format(hand=hand.number, ranks=ranks, count=count)
        points = hand.leftover_points()
        if self.verbosity == "brief":
            return ngettext(
                "Hand of {hand}, {ranks} wild, left over {count} point.",
                "Hand of {hand}, {ranks} wild, left over {count} points.",
                points,
            ).format(hand=hand.number, ranks=ranks, count=points)
        away = distance(hand.cards, wild)
        if self.verbosity == "full":
            cards = card_list(self._cards(hand), wild)
            # TRANSLATORS: {points} is at least 3; {count} is how many cards the hand still needs
            return ngettext(
                "Hand of {hand}, {ranks} wild, left over {points} points, "
                "{count} card from closing: {cards}.",
                "Hand of {hand}, {ranks} wild, left over {points} points, "
                "{count} cards from closing: {cards}.",
                away,
            ).format(hand=hand.number, ranks=ranks, points=points, count=away, cards=cards)
        # TRANSLATORS: {points} is at least 3; {count} is how many cards the hand still needs
        return ngettext(
            "Hand of {hand}, {ranks} wild, left over {points} points, {count} card from closing.",
            "Hand of {hand}, {ranks} wild, left over {points} points, {count} cards from closing.",
            away,
        ).format(hand=hand.number, ranks=ranks, points=points, count=away)

    def _stock_sentence(self) -> str:
        count = self.game.stock_count
        return ngettext("Stock: {count} card.", "Stock: {count} cards.", count).format(count=count)

    def status_words(self) -> str:
        game = self.game
        closed = sum(hand.is_closed for hand in game.hands)
        open_hands = join_list([str(hand.number) for hand in game.open_hands])
        # TRANSLATORS: solitaire has 11 hands; {count} of them are closed
        head = ngettext(
            "{count} of 11 hands closed.", "{count} of 11 hands closed.", closed
        ).format(count=closed)
        # each part is a whole sentence; a status is a few of them in a row
        if game.phase is Phase.WON:
            return " ".join((_("Won."), head, self._stock_sentence()))
        points = _("Points left: {points}.").format(points=game.points_left())
        open_words = _("Open: {hands}.").format(hands=open_hands)
        if game.phase is Phase.LOST:
            return " ".join((_("Lost: the stock ran out."), open_words, points))
        return " ".join((head, open_words, points, self._stock_sentence()))

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
            game_history.append_solitaire_history(
                won, self.game.points_left(), self.game.seed, game_id=self.game.game_id
            )
        except OSError as error:
            self.say(_("The result could not be recorded: {reason}.").format(reason=error.strerror))

    def _event_words(self, event: Event) -> tuple[str, str | None]:
        if isinstance(event, CardTurned):
            left = event.stock_left
            # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
            turned = _("Turned: {card}.").format(card=event.card.spoken)
            if self.verbosity == "brief":
                return (turned, "draw_stock")
            count = ngettext("{count} card left.", "{count} cards left.", left).format(count=left)
            return (f"{turned} {count}", "draw_stock")  # two whole sentences
        if isinstance(event, CardPut):
            name = spoken_name(event.card, Rank(event.hand))
            # TRANSLATORS: {card} is a card's spoken name, put into one of solitaire's hands
            put = _("{card} into the hand of {hand}.").format(card=name, hand=event.hand)
            if self.verbosity == "brief":
                return (put, None)
            choose = _("Choose the discard.")
            return (f"{put} {choose}", None)  # two whole sentences
        if isinstance(event, CardDiscarded):
            name = spoken_name(event.card, Rank(event.hand))
            return (_("Discarded the {card}.").format(card=name), "discard")
        if isinstance(event, HandClosed):
            melds = melds_words(event.arrangement.melds, Rank(event.hand))
            if event.at_deal:
                closed = _("Hand of {hand} closed at the deal: {melds}.")
            else:
                closed = _("Hand of {hand} closed: {melds}.")
            return (closed.format(hand=event.hand, melds=melds), "went_out")
        if isinstance(event, GameWon):
            left = self.game.stock_count
            return (
                ngettext(
                    "You won! Every hand is closed, with {count} card left in the stock.",
                    "You won! Every hand is closed, with {count} cards left in the stock.",
                    left,
                ).format(count=left),
                "game_over",
            )
        assert isinstance(event, GameLost)
        hands = join_list([str(number) for number in event.open_hands])
        # why the same English twice: the English sentence stays as it always was
        lost = ngettext(
            "The stock ran out. Lost, with hands {hands} open.",
            "The stock ran out. Lost, with hands {hands} open.",
            len(event.open_hands),
        ).format(hands=hands)
        points = _("Points left: {points}.").format(points=event.points_left)
        return (f"{lost} {points}", "game_over")  # two whole sentences

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
            raise IllegalMoveError(_("The game is over. Press Q to leave, S for the score."))
        if game.phase is Phase.DISCARD:
            raise IllegalMoveError(
                _(
                    "Discard a card from the hand of {hand} first: Left and Right, then Enter."
                ).format(hand=game.target)
            )
        numbers = [hand.number for hand in game.open_hands]
        current = self._focused().number
        index = numbers.index(current) + step
        if not 0 <= index < len(numbers):
            edge = (
                _("This is the first open hand.") if step < 0 else _("This is the last open hand.")
            )
            self.refuse(f"{edge} {self.hand_words(self._focused())}")  # two whole sentences
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
        # TRANSLATORS: a card and where it is in the hand: "7 of hearts, 2 of 8"
        self.answer(
            _("{card}, {position} of {count}").format(
                card=card, position=self.card_focus + 1, count=len(cards)
            )
        )

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
            raise IllegalMoveError(
                ngettext(
                    "This hand has only {count} card.", "This hand has only {count} cards.", count
                ).format(count=count)
            ) from None
        self._move_card(index)

    # --- the move ------------------------------------------------------------------

    def _after_game_words(self) -> str:
        keys = self.keymap.display_keys
        return _(SOLITAIRE_OVER).format(
            new=keys("new_game"), score=keys("status"), quit=keys("quit")
        )

    def _do_current(self, key: str) -> None:
        self._speak_card()

    def _do_undo(self, key: str) -> None:
        if self._before_last_move is None:
            raise IllegalMoveError(_(NOTHING_TO_UNDO))
        self.game, self.focus_hand, self.card_focus = self._before_last_move
        self._before_last_move = None
        self.save_now()
        self.answer(_(UNDONE).format(status=self.status_words()))

    def _do_new_game(self, key: str) -> None:
        if not self.game.phase.is_over:
            raise IllegalMoveError(_(NEW_DEAL_LATER).format(quit=self.keymap.display_keys("quit")))
        self.game = Solitaire.deal(random.SystemRandom().randrange(2**31))
        self.game.game_id = game_history.new_game_id()
        self._before_last_move = None
        self.history_recorded = False
        self.focus_hand = self.game.open_hands[0].number
        self.card_focus = 0
        self.start()

    def _do_play(self, key: str) -> None:
        game = self.game
        if game.phase.is_over:
            # two whole sentences
            over = _("The game is over.")
            raise IllegalMoveError(f"{over} {self._after_game_words()}")
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
        # TRANSLATORS: {ranks} is a rank in the plural ("7s", "Kings"); {cards} lists cards
        parts = [
            _("Hand of {hand}, {ranks} wild: {cards}.").format(
                hand=hand.number, ranks=wild.plural, cards=card_list(cards, wild)
            )
        ]
        if hand.arrangement is not None:
            parts.append(
                _("Closed: {melds}.").format(melds=melds_words(hand.arrangement.melds, wild))
            )
        elif len(cards) == hand.number:
            best = best_arrangement(cards, wild)
            if best.melds:
                parts.append(_("Melds: {melds}.").format(melds=melds_words(best.melds, wild)))
            points = best.leftover_points
            parts.append(
                ngettext(
                    "Left over: {cards}, {count} point.",
                    "Left over: {cards}, {count} points.",
                    points,
                ).format(cards=card_list(best.leftover, wild), count=points)
            )
        else:
            parts.append(_("Discard one card."))
        self.answer(" ".join(parts))  # whole sentences in a row

    def hint(self) -> str:
        """The best strategy's advice now, in a sentence or two."""
        game = self.game
        view = game.view()
        if game.phase.is_over:
            return _("The game is over.")
        if game.phase is Phase.DISCARD:
            assert game.target is not None
            card = best_discard(view, self.strategy)
            hand = game.hand(game.target)
            after = list(hand.cards)
            after.remove(card)
            away = distance(after, hand.wild_rank)
            name = spoken_name(card, hand.wild_rank)
            if away == 0:
                # TRANSLATORS: {card} is a card's spoken name ("7 of hearts")
                return _("Discard the {card}: that closes it.").format(card=name)
            return ngettext(
                "Discard the {card}: {count} card from closing.",
                "Discard the {card}: {count} cards from closing.",
                away,
            ).format(card=name, count=away)
        play = self.strategy.plan(view)
        assert game.turned is not None
        hand = game.hand(play.hand)
        turned = spoken_name(game.turned, hand.wild_rank)
        discard = spoken_name(play.discard, hand.wild_rank)
        if play.discard == game.turned:
            return _(
                "No hand needs the {card}: put it into the hand of {hand} and discard it."
            ).format(card=turned, hand=hand.number)
        after = [*hand.cards, game.turned]
        after.remove(play.discard)
        away = distance(after, hand.wild_rank)
        if away == 0:
            # TRANSLATORS: {card} and {discard} are cards' spoken names ("7 of hearts")
            return _(
                "Put the {card} into the hand of {hand} and discard the {discard}: it closes."
            ).format(card=turned, hand=hand.number, discard=discard)
        return ngettext(
            "Put the {card} into the hand of {hand} and discard the {discard}: "
            "it is then {count} card from closing.",
            "Put the {card} into the hand of {hand} and discard the {discard}: "
            "it is then {count} cards from closing.",
            away,
        ).format(card=turned, hand=hand.number, discard=discard, count=away)

    def _do_hint(self, key: str) -> None:
        self.answer(self.hint())

    def _do_piles(self, key: str) -> None:
        game = self.game
        discards = _("Discards: {count}.").format(count=len(game.discards))
        piles: tuple[str, ...]
        if game.phase is Phase.PUT:
            piles = (self._turned_sentence(), discards)
        elif game.phase is Phase.DISCARD:
            where = _("Discard from the hand of {hand}.").format(hand=game.target)
            piles = (where, self._stock_sentence(), discards)
        else:
            piles = (self._stock_sentence(), discards)
        self.answer(" ".join(piles))  # whole sentences in a row

    def _do_status(self, key: str) -> None:
        self.answer(self.status_words())

    def _do_stock_cards(self, key: str) -> None:
        stock = sorted(self.game.stock)
        if not stock:
            self.answer(_("The stock is empty."))
            return
        self.answer(
            ngettext(
                "The stock holds {count} card: {cards}.",
                "The stock holds {count} cards: {cards}.",
                len(stock),
            ).format(count=len(stock), cards=card_list(stock, None))
        )

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
            self.refuse(
                _("The board could not be written to {folder}: {reason}.").format(
                    folder=folder, reason=error.strerror
                )
            )
            return
        # TRANSLATORS: {files} lists file names: "solitaire-board.txt and solitaire-board.brf"
        wrote = _("Wrote {files} to {folder}.").format(files=join_list(written), folder=folder)
        if len(written) > 1:
            self.answer(wrote)
            return
        missing = _("No braille file: {reason}").format(reason=why)
        self.answer(f"{wrote} {missing}")

    # --- messages ----------------------------------------------------------------------

    # --- lists ----------------------------------------------------------------------

    def help_lines(self) -> list[str]:
        lines: list[str] = []
        for group, title in _GROUP_TITLES.items():
            lines.append(_("{title}:").format(title=_(title)))
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
                turned = spoken_name(game.turned, hand.wild_rank)
                if hand.number == focused.number:
                    # TRANSLATORS: a menu item; {keys} are the keys that do the same
                    label = _("Put the {card} into the hand of {hand}: {keys}")
                else:
                    label = _("Put the {card} into the hand of {hand}")
                label = label.format(card=turned, hand=hand.number, keys=keys)
                choose = functools.partial(self._play_at, action, hand.number, 0)
                items.append((label, choose))
            return items
        cards = self._cards(focused)
        on = cards[min(self.card_focus, len(cards) - 1)]
        for card in dict.fromkeys(cards):
            # TRANSLATORS: a menu item; {keys} are the keys that do the same
            label = _("Discard the {card}: {keys}") if card == on else _("Discard the {card}")
            label = label.format(card=spoken_name(card, focused.wild_rank), keys=keys)
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

    line(_("Five Crowns Solitaire."), "class:title")
    stock = game.stock_count
    if game.turned is not None:
        # TRANSLATORS: a line of the screen; {token} is the card's short form (7h), shown in
        # its suit's colour, {card} its spoken name
        turned = ngettext(
            "Turned: {token} ({card}).   Stock: {count} card.",
            "Turned: {token} ({card}).   Stock: {count} cards.",
            stock,
        )
        before, _token, after = turned.partition("{token}")
        out.append(("", before))
        out.append((suit_style(game.turned) + " class:card", game.turned.token))
        out.append(("", after.format(card=game.turned.spoken, count=stock) + "\n"))
    else:
        line(ngettext("Stock: {count} card.", "Stock: {count} cards.", stock).format(count=stock))
    line()
    # TRANSLATORS: a column of the screen; {ranks} is a rank in the plural ("7s", "Kings")
    wilds = [_("({ranks} wild)").format(ranks=hand.wild_rank.plural) for hand in game.hands]
    wild_width = max(15, *(len(wild) for wild in wilds))  # why 15: the English screen's width
    for hand, wild in zip(game.hands, wilds, strict=True):
        is_focus = hand.number == focused.number and not game.phase.is_over
        marker = "> " if is_focus else "  "
        if len(hand.cards) > hand.number:
            # TRANSLATORS: a column of the screen, at most 8 letters: the hand must discard
            state = _("discard")
        elif hand.is_closed:
            # TRANSLATORS: a column of the screen, at most 8 letters: the hand is closed
            state = _("closed")
        else:
            # TRANSLATORS: a column of the screen, at most 8 letters; "pts": points
            state = _("{points} pts").format(points=f"{hand.leftover_points():>3}")
        label = f"{marker}{hand.number:>2} {wild:<{wild_width}} {state:<8} "
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
