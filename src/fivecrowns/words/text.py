"""What players' text may hold: one cleaning for names and chat, used at both ends.

A name or a chat line comes from another player, through a server that may not be ours, and
ends up printed on a terminal and spoken by a screen reader. So control characters (ESC, BEL,
backspace, NUL, every C0 and C1 one), format characters (bidi overrides and isolates,
zero-width spaces and joiners, the soft hyphen, the byte-order mark) and the other
"default ignorable" code points are taken out: they could drive the terminal (set its title,
write the clipboard, move the cursor to forge a line) or hide or reorder what is read.

- :func:`printable` is what a client prints: every such character dropped, line breaks kept.
- :func:`clean_chat` is what the server keeps of a chat line: the same, on one line.
- :func:`name_refusal` says why the server refuses a name (``None``: the name is fine):
  a name is refused rather than cleaned, so that nobody plays under a name they did not type.
- :func:`name_key` is a name as compared at a table: Unicode NFKC, case folding, accents
  dropped and the usual Cyrillic and Greek look-alikes of Latin letters (and 0/O, 1/l/I)
  mapped to one letter, so that "Ann", "ＡＮＮ", "Аnn" (Cyrillic A) and "Änn" are one name.

>>> printable("Ann\\x1b]0;pwned\\x07 went out\\u202e.")
'Ann]0;pwned went out.'
>>> name_key("ＡＮＮ") == name_key("Аnn") == name_key("ann") == name_key("Änn")
True
>>> name_refusal("Ann") is None, name_refusal("Bot 2") is not None
(True, True)
"""

from __future__ import annotations

import re
import unicodedata

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = [
    "NAME_BOT",
    "NAME_BRACKETS",
    "NAME_CONTROL",
    "NAME_INVISIBLE",
    "clean_chat",
    "name_key",
    "name_refusal",
    "printable",
]

NAME_CONTROL = N_(
    "A name cannot hold control or invisible characters (such as escape codes, zero-width "
    "spaces or direction marks); type it again with letters, digits and spaces."
)
NAME_INVISIBLE = N_("A name needs at least one letter, digit or sign that can be seen.")
NAME_BOT = N_("Names like Bot 2 are for computer players; choose another name.")
NAME_BRACKETS = N_(
    "A name cannot hold brackets: the game puts a seat's state in brackets after its name."
)

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt) that are not
# already control or format characters: unicodedata has no such property. They are blank.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors and vowel separator
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0x1D173, 0x1D17A),  # musical formatting
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)
# Cc control, Cf format (bidi, zero-width, soft hyphen, BOM), Cs lone surrogates, Zl, Zp
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")
# why not hidden: braille text holds it as its space, so a printed line keeps it; a name made
# only of it shows nothing, and in a name it reads as a space
_BRAILLE_BLANK = "\u2800"

# The usual look-alikes of Latin letters after NFKC and case folding (from Unicode's
# confusables.txt, the letters a name is likely to mix in), and digits that pass for letters.
_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "г": "r",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "н": "h",
        "і": "l",
        "ї": "l",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "о": "o",
        "п": "n",
        "р": "p",
        "с": "c",
        "ԁ": "d",
        "ѕ": "s",
        "т": "t",
        "у": "y",
        "ү": "y",
        "х": "x",
        "ԛ": "q",
        "ԝ": "w",
        "ь": "b",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "h",
        "ι": "l",
        "κ": "k",
        "μ": "m",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
    }
)
# digits and Latin letters that pass for one another (after case folding: I is i)
_DIGIT_ALIKES = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s"})
# A computer player's name ("Bot 2"; "Automático 2" in Spanish before names were kept), as a
# name's letters and digits read, look-alikes mapped: alone, with digit-like letters, or with a
# number and anything after it ("Bot 2 (computer, easy)", "Bot 2 (jugador automático, fácil)")
_BOT_ALONE = re.compile(r"(bot|automatico)[\dil]*")
_BOT_NUMBERED = re.compile(r"(bot|automatico)\d")


def _hidden(char: str) -> bool:
    """A character that shows nothing of its own or drives the terminal."""
    if unicodedata.category(char) in _HIDDEN_CATEGORIES:
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE_RANGES)


def printable(text: str) -> str:
    """``text`` as a client may print it: control, format and other hidden characters
    dropped; line breaks and tabs kept (a client's own help has them)."""
    return "".join(char for char in text if char in "\n\t" or not _hidden(char))


def clean_chat(text: str) -> str:
    """A chat line as the server keeps it: hidden characters dropped, on one line with single
    spaces (why dropped, not refused: a line pasted from elsewhere often carries a stray
    direction mark or zero-width space, and refusing it would lose the whole line)."""
    return " ".join("".join(char for char in text if not _hidden(char)).split())


def name_refusal(name: str) -> str | None:
    """Why ``name`` (already on one line with single spaces) cannot be a player's name, in
    the current language; ``None`` if it can."""
    if any(_hidden(char) for char in name):
        return _(NAME_CONTROL)
    if not any(
        char != _BRAILLE_BLANK and unicodedata.category(char).startswith(_VISIBLE_CATEGORIES)
        for char in name
    ):
        return _(NAME_INVISIBLE)
    letters = "".join(char for char in _letters_key(name) if char.isalnum()).replace("0", "o")
    if _BOT_ALONE.fullmatch(letters) or _BOT_NUMBERED.match(letters):
        return _(NAME_BOT)
    if any(unicodedata.category(char) in ("Ps", "Pe") for char in name):
        return _(NAME_BRACKETS)
    return None


def name_key(name: str) -> str:
    """``name`` as two names at one table are compared: equal keys are the same name."""
    return _letters_key(name).translate(_DIGIT_ALIKES)


def _letters_key(name: str) -> str:
    """``name`` in NFKC, case-folded, without accents, its Cyrillic and Greek look-alikes
    mapped to Latin letters, on one line with single spaces."""
    folded = unicodedata.normalize("NFKC", name.replace(_BRAILLE_BLANK, " ")).casefold()
    bare = unicodedata.normalize("NFD", folded)
    bare = "".join(char for char in bare if not unicodedata.combining(char) and not _hidden(char))
    bare = unicodedata.normalize("NFKC", bare).translate(_LOOK_ALIKES)
    return " ".join(bare.split())
