# One file (~900 lines): one table of action -> keys -> help that help, menus and docs read.
"""The keymap, kept as data: one table of action -> keys -> help text.

The help key, the Escape action menu, ``docs/keys.md`` and rebinding in the
settings file all read this one table (STYLE practice 10), so a key can never
be documented one way and work another.

Keys are written the way prompt_toolkit names them (``"left"``, ``"c-m"`` for
Enter, ``"H"`` for Shift+H, ``"f1"``); players write them in the settings file
the way they read them in the help ("Enter", "Shift+H", "Ctrl+X", "F1", "comma"; in any
of the game's languages: "Intro", "Mayúsculas+H"), or as the key itself (",").

>>> keymap = Keymap.default()
>>> keymap.action_for("d").name
'draw'
>>> keymap.display_keys("discard")
'Enter or Space'
>>> normalize_key("Shift+H"), normalize_key("ctrl+x"), normalize_key("Enter")
('H', 'c-x', 'c-m')
>>> normalize_key("Mayúsculas+H"), normalize_key("Intro"), normalize_key("flecha arriba")
('H', 'c-m', 'up')
"""

from __future__ import annotations

import contextlib
import functools
import re
import string
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from fivecrowns.i18n import LANGUAGES, N_, CatalogMissing, ngettext, speaking
from fivecrowns.i18n import gettext as _

__all__ = [
    "ACTIONS",
    "GROUPS",
    "JUMP_HELP",
    "JUMP_KEYS",
    "LOBBY_ACTIONS",
    "LOBBY_GROUPS",
    "MODAL_GROUPS",
    "SOLITAIRE_ACTIONS",
    "Action",
    "Keymap",
    "KeymapError",
    "capitalized",
    "character_words",
    "display_key",
    "jump_index",
    "keys_doc_tables",
    "normalize_key",
]


class KeymapError(ValueError):
    """A key or action name in the settings file that cannot be used; the message says why."""


@dataclass(frozen=True)
class Action:
    """One thing a player can do, the keys that do it, and what the help says.

    ``group`` decides where the action is listed and when its keys apply:
    the modal groups (menu, confirm, privacy) only while that screen is open.
    ``uses_turn`` is True for the actions that are moves in the game.
    ``label_text`` and ``help_text`` are the English source sentences (marked for the
    catalog); :attr:`label` and :attr:`help` are them in the language spoken now.
    """

    name: str
    keys: tuple[str, ...]
    label_text: str
    help_text: str
    group: str
    uses_turn: bool = False

    @property
    def label(self) -> str:
        return _(self.label_text)

    @property
    def help(self) -> str:
        return _(self.help_text)


#: Each group's title, marked for the catalog: translate with ``_(GROUPS[group])`` at use.
GROUPS: dict[str, str] = {
    "turn": N_("Your turn"),
    "hand": N_("Moving through your hand"),
    "info": N_("Information (never uses your turn)"),
    "messages": N_("Messages and speech"),
    "game": N_("The game"),
    "menu": N_("In the action menu and the help list"),
    "confirm": N_("When asked to confirm"),
    "privacy": N_("On the privacy screen (hot seat)"),
}
MODAL_GROUPS = frozenset({"menu", "confirm", "privacy"})

# why "the same number again": no timers (a two-digit wait would need one), and it is how a
# screen reader's first-letter navigation works: 1 is card 1, 1 again is card 11, again card 1.
JUMP_KEYS: tuple[str, ...] = tuple(str(digit) for digit in range(10))
JUMP_HELP = N_(
    "Number keys 1 to 9 jump to that card, 0 to the 10th. "
    "The same number again jumps 10 further: 1 twice is the 11th card, 4 twice the 14th."
)


