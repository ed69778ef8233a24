"""The versions of the game server's SQLite file (``tables.sqlite3``), each a numbered step.

The file's version is SQLite's own ``PRAGMA user_version`` (0 in a new file and in every
file written before there were versions). :func:`migrate` runs each step above it, in
order, each in one transaction with the new version, so a file is always at one version:
an older server's file opens in a newer server and keeps its tables; a file from a newer
server is refused with a sentence (:class:`NewerFileError`) instead of being damaged.

A step is only ever added, never changed: a file already at its version never runs it again.
"""

from __future__ import annotations

import sqlite3

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["STEPS", "NewerFileError", "migrate", "version_of"]

NEWER_FILE = N_(
    "The tables file {path} was written by a newer version of the game (its version "
    "{version}, this game knows up to {known}); update the game to use it."
)

#: Step n brings a file from version n - 1 to version n.
STEPS: tuple[str, ...] = (
    # 1: the tables, their inputs and the players, as every server before versions made them
    # (why IF NOT EXISTS: a file of those servers has them already, at version 0)
    """
    CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE
    );
    CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY, seats INTEGER NOT NULL, creator_id TEXT NOT NULL,
        creator_name TEXT NOT NULL, code TEXT, private INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS inputs (
        table_id TEXT NOT NULL, idx INTEGER NOT NULL, command TEXT NOT NULL,
        PRIMARY KEY (table_id, idx)
    );
    """,
    # 2: accounts, their sessions, the refresh tokens already used, and whether a table
    # takes guests (every older table did)
    """
    ALTER TABLE tables ADD COLUMN guests INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE accounts (
        id TEXT PRIMARY KEY, name TEXT, name_key TEXT UNIQUE, password_hash TEXT,
        status TEXT NOT NULL, created REAL NOT NULL
    );
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY, account_id TEXT NOT NULL, access_hash TEXT NOT NULL UNIQUE,
        access_expires REAL NOT NULL, refresh_hash TEXT NOT NULL UNIQUE,
        refresh_expires REAL NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account_id);
    CREATE TABLE used_refresh (
        refresh_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, used REAL NOT NULL
    );
    """,
    # 3: the tables set aside, which could not be rebuilt (kept as they are, named with why)
    """
    CREATE TABLE set_aside (
        table_id TEXT PRIMARY KEY, why TEXT NOT NULL, at TEXT NOT NULL
    );
    """,
    # the newest epoch of the lease each owner of the tables took (serve --bus: an owner whose
    # epoch is older writes no input; net/server/cluster.py)
    """
    CREATE TABLE fences (
        name TEXT PRIMARY KEY, epoch INTEGER NOT NULL
    );
    """,
    # ratings: whether a table is rated (older tables were made before ratings: not rated),
    # each account's OpenSkill rating, and each rated game kept once by its key
    """
    ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE ratings (
        player_id TEXT PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL,
        played INTEGER NOT NULL, won INTEGER NOT NULL
    );
    CREATE INDEX ratings_by_mu ON ratings (mu);
    CREATE TABLE rated_games (
        key TEXT PRIMARY KEY, at REAL NOT NULL, names TEXT NOT NULL, player_ids TEXT NOT NULL,
        totals TEXT NOT NULL, rounds TEXT NOT NULL
    );
    CREATE TABLE rated_seats (
        player_id TEXT NOT NULL, game_key TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (player_id, game_key)
    );
    CREATE INDEX rated_seats_by_time ON rated_seats (player_id, at);
    """,
    # friends: requests, friendships (a row for each side), blocks, and the private
    # messages kept for an account that was away (fivecrowns.storage.friends)
    """
    CREATE TABLE friend_requests (
        asker TEXT NOT NULL, asked TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (asker, asked)
    );
    CREATE INDEX friend_requests_by_asked ON friend_requests (asked);
    CREATE TABLE friends (
        account_id TEXT NOT NULL, friend_id TEXT NOT NULL, since REAL NOT NULL,
        PRIMARY KEY (account_id, friend_id)
    );
    CREATE TABLE blocks (
        blocker TEXT NOT NULL, blocked TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (blocker, blocked)
    );
    CREATE TABLE private_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT, recipient TEXT NOT NULL, sender TEXT NOT NULL,
        text TEXT NOT NULL, sent REAL NOT NULL
    );
    CREATE INDEX private_messages_by_recipient ON private_messages (recipient, id);
    """,
    # table bans: the players a table's creator removed and banned, kept over a restart
    # until the table closes (fivecrowns.storage.friends)
    """
    CREATE TABLE table_bans (
        table_id TEXT NOT NULL, player_id TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (table_id, player_id)
    );
    """,
    # a deleted account's rating leaves the leaderboard (older servers kept it there, named
    # "a deleted player"); its kept games stay
    """
    DELETE FROM ratings WHERE player_id IN (SELECT id FROM accounts WHERE status = 'deleted');
    """,
)


class NewerFileError(Exception):
    """The file is of a version this game does not know; the message says so."""


def version_of(db: sqlite3.Connection) -> int:
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    return version


def migrate(db: sqlite3.Connection, path: object = "") -> int:
    """Bring the file open in ``db`` (in autocommit mode) to the newest version; returns it."""
    known = len(STEPS)
    version = version_of(db)
    if version > known:
        text = _(NEWER_FILE).format(path=path, version=version, known=known)
        raise NewerFileError(text)
    for number in range(version + 1, known + 1):
        # why statement by statement in one BEGIN: executescript would commit first
        try:
            db.execute("BEGIN IMMEDIATE")
            if version_of(db) >= number:  # why: another process (an operator command) did it
                db.execute("COMMIT")
                continue
            for statement in STEPS[number - 1].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return known
