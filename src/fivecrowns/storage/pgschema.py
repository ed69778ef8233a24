"""The versions of the game server's PostgreSQL schema, each a numbered step.

The PostgreSQL counterpart of :mod:`fivecrowns.storage.migrations` (whose SQL is SQLite's):
the same tables, and the same rule that a step is only ever added, never changed. The
database's version is the one row of ``schema_version`` (none yet: version 0). Several server
processes share one database, so :func:`migrate` runs under a transaction-level advisory lock:
the first process to start brings the schema up, the others wait for it and find it done.
A database of a newer version is refused with a sentence (:class:`NewerSchemaError`) and left
untouched.

psycopg is imported by the caller (it is the optional ``postgresql`` extra); this module only
takes an open connection.
"""

from __future__ import annotations

from typing import Any

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["LOCK_KEY", "STEPS", "NewerSchemaError", "migrate", "version_of"]

NEWER_SCHEMA = N_(
    "The database {where} was written by a newer version of the game (its version "
    "{version}, this game knows up to {known}); update the game to use it."
)

#: The advisory lock taken while the schema changes (any number; this one spells "5CRN").
LOCK_KEY = 0x3543524E

#: Step n brings a database from version n - 1 to version n.
STEPS: tuple[str, ...] = (
    # 1: every table the SQLite file has at its version 3: tables, their inputs (keyed by
    # (table, index), so two writers cannot both write one index), players, accounts and their
    # sessions, the refresh tokens already used, and the tables set aside.
    # why seq: SQLite's rowid gave the order the tables were made in; here a sequence does
    """
    CREATE TABLE players (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE
    );
    CREATE TABLE tables (
        id TEXT PRIMARY KEY, seq BIGSERIAL NOT NULL, seats INTEGER NOT NULL,
        creator_id TEXT NOT NULL, creator_name TEXT NOT NULL, code TEXT,
        private BOOLEAN NOT NULL, guests BOOLEAN NOT NULL DEFAULT TRUE,
        finished BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE TABLE inputs (
        table_id TEXT NOT NULL, idx INTEGER NOT NULL, command TEXT NOT NULL,
        PRIMARY KEY (table_id, idx)
    );
    CREATE TABLE accounts (
        id TEXT PRIMARY KEY, name TEXT, name_key TEXT UNIQUE, password_hash TEXT,
        status TEXT NOT NULL, created DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY, account_id TEXT NOT NULL, access_hash TEXT NOT NULL UNIQUE,
        access_expires DOUBLE PRECISION NOT NULL, refresh_hash TEXT NOT NULL UNIQUE,
        refresh_expires DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account_id);
    CREATE TABLE used_refresh (
        refresh_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL,
        used DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE set_aside (
        table_id TEXT PRIMARY KEY, why TEXT NOT NULL, at TEXT NOT NULL
    );
    """,
    # 2: ratings, as the SQLite file's step 5: whether a table is rated (older tables: not),
    # each account's OpenSkill rating, and each rated game kept once by its key. why n: the
    # order games were kept in breaks ties of time, as SQLite's rowid does
    """
    ALTER TABLE tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
    CREATE TABLE ratings (
        player_id TEXT PRIMARY KEY, mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL, played INTEGER NOT NULL, won INTEGER NOT NULL
    );
    CREATE INDEX ratings_by_mu ON ratings (mu);
    CREATE TABLE rated_games (
        key TEXT PRIMARY KEY, n BIGSERIAL NOT NULL, at DOUBLE PRECISION NOT NULL,
        names TEXT NOT NULL, player_ids TEXT NOT NULL, totals TEXT NOT NULL, rounds TEXT NOT NULL
    );
    CREATE TABLE rated_seats (
        player_id TEXT NOT NULL, game_key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, game_key)
    );
    CREATE INDEX rated_seats_by_time ON rated_seats (player_id, at);
    """,
    # 3: friends, as the SQLite file's step 6: requests, friendships (a row for each side),
    # blocks, and the private messages kept for an account that was away
    """
    CREATE TABLE friend_requests (
        asker TEXT NOT NULL, asked TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (asker, asked)
    );
    CREATE INDEX friend_requests_by_asked ON friend_requests (asked);
    CREATE TABLE friends (
        account_id TEXT NOT NULL, friend_id TEXT NOT NULL, since DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (account_id, friend_id)
    );
    CREATE TABLE blocks (
        blocker TEXT NOT NULL, blocked TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (blocker, blocked)
    );
    CREATE TABLE private_messages (
        id BIGSERIAL PRIMARY KEY, recipient TEXT NOT NULL, sender TEXT NOT NULL,
        text TEXT NOT NULL, sent DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX private_messages_by_recipient ON private_messages (recipient, id);
    """,
    # 4: the fences of ``serve --bus`` (as the SQLite file's fences step): the newest epoch an
    # owner of a lease has written; every save of inputs checks it in its own transaction
    """
    CREATE TABLE fences (
        name TEXT PRIMARY KEY, epoch BIGINT NOT NULL
    );
    """,
    # table bans, as the SQLite file's step of the same name
    """
    CREATE TABLE table_bans (
        table_id TEXT NOT NULL, player_id TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, player_id)
    );
    """,
    # a deleted account's rating leaves the leaderboard (older servers kept it there, named
    # "a deleted player"); its kept games stay
    """
    DELETE FROM ratings WHERE player_id IN (SELECT id FROM accounts WHERE status = 'deleted');
    """,
)


class NewerSchemaError(Exception):
    """The database is of a version this game does not know; the message says so."""


def version_of(db: Any) -> int:
    """The schema version of the database open in ``db`` (a psycopg connection)."""
    row = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not row[0]:
        return 0
    found = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(found[0] or 0)


def migrate(db: Any, where: str = "") -> int:
    """Bring the database open in ``db`` (a psycopg connection in autocommit mode) to the
    newest version, every step and the new version in one transaction (PostgreSQL's DDL is
    transactional: a failed step leaves the database as it was); returns the version."""
    known = len(STEPS)
    with db.transaction():
        # why one lock around the whole check: two processes starting at once must not both
        # run a step (the second would fail on CREATE TABLE), nor read a half-made schema
        db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        version = version_of(db)
        if version > known:
            raise NewerSchemaError(
                _(NEWER_SCHEMA).format(where=where, version=version, known=known)
            )
        if version < known:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        for number in range(version + 1, known + 1):
            for statement in STEPS[number - 1].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("DELETE FROM schema_version")
            db.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
    return known
