"""The keymap table: every action's keys, help and group, key names as players read and write
them in each language, docs/keys.md, and keys rebound in the settings file at work in a game."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from fivecrowns import i18n
from fivecrowns.ui.keymap import (
    ACTIONS,
    GROUPS,
    LOBBY_ACTIONS,
    LOBBY_GROUPS,
    SOLITAIRE_ACTIONS,
    Keymap,
    KeymapError,
    display_key,
    keys_doc_tables,
    normalize_key,
)
from fivecrowns.ui.session import Seat, Session
from fivecrowns.ui.settings import load_settings
from ui_support import table

REPO = Path(__file__).resolve().parents[2]


def test_every_action_has_a_handler_keys_help_and_a_known_group() -> None:
    names = [action.name for action in ACTIONS]
    assert len(names) == len(set(names))
    for action in ACTIONS:
        assert callable(getattr(Session, f"_do_{action.name}", None)), action.name
        assert action.keys and action.label and action.help.endswith(".")
        assert action.group in GROUPS


def test_no_key_does_two_things_in_one_context() -> None:
    keymap = Keymap.default()
    for context in ("normal", "menu", "confirm", "privacy"):
        seen: dict[str, str] = {}
        for action in ACTIONS:
            if (action.group if action.group in ("menu", "confirm", "privacy") else "normal") != (
                context
            ):
                continue
            for key in action.keys:
                assert key not in seen, f"{key} does {seen[key]} and {action.name}"
                seen[key] = action.name
                assert keymap.action_for(key, context) == action


@pytest.mark.parametrize(
    ("written", "key"),
    [("Shift+H", "H"), ("ctrl+x", "c-x"), ("Enter", "c-m"), ("space", " "), ("F5", "f5"),
     (",", ","), ("Escape", "escape"), ("d", "d"), ("Page Up", "pageup"),
     ("comma", ","), ("Question mark", "?"), ("slash", "/"), ("less than", "<")],
)  # fmt: skip
def test_keys_are_written_as_players_read_them(written: str, key: str) -> None:
    assert normalize_key(written) == key


@pytest.mark.parametrize("bad", ["", "Shift+", "Ctrl+1x", "Hyper+Q", "F13", "ab"])
def test_a_bad_key_name_is_a_sentence(bad: str) -> None:
    with pytest.raises(KeymapError, match=r"is not a key: use a letter"):
        normalize_key(bad)


def test_a_bad_key_in_spanish_names_keys_as_the_spanish_help_does_and_they_work() -> None:
    # the message said "Shift+letra", "Ctrl+letra", "Enter, Space, Tab" where the help says
    # "Mayúsculas+H", "Control+X", "Intro": a player writes what they read, so both work
    with i18n.speaking("es"), pytest.raises(KeymapError) as refused:
        normalize_key("Hiper+Q")
    said = str(refused.value)
    assert said == (
        "'Hiper+Q' no es una tecla: usa una letra, una cifra, un signo de puntuación, "
        "Mayúsculas+letra, Control+letra, F1 a F12, Intro, Espacio, Tabulador, Escape o una "
        "flecha."
    )
    with i18n.speaking("es"):
        assert display_key("H") == "Mayúsculas+H" and display_key("c-x") == "Control+X"
    for written, key in [
        ("Mayúsculas+H", "H"), ("mayusculas+j", "J"), ("Control+X", "c-x"), ("Intro", "c-m"),
        ("Espacio", " "), ("Tabulador", "c-i"), ("Flecha arriba", "up"), ("coma", ","),
        ("signo de interrogación", "?"),
    ]:  # fmt: skip
        assert normalize_key(written) == key, written  # in any language
    keymap, problems = Keymap.from_settings({"hint": "Mayúsculas+J", "draw": ["d", "Insertar"]})
    assert problems == [] and keymap.get("hint").keys == ("J",)
    assert keymap.get("draw").keys == ("d", "insert")


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_key_written_as_its_help_says_it_is_read_back_as_that_key(language: str) -> None:
    keys = {
        key
        for actions in (ACTIONS, SOLITAIRE_ACTIONS, LOBBY_ACTIONS)
        for a in actions
        for key in a.keys
    }
    keys |= set(string.punctuation) | {"H", "c-x", "pageup", "insert", "delete"}
    # why not a plain letter: help says "B" for the b key, and "B" in the file is Shift+B
    keys -= set(string.ascii_lowercase)
    with i18n.speaking(language):
        for key in sorted(keys):
            assert normalize_key(display_key(key)) == key, (language, key, display_key(key))


#: A key name as speech and braille may say it: words, digits, "Shift+H", "Ctrl+X" (no symbol).
SAID_KEY = re.compile(r"(?:Shift|Ctrl|Mayúsculas|Control)\+[A-Z]|[^\W_]+(?: [^\W_]+)*")


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_key_is_said_in_words_never_as_a_bare_symbol(language: str) -> None:
    with i18n.speaking(language):
        for actions in (ACTIONS, SOLITAIRE_ACTIONS, LOBBY_ACTIONS):
            for action in actions:
                for key in action.keys:
                    assert SAID_KEY.fullmatch(display_key(key)), (language, key, display_key(key))
        # a key rebound to any symbol a keyboard types is said in words too
        for symbol in string.punctuation:
            said = display_key(normalize_key(symbol))
            assert SAID_KEY.fullmatch(said), (language, symbol, said)
            if language == "en":  # the settings file takes the English name help says
                assert normalize_key(display_key(symbol)) == symbol


def test_help_and_the_action_menu_name_symbol_keys_in_words() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=8, first_dealer=1) as t:
        lines = t.session.help_lines()
        assert "Comma: Older message. Read the message before this one." in lines
        assert "F1 or question mark: Help. The list of keys." in lines
        assert "Greater than: Newest message. Read the latest message." in lines
        t.press("?")
        assert t.spoken()[-1].startswith("Help: the keys.")
        t.press("escape", "escape")
        t.press("!")
        assert t.spoken()[-1] == (
            "Exclamation mark does nothing here. Press F1 or question mark for help."
        )
        labels = [label for label, _ in t.session.menu_items(t.session.keymap.get("older"))]
        assert labels == ["Older message: comma"]
    with i18n.speaking("es"):
        keymap = Keymap(LOBBY_ACTIONS)
        lines = keymap.help_lines({**LOBBY_GROUPS, "messages": GROUPS["messages"]})
        assert (
            "Barra: Chat. Escribe una línea para todos en tu mesa, luego Intro; Escape cancela."
            in (lines)
        )
        assert "Coma: Mensaje anterior. Lee el mensaje anterior a este." in lines


def test_the_docs_show_a_symbol_key_by_its_name_and_the_symbol() -> None:
    text = (REPO / "docs" / "keys.md").read_text(encoding="utf-8")
    assert "| Comma (,) | Older message |" in text
    assert "| F1 or question mark (?) | Help |" in text
    spanish = (REPO / "docs" / "es" / "keys.md").read_text(encoding="utf-8")
    assert "| Coma (,) | Mensaje anterior |" in spanish
    assert "| F1 o signo de interrogación (?) | Ayuda |" in spanish


def test_rebound_keys_work_in_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text(json.dumps({"keys": {"draw": "k"}}))
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8, first_dealer=1) as t:
        t.session.keymap = load_settings().keymap
        t.press("d")
        assert t.spoken()[-1] == "D does nothing here. Press F1 or question mark for help."
        t.press("k")
        assert t.spoken()[-1].startswith("You drew the ")


def test_docs_keys_md_shows_the_keymap_table() -> None:
    text = (REPO / "docs" / "keys.md").read_text(encoding="utf-8")
    tables = keys_doc_tables().rstrip()
    assert text.rstrip().endswith(tables), "regenerate the tables in docs/keys.md from the keymap"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/keys.md" in readme
