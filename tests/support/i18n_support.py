"""What the Spanish tests look for: English words of the game left in a Spanish text.

Every area's Spanish test (a whole game, help, menus, exports, ``--help``, solitaire, the
web page) runs its text through :func:`english_words` and expects nothing. Extend
``ENGLISH_WORDS`` when you find an English word that slipped through and is not here.
"""

from __future__ import annotations

import re

__all__ = ["ENGLISH_WORDS", "english_words"]

#: English words a Spanish player must never meet; chosen so that none is also Spanish.
_VOCABULARY = """
    the and you your yours is are was were has have had not with from for of to this that
    card cards hand hands stock discard discarded discards pile piles round rounds turn turns
    book books run runs meld melds wild wilds joker jokers stars hearts clubs spades diamonds
    jack jacks queen queens king kings point points score scores total totals drew draw draws
    took take takes went out go goes player players computer hint hints last first next
    leftover left over game games new start started end ended won win wins lost winner
    nothing yes no press key keys menu help settings setting quit leave save saved resume
    seat seats table tables lobby watch watching spectator invite code chat says said
    easy medium hard expert speech sound sounds voice braille export exported line screen
    sorted sort suit suits rank ranks waiting wait empty full brief normal verbosity
"""
ENGLISH_WORDS = frozenset(_VOCABULARY.split())
# Words that are also Spanish (or names) and must not be reported.
_ALSO_SPANISH = {"no", "normal", "total", "braille", "chat"}

_TOKENS = re.compile(r"(?:--?[\w-]+|https?://\S+|\b\d+(?:st|sp|h|c|d)\b|\bjk\b)", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ']+")


def english_words(text: str) -> list[str]:
    """The English game words in ``text``, in order; command-line options, URLs and card
    tokens (``7h``, ``10sp``, ``jk``: the same in both languages) are left out.

    >>> english_words("Tu turno. Toma un naipe de la pila de extracción.")
    []
    >>> english_words("Ana drew the 7 of hearts. --line 7h")
    ['drew', 'the', 'of', 'hearts']
    """
    stripped = _TOKENS.sub(" ", text)
    return [
        word
        for word in _WORD.findall(stripped)
        if word.lower() in ENGLISH_WORDS and word.lower() not in _ALSO_SPANISH
    ]
