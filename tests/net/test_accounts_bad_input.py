"""Issue 28's "Security and bad input", the cases its first tests left out, at a real
`fivecrowns serve`: an account waiting for approval or disabled says so only after the right
password (a wrong one gets the sentence an unknown name gets); names alike by Greek and
full-width letters or a digit for a letter are one name, for sign-up and for a guest; a
password too long to delete an account with is refused before any hash, and nothing is
deleted."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

from server_support import FAST, Client, ServerProcess

PASSWORD = "correct horse battery"
NO_MATCH = {
    "type": "error",
    "code": "no_match",
    "text": "That name and password do not match an account here.",
}


async def _try(url: str, kind: str, name: str, password: str = PASSWORD) -> dict[str, Any]:
    """The answer to one ``sign_up`` or ``log_in`` on a new connection."""
    client = await Client(name).connect(url, hello=False)
    try:
        await client.send({"type": kind, "v": 1, "name": name, "password": password})
        answer = await client.until(lambda m: m["type"] in ("welcome", "error", "account_pending"))
    finally:
        await client.close()
    return answer


def _operator(data: Path, *options: str) -> None:
    command = [sys.executable, "-m", "fivecrowns", "serve", "--data", str(data), *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_waiting_and_disabled_accounts_tell_nothing_without_the_password(data: Path) -> None:
    server = ServerProcess(data, *FAST, "--sign-up", "approval").start()

    async def scenario() -> None:
        assert (await _try(server.url, "sign_up", "Pat"))["type"] == "account_pending"
        assert await _try(server.url, "log_in", "Pat", "not the password") == NO_MATCH
        assert await _try(server.url, "log_in", "Nobody", "not the password") == NO_MATCH
        assert (await _try(server.url, "log_in", "Pat"))["code"] == "pending"
        # why no log-in between: each try counts against the name's five a minute
        _operator(data, "--disable-account", "Pat")
        assert await _try(server.url, "log_in", "pat", "not the password") == NO_MATCH
        assert (await _try(server.url, "log_in", "pat"))["code"] == "disabled"

    try:
        asyncio.run(scenario())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors


def test_names_alike_are_one_name_and_a_long_password_deletes_nothing(data: Path) -> None:
    server = ServerProcess(data, *FAST).start()

    async def scenario() -> None:
        assert (await _try(server.url, "sign_up", "Olga Lee"))["type"] == "welcome"
        # why these few: each try counts against the name's five a minute
        for alike in ("ΟLGA LEE", "Ｏｌｇａ Lee", "0lga  Lee"):  # Greek O; full-width; a zero
            answer = await _try(server.url, "sign_up", alike, "another password")
            assert answer["code"] == "name_taken", alike
        guest = await Client("0LGA LEE").connect(server.url, hello=False)
        await guest.send({"type": "hello", "v": 1, "name": "0LGA LEE"})
        assert (await guest.until(lambda m: m["type"] == "error"))["code"] == "name_owned"
        await guest.close()
        ann = await Client("Ann").connect(server.url, hello=False)
        await ann.send({"type": "sign_up", "v": 1, "name": "Ann", "password": PASSWORD})
        await ann.until(lambda m: m["type"] == "welcome")
        await ann.send({"type": "delete_account", "password": "é" * 200})
        refused = await ann.until(lambda m: m["type"] == "error")
        assert refused["code"] == "password_too_long"
        await ann.close()
        assert (await _try(server.url, "log_in", "Ann"))["type"] == "welcome"  # not deleted

    try:
        asyncio.run(scenario())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
