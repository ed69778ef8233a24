"""The one cleaning of players' text (fivecrowns.words.text), without a server."""

from __future__ import annotations

import unicodedata

from fivecrowns.words.text import clean_chat, name_key, name_refusal, printable


def test_printable_drops_every_control_and_format_character_and_keeps_the_rest() -> None:
    hidden = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf")]
    assert printable("".join(hidden)) == "\t\n"  # line breaks and tabs only
    # braille, accents, emoji and the blank braille cell (braille text's space) stay
    kept = "⠁⠀⠃ José 🙂 Ñandú"
    assert printable(kept) == kept and clean_chat(kept) == kept


def test_a_name_that_only_looks_different_is_the_same_name() -> None:
    same = ("Ann", "ANN", "ａｎｎ", "\u0410nn", "\u0391nn", "Änn", " Ann ")
    assert {name_key(name) for name in same} == {"ann"}
    assert len({name_key(name) for name in ("Ann", "Anna", "Ben", "Bot")}) == 4


def test_only_names_that_show_something_and_are_no_computer_players_pass() -> None:
    for name in ("Ann", "José", "Zoë 2", "Botley", "Bots", "李", "Ann-Marie O'Neil"):
        assert name_refusal(name) is None, name
    for name in ("\u2800", "\u0301", "Bot", "Bot 7", "BOT7", "B0t 2 (computer, easy)", "(Ann)"):
        assert name_refusal(name) is not None, name
