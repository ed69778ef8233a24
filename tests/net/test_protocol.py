"""The protocol's messages (net/protocol.py): what decode_client accepts."""

from __future__ import annotations

from typing import get_args

from fivecrowns import i18n
from fivecrowns.net.protocol import Hello, Language, SetLanguage, decode_client


def test_the_language_message_is_validated() -> None:
    message = decode_client(b'{"type": "language", "language": "es"}')
    assert isinstance(message, SetLanguage) and message.language == "es"


def test_the_hello_language_is_the_game_s_languages_and_english_when_left_out() -> None:
    assert set(get_args(Language)) == set(i18n.LANGUAGES)
    message = decode_client(b'{"type": "hello", "v": 1, "name": "Ana"}')
    assert isinstance(message, Hello) and message.language == "en"
    message = decode_client(b'{"type": "hello", "v": 1, "name": "Ana", "language": "es"}')
    assert isinstance(message, Hello) and message.language == "es"
