"""The keymap, kept as data: one table of action -> keys -> help text.

The help key, the Escape action menu, ``docs/keys.md`` and rebinding in the
settings file all read this one table (STYLE practice 10), so a key can never
be documented one way and work another.

Keys are written the way prompt_toolkit names them (``"left"``, ``"c-m"`` for
Enter, ``"H"`` for Shift+H, ``"f1"``); players write them in the settings file
the way they read them in the help ("Enter", "Shift+H", "Ctrl+X", "F1", ",").

>>> keymap = Keymap.default()
>>> keymap.action_for("d").name
'draw'
>>> keymap.display_keys("discard")
'Enter or Space'
>>> normalize_key("Shift+H"), normalize_key("ctrl+x"), normalize_key("Enter")
('H', 'c-x', 'c-m')
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

__all__ = [
    "ACTIONS",
    "GROUPS",
    "JUMP_HELP",
    "JUMP_KEYS",
    "MODAL_GROUPS",
    "SOLITAIRE_ACTIONS",
    "Action",
    "Keymap",
    "KeymapError",
    "display_key",
    "jump_index",
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
    """

    name: str
    keys: tuple[str, ...]
    label: str
    help: str
    group: str
    uses_turn: bool = False


GROUPS: dict[str, str] = {
    "turn": "Your turn",
    "hand": "Moving through your hand",
    "info": "Information (never uses your turn)",
    "messages": "Messages and speech",
    "game": "The game",
    "menu": "In the action menu and the help list",
    "confirm": "When asked to confirm",
    "privacy": "On the privacy screen (hot seat)",
}
MODAL_GROUPS = frozenset({"menu", "confirm", "privacy"})