def jump_index(key: str, focus: int, count: int) -> int:
    """The card (from 0) a number key jumps to, from card ``focus`` in a hand of ``count``.

    Raises :class:`KeymapError` with a sentence when the hand is shorter.

    >>> jump_index("3", 0, 12), jump_index("0", 0, 12), jump_index("1", 0, 12)
    (2, 9, 10)
    >>> jump_index("1", 10, 12), jump_index("2", 1, 12), jump_index("3", 2, 12)
    (0, 11, 2)
    """
    number = 10 if key == "0" else int(key) if key.isdigit() else 1
    index = number - 1
    if index == focus and index + 10 < count:
        index += 10
    if index >= count:
        raise KeymapError(
            ngettext("You have only {count} card.", "You have only {count} cards.", count).format(
                count=count
            )
        )
    return index


_A = Action
# Rows both games' tables hold, word for word (each game adds its own rows around them).
_HISTORY = (
    _A("older", (",",), N_("Older message"), N_("Read the message before this one."), "messages"),
    _A("newer", (".",), N_("Newer message"), N_("Read the message after this one."), "messages"),
    _A("oldest", ("<",), N_("Oldest message"), N_("Read the first message."), "messages"),
    _A("newest", (">",), N_("Newest message"), N_("Read the latest message."), "messages"),
    _A("repeat", ("r",), N_("Repeat"), N_("Say the last message again."), "messages"),
)
_VERBOSITY = _A(
    "verbosity",
    ("v",),
    N_("Verbosity"),
    N_("Switch between brief, normal and full messages."),
    "messages",
)
_CHAT = _A(
    "chat",
    ("/",),
    N_("Chat"),
    N_("At a network table: type a line for everyone there, then Enter; Escape cancels."),
    "info",
)
_PAST_GAMES = _A(
    "past_games", ("S",), N_("Past games"), N_("The results of finished games."), "info"
)
_MENU_AND_HELP = (
    _A("menu", ("escape",), N_("Action menu"), N_("A list of everything you can do now."), "game"),
    _A("help", ("f1", "?"), N_("Help"), N_("The list of keys."), "game"),
)
_SETTINGS = _A(
    "settings",
    ("f2",),
    N_("Settings"),
    N_(
        "The language (English or español), the verbosity, the sound pack, a list that plays "
        "each sound with what it means, mute, and the volume of each kind of sound. What you "
        "choose is kept for the next games."
    ),
    "game",
)
_QUIT = _A(
    "quit", ("q", "c-c"), N_("Quit"), N_("Leave the game; it stays saved for --resume."), "game"
)
_LISTS_AND_QUESTIONS = (
    _A("menu_previous", ("up", "left"), N_("Previous item"), N_("Move up the list."), "menu"),
    _A("menu_next", ("down", "right"), N_("Next item"), N_("Move down the list."), "menu"),
    _A("menu_first", ("home",), N_("First item"), N_("Move to the top of the list."), "menu"),
    _A("menu_last", ("end",), N_("Last item"), N_("Move to the bottom of the list."), "menu"),
    _A("menu_choose", ("c-m", " "), N_("Choose"), N_("Do the item you are on."), "menu"),
    _A("menu_close", ("escape",), N_("Close"), N_("Close the list."), "menu"),
    _A("confirm_yes", ("y",), N_("Yes"), N_("Yes, do it."), "confirm"),
    _A("confirm_no", ("n", "escape"), N_("No"), N_("No, go back."), "confirm"),
)
ACTIONS: tuple[Action, ...] = (
    # Your turn
    _A(
        "draw",
        ("d",),
        N_("Draw from the stock"),
        N_("Take the top card of the stock."),
        "turn",
        True,
    ),
    _A(
        "take",
        ("t",),
        N_("Take the top discard"),
        N_("Take the top card of the discard pile."),
        "turn",
        True,
    ),
    _A(
        "discard",
        ("c-m", " "),
        N_("Discard the focused card"),
        N_("Discard the card you are on. In a last turn, your best melds are laid down first."),
        "turn",
        True,
    ),
    _A(
        "go_out",
        ("g",),
        N_("Go out"),
        N_(
            "Lay down all your melds and discard. "
            "If you cannot yet, says why and how close you are."
        ),
        "turn",
        True,
    ),
    # Moving through the hand
    _A(
        "previous",
        ("left",),
        N_("Previous card"),
        N_("Move to the card on the left and say it; at the first, says First card."),
        "hand",
    ),
    _A(
        "next",
        ("right",),
        N_("Next card"),
        N_("Move to the card on the right and say it; at the last, says Last card."),
        "hand",
    ),
    _A("first", ("home",), N_("First card"), N_("Move to the first card."), "hand"),
    _A("last", ("end",), N_("Last card"), N_("Move to the last card."), "hand"),
    _A(
        "current", ("f",), N_("Focused card"), N_("Say the card you are on, and its place."), "hand"
    ),
    _A(
        "jump",
        JUMP_KEYS,
        N_("Jump to a card"),
        JUMP_HELP,
        "hand",
    ),
    _A(
        "sort",
        ("o",),
        N_("Sort the hand"),
        N_("Sort your hand by rank, or by suit; press again to switch."),
        "hand",
    ),
    # Information
    _A(
        "hand",
        ("h",),
        N_("Your hand"),
        N_("Your whole hand, grouped as it would meld, with leftover points and the sort order."),
        "info",
    ),
    _A("hint", ("H",), N_("Hint"), N_("The best draw or discard now, and why."), "info"),
    _A("round", ("w",), N_("Round and wild"), N_("The round number and the wild rank."), "info"),
    _A(
        "piles",
        ("p",),
        N_("Piles"),
        N_("The top discard and how many cards are left in the stock."),
        "info",
    ),
    _A("scores", ("s",), N_("Scores"), N_("Everyone's total score, lowest first."), "info"),
    _A(
        "round_detail",
        ("b",),
        N_("Breakdown of the last round"),
        N_("Who went out, and each player's melds, leftover cards and points in the last round."),
        "info",
    ),
    _A("melds", ("m",), N_("Melds on the table"), N_("The melds laid down this round."), "info"),
    _A("counts", ("c",), N_("Card counts"), N_("How many cards each player holds."), "info"),
    _A("last_moves", ("l",), N_("Last moves"), N_("What happened since your last turn."), "info"),
    _A(
        "whose_turn",
        ("n",),
        N_("Whose turn"),
        N_(
            "Whose turn it is and what they must do now. After the game: a new game, same "
            "players (at a network table, only its creator starts one)."
        ),
        "info",
    ),
    _A("why", ("y",), N_("Why"), N_("Why the last computer player did what it did."), "info"),
    _A(
        "review",
        ("R",),
        N_("Review of the last round"),
        N_(
            "Your choices in the last round that the strongest computer player would have "
            "made otherwise, with the points each cost: the five dearest, every one at full "
            "verbosity."
        ),
        "info",
    ),
    _PAST_GAMES,
    _CHAT,
    # Messages and speech
    *_HISTORY,
    _A(
        "stop_speech",
        ("x",),
        N_("Stop speech"),
        N_("Stop speaking now. Ctrl alone cannot be read in a terminal, so X does this."),
        "messages",
    ),
    _VERBOSITY,
    _A(
        "speech",
        ("i",),
        N_("Speech details"),
        N_(
            "Which voice speaks and why, and whether sounds play. "
            "fivecrowns speech --list tells every choice."
        ),
        "messages",
    ),
    # The game
    *_MENU_AND_HELP,
    _SETTINGS,
    _A(
        "export",
        ("e",),
        N_("Export"),
        N_("Write the score sheet and your hand to files, in print and braille, and say where."),
        "game",
    ),
    _QUIT,
    # Modal screens
    *_LISTS_AND_QUESTIONS,
    _A(
        "ready",
        ("c-m",),
        N_("Ready"),
        N_(
            "The next player is at the keyboard. Here quit, help and stop speech also work; "
            "no other key, so nothing shows the hand."
        ),
        "privacy",
    ),
)

