"""Translation: the catalogs are complete, the language is chosen as documented, and the
command line speaks Spanish when asked (issue 14)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from fivecrowns import i18n
from fivecrowns.language import choose_language, requested_language

ROOT = Path(__file__).resolve().parent.parent


def _catalog_tools() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalog_tools", ROOT / "scripts" / "i18n.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_sentence_has_a_spanish_translation_with_the_same_placeholders() -> None:
    # missing, untranslated, fuzzy, placeholders that differ, a .mo older than its .po
    assert _catalog_tools().problems("es") == []


def test_the_check_finds_a_missing_placeholder() -> None:
    tools = _catalog_tools()
    from babel.messages.catalog import Message

    bad = Message("{name} drew.", "robó.")
    assert tools._placeholder_problems(("{name} drew.",), ("robó.",), bad)
    plural = ("{name} has {count} card.", "{name} has {count} cards.")
    # the singular may leave the count out, never the name
    assert not tools._placeholder_problems(
        plural, ("{name} tiene un naipe.", "{name} tiene {count} naipes."), bad
    )
    assert tools._placeholder_problems(
        plural, ("Tiene un naipe.", "{name} tiene {count} naipes."), bad
    )


@pytest.mark.parametrize(
    ("count", "english", "spanish"),
    [
        (0, "0 arguments", "0 argumentos"),
        (1, "1 argument", "1 argumento"),
        (2, "2 arguments", "2 argumentos"),
        (12, "12 arguments", "12 argumentos"),
    ],
)
def test_plurals_follow_the_number_in_each_language(count: int, english: str, spanish: str) -> None:
    words = ("expected %s argument", "expected %s arguments")
    assert i18n.ngettext(*words, count) % count == f"expected {english}"
    with i18n.speaking("es"):
        expected = "se esperaba" if count == 1 else "se esperaban"
        assert i18n.ngettext(*words, count) % count == f"{expected} {spanish}"


@pytest.mark.parametrize(
    ("items", "english", "spanish"),
    [
        ([], "", ""),
        (["7"], "7", "7"),
        (["7", "8"], "7 and 8", "7 y 8"),
        (["7", "8", "9", "10"], "7, 8, 9 and 10", "7, 8, 9 y 10"),
    ],
)
def test_lists_are_joined_by_each_language_s_rules(
    items: list[str], english: str, spanish: str
) -> None:
    assert i18n.join_list(items) == english
    with i18n.speaking("es"):
        assert i18n.join_list(items) == spanish


def test_speaking_sets_the_language_only_inside_the_block() -> None:
    assert i18n.current_language() == "en"
    with i18n.speaking("es"):
        assert i18n.gettext("Stopped.") == "Detenido."
    assert i18n.gettext("Stopped.") == "Stopped."
    with pytest.raises(ValueError), i18n.speaking("fr"):
        pass


def test_the_language_comes_from_the_option_then_the_setting_then_the_system(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path))
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    assert choose_language(None) == "en"
    monkeypatch.setenv("LANG", "es_AR.UTF-8")
    assert choose_language(None) == "es"
    assert choose_language("en") == "en"
    (tmp_path / "settings.json").write_text(json.dumps({"output": {"language": "en"}}))
    assert choose_language(None) == "en"
    assert choose_language("es") == "es"
    assert requested_language(["solve", "--language=es", "3h"]) == "es"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANGUAGE": "fr:es:en"}, "es"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "es_ES"}, None),
        ({"LC_MESSAGES": "es_MX"}, "es"),
        ({}, None),
    ],
)
def test_the_system_language_is_read_as_gettext_reads_it(
    environ: dict[str, str], expected: str | None
) -> None:
    assert i18n.language_from_environment(environ) == expected


def _fivecrowns(
    *arguments: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fivecrowns", *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_the_top_level_help_is_in_spanish() -> None:
    result = _fivecrowns("--language", "es", "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("uso: fivecrowns")
    for english in ("usage", "options", "Play", "game", "show this help", "COMMAND"):
        assert english not in result.stdout, english
    assert "Solitario de Cinco Coronas" in result.stdout


def test_a_usage_error_is_one_spanish_sentence() -> None:
    result = _fivecrowns("play", "--language", "es", "--players")
    assert result.returncode == 2
    assert result.stderr == (
        "fivecrowns play: argumento --players: se esperaba un argumento. "
        "Consulta fivecrowns play --help.\n"
    )


def test_the_system_locale_chooses_spanish_and_the_option_overrides_it() -> None:
    spanish = _fivecrowns("--help", env={"LANGUAGE": "", "LC_ALL": "", "LANG": "es_ES.UTF-8"})
    assert spanish.stdout.startswith("uso:")
    english = _fivecrowns("--language", "en", "--help", env={"LC_ALL": "", "LANG": "es_ES.UTF-8"})
    assert english.stdout.startswith("usage:")


def test_lists_and_numbers_parse_each_languages_locale_once_and_read_as_babels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Babel's locale is parsed once per language, not for every list or number (issue 29: the
    game server words a list for every round dealt), and the words are Babel's own."""
    from babel import Locale
    from babel.lists import format_list
    from babel.numbers import format_decimal

    words = ["7 of hearts", "joker", "Inés", "wild 5 of clubs", "Ana", "Bea", "8", "Zoe"]
    lists = [words[:count] for count in range(len(words) + 1)]
    # why not babel's own for "y" before an /i/ sound: join_list says "e" there (Spanish)
    expected = {
        code: (
            [format_list(items, locale=name) for items in lists],
            format_decimal(12500.5, locale=name),
        )
        for code, name in (("en", "en_GB"), ("es", "es"))
    }
    expected["es"][0][3] = "7 of hearts, joker e Inés"
    parsed: list[object] = []
    original = Locale.parse

    def counted(identifier: object, *args: object, **kwargs: object) -> Locale:
        if not isinstance(identifier, Locale):
            parsed.append(identifier)
        return original(identifier, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Locale, "parse", counted)
    i18n._cldr_locale.cache_clear()
    i18n._list_patterns.cache_clear()
    for _round in range(3):
        for code in ("en", "es"):
            with i18n.speaking(code):
                said = [i18n.join_list(items) for items in lists]
                assert (said, i18n.format_number(12500.5)) == expected[code]
    assert sorted(map(str, parsed)) == ["en_GB", "es"]
