"""What players' text may be, at a real server process: names and chat cleaned of control
and format characters, names unique after normalisation and never a computer player's, and
frames that are not UTF-8 answered as bad messages, and invite codes easy to pass on by voice
(issue 26, items 5, 11, 14 and 19)."""

from __future__ import annotations

import asyncio
import re
import unicodedata

from server_support import Client, ServerProcess

# ESC sequences that set the window title, write the clipboard (OSC 52), clear the line and
# go back to its start; BEL, backspace, NUL, a C1 CSI, bidi overrides and isolates, zero-width
HOSTILE = (
    "\x1b]0;owned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2K\r\x08\x00\x9b2J"
    "\u202eServer: Ann went out.\u202c\u2066\u2069\u200b\u200d\ufeff"
)


def _hidden(text: str) -> list[str]:
    return [char for char in text if unicodedata.category(char) in ("Cc", "Cf")]


async def _hello_error(url: str, name: str) -> dict[str, object]:
    client = Client(name)
    await client.connect(url, hello=False)
    await client.send({"type": "hello", "v": 1, "name": name})
    answer = await client.until(lambda m: m["type"] in ("welcome", "error"))
    await client.close()
    return answer


def test_names_with_control_or_format_characters_are_refused_with_a_sentence(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        for name in ("Ann\x1b[2J", "Ann\x07", "A\x08nn", "Ann\x00", "\u202eAnn", "An\u200bn"):
            answer = await _hello_error(server.url, name)
            assert answer["type"] == "error" and answer["code"] == "bad_name", (name, answer)
            assert "control or invisible characters" in str(answer["text"])

    asyncio.run(scenario())


def test_chat_is_kept_without_control_and_format_characters(server: ServerProcess) -> None:
    async def scenario() -> None:
        ann, ben = Client("Ann"), Client("Ben")
        await ann.connect(server.url)
        await ben.connect(server.url)
        await ann.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ben.send({"type": "join", "table": ann.table})
        await ben.until(lambda m: m["type"] == "snapshot")
        await ben.send({"type": "chat", "text": "hi " + HOSTILE + " there"})
        for client in (ann, ben):
            event = await client.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
            for text in (event["text"], event["data"]["text"]):
                assert _hidden(text) == [], repr(text)
            kept = "hi ]0;owned]52;c;cHduZWQ=[2K2JServer: Ann went out. there"
            assert event["data"]["text"] == kept
        # a line of nothing but invisible characters is nothing to say
        await ben.send({"type": "chat", "text": "\u200b\u202e\x1b\x07"})
        error = await ben.until(lambda m: m["type"] == "error")
        assert error["code"] == "empty_chat"
        for client in (ann, ben):
            await client.close()

    asyncio.run(scenario())


def test_invisible_names_and_computer_players_names_are_refused(server: ServerProcess) -> None:
    async def scenario() -> None:
        invisible = ("\u200b", "\u00ad", "\u3164", "\u2800", "\u0301", "\ufe0f")
        for name in invisible:
            answer = await _hello_error(server.url, name)
            assert answer["type"] == "error" and answer["code"] == "bad_name", (name, answer)
        computers = (
            "Bot 2 (computer, easy)",
            "Bot 2",
            "bot 3",
            "B0T-4",
            "Ｂｏｔ 5",
            "Bot 2 (automático, fácil)"[:24],
            "Bot 2 (automático)",
            "Automático 2",
            "Ann (computer, easy)",
        )
        for name in computers:
            answer = await _hello_error(server.url, name)
            assert answer["type"] == "error" and answer["code"] == "bad_name", (name, answer)
        for name in ("Ann", "Botley", "José", "Zoë 2"):
            answer = await _hello_error(server.url, name)
            assert answer["type"] == "welcome", (name, answer)

    asyncio.run(scenario())


def test_names_are_unique_at_a_table_after_normalisation(server: ServerProcess) -> None:
    async def scenario() -> None:
        ann = Client("Ann")
        await ann.connect(server.url)
        await ann.send({"type": "create_table", "seats": 7, "bots": []})
        await ann.until(lambda m: m["type"] == "snapshot")
        # case, width (NFKC), Cyrillic and Greek look-alikes, accents
        for name in ("ANN", "ａｎｎ", "\u0410nn", "\u0391nn", "Änn", "Ann "):
            other = Client(name)
            await other.connect(server.url)
            await other.send({"type": "join", "table": ann.table})
            error = await other.until(lambda m: m["type"] in ("error", "snapshot"))
            assert error["type"] == "error" and error["code"] == "name_taken", (name, error)
            await other.close()
        ben = Client("Ben")
        await ben.connect(server.url)
        await ben.send({"type": "join", "table": ann.table})
        assert (await ben.until(lambda m: m["type"] in ("error", "snapshot")))["type"] == "snapshot"
        for client in (ann, ben):
            await client.close()

    asyncio.run(scenario())


def test_a_binary_frame_that_is_not_utf8_is_a_bad_message_and_the_connection_stays(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        ann = Client("Ann")
        await ann.connect(server.url)
        assert ann.ws is not None
        for raw in (b'{"type": "chat", "text": "\xff\xfe"}', b"\xc3\x28", b'{"type":"hello\x80"}'):
            await ann.ws.send_bytes(raw)
            error = await ann.until(lambda m: m["type"] == "error")
            assert error["code"] == "bad_message", error
        await ann.send({"type": "list_tables"})
        await ann.until(lambda m: m["type"] == "tables")  # the same connection answers
        await ann.close()

    asyncio.run(scenario())
    # the server fixture checks that the log holds no traceback


def test_invite_codes_are_crockford_base32_and_join_in_any_case_and_spacing(
    server: ServerProcess,
) -> None:
    """Issue 26 item 19: one case, no look-alike letters (I, L, O, U), 32**10 = 2**50 codes."""

    async def scenario() -> None:
        ann = Client("Ann")
        await ann.connect(server.url)
        codes = set()
        for _ in range(20):  # 20 private tables: every code has the shape, all differ
            await ann.send({"type": "create_table", "seats": 7, "private": True})
            await ann.until(lambda m: m["type"] == "snapshot")
            assert ann.code is not None
            assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}", ann.code)
            codes.add(ann.code)
            await ann.send({"type": "leave"})
            await ann.until(lambda m: m["type"] == "left")
        assert len(codes) == 20
        await ann.send({"type": "create_table", "seats": 7, "private": True})
        await ann.until(lambda m: m["type"] == "snapshot")
        code = ann.code
        assert code is not None
        plain = code.replace("-", "")
        # O for 0 and I or L for 1, as Crockford reads them
        alike = plain.replace("0", "o").replace("1", "i")
        typed = (
            code,
            code.lower(),
            plain,
            plain.lower(),
            f"{plain[:5]} {plain[5:]}".lower(),
            f" {plain[:3]}.{plain[3:6]}-{plain[6:]} ",
            alike,
        )
        for number, text in enumerate(typed):
            other = Client(f"Player {number}")
            await other.connect(server.url)
            await other.send({"type": "watch", "code": text})
            answer = await other.until(lambda m: m["type"] in ("error", "seated"))
            assert answer["type"] == "seated" and answer["table"] == ann.table, (text, answer)
            await other.close()
        await ann.close()

    asyncio.run(scenario())