#: Five Crowns Solitaire's keys: a table of its own, rebound from the same [keys] table.
SOLITAIRE_ACTIONS: tuple[Action, ...] = (
    _A(
        "play",
        ("c-m", " "),
        N_("Put in or discard"),
        N_("Put the turned card into the hand you are on; then discard the card you are on."),
        "turn",
        True,
    ),
    _A(
        "undo",
        ("u",),
        N_("Undo"),
        N_("Take back your last move: the card put in or discarded goes back. One move only."),
        "turn",
    ),
    _A("previous_hand", ("up",), N_("Previous hand"), N_("Move to the open hand before."), "hand"),
    _A("next_hand", ("down",), N_("Next hand"), N_("Move to the open hand after."), "hand"),
    _A(
        "previous",
        ("left",),
        N_("Previous card"),
        N_("The card before, in the hand you are on."),
        "hand",
    ),
    _A("next", ("right",), N_("Next card"), N_("The card after, in the hand you are on."), "hand"),
    _A(
        "current", ("f",), N_("Focused card"), N_("Say the card you are on, and its place."), "hand"
    ),
    _A("first", ("home",), N_("First card"), N_("The first card of the hand."), "hand"),
    _A("last", ("end",), N_("Last card"), N_("The last card of the hand."), "hand"),
    _A("jump", JUMP_KEYS, N_("Jump to a card"), JUMP_HELP, "hand"),
    _A(
        "hand",
        ("h",),
        N_("This hand"),
        N_("The cards of the hand you are on, its best melds and leftover points."),
        "info",
    ),
    _A(
        "hint",
        ("H",),
        N_("Hint"),
        N_("Where the best strategy would put the card, and why."),
        "info",
    ),
    _A(
        "piles",
        ("p",),
        N_("Turned card and stock"),
        N_("The turned card, the cards left in the stock, and the discards."),
        "info",
    ),
    _A(
        "status",
        ("s",),
        N_("Score"),
        N_("How many hands are closed, which are open, and the points left."),
        "info",
    ),
    _A(
        "stock_cards",
        ("k",),
        N_("What the stock holds"),
        N_("The cards still in the stock, in no order: their order is hidden, not what they are."),
        "info",
    ),
    *_HISTORY,
    _A("stop_speech", ("x",), N_("Stop speech"), N_("Stop speaking now."), "messages"),
    _VERBOSITY,
    _PAST_GAMES,
    *_MENU_AND_HELP,
    _A(
        "export",
        ("e",),
        N_("Export"),
        N_("Write the board to files, in print and braille, and say where."),
        "game",
    ),
    _A("new_game", ("n",), N_("New deal"), N_("After a game: deal a new one."), "game"),
    _QUIT,
    *_LISTS_AND_QUESTIONS,
)

