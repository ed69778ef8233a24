"""The protocol's messages (net/protocol.py): what decode_client accepts."""

from __future__ import annotations

from fivecrowns.net.protocol import SetLanguage, decode_client


def test_the_language_message_is_validated() -> None:
    message = decode_client(b'{"type": "language", "language": "es"}')
    assert isinstance(message, SetLanguage) and message.language == "es"
