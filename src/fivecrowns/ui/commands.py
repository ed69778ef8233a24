"""What both games' command layers share: key dispatch, speech, lists, messages, quitting.

:class:`~fivecrowns.ui.session.Session` (the main game) and
:class:`~fivecrowns.ui.solitaire.SolitaireSession` are both a :class:`CommandLayer`:
a key is looked up in the game's keymap table for the screen that is open, and
runs ``_do_<action name>``. The action menu and help list, the message history
keys, the quit confirmation, verbosity and the past-games key are written once here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from fivecrowns import i18n
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.output.history import Entry, History
from fivecrowns.storage import history as game_history
from fivecrowns.ui.keymap import Action, Keymap, capitalized, character_words, display_key
from fivecrowns.ui.model import ListScreen
from fivecrowns.ui.settings import VERBOSITIES
from fivecrowns.ui.sound_menus import SoundMenus

__all__ = ["CommandLayer", "ListState", "MenuItem", "Speaker"]

UNKNOWN_BYTES = N_("That key does nothing here. Press {help} for help.")
UNKNOWN_KEY = N_("{key} does nothing here. Press {help} for help.")


def _garbled(key: str) -> bool:
    """A lone surrogate: what a terminal byte that is not UTF-8 decodes to."""
    return any(0xD800 <= ord(char) <= 0xDFFF for char in key)


NOT_SAVED_GOODBYE = N_("Not saved: {reason} This game cannot be resumed. Goodbye.")
NOT_SAVED_QUESTION = N_(
    "Quit? This game is not saved: {reason} Quitting loses it. {yes} to quit, {no} to keep playing."
)
QUIT_QUESTION = N_("Quit? The game stays saved for --resume. {yes} to quit, {no} to keep playing.")
SAVED_GOODBYE = N_("Saved. Goodbye.")
BACK_TO_GAME = N_("Back to the game.")
CONFIRM_KEYS = N_("Press {yes} for yes, {no} for no.")
BUG = N_("Sorry, {action} failed: {error}. The game is saved; the details are in {path}.")

MenuItem = tuple[str, Callable[[], None] | None]

#: The last line of every help list; {keys} are the capital letters bound to their own action.
CAPS_LOCK_HELP = N_(
    "Caps Lock: a capital letter with no key of its own does what the small letter does. "
    "{keys} do their own actions, so turn Caps Lock off for those letters."
)

#: A line being typed (chat, an invite code): Backspace says what it deleted.
TYPED_DELETED = N_("{character} deleted.")
NOTHING_TO_DELETE = N_("Nothing to delete.")

#: A letter in a list that no item starts with.
NO_ITEM = N_("No item starts with {letter}.")

#: Leaving a finished game.
GOODBYE = N_("Goodbye.")

#: A message from the history, with where it is: "Ann went out. 12 of 40."
REVIEWED = N_("{message} {index} of {count}.")

#: The review keys at an end of the history.
NO_OLDER = N_("No older messages.")
NO_NEWER = N_("No newer messages.")
NOTHING_SAID = N_("Nothing has been said yet.")

#: The verbosity key; the words are the settings file's values, said in the language.
VERBOSITY_SAID = N_("Verbosity {verbosity}.")
VERBOSITY_WORDS = {"brief": N_("brief"), "normal": N_("normal"), "full": N_("full")}

#: Lists: the action menu, help, settings.
#: The opening sentence is ngettext("{title}. {count} item. {item}", ...) in list_opened.
LIST_ITEM = N_("{label}, {index} of {count}")
#: An item that is a sentence (help): no comma after its full stop ("... --resume., 2 of 38").
LIST_ITEM_SENTENCE = N_("{label} {index} of {count}.")
MENU_ITEM = N_("{label}: {keys}")
ACTIONS_TITLE = N_("Actions")
HELP_TITLE = N_("Help: the keys")
HELP_CLOSED = N_("Help closed.")
#: The help list's last part: every sound with what it means.
SOUNDS_HEADING = N_("Sounds, each with what it means; Enter plays one:")
MENU_CLOSED = N_("Menu closed.")
SETTINGS_CLOSED = N_("Settings closed.")

#: The settings menu: each item names the setting and its value now.
SETTINGS_TITLE = N_("Settings")
SETTINGS_LANGUAGE = N_("Language: {language}")
SETTINGS_VERBOSITY = N_("Verbosity: {verbosity}")
LANGUAGE_TITLE = N_("Language")
#: Said in the language just chosen.
LANGUAGE_CHOSEN = N_("Language: {language}. Saved for the next games too.")
LANGUAGE_NOT_SAVED = N_("Language: {language}, for this game only: {why}")
VOICE_NEXT_START = N_("The built-in voice changes language when the game starts again.")


def list_opened(title: str, count: int, item: str) -> str:
    """A list's opening sentence: its title, how many items, the item that has focus."""
    return ngettext(
        "{title}. {count} item. {item}", "{title}. {count} items. {item}", count
    ).format(title=title, count=count, item=item)


