"""``fivecrowns serve --store postgresql://...`` as a real process on a real PostgreSQL
(tests/support/pg_support.py): a game survives SIGKILL; a bad or unreachable database, or a
newer schema, is one sentence at start.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import psycopg

from fivecrowns.storage.pgschema import STEPS
from pg_support import free_port, pg_url_fixture, postgres_fixture  # noqa: F401
from server_support import FAST, Client, ServerProcess, killed_and_restarted, play_until


def test_a_killed_server_on_postgresql_restarts_and_loses_no_acknowledged_move(
    pg_url: str, tmp_path: Path
) -> None:
    # why a data folder for each: nothing of the game is in the first one, all is in the database
    def start(number: int) -> ServerProcess:
        return ServerProcess(tmp_path / str(number), *FAST, "--grace", "30", "--store", pg_url)

    asyncio.run(killed_and_restarted(start))
    with psycopg.connect(pg_url) as db:
        (finished,) = db.execute("SELECT finished FROM tables").fetchone() or (None,)
        (count,) = db.execute("SELECT count(*) FROM inputs").fetchone() or (0,)
    assert finished is True
    assert count > 120  # every move of the game, in the database


def _serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "fivecrowns", "serve", "--port", "0", "--data", str(tmp_path)]
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_bad_or_unreachable_database_is_one_sentence_at_start(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    cases = {
        f"postgresql://fivecrowns@127.0.0.1:{port}/games": (
            1,
            f"Cannot reach the database postgresql://127.0.0.1:{port}/games: connection failed:",
        ),
        "postgresql://ann:secret@127.0.0.1/games?colour=blue": (
            1,
            "The database address is not one PostgreSQL takes (invalid URI query parameter: "
            '"colour"); write it as postgresql://USER:PASSWORD@HOST:PORT/DATABASE.',
        ),
        "mysql://ann@127.0.0.1/games": (
            2,
            "--store takes a PostgreSQL address that begins with postgresql://, such as "
            "postgresql://fivecrowns@localhost/fivecrowns.",
        ),
    }
    for url, (code, sentence) in cases.items():
        done = _serve(tmp_path, "--store", url)
        assert done.returncode == code, done.stderr
        assert done.stderr.startswith(sentence), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr  # no traceback
        assert "secret" not in done.stderr
        assert done.stdout == ""
    done = _serve(tmp_path, "--memory", "--store", "postgresql://127.0.0.1/games")
    assert (done.returncode, done.stderr) == (2, "--memory and --store cannot go together.\n")
    done = _serve(tmp_path, "--bus", "redis://127.0.0.1:1", "--store", "postgresql://x/games")
    assert (done.returncode, done.stderr) == (
        2,
        "--bus and --store cannot go together yet: several processes share the tables "
        "through the data folder's SQLite file.\n",
    )


def test_a_newer_schema_stops_the_server_with_a_sentence_and_is_untouched(
    pg_url: str, tmp_path: Path
) -> None:
    newer = len(STEPS) + 1
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (%s)", (newer,))
    done = _serve(tmp_path, "--store", pg_url)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"The database {pg_url.replace('fivecrowns@', '')} was written by a newer version of the "
        f"game (its version {newer}, this game knows up to {len(STEPS)}); update the game to "
        "use it."
    ]
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(newer,)]
        assert db.execute("SELECT to_regclass('inputs')").fetchone() == (None,)


def test_the_operators_account_commands_work_on_the_database(pg_url: str, tmp_path: Path) -> None:
    from fivecrowns.net.server.pgstore import PgStore
    from fivecrowns.storage.accounts import Account

    store = PgStore(pg_url)
    store.accounts.add_account(Account("a1", "Ann", "ann", "$argon2id$x", "active", 1.0))
    store.close()
    done = _serve(tmp_path, "--store", pg_url, "--disable-account", "ann")
    assert (done.returncode, done.stdout) == (0, "The account Ann is now disabled.\n"), done.stderr
    done = _serve(tmp_path, "--store", pg_url, "--list-accounts")
    assert (done.returncode, done.stdout) == (0, "Ann: disabled\n"), done.stderr


def _inputs_count(url: str) -> int:
    with psycopg.connect(url) as db:
        (count,) = db.execute("SELECT count(*) FROM inputs").fetchone() or (0,)
        return int(count)


def test_a_database_lost_mid_game_is_one_log_line_and_the_server_connects_again(
    pg_url: str, tmp_path: Path
) -> None:
    """The server's connection to PostgreSQL is cut before a move: the save that fails is one
    line in the log (no traceback, as a full disk for SQLite in test_server_refusals.py); the
    server connects again and saves the move before anyone hears of it."""
    server = ServerProcess(tmp_path, *FAST, "--store", pg_url).start()

    def cut() -> None:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid != pg_backend_pid()"
            )

    async def scenario() -> None:
        ann = await Client("Ann").connect(server.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "seated")
        await ann.send({"type": "start"})
        await play_until([ann], lambda c: c.my_turn(), 30)
        before, seq = _inputs_count(pg_url), ann.seq
        cut()
        await ann.act(ann.choose())
        await ann.until(lambda m: ann.seq > seq)  # her move was heard: so it was saved
        assert _inputs_count(pg_url) > before
        assert ann.errors == []
        await ann.close()

    try:
        asyncio.run(scenario())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
    failed = [line for line in errors.splitlines() if "could not be saved" in line]
    assert failed == [
        "The moves could not be saved: StoreError: terminating connection due to "
        "administrator command"
    ], errors
    assert "The moves are saved again." in errors