#: The lobby of a game server in ``fivecrowns join --keys`` (before a game, and between
#: games): its own table of keys, like solitaire's, rebound from the same [keys] table.
LOBBY_GROUPS: dict[str, str] = {
    "lobby": N_("In the lobby of a game server (fivecrowns join --keys)"),
    "waiting": N_("At a network table before its game starts"),
}
LOBBY_ACTIONS: tuple[Action, ...] = (
    _A(
        "tables",
        ("l",),
        N_("List the tables"),
        N_("Hear the open tables again: their number, who sits there, and the round."),
        "lobby",
    ),
    _A(
        "previous_table",
        ("up",),
        N_("Previous table"),
        N_("Move to the table before and say it."),
        "lobby",
    ),
    _A(
        "next_table",
        ("down",),
        N_("Next table"),
        N_("Move to the table after and say it."),
        "lobby",
    ),
    _A(
        "table_number",
        tuple(str(digit) for digit in range(1, 10)),
        N_("Table by number"),
        N_("Number keys 1 to 9 move to that table of the list and say it."),
        "lobby",
    ),
    _A("join", ("j", "c-m"), N_("Join"), N_("Sit at the table you are on."), "lobby"),
    _A(
        "watch",
        ("w",),
        N_("Watch"),
        N_("Watch the table you are on as a spectator: everything public, never a hand."),
        "lobby",
    ),
    _A(
        "invite_code",
        ("i",),
        N_("Join by invite code"),
        N_("Type a private table's invite code, then Enter; Escape cancels."),
        "lobby",
    ),
    _A(
        "create",
        ("c",),
        N_("Create a table"),
        N_(
            "Choose the seats, the computer players and whether it is private, one list at "
            "a time; you sit in the first seat."
        ),
        "lobby",
    ),
    # ratings (issue 28): read in the lobby; ui/lobby_ratings.py
    _A(
        "my_record",
        ("a",),
        N_("Your record"),
        N_("Your rating, its place, and your games played and won (with an account)."),
        "lobby",
    ),
    _A(
        "player_record",
        ("p",),
        N_("A player's record"),
        N_("Type a player's name, then Enter: their rating and games; Escape cancels."),
        "lobby",
    ),
    _A(
        "leaderboard",
        ("k",),
        N_("Leaderboard"),
        N_("The best rated players, 10 at a time; press again for the next 10."),
        "lobby",
    ),
    _A(
        "my_games",
        ("g",),
        N_("Your rated games"),
        N_("Your rated games, the newest first, 10 at a time; press again for the next 10."),
        "lobby",
    ),
    _A(
        "read_game",
        ("o",),
        N_("One game, round by round"),
        N_("Type a game's number from the list of games, then Enter; Escape cancels."),
        "lobby",
    ),
    _A(
        "log_out",
        ("O",),  # why Shift: O alone reads a rated game (ratings came first)
        N_("Log out"),
        N_(
            "Logged in to an account: log out here or on every device, from a list; then join ends."
        ),
        "lobby",
    ),
    _A(
        "seats",
        ("t",),
        N_("Who sits here"),
        N_("The seats of your table, who sits in each, and a private table's invite code."),
        "waiting",
    ),
    _A(
        "start",
        ("s",),
        N_("Start the game"),
        N_("For the table's creator, once every seat is taken."),
        "waiting",
    ),
    _A(
        "add_bot",
        ("b",),
        N_("Add a computer player"),
        N_("For the table's creator: choose its level; it takes the first empty seat."),
        "waiting",
    ),
    _A(
        "remove_bot",
        ("u",),
        N_("Remove a computer player"),
        N_("For the table's creator: choose which one."),
        "waiting",
    ),
    _A(
        "remove_player",
        ("e",),  # why E (eject): K is the leaderboard's, in the lobby
        N_("Remove a player"),
        N_(
            "For the table's creator, before the start: choose a player, and whether they may "
            "sit here again."
        ),
        "waiting",
    ),
    replace(
        _CHAT,
        help_text=N_("Type a line for everyone at your table, then Enter; Escape cancels."),
        group="waiting",
    ),
    *_HISTORY,
    _A("stop_speech", ("x",), N_("Stop speech"), N_("Stop speaking now."), "messages"),
    _VERBOSITY,
    *_MENU_AND_HELP,
    _SETTINGS,
    replace(
        _QUIT,
        help_text=N_(
            "At a table: leave it and come back to the lobby. In the lobby: quit (asks first)."
        ),
    ),
    *_LISTS_AND_QUESTIONS,
)

