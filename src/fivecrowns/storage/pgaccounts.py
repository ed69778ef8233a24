"""Accounts and their sessions in PostgreSQL: :class:`fivecrowns.storage.accounts.AccountStore`
for a server whose tables are in PostgreSQL (:mod:`fivecrowns.net.server.pgstore`).

The same rows and the same behaviour as :class:`fivecrowns.storage.accounts.SqliteAccounts`,
in PostgreSQL's SQL, through the store's connection (psycopg 3, autocommit). Every answer is
read from the database, so several server processes sharing it agree on every account.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg

from fivecrowns.storage.accounts import DELETED_NAME, Account, NameTakenError, Session, Status

__all__ = ["PgAccounts"]

_ACCOUNT_COLUMNS = "id, name, name_key, password_hash, status, created"
_SESSION_COLUMNS = "id, account_id, access_hash, access_expires, refresh_hash, refresh_expires"


class PgAccounts:
    """Accounts in the server's PostgreSQL database. ``connect`` gives the store's open
    connection (why a function: the store opens a new one when its connection was lost)."""

    def __init__(self, connect: Any) -> None:
        self._connect = connect

    def _execute(self, sql: str, values: tuple[Any, ...] = ()) -> psycopg.Cursor[Any]:
        db: psycopg.Connection[Any] = self._connect()
        return db.execute(sql, values)

    def add_account(self, account: Account) -> None:
        try:
            self._execute(
                f"INSERT INTO accounts ({_ACCOUNT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
                (
                    account.id,
                    account.name,
                    account.name_key,
                    account.password_hash,
                    account.status,
                    account.created,
                ),
            )
        except psycopg.errors.UniqueViolation:
            raise NameTakenError(account.name_key) from None

    def _one_account(self, where: str, value: str) -> Account | None:
        row = self._execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE {where} = %s", (value,)
        ).fetchone()
        return None if row is None else _account(row)

    def account(self, account_id: str) -> Account | None:
        return self._one_account("id", account_id)

    def account_by_key(self, name_key: str) -> Account | None:
        return self._one_account("name_key", name_key)

    def accounts(self) -> list[Account]:
        rows = self._execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE status != 'deleted' ORDER BY created"
        ).fetchall()
        return [_account(row) for row in rows]

    def set_status(self, account_id: str, status: Status) -> None:
        self._execute("UPDATE accounts SET status = %s WHERE id = %s", (status, account_id))

    def delete_account(self, account_id: str) -> None:
        db: psycopg.Connection[Any] = self._connect()
        with db.transaction():
            db.execute(
                "UPDATE accounts SET name = NULL, name_key = NULL, password_hash = NULL,"
                " status = 'deleted' WHERE id = %s",
                (account_id,),
            )
            db.execute("DELETE FROM sessions WHERE account_id = %s", (account_id,))
            db.execute("DELETE FROM used_refresh WHERE account_id = %s", (account_id,))
            # why token_hash too: the old token must not take the seat back as anyone
            db.execute(
                "UPDATE players SET name = %s, token_hash = 'deleted:' || id WHERE id = %s",
                (DELETED_NAME, account_id),
            )
            db.execute(
                "UPDATE tables SET creator_name = %s WHERE creator_id = %s",
                (DELETED_NAME, account_id),
            )
            _forget_name_in_inputs(db, account_id)

    def add_session(self, session: Session) -> None:
        self._execute(
            f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
            (
                session.id,
                session.account_id,
                session.access_hash,
                session.access_expires,
                session.refresh_hash,
                session.refresh_expires,
            ),
        )

    def _one_session(self, where: str, value: str) -> Session | None:
        row = self._execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {where} = %s", (value,)
        ).fetchone()
        return None if row is None else Session(*row)

    def session_by_access(self, access_hash: str) -> Session | None:
        return self._one_session("access_hash", access_hash)

    def session_by_refresh(self, refresh_hash: str) -> Session | None:
        return self._one_session("refresh_hash", refresh_hash)

    def rotate(self, old: Session, new: Session, now: float) -> None:
        db: psycopg.Connection[Any] = self._connect()
        with db.transaction():
            db.execute(
                "INSERT INTO used_refresh (refresh_hash, account_id, used) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (old.refresh_hash, old.account_id, now),
            )
            db.execute(
                "UPDATE sessions SET access_hash = %s, access_expires = %s, refresh_hash = %s,"
                " refresh_expires = %s WHERE id = %s",
                (
                    new.access_hash,
                    new.access_expires,
                    new.refresh_hash,
                    new.refresh_expires,
                    old.id,
                ),
            )

    def used_refresh(self, refresh_hash: str) -> str | None:
        row = self._execute(
            "SELECT account_id FROM used_refresh WHERE refresh_hash = %s", (refresh_hash,)
        ).fetchone()
        return None if row is None else str(row[0])

    def end_session(self, session_id: str) -> None:
        self._execute("DELETE FROM sessions WHERE id = %s", (session_id,))

    def end_sessions(self, account_id: str) -> int:
        cursor = self._execute("DELETE FROM sessions WHERE account_id = %s", (account_id,))
        return cursor.rowcount


def _account(row: tuple[Any, ...]) -> Account:
    account_id, name, key, password_hash, status, created = row
    return Account(account_id, name or "", key or "", password_hash or "", status, created)


def _forget_name_in_inputs(db: psycopg.Connection[Any], player_id: str) -> None:
    """As :func:`fivecrowns.storage.accounts._forget_name_in_inputs`: the stored sit and chat
    inputs say :data:`DELETED_NAME` for the player, and the chat lines become one dash."""
    rows = db.execute(
        "SELECT table_id, idx, command FROM inputs WHERE command LIKE %s",
        (f'%"{player_id}"%',),
    ).fetchall()
    for table_id, index, text in rows:
        command = json.loads(text)
        if command.get("player") != player_id or command.get("op") not in ("sit", "chat"):
            continue
        command["name"] = DELETED_NAME
        if command["op"] == "chat":
            command["text"] = "-"
        db.execute(
            "UPDATE inputs SET command = %s WHERE table_id = %s AND idx = %s",
            (json.dumps(command, ensure_ascii=False), table_id, index),
        )