class Speaker(Protocol):
    """The part of :class:`fivecrowns.output.Output` the command layers use."""

    def speak(self, text: str, interrupt: bool = False) -> None: ...
    def play(self, sound: str) -> None: ...
    def stop(self) -> None: ...
    def resay(self, text: str) -> None: ...
    @property
    def history(self) -> History: ...


@dataclass
class ListState:
    """An open list: the action menu ("menu") or the help list ("help")."""

    kind: str
    title: str
    items: list[MenuItem]
    selected: int = 0


class CommandLayer(SoundMenus):
    """Keys -> actions for one game; subclasses add the game's own ``_do_`` actions."""

    output: Speaker
    keymap: Keymap
    verbosity: str

    def __init__(self) -> None:
        self.listeners: list[Callable[[str], None]] = []
        self.clear_listeners: list[Callable[[], None]] = []
        self.last_message = ""
        self.list_state: ListState | None = None
        self.confirm: tuple[str, Callable[[], None]] | None = None
        self.exit_requested = False

    # --- what a game says about itself (overridden) ---------------------------------

    def is_over(self) -> bool:
        raise NotImplementedError

    def save_now(self) -> None:
        raise NotImplementedError

    def available_actions(self) -> list[Action]:
        raise NotImplementedError

    def menu_items(self, action: Action) -> list[MenuItem]:
        """The menu items of one action: by default one, with its keys."""
        keys = self.keymap.display_keys(action.name)
        label = _(MENU_ITEM).format(label=action.label, keys=keys)
        return [(label, functools.partial(self.run_action, action))]

    # --- speech ------------------------------------------------------------------

    def add_listener(self, listener: Callable[[str], None]) -> None:
        self.listeners.append(listener)

    def add_clear_listener(self, listener: Callable[[], None]) -> None:
        """Called when what is on the screen must go (a hot-seat handoff)."""
        self.clear_listeners.append(listener)

    def messages(self) -> History:
        """The history the review keys walk: the output's, unless a game keeps one per seat."""
        return self.output.history

    def _record(self, text: str) -> None:
        """Keep a said sentence for the review keys (the output's history already has it)."""

    def say(self, text: str, interrupt: bool = False, sound: str | None = None) -> None:
        self._record(text)
        self._emit(text, interrupt, sound)

    def _emit(self, text: str, interrupt: bool = False, sound: str | None = None) -> None:
        """Speak and show ``text`` without recording it again."""
        if sound:
            self.output.play(sound)  # with its words, never alone; it never stops speech
        self.output.speak(text, interrupt=interrupt)
        self.last_message = text
        for listener in self.listeners:
            listener(text)

    def echo_typing(self, before: str, after: str) -> None:
        """Echo one key typed into a line, as a text field does: the character typed, or
        what Backspace deleted; spoken at once and shown (line mode prints it), not kept
        in the message history."""
        if len(after) > len(before):
            text = character_words(after[-1])
        elif len(after) < len(before):
            text = _(TYPED_DELETED).format(character=character_words(before[-1]))
        else:
            text = _(NOTHING_TO_DELETE)
        self.output.resay(text)
        for listener in self.listeners:
            listener(text)

    def answer(self, text: str, sound: str | None = None) -> None:
        """What the player asked for: interrupts whatever is being said."""
        self.say(text, interrupt=True, sound=sound)

    def refuse(self, text: str) -> None:
        self.say(text, interrupt=True, sound="invalid")

    # --- keys --------------------------------------------------------------------

    def context(self) -> str:
        if self.confirm is not None:
            return "confirm"
        if self.list_state is not None:
            return "menu"
        return "normal"

    def wants_exit(self) -> bool:
        return self.exit_requested

    def plain_key(self, key: str, context: str) -> str:
        """A capital letter with no key of its own is the small letter (Caps Lock, or Shift)."""
        if len(key) == 1 and key.isupper() and key.lower() != key:
            own = self.keymap.action_for(key, context) or self.keymap.action_for(key, "normal")
            if own is None:
                return key.lower()
        return key

    def press(self, key: str) -> None:
        """Handle one key press; never raises for anything the player does."""
        context = self.context()
        key = self.plain_key(key, context)
        action = self.keymap.action_for(key, context)
        # as menus do (ARIA, screen readers): the next item starting with the letter; a
        # letter no item starts with does its own action (an item may be missing because
        # the menu was opened before the turn came)
        letter = action is None and context == "menu" and len(key) == 1 and key.isalpha()
        own = self.keymap.action_for(key, "normal") if letter else None
        if letter and self._jump_to_letter(key, refuse=own is None):
            return
        if action is None and context == "menu":
            # Other hotkeys still work with the list open: close it and do the action.
            action = self.keymap.action_for(key, "normal")
            if action is not None:
                self.list_state = None
        if action is None:
            if (key.startswith("<") and len(key) > 1) or key == "c-@":
                return  # terminal reports and modifier-only codes, not keys the player meant
            self._unknown_key(key, context)
            return
        self.run_action(action, key)

    def run_action(self, action: Action, key: str = "") -> None:
        handler: Callable[[str], None] = getattr(self, f"_do_{action.name}")
        try:
            handler(key)
        except FiveCrownsError as error:
            self.refuse(str(error))
        except Exception as error:  # why: a bug must cost one key press, never the game
            self._report_bug(action, error)

    def _report_bug(self, action: Action, error: Exception) -> None:
        from fivecrowns.storage.errorlog import error_log_path, log_error

        path = log_error(f"the action {action.name} failed", error) or error_log_path()
        self.refuse(
            _(BUG).format(action=action.label.lower(), error=type(error).__name__, path=path)
        )

    def _unknown_key(self, key: str, context: str) -> None:
        if context == "confirm":
            self.refuse(
                _(CONFIRM_KEYS).format(
                    yes=self.keymap.display_keys("confirm_yes"),
                    no=self.keymap.display_keys("confirm_no"),
                )
            )
        else:
            help_keys = self.keymap.display_keys("help")
            if _garbled(key) or not key.isprintable():
                # why: a byte that is not UTF-8 arrives as a lone surrogate; it must not
                # reach speech, the screen or the transcript, which would fail to encode it
                self.refuse(_(UNKNOWN_BYTES).format(help=help_keys))
                return
            self.refuse(_(UNKNOWN_KEY).format(key=capitalized(display_key(key)), help=help_keys))

    # --- messages and settings ---------------------------------------------------------

    def _review(self, entry: Entry | None, otherwise: str, *, place: bool = True) -> None:
        if entry is None:
            text = otherwise
        elif place:
            index, count = self.messages().position()
            text = _(REVIEWED).format(message=entry.text, index=index, count=count)
        else:
            text = entry.text
        self.output.resay(text)  # asked for, so it interrupts; not recorded again
        self.last_message = text  # the screen's message line shows it: never by sound alone
        for listener in self.listeners:
            listener(text)

    def _do_older(self, key: str) -> None:
        self._review(self.messages().older(), _(NO_OLDER))

    def _do_newer(self, key: str) -> None:
        self._review(self.messages().newer(), _(NO_NEWER))

    def _do_oldest(self, key: str) -> None:
        self._review(self.messages().oldest(), _(NOTHING_SAID))

    def _do_newest(self, key: str) -> None:
        self._review(self.messages().newest(), _(NOTHING_SAID))

    def _do_repeat(self, key: str) -> None:
        self._review(self.messages().last(), _(NOTHING_SAID), place=False)

    def _do_stop_speech(self, key: str) -> None:
        self.output.stop()

    def _do_verbosity(self, key: str) -> None:
        index = (VERBOSITIES.index(self.verbosity) + 1) % len(VERBOSITIES)
        self.verbosity = VERBOSITIES[index]
        self.answer(_(VERBOSITY_SAID).format(verbosity=_(VERBOSITY_WORDS[self.verbosity])))

    def _do_past_games(self, key: str) -> None:
        found = game_history.read_history_tail()
        if found.problem:  # why: an unreadable file is not "no finished games"
            self.answer(found.problem)
            return
        sentences = game_history.describe_history(found.games, last=5)
        self.answer(" ".join([*sentences, game_history.skipped_words(found.skipped)]).strip())

    # --- lists: the action menu and help ------------------------------------------------

    def _open_list(self, kind: str, title: str, items: list[MenuItem], selected: int = 0) -> None:
        """Open a list with focus on ``selected``; the opening sentence names that item."""
        self.list_state = ListState(kind, title, items)
        self.list_state.selected = max(0, min(selected, len(items) - 1))
        item = items[self.list_state.selected][0]
        self.answer(list_opened(title, len(items), item))

    def _list_say(self) -> None:
        state = self.list_state
        assert state is not None
        label = state.items[state.selected][0]
        template = _(LIST_ITEM_SENTENCE) if label.endswith(".") else _(LIST_ITEM)
        self.answer(template.format(label=label, index=state.selected + 1, count=len(state.items)))

    def _do_menu(self, key: str) -> None:
        items: list[MenuItem] = []
        for action in self.available_actions():
            items += self.menu_items(action)
        self._open_list("menu", _(ACTIONS_TITLE), items)

    def help_lines(self) -> list[str]:
        return [*self.keymap.help_lines(), self.caps_lock_help()]

    def caps_lock_help(self) -> str:
        capitals = sorted(k for k in self.keymap.all_keys() if len(k) == 1 and k.isupper())
        return _(CAPS_LOCK_HELP).format(keys=i18n.join_list([display_key(k) for k in capitals]))

    def _do_help(self, key: str) -> None:
        # the keys, then every sound with what it means (choosing one plays it)
        lines = [*self.help_lines(), _(SOUNDS_HEADING)]
        self.open_with_cues("help", _(HELP_TITLE), [(line, None) for line in lines])

    def _select(self, index: int) -> None:
        state = self.list_state
        assert state is not None
        state.selected = max(0, min(index, len(state.items) - 1))
        self._list_say()

    def _jump_to_letter(self, letter: str, refuse: bool = True) -> bool:
        """Move to the next item starting with ``letter``; False if none does (and say so
        when ``refuse``)."""
        state = self.list_state
        assert state is not None
        count = len(state.items)
        for step in range(1, count + 1):
            index = (state.selected + step) % count
            if state.items[index][0][:1].lower() == letter.lower():
                self._select(index)
                return True
        if refuse:
            self.refuse(_(NO_ITEM).format(letter=letter.upper()))
            return True
        return False

    def _do_menu_previous(self, key: str) -> None:
        assert self.list_state is not None
        self._select(self.list_state.selected - 1)

    def _do_menu_next(self, key: str) -> None:
        assert self.list_state is not None
        self._select(self.list_state.selected + 1)

    def _do_menu_first(self, key: str) -> None:
        self._select(0)

    def _do_menu_last(self, key: str) -> None:
        assert self.list_state is not None
        self._select(len(self.list_state.items) - 1)

    def _do_menu_choose(self, key: str) -> None:
        state = self.list_state
        assert state is not None
        self.list_state = None
        chosen = state.items[state.selected][1]
        if chosen is None:
            self.answer(_(HELP_CLOSED))
        else:
            chosen()

    def _do_menu_close(self, key: str) -> None:
        assert self.list_state is not None
        kind = self.list_state.kind
        self.list_state = None
        closed = {"help": HELP_CLOSED, "settings": SETTINGS_CLOSED}.get(kind, MENU_CLOSED)
        self.answer(_(closed))

    def overlay(self) -> ListScreen | None:
        """The open list or question, as the screen shows it."""
        if self.list_state is not None:
            state = self.list_state
            return ListScreen(state.title, tuple(label for label, _ in state.items), state.selected)
        if self.confirm is not None:
            return ListScreen(self.confirm[0], (), 0)
        return None

    # --- quitting ----------------------------------------------------------------------

    #: Why the last save failed (a sentence), or None when the game is saved.
    save_problem: str | None = None

    def _do_quit(self, key: str) -> None:
        if self.is_over():
            self.answer(_(GOODBYE))  # nothing to save: the finished game is in the history
            self.exit_requested = True
            return

        def leave() -> None:
            self.save_now()
            if self.save_problem:
                self.answer(_(NOT_SAVED_GOODBYE).format(reason=self.save_problem))
            else:
                self.answer(_(SAVED_GOODBYE))
            self.exit_requested = True

        yes = self.keymap.display_keys("confirm_yes")
        no = self.keymap.display_keys("confirm_no")
        question = _(QUIT_QUESTION).format(yes=yes, no=no)
        if self.save_problem:
            question = _(NOT_SAVED_QUESTION).format(reason=self.save_problem, yes=yes, no=no)
        self.confirm = (question, leave)
        self.answer(question)

    def _do_confirm_yes(self, key: str) -> None:
        assert self.confirm is not None
        _, action = self.confirm
        self.confirm = None
        action()

    def _do_confirm_no(self, key: str) -> None:
        self.confirm = None
        self.answer(_(BACK_TO_GAME))

    # --- settings: language and verbosity ------------------------------------------------

    def _do_settings(self, key: str) -> None:
        """The settings menu: each item names a setting and its value; choosing changes it."""
        language = i18n.LANGUAGE_NAMES[i18n.current_language()]
        verbosity = _(VERBOSITY_WORDS[self.verbosity])
        items: list[MenuItem] = [
            (_(SETTINGS_LANGUAGE).format(language=language), self._open_languages),
            (_(SETTINGS_VERBOSITY).format(verbosity=verbosity), self._settings_verbosity),
            *self.sound_settings_items(),
        ]
        self._open_list("settings", _(SETTINGS_TITLE), items)

    def _settings_verbosity(self) -> None:
        self._do_verbosity("")

    def _open_languages(self) -> None:
        # why each name in itself ("English", "español"): a player who cannot read the
        # language the game speaks now must still find their own
        items: list[MenuItem] = [
            (i18n.LANGUAGE_NAMES[code], functools.partial(self.choose_language, code))
            for code in i18n.LANGUAGES
        ]
        self.list_state = ListState("settings", _(LANGUAGE_TITLE), items)
        self.list_state.selected = i18n.LANGUAGES.index(i18n.current_language())
        self.answer(list_opened(_(LANGUAGE_TITLE), len(items), items[self.list_state.selected][0]))

    def choose_language(self, code: str) -> None:
        """Speak ``code`` from the next sentence on, and keep it in the settings file."""
        from fivecrowns.storage.settings import SettingsFileError, update_settings

        try:
            i18n.set_language(code)
        except i18n.CatalogMissing as error:
            self.refuse(str(error))
            return
        name = i18n.LANGUAGE_NAMES[code]
        try:
            update_settings({"language": code})
        except (OSError, ValueError, SettingsFileError) as error:
            self.answer(_(LANGUAGE_NOT_SAVED).format(language=name, why=error))
        else:
            self.answer(_(LANGUAGE_CHOSEN).format(language=name))
        self._voice_follows(code)
        # at a network table (or its lobby) the server words its sentences in it too
        tell = getattr(getattr(self, "link", None), "tell_language", None)
        if callable(tell):
            tell(code)

    def _voice_follows(self, code: str) -> None:
        """The built-in voice follows the language when the output can re-pick it;
        otherwise, with the built-in voice speaking, one sentence says when it will."""
        repick = getattr(self.output, "set_language", None)
        if callable(repick):
            repick(code)
            return
        backend = getattr(getattr(self.output, "backend", None), "name", None)
        if backend == "tts":
            self.say(_(VOICE_NEXT_START))