del _A

_NAMED_KEYS: dict[str, str] = {
    "enter": "c-m",
    "return": "c-m",
    "space": " ",
    "tab": "c-i",
    "esc": "escape",
    "escape": "escape",
    "backspace": "c-h",
    "delete": "delete",
    "left": "left",
    "right": "right",
    "up": "up",
    "down": "down",
    "home": "home",
    "end": "end",
    "pageup": "pageup",
    "pagedown": "pagedown",
    "insert": "insert",
    "comma": ",",
    "period": ".",
}
_NAMED_KEYS.update({f"f{n}": f"f{n}" for n in range(1, 13)})
#: Key names as help and speech say them (marked: Spanish says "Intro", "Espacio" ...).
_DISPLAY: dict[str, str] = {
    "c-m": N_("Enter"),
    " ": N_("Space"),
    "c-i": N_("Tab"),
    "c-h": N_("Backspace"),
    "escape": N_("Escape"),
    "pageup": N_("Page Up"),
    "pagedown": N_("Page Down"),
    "left": N_("Left"),
    "right": N_("Right"),
    "up": N_("Up"),
    "down": N_("Down"),
    "home": N_("Home"),
    "end": N_("End"),
    "delete": N_("Delete"),
    "insert": N_("Insert"),
}
_PRINTABLE = set(string.ascii_letters + string.digits + string.punctuation)
#: A typed character that is a symbol, in words for speech ("comma", not ","): a line being
#: typed (chat, an invite code) echoes each character.
_CHARACTER_WORDS: dict[str, str] = {
    " ": N_("space"),
    ",": N_("comma"),
    ".": N_("period"),
    "/": N_("slash"),
    "?": N_("question mark"),
    "!": N_("exclamation mark"),
    ":": N_("colon"),
    ";": N_("semicolon"),
    "'": N_("apostrophe"),
    '"': N_("quotation mark"),
    "-": N_("hyphen"),
    "<": N_("less than"),
    ">": N_("greater than"),
    "#": N_("number sign"),
    "$": N_("dollar sign"),
    "%": N_("percent sign"),
    "&": N_("ampersand"),
    "(": N_("left parenthesis"),
    ")": N_("right parenthesis"),
    "*": N_("asterisk"),
    "+": N_("plus sign"),
    "=": N_("equals sign"),
    "@": N_("at sign"),
    "[": N_("left bracket"),
    "]": N_("right bracket"),
    "\\": N_("backslash"),
    "^": N_("caret"),
    "_": N_("underscore"),
    "`": N_("backquote"),
    "{": N_("left brace"),
    "}": N_("right brace"),
    "|": N_("vertical bar"),
    "~": N_("tilde"),
}
#: A symbol key as a player may write it in the settings file, from the words help says
#: ("comma", "question mark", "questionmark"): the English words, as settings are English.
_NAMED_KEYS.update(
    {word.replace(" ", ""): character for character, word in _CHARACTER_WORDS.items()}
)