# why "the same number again": no timers (a two-digit wait would need one), and it is how a
# screen reader's first-letter navigation works: 1 is card 1, 1 again is card 11, again card 1.
JUMP_KEYS: tuple[str, ...] = tuple(str(digit) for digit in range(10))
JUMP_HELP = (
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
        raise KeymapError(f"You have only {count} cards.")
    return index


_A = Action
# Rows both games' tables hold, word for word (each game adds its own rows around them).
_HISTORY = (
    _A("older", (",",), "Older message", "Read the message before this one.", "messages"),
    _A("newer", (".",), "Newer message", "Read the message after this one.", "messages"),
    _A("oldest", ("<",), "Oldest message", "Read the first message.", "messages"),
    _A("newest", (">",), "Newest message", "Read the latest message.", "messages"),
    _A("repeat", ("r",), "Repeat", "Say the last message again.", "messages"),
)
_VERBOSITY = _A(
    "verbosity",
    ("v",),
    "Verbosity",
    "Switch between brief, normal and full messages.",
    "messages",
)
_CHAT = _A(
    "chat",
    ("/",),
    "Chat",
    "At a network table: type a line for everyone there, then Enter; Escape cancels.",
    "info",
)
_PAST_GAMES = _A("past_games", ("S",), "Past games", "The results of finished games.", "info")
_MENU_AND_HELP = (
    _A("menu", ("escape",), "Action menu", "A list of everything you can do now.", "game"),
    _A("help", ("f1", "?"), "Help", "The list of keys.", "game"),
)
_QUIT = _A("quit", ("q", "c-c"), "Quit", "Leave the game; it stays saved for --resume.", "game")
_LISTS_AND_QUESTIONS = (
    _A("menu_previous", ("up", "left"), "Previous item", "Move up the list.", "menu"),
    _A("menu_next", ("down", "right"), "Next item", "Move down the list.", "menu"),
    _A("menu_first", ("home",), "First item", "Move to the top of the list.", "menu"),
    _A("menu_last", ("end",), "Last item", "Move to the bottom of the list.", "menu"),
    _A("menu_choose", ("c-m", " "), "Choose", "Do the item you are on.", "menu"),
    _A("menu_close", ("escape",), "Close", "Close the list.", "menu"),
    _A("confirm_yes", ("y",), "Yes", "Yes, do it.", "confirm"),
    _A("confirm_no", ("n", "escape"), "No", "No, go back.", "confirm"),
)
ACTIONS: tuple[Action, ...] = (
    # Your turn
    _A("draw", ("d",), "Draw from the stock", "Take the top card of the stock.", "turn", True),
    _A(
        "take",
        ("t",),
        "Take the top discard",
        "Take the top card of the discard pile.",
        "turn",
        True,
    ),
    _A(
        "discard",
        ("c-m", " "),
        "Discard the focused card",
        "Discard the card you are on. In a last turn, your best melds are laid down first.",
        "turn",
        True,
    ),
    _A(
        "go_out",
        ("g",),
        "Go out",
        "Lay down all your melds and discard. If you cannot yet, says why and how close you are.",
        "turn",
        True,
    ),
    # Moving through the hand
    _A(
        "previous",
        ("left",),
        "Previous card",
        "Move to the card on the left and say it; at the first, says First card.",
        "hand",
    ),
    _A(
        "next",
        ("right",),
        "Next card",
        "Move to the card on the right and say it; at the last, says Last card.",
        "hand",
    ),
    _A("first", ("home",), "First card", "Move to the first card.", "hand"),
    _A("last", ("end",), "Last card", "Move to the last card.", "hand"),
    _A("current", ("f",), "Focused card", "Say the card you are on, and its place.", "hand"),
    _A(
        "jump",
        JUMP_KEYS,
        "Jump to a card",
        JUMP_HELP,
        "hand",
    ),
    _A(
        "sort",
        ("o",),
        "Sort the hand",
        "Sort your hand by rank, or by suit; press again to switch.",
        "hand",
    ),
    # Information
    _A(
        "hand",
        ("h",),
        "Your hand",
        "Your whole hand, grouped as it would meld, with leftover points and the sort order.",
        "info",
    ),
    _A("hint", ("H",), "Hint", "The best draw or discard now, and why.", "info"),
    _A("round", ("w",), "Round and wild", "The round number and the wild rank.", "info"),
    _A(
        "piles",
        ("p",),
        "Piles",
        "The top discard and how many cards are left in the stock.",
        "info",
    ),
    _A("scores", ("s",), "Scores", "Everyone's total score, lowest first.", "info"),
    _A(
        "round_detail",
        ("b",),
        "Breakdown of the last round",
        "Who went out, and each player's melds, leftover cards and points in the last round.",
        "info",
    ),
    _A("melds", ("m",), "Melds on the table", "The melds laid down this round.", "info"),
    _A("counts", ("c",), "Card counts", "How many cards each player holds.", "info"),
    _A("last_moves", ("l",), "Last moves", "What happened since your last turn.", "info"),
    _A(
        "whose_turn",
        ("n",),
        "Whose turn",
        "Whose turn it is and what they must do now. After the game: a new game, same players.",
        "info",
    ),
    _A("why", ("y",), "Why", "Why the last computer player did what it did.", "info"),
    _PAST_GAMES,
    _CHAT,
    # Messages and speech
    *_HISTORY,
    _A(
        "stop_speech",
        ("x",),
        "Stop speech",
        "Stop speaking now. Ctrl alone cannot be read in a terminal, so X does this.",
        "messages",
    ),
    _VERBOSITY,
    _A(
        "speech",
        ("i",),
        "Speech details",
        "Which voice speaks and why, and whether sounds play. "
        "fivecrowns speech --list tells every choice.",
        "messages",
    ),
    # The game
    *_MENU_AND_HELP,
    _A(
        "export",
        ("e",),
        "Export",
        "Write the score sheet and your hand to files, in print and braille, and say where.",
        "game",
    ),
    _QUIT,
    # Modal screens
    *_LISTS_AND_QUESTIONS,
    _A(
        "ready",
        ("c-m",),
        "Ready",
        "The next player is at the keyboard. Here quit, help and stop speech also work; "
        "no other key, so nothing shows the hand.",
        "privacy",
    ),
)

#: Five Crowns Solitaire's keys: a table of its own, rebound from the same [keys] table.
SOLITAIRE_ACTIONS: tuple[Action, ...] = (
    _A(
        "play",
        ("c-m", " "),
        "Put in or discard",
        "Put the turned card into the hand you are on; then discard the card you are on.",
        "turn",
        True,
    ),
    _A(
        "undo",
        ("u",),
        "Undo",
        "Take back your last move: the card put in or discarded goes back. One move only.",
        "turn",
    ),
    _A("previous_hand", ("up",), "Previous hand", "Move to the open hand before.", "hand"),
    _A("next_hand", ("down",), "Next hand", "Move to the open hand after.", "hand"),
    _A("previous", ("left",), "Previous card", "The card before, in the hand you are on.", "hand"),
    _A("next", ("right",), "Next card", "The card after, in the hand you are on.", "hand"),
    _A("current", ("f",), "Focused card", "Say the card you are on, and its place.", "hand"),
    _A("first", ("home",), "First card", "The first card of the hand.", "hand"),
    _A("last", ("end",), "Last card", "The last card of the hand.", "hand"),
    _A("jump", JUMP_KEYS, "Jump to a card", JUMP_HELP, "hand"),
    _A(
        "hand",
        ("h",),
        "This hand",
        "The cards of the hand you are on, its best melds and leftover points.",
        "info",
    ),
    _A("hint", ("H",), "Hint", "Where the best strategy would put the card, and why.", "info"),
    _A(
        "piles",
        ("p",),
        "Turned card and stock",
        "The turned card, the cards left in the stock, and the discards.",
        "info",
    ),
    _A(
        "status",
        ("s",),
        "Score",
        "How many hands are closed, which are open, and the points left.",
        "info",
    ),
    _A(
        "stock_cards",
        ("k",),
        "What the stock holds",
        "The cards still in the stock, in no order: their order is hidden, not what they are.",
        "info",
    ),
    *_HISTORY,
    _A("stop_speech", ("x",), "Stop speech", "Stop speaking now.", "messages"),
    _VERBOSITY,
    _PAST_GAMES,
    *_MENU_AND_HELP,
    _A(
        "export",
        ("e",),
        "Export",
        "Write the board to files, in print and braille, and say where.",
        "game",
    ),
    _A("new_game", ("n",), "New deal", "After a game: deal a new one.", "game"),
    _QUIT,
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
_DISPLAY: dict[str, str] = {
    "c-m": "Enter",
    " ": "Space",
    "c-i": "Tab",
    "c-h": "Backspace",
    "escape": "Escape",
    "pageup": "Page Up",
    "pagedown": "Page Down",
}
_PRINTABLE = set(string.ascii_letters + string.digits + string.punctuation)


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
    for prefix in ("shift+", "s-"):
        if lowered.startswith(prefix) and len(lowered) == len(prefix) + 1 and lowered[-1].isalpha():
            return lowered[-1].upper()
    for prefix in ("ctrl+", "control+", "c-"):
        if lowered.startswith(prefix) and len(lowered) == len(prefix) + 1 and lowered[-1].isalpha():
            return "c-" + lowered[-1]
    raise KeymapError(
        f"'{text}' is not a key: use a letter, a digit, a punctuation mark, "
        "Shift+letter, Ctrl+letter, F1 to F12, Enter, Space, Tab, Escape or an arrow key."
    )


def display_key(key: str) -> str:
    """How help and speech name a key: "Enter", "Shift+H", "Ctrl+X", "F1", "D", ","."""
    if key in _DISPLAY:
        return _DISPLAY[key]
    if key.startswith("c-") and len(key) == 3:
        return "Ctrl+" + key[2].upper()
    if len(key) == 1 and key.isalpha():
        return "Shift+" + key if key.isupper() else key.upper()
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
        raise KeymapError(f"There is no action called '{name}'. Actions: {self._names()}.")

    def rebind(self, name: str, keys: Iterable[str]) -> Keymap:
        """A new keymap where action ``name`` has ``keys`` (written as players write them).

        Refuses a key that another action in the same context already uses.
        """
        action = self.get(name)
        normalized = tuple(dict.fromkeys(normalize_key(key) for key in keys))
        if not normalized:
            raise KeymapError(f"'{name}' needs at least one key.")
        context = _context(action.group)
        for other in self.actions:
            if other.name == name or _context(other.group) != context:
                continue
            clash = [key for key in normalized if key in other.keys]
            if clash:
                raise KeymapError(
                    f"{display_key(clash[0])} already does '{other.name}' ({other.label}); "
                    f"'{name}' keeps {self.display_keys(name)}."
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

    def display_keys(self, name: str) -> str:
        keys = [display_key(key) for key in self.get(name).keys]
        if len(keys) > 2 and all(k.isdigit() for k in keys):
            return f"{min(keys)} to {max(keys)}"
        return " or ".join(keys)

    def in_group(self, group: str) -> tuple[Action, ...]:
        return tuple(action for action in self.actions if action.group == group)

    def all_keys(self) -> set[str]:
        return {key for action in self.actions for key in action.keys}

    def help_lines(self) -> list[str]:
        """One line per action, grouped by situation: the help list and docs/keys.md."""
        lines: list[str] = []
        for group, title in GROUPS.items():
            lines.append(f"{title}:")
            for action in self.in_group(group):
                lines.append(f"{self.display_keys(action.name)}: {action.label}. {action.help}")
        return lines

    def markdown(self) -> str:
        """The keymap as Markdown tables, one per situation (docs/keys.md is made from this)."""
        out: list[str] = []
        for group, title in GROUPS.items():
            out += [f"## {title}", "", "| Keys | Action | What it does | Settings name |"]
            out.append("| --- | --- | --- | --- |")
            for action in self.in_group(group):
                keys = self.display_keys(action.name).replace("|", "\\|")
                out.append(f"| {keys} | {action.label} | {action.help} | `{action.name}` |")
            out.append("")
        return "\n".join(out)

    def _names(self) -> str:
        return ", ".join(action.name for action in self.actions)


_ALL_NAMES = frozenset(action.name for action in (*ACTIONS, *SOLITAIRE_ACTIONS))


def _as_key_list(name: str, value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return [str(item) for item in value]
    raise KeymapError(
        f'Keys for \'{name}\' must be a key in quotes or a list of them, like ["d", "F5"].'
    )
