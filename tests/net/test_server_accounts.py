"""Accounts at a real `fivecrowns serve` (issue 28, items 1 and 5): sign-up, log-in and
log-out; a name kept its own; refresh tokens that rotate; limits; the operator's options;
deleting one's account; and no password, hash or token in a log, an error or another
player's frames."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from server_support import FAST, Client, ServerProcess

PASSWORD = "correct horse battery"
NO_MATCH = "That name and password do not match an account here."


async def _account(url: str, kind: str, name: str, password: str = PASSWORD) -> Client:
    """A connection that sent ``sign_up`` or ``log_in``: it has the answer (``account`` then
    ``welcome``, ``account_pending``, or an ``error``) in its frames."""
    client = await Client(name).connect(url, hello=False)
    await client.send({"type": kind, "v": 1, "name": name, "password": password})
    await client.until(lambda m: m["type"] in ("welcome", "error", "account_pending"))
    return client


def _frames(client: Client, kind: str) -> list[dict[str, Any]]:
    return [json.loads(frame) for frame in client.frames if json.loads(frame)["type"] == kind]


def _last_error(client: Client) -> dict[str, Any]:
    return client.errors[-1]


def _run(server: ServerProcess, scenario: Any) -> str:
    try:
        asyncio.run(scenario())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
    return errors


def test_sign_up_log_out_log_in_and_the_sentences_that_tell_nothing(data: Path) -> None:
    server = ServerProcess(data, *FAST).start()
    secrets_seen: list[str] = [PASSWORD]
    bystander_frames: list[str] = []
    errors_sent: list[dict[str, Any]] = []

    async def scenario() -> None:
        bob = await Client("Bob").connect(server.url)  # a guest in the lobby meanwhile
        dee = await _account(server.url, "sign_up", "Dee")
        await dee.close()
        ann = await _account(server.url, "sign_up", "Ann")
        (tokens,) = _frames(ann, "account")
        welcome = _frames(ann, "welcome")[0]
        assert welcome["name"] == "Ann" and tokens["name"] == "Ann" and tokens["expires"] > 0
        secrets_seen.extend([tokens["access"], tokens["refresh"], welcome["token"]])
        # an account's name is its own: sign-up by case or look-alikes, a guest's hello
        # (each try counts against the name's five a minute: Ann has two left after these)
        for other in ("ANN", "Аnn"):  # the second with a Cyrillic A
            taken = await _account(server.url, "sign_up", other, "another password")
            assert _last_error(taken)["code"] == "name_taken", other
            await taken.close()
        guest = await Client("ÀNN").connect(server.url, hello=False)
        await guest.send({"type": "hello", "v": 1, "name": "ÀNN"})
        refused = await guest.until(lambda m: m["type"] == "error")
        assert refused["code"] == "name_owned"
        await guest.close()
        # log out: told so, and the connection closes; its seat token no longer works
        await ann.send({"type": "log_out"})
        out = await ann.until(lambda m: m["type"] == "logged_out")
        assert out["text"] == "You are logged out."
        await ann.close()
        again = Client("Ann")
        again.token = welcome["token"]
        await again.connect(server.url, hello=False)
        await again.send({"type": "hello", "v": 1, "name": "Ann", "token": welcome["token"]})
        assert (await again.until(lambda m: m["type"] == "error"))["code"] == "bad_token"
        await again.close()
        # the access token of the ended log-in no longer says hello either
        late = await Client("x").connect(server.url, hello=False)
        await late.send({"type": "hello", "v": 1, "name": "x", "access": tokens["access"]})
        assert (await late.until(lambda m: m["type"] == "error"))["code"] == "bad_access"
        await late.close()
        # wrong password and unknown account: the same sentence; a password too long: its own,
        # the same for an account and for none
        wrong = await _account(server.url, "log_in", "ann", "not the password")
        unknown = await _account(server.url, "log_in", "Zed", "not the password")
        assert (
            _last_error(wrong)
            == _last_error(unknown)
            == {
                "type": "error",
                "code": "no_match",
                "text": NO_MATCH,
            }
        )
        long_known = await _account(server.url, "log_in", "Dee", "é" * 200)
        long_unknown = await _account(server.url, "log_in", "Nobody", "é" * 200)
        assert _last_error(long_known) == _last_error(long_unknown)
        assert _last_error(long_known)["code"] == "password_too_long"
        assert "at most 256 bytes" in _last_error(long_known)["text"]
        short = await _account(server.url, "sign_up", "Cy", "short")
        assert _last_error(short)["code"] == "password_too_short"
        for client in (wrong, unknown, long_known, long_unknown, short):
            errors_sent.extend(client.errors)
            await client.close()
        # log in again, in Spanish: the account's own name, whatever case was typed
        back = await Client("ann").connect(server.url, hello=False)
        await back.send(
            {"type": "log_in", "v": 1, "name": "aNN", "password": PASSWORD, "language": "es"}
        )
        welcome = await back.until(lambda m: m["type"] == "welcome")
        assert welcome["name"] == "Ann"
        again_tokens = _frames(back, "account")[0]
        secrets_seen.extend([welcome["token"], again_tokens["access"], again_tokens["refresh"]])
        await back.send({"type": "log_out"})
        out = await back.until(lambda m: m["type"] == "logged_out")
        assert out["text"] == "Has cerrado la sesión."
        await back.close()
        await bob.send({"type": "list_tables"})
        await bob.until(lambda m: m["type"] == "tables")
        bystander_frames.extend(bob.frames)
        await bob.close()

    errors = _run(server, scenario)
    stored = _database_text(data)
    assert len(secrets_seen) == 7
    for secret in secrets_seen:
        assert secret not in errors and secret not in stored
        assert all(secret not in frame for frame in bystander_frames)
        assert all(secret not in error["text"] for error in errors_sent)
    assert len(errors_sent) == 5
    assert "$argon2id$" in stored  # the hash is stored, as argon2id; never the password


def _database_text(data: Path) -> str:
    with sqlite3.connect(data / "tables.sqlite3") as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        text = "\n".join(str(row) for name in names for row in db.execute(f"SELECT * FROM {name}"))
    db.close()
    return text


def _rated(data: Path, name: str) -> None:
    """Give ``name``'s account a rating, as a rated game would, in the server's own file."""
    with sqlite3.connect(data / "tables.sqlite3") as db:
        db.execute(
            "INSERT INTO ratings (player_id, mu, sigma, played, won)"
            " SELECT id, 1600, 100, 1, 1 FROM accounts WHERE name = ?",
            (name,),
        )
        assert db.execute("SELECT COUNT(*) FROM ratings").fetchone() == (1,)
    db.close()


def test_a_replayed_refresh_token_logs_the_account_out_everywhere(data: Path) -> None:
    server = ServerProcess(data, *FAST).start()
    seen: list[str] = [PASSWORD]

    async def scenario() -> None:
        ann = await _account(server.url, "sign_up", "Ann")
        first = _frames(ann, "account")[0]
        # a second device logs in with the access token: the account's own player
        other = await Client("x").connect(server.url, hello=False)
        await other.send({"type": "hello", "v": 1, "name": "x", "access": first["access"]})
        assert (await other.until(lambda m: m["type"] == "welcome"))["name"] == "Ann"
        await other.send({"type": "refresh", "refresh": first["refresh"]})
        second = await other.until(lambda m: m["type"] == "account")
        assert second["refresh"] != first["refresh"] and second["access"] != first["access"]
        seen.extend([first["access"], first["refresh"], second["access"], second["refresh"]])
        # the first refresh token again: copied, so every log-in ends and the device is told
        thief = await Client("t").connect(server.url, hello=False)
        await thief.send({"type": "refresh", "refresh": first["refresh"]})
        refused = await thief.until(lambda m: m["type"] == "error")
        assert refused["code"] == "refresh_reused"
        told = await other.until(lambda m: m["type"] == "logged_out")
        assert "logged out everywhere" in told["text"]
        await thief.send({"type": "refresh", "refresh": second["refresh"]})
        assert (await thief.until(lambda m: m["type"] == "error"))["code"] == "bad_refresh"
        await thief.send({"type": "hello", "v": 1, "name": "t", "access": second["access"]})
        assert (await thief.until(lambda m: m["type"] == "error"))["code"] == "bad_access"
        for client in (ann, other, thief):
            await client.close()

    errors = _run(server, scenario)
    assert "A used refresh token came again" in errors  # the log is where we looked
    for secret in seen:
        assert secret not in errors


def test_tables_for_accounts_only_and_the_limits_on_log_ins(data: Path) -> None:
    server = ServerProcess(data, *FAST).start()

    async def scenario() -> None:
        ann = await _account(server.url, "sign_up", "Ann")
        bob = await Client("Bob").connect(server.url)
        await bob.send({"type": "create_table", "seats": 2, "guests": False})
        assert (await bob.until(lambda m: m["type"] == "error"))["code"] == "members_only"
        await ann.send({"type": "create_table", "seats": 3, "guests": False})
        await ann.until(lambda m: m["type"] == "seated")
        await bob.send({"type": "join", "table": ann.table})
        refused = await bob.until(lambda m: m["type"] == "error")
        assert refused["code"] == "members_only"
        assert "logged in to an account" in refused["text"]
        cy = await _account(server.url, "sign_up", "Cy")
        await cy.send({"type": "join", "table": ann.table})
        assert (await cy.until(lambda m: m["type"] == "seated"))["seat"] == 1
        await cy.send({"type": "chat", "text": "hello"})
        chat = await ann.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
        assert "Cy" in chat["text"]
        # five tries a minute for one name, whoever tries (the sign-up was the first)
        answers = []
        for _attempt in range(6):
            client = await _account(server.url, "log_in", "Ann", "guessing wrong")
            answers.append(_last_error(client)["code"])
            await client.close()
        assert answers == ["no_match"] * 4 + ["too_many_log_ins"] * 2, answers
        for client in (ann, bob, cy):
            await client.close()

    _run(server, scenario)


def test_approval_closed_sign_up_disable_and_enable(data: Path, tmp_path: Path) -> None:
    def operator(*options: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "fivecrowns", "serve", "--data", str(data), *options]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    server = ServerProcess(data, *FAST, "--sign-up", "approval").start()

    async def waiting() -> None:
        ann = await _account(server.url, "sign_up", "Ann")
        (pending,) = _frames(ann, "account_pending")
        assert "approve" in pending["text"] and not _frames(ann, "welcome")
        await ann.close()
        early = await _account(server.url, "log_in", "Ann")
        assert _last_error(early)["code"] == "pending"
        await early.close()
        # the operator approves it while the server runs
        done = operator("--approve-account", "ann")
        assert done.returncode == 0 and done.stdout.strip() == "The account Ann is now active."
        now = await _account(server.url, "log_in", "Ann")
        assert _frames(now, "welcome")[0]["name"] == "Ann"
        tokens = _frames(now, "account")[0]
        await now.close()
        listed = operator("--list-accounts")
        assert listed.stdout.strip() == "Ann: active"
        assert operator("--disable-account", "ANN").returncode == 0
        for message in (
            {"type": "refresh", "refresh": tokens["refresh"]},
            {"type": "log_in", "v": 1, "name": "Ann", "password": PASSWORD},
        ):
            client = await Client("Ann").connect(server.url, hello=False)
            await client.send(message)
            refused = await client.until(lambda m: m["type"] == "error")
            assert refused["code"] in ("disabled", "bad_refresh"), refused
            await client.close()
        assert operator("--enable-account", "Ann").returncode == 0
        back = await _account(server.url, "log_in", "Ann")
        assert _frames(back, "welcome")
        await back.close()
        missing = operator("--disable-account", "Zed")
        assert missing.returncode == 1 and "No account here has the name Zed." in missing.stderr

    _run(server, waiting)
    closed = ServerProcess(data, *FAST, "--sign-up", "closed").start()

    async def no_sign_up() -> None:
        dee = await _account(closed.url, "sign_up", "Dee")
        assert _last_error(dee)["code"] == "sign_up_closed"
        await dee.close()
        ann = await _account(closed.url, "log_in", "Ann")  # accounts made before still play
        assert _frames(ann, "welcome")
        await ann.close()

    _run(closed, no_sign_up)


def test_deleting_ones_account_keeps_its_games_under_a_deleted_player(data: Path) -> None:
    server = ServerProcess(data, *FAST).start()

    async def scenario() -> None:
        ann = await _account(server.url, "sign_up", "Ann")
        await ann.send({"type": "create_table", "seats": 2})
        await ann.until(lambda m: m["type"] == "seated")
        await ann.send({"type": "chat", "text": "my own words"})
        await ann.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
        await ann.send({"type": "delete_account", "password": PASSWORD})
        assert (await ann.until(lambda m: m["type"] == "error"))["code"] == "at_table"
        await ann.send({"type": "leave"})
        await ann.until(lambda m: m["type"] == "left")
        await ann.send({"type": "delete_account", "password": "not it"})
        assert (await ann.until(lambda m: m["type"] == "error"))["code"] == "wrong_password"
        _rated(data, "Ann")  # as after a rated game: she is on the leaderboard
        await ann.send({"type": "delete_account", "password": PASSWORD})
        gone = await ann.until(lambda m: m["type"] == "logged_out")
        assert "deleted" in gone["text"]
        await ann.close()
        after = await _account(server.url, "log_in", "Ann")
        assert _last_error(after)["code"] == "no_match"
        await after.close()
        anew = await _account(server.url, "sign_up", "Ann", "a new password")  # the name is free
        assert _frames(anew, "welcome")
        await anew.close()

    _run(server, scenario)
    text = _database_text(data)
    assert "my own words" not in text
    assert "'a deleted player'" in text  # the table it made, and its seat
    with sqlite3.connect(data / "tables.sqlite3") as db:  # off the leaderboard
        assert db.execute("SELECT COUNT(*) FROM ratings").fetchone() == (0,)
    db.close()


def _stored_hash(data: Path, name: str) -> str:
    db = sqlite3.connect(data / "tables.sqlite3")
    try:
        row = db.execute("SELECT password_hash FROM accounts WHERE name = ?", (name,)).fetchone()
    finally:
        db.close()
    return str(row[0])


def test_a_hash_an_older_server_made_is_renewed_at_the_next_log_in(data: Path) -> None:
    """An older server hashed with argon2's 4 lanes (4 threads a log-in); its hashes still
    verify, and the first log-in stores the same password hashed with today's one lane."""
    from argon2 import PasswordHasher

    server = ServerProcess(data, *FAST).start()

    async def sign_up() -> None:
        ann = await _account(server.url, "sign_up", "Ann")
        await ann.close()

    _run(server, sign_up)
    old = PasswordHasher().hash(PASSWORD)  # the older server's settings
    assert "$m=65536,t=3,p=4$" in old
    db = sqlite3.connect(data / "tables.sqlite3")
    db.execute("UPDATE accounts SET password_hash = ? WHERE name = 'Ann'", (old,))
    db.commit()
    db.close()
    server = ServerProcess(data, *FAST).start()

    async def log_in_twice() -> None:
        ann = await _account(server.url, "log_in", "Ann")
        assert _frames(ann, "welcome"), ann.errors
        await ann.close()
        for _ in range(100):  # the new hash is made after the answer, in the background
            if _stored_hash(data, "Ann") != old:
                break
            await asyncio.sleep(0.1)
        again = await _account(server.url, "log_in", "Ann")
        assert _frames(again, "welcome"), again.errors
        await again.close()
        wrong = await _account(server.url, "log_in", "Ann", "not the password")
        assert _last_error(wrong)["code"] == "no_match"
        await wrong.close()

    _run(server, log_in_twice)
    renewed = _stored_hash(data, "Ann")
    assert renewed.startswith("$argon2id$v=19$m=65536,t=3,p=1$")
    assert PasswordHasher().verify(renewed, PASSWORD)