def character_words(character: str) -> str:
    """A typed character as speech says it: a letter or digit itself, a symbol in words.

    >>> character_words("a"), character_words(","), character_words(" ")
    ('a', 'comma', 'space')
    """
    if character in _CHARACTER_WORDS:
        return _(_CHARACTER_WORDS[character])
    return character


# TRANSLATORS: a key pressed with Control, as help names it ("Ctrl+X")
_CTRL_KEY = N_("Ctrl+{letter}")
# TRANSLATORS: a capital letter's key, as help names it ("Shift+H")
_SHIFT_KEY = N_("Shift+{letter}")


def _fold(text: str) -> str:
    """A key name compared loosely: no capitals, spaces or accents ("mayusculas+h")."""
    decomposed = unicodedata.normalize("NFKD", text.lower().replace(" ", ""))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class _HelpNames:
    names: dict[str, str]  # a folded name -> the prompt_toolkit key
    shift: tuple[str, ...]  # folded prefixes of a capital letter: "shift+", "mayusculas+"
    ctrl: tuple[str, ...]  # folded prefixes of a Control letter: "ctrl+", "control+"


@functools.cache
def _help_names() -> _HelpNames:
    """Key names as the help says them in every language, so a settings file may use the
    words its player reads ("Intro", "Mayúsculas+H") whatever language it is read in."""
    names: dict[str, str] = {}
    shift: list[str] = []
    ctrl: list[str] = []
    for code in LANGUAGES:
        # why suppress: a language whose catalog is missing is said once elsewhere
        with contextlib.suppress(CatalogMissing), speaking(code):
            names.update({_fold(_(word)): key for key, word in _DISPLAY.items()})
            names.update({_fold(_(word)): key for key, word in _CHARACTER_WORDS.items()})
            shift.append(_fold(_(_SHIFT_KEY).split("{letter}")[0]))
            ctrl.append(_fold(_(_CTRL_KEY).split("{letter}")[0]))
    return _HelpNames(names, tuple(shift), tuple(ctrl))


def capitalized(text: str) -> str:
    """``text`` with a capital first letter: a key name that begins a line ("Comma: ...")."""
    return text[:1].upper() + text[1:]


def normalize_key(text: str) -> str:
    """The prompt_toolkit name of a key as a player writes it ("Shift+H", "Ctrl+X", "Enter", ",").

    Raises :class:`KeymapError` with a sentence naming the text when it is not a key.
    """
    raw = text.strip()
    if raw == " ":
        return " "
    if len(raw) == 1 and raw in _PRINTABLE:
        return raw
    lowered = raw.lower().replace(" ", "")
    if lowered in _NAMED_KEYS:
        return _NAMED_KEYS[lowered]
    said = _help_names()
    folded = _fold(raw)
    if folded in said.names:
        return said.names[folded]
    letter = folded[-1:] if raw[-1:].isascii() else ""
    if letter and letter in string.ascii_lowercase:
        for prefix in ("shift+", "s-", *said.shift):
            if folded == prefix + letter:
                return letter.upper()
        for prefix in ("ctrl+", "control+", "c-", *said.ctrl):
            if folded == prefix + letter:
                return "c-" + letter
    raise KeymapError(
        _(
            "'{text}' is not a key: use a letter, a digit, a punctuation mark, "
            "Shift+letter, Ctrl+letter, F1 to F12, Enter, Space, Tab, Escape or an arrow key."
        ).format(text=text)
    )


def display_key(key: str, *, shown: bool = False) -> str:
    """How help and speech name a key: "Enter", "Shift+H", "Ctrl+X", "F1", "D", "comma".

    A symbol is said in words, never as the bare symbol (speech and braille use words);
    ``shown`` adds the symbol after the word for a sighted reader (docs/keys.md).

    >>> display_key(","), display_key("?", shown=True), display_key("H")
    ('comma', 'question mark (?)', 'Shift+H')
    """
    if key in _DISPLAY:
        return _(_DISPLAY[key])
    if key in _CHARACTER_WORDS:
        word = character_words(key)
        # TRANSLATORS: a symbol key in the docs' tables: its name, then the symbol itself
        return _("{word} ({symbol})").format(word=word, symbol=key) if shown else word
    if key.startswith("c-") and len(key) == 3:
        return _(_CTRL_KEY).format(letter=key[2].upper())
    if len(key) == 1 and key.isalpha():
        return _(_SHIFT_KEY).format(letter=key) if key.isupper() else key.upper()
    if len(key) > 1:
        return key[0].upper() + key[1:]
    return key


def _context(group: str) -> str:
    """Keys only clash within one context: the normal keys, or one modal screen."""
    return group if group in MODAL_GROUPS else "normal"


@dataclass(frozen=True)
class Keymap:
    """The actions with their keys; built from :data:`ACTIONS` and the settings file."""

    actions: tuple[Action, ...]

    @classmethod
    def default(cls) -> Keymap:
        return cls(ACTIONS)

    @classmethod
    def from_settings(
        cls, bindings: Mapping[str, object], actions: tuple[Action, ...] = ACTIONS
    ) -> tuple[Keymap, list[str]]:
        """The keymap of ``actions`` (the main game's by default) with the settings file's
        ``[keys]`` table applied.

        One table serves both games: a name only the other game has is skipped quietly.
        Returns the keymap and one sentence per binding that could not be used;
        such a binding is skipped and the action keeps its default keys.
        """
        keymap = cls(actions)
        ours = {action.name for action in actions}
        problems: list[str] = []
        for name, value in bindings.items():
            if name not in ours and name in _ALL_NAMES:
                continue
            try:
                keymap = keymap.rebind(name, _as_key_list(name, value))
            except KeymapError as error:
                problems.append(str(error))
        return keymap, problems

    def get(self, name: str) -> Action:
        for action in self.actions:
            if action.name == name:
                return action
        raise KeymapError(
            _("There is no action called '{name}'. Actions: {actions}.").format(
                name=name, actions=self._names()
            )
        )

    def rebind(self, name: str, keys: Iterable[str]) -> Keymap:
        """A new keymap where action ``name`` has ``keys`` (written as players write them).

        Refuses a key that another action in the same context already uses.
        """
        action = self.get(name)
        normalized = tuple(dict.fromkeys(normalize_key(key) for key in keys))
        if not normalized:
            raise KeymapError(_("'{name}' needs at least one key.").format(name=name))
        context = _context(action.group)
        for other in self.actions:
            if other.name == name or _context(other.group) != context:
                continue
            clash = [key for key in normalized if key in other.keys]
            if clash:
                raise KeymapError(
                    _("{key} already does '{other}' ({label}); '{name}' keeps {keys}.").format(
                        key=capitalized(display_key(clash[0])),
                        other=other.name,
                        label=other.label,
                        name=name,
                        keys=self.display_keys(name),
                    )
                )
        return Keymap(
            tuple(replace(a, keys=normalized) if a.name == name else a for a in self.actions)
        )

    def action_for(self, key: str, context: str = "normal") -> Action | None:
        """The action a key does in a context ("normal", "menu", "confirm", "privacy")."""
        for action in self.actions:
            if key in action.keys and _context(action.group) == context:
                return action
        return None

    def display_keys(self, name: str, *, shown: bool = False) -> str:
        """The keys of action ``name`` as help says them (``shown``: with symbols, for docs)."""
        keys = [display_key(key, shown=shown) for key in self.get(name).keys]
        if len(keys) > 2 and all(k.isdigit() for k in keys):
            # TRANSLATORS: a range of number keys in help: "0 to 9"
            return _("{first} to {last}").format(first=min(keys), last=max(keys))
        said = keys[0]
        for key in keys[1:]:
            # TRANSLATORS: keys that do the same: "Enter or Space" (three: "A or B or C")
            said = _("{first} or {second}").format(first=said, second=key)
        return said

    def in_group(self, group: str) -> tuple[Action, ...]:
        return tuple(action for action in self.actions if action.group == group)

    def all_keys(self) -> set[str]:
        return {key for action in self.actions for key in action.keys}

    def help_lines(self, groups: Mapping[str, str] = GROUPS) -> list[str]:
        """One line per action, grouped by situation: the help list and docs/keys.md."""
        lines: list[str] = []
        for group, title in groups.items():
            lines.append(_("{title}:").format(title=_(title)))
            for action in self.in_group(group):
                lines.append(
                    _("{keys}: {label}. {help}").format(
                        keys=capitalized(self.display_keys(action.name)),
                        label=action.label,
                        help=action.help,
                    )
                )
        return lines

    def markdown(self, groups: Mapping[str, str] = GROUPS) -> str:
        """The keymap as Markdown tables, one per situation (docs/keys.md is made from this)."""
        out: list[str] = []
        # TRANSLATORS: the column titles of the key tables in docs/keys.md; keep the bars
        header = _("| Keys | Action | What it does | Settings name |")
        for group, title in groups.items():
            out += [f"## {_(title)}", "", header]
            out.append("| --- | --- | --- | --- |")
            for action in self.in_group(group):
                keys = capitalized(self.display_keys(action.name, shown=True)).replace("|", "\\|")
                # a command in the help is code on the page ("fivecrowns speech --list")
                what = _COMMAND.sub(r"`\1`", action.help)
                out.append(f"| {keys} | {action.label} | {what} | `{action.name}` |")
            out.append("")
        return "\n".join(out)

    def _names(self) -> str:
        return ", ".join(action.name for action in self.actions)


_COMMAND = re.compile(r"\b(fivecrowns [a-z]+(?: --?[a-z-]+)*)")
_ALL_NAMES = frozenset(action.name for action in (*ACTIONS, *SOLITAIRE_ACTIONS, *LOBBY_ACTIONS))


def _as_key_list(name: str, value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return [str(item) for item in value]
    raise KeymapError(
        _(
            'Keys for \'{name}\' must be a key in quotes or a list of them, like ["d", "F5"].'
        ).format(name=name)
    )


def keys_doc_tables() -> str:
    """The tables of docs/keys.md: the game's keys, then the lobby's (scripts/make_keys_doc.py)."""
    lobby = Keymap(LOBBY_ACTIONS).markdown(LOBBY_GROUPS)
    return f"{Keymap.default().markdown().rstrip()}\n\n{lobby.rstrip()}\n"
