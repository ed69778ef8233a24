"""Where the game server keeps accounts and their sessions, behind a small interface.

:class:`AccountStore` is all the server uses, so a shared database (PostgreSQL) can
implement it without touching the server. Two stores here: :class:`SqlAccounts` (in the
server's own SQLite file, next to its tables, with nothing to install; or in PostgreSQL,
:mod:`fivecrowns.storage.sql`) and :class:`MemoryAccounts` (``fivecrowns serve --memory``).
Both keep the same things:

- an account: its name, the name's key (:func:`fivecrowns.words.text.name_key`: two names
  with one key are one name), its argon2id password hash, and its status;
- a session: one log-in on one device, with the SHA-256 hashes of its short-lived access
  token and of its refresh token (the tokens themselves are never stored);
- every refresh token already used (rotated), by hash, so that a replayed one is known.

A deleted account keeps its row without name, key or hash ("a deleted player"), so game
records that name its id still read; its sessions go.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, Protocol

from fivecrowns.storage.atomic import atomic_write_text
from fivecrowns.storage.sql import Sql, SqliteSql
from fivecrowns.words.text import name_key

__all__ = [
    "DELETED_NAME",
    "Account",
    "AccountStore",
    "MemoryAccounts",
    "NameTakenError",
    "Session",
    "SqlAccounts",
    "SqliteAccounts",
    "Status",
    "find_account",
    "forget_name_in_history",
]

#: The name a deleted account's games keep, in every stored record (not translated: records
#: are data; a front end may word it).
DELETED_NAME = "a deleted player"

Status = Literal["active", "pending", "disabled", "deleted"]


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    name_key: str
    password_hash: str
    status: Status
    created: float


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    account_id: str
    access_hash: str
    access_expires: float
    refresh_hash: str
    refresh_expires: float


class NameTakenError(Exception):
    """Another account has a name with the same key."""


class AccountStore(Protocol):
    def add_account(self, account: Account) -> None:
        """Keep a new account; :class:`NameTakenError` if its name's key is taken."""
        ...

    def account(self, account_id: str) -> Account | None: ...

    def account_by_key(self, name_key: str) -> Account | None: ...

    def accounts(self) -> list[Account]:
        """Every account not deleted, oldest first."""
        ...

    def set_status(self, account_id: str, status: Status) -> None: ...

    def set_password_hash(self, account_id: str, old: str, new: str) -> bool:
        """Store ``new`` as the account's password hash if it is still ``old`` (the same
        password, hashed with newer settings); whether it was stored."""
        ...

    def delete_account(self, account_id: str) -> None:
        """Forget the account's name, key, hash, sessions and rating, and its name in the
        stored games (each now says :data:`DELETED_NAME`); its id stays for those records."""
        ...

    def add_session(self, session: Session) -> None: ...

    def session_by_access(self, access_hash: str) -> Session | None: ...

    def session_by_refresh(self, refresh_hash: str) -> Session | None: ...

    def rotate(self, old: Session, new: Session, now: float) -> None:
        """Replace ``old`` by ``new`` (same id), keeping ``old``'s refresh hash as used."""
        ...

    def used_refresh(self, refresh_hash: str) -> str | None:
        """The account whose refresh token this was, if it was already used."""
        ...

    def end_session(self, session_id: str) -> None: ...

    def end_sessions(self, account_id: str) -> int:
        """End every session of the account (logged out everywhere); how many there were."""
        ...


class MemoryAccounts:
    """Accounts that last as long as the server process. ``forget_rating`` drops a deleted
    account's rating from the ratings kept beside them (the SQL stores do it in SQL)."""

    def __init__(self, forget_rating: Callable[[str], None] | None = None) -> None:
        self._forget_rating = forget_rating
        self._accounts: dict[str, Account] = {}
        self._sessions: dict[str, Session] = {}
        self._used: dict[str, str] = {}

    def add_account(self, account: Account) -> None:
        if self.account_by_key(account.name_key) is not None:
            raise NameTakenError(account.name_key)
        self._accounts[account.id] = account

    def account(self, account_id: str) -> Account | None:
        return self._accounts.get(account_id)

    def account_by_key(self, name_key: str) -> Account | None:
        for account in self._accounts.values():
            if account.status != "deleted" and account.name_key == name_key:
                return account
        return None

    def accounts(self) -> list[Account]:
        return [a for a in self._accounts.values() if a.status != "deleted"]

    def set_status(self, account_id: str, status: Status) -> None:
        if account_id in self._accounts:
            self._accounts[account_id] = replace(self._accounts[account_id], status=status)

    def set_password_hash(self, account_id: str, old: str, new: str) -> bool:
        account = self._accounts.get(account_id)
        if account is None or account.password_hash != old or not old:
            return False
        self._accounts[account_id] = replace(account, password_hash=new)
        return True

    def delete_account(self, account_id: str) -> None:
        if account_id in self._accounts:
            self._accounts[account_id] = Account(
                account_id, "", "", "", "deleted", self._accounts[account_id].created
            )
        self.end_sessions(account_id)
        self._used = {h: a for h, a in self._used.items() if a != account_id}
        if self._forget_rating is not None:
            self._forget_rating(account_id)

    def add_session(self, session: Session) -> None:
        self._sessions[session.id] = session

    def session_by_access(self, access_hash: str) -> Session | None:
        return next((s for s in self._sessions.values() if s.access_hash == access_hash), None)

    def session_by_refresh(self, refresh_hash: str) -> Session | None:
        return next((s for s in self._sessions.values() if s.refresh_hash == refresh_hash), None)

    def rotate(self, old: Session, new: Session, now: float) -> None:
        self._used[old.refresh_hash] = old.account_id
        self._sessions[new.id] = new

    def used_refresh(self, refresh_hash: str) -> str | None:
        return self._used.get(refresh_hash)

    def end_session(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)

    def end_sessions(self, account_id: str) -> int:
        mine = [key for key, s in self._sessions.items() if s.account_id == account_id]
        for key in mine:
            del self._sessions[key]
        return len(mine)


_ACCOUNT_COLUMNS = "id, name, name_key, password_hash, status, created"
_SESSION_COLUMNS = "id, account_id, access_hash, access_expires, refresh_hash, refresh_expires"


class SqlAccounts:
    """Accounts in the server's database (SQLite or PostgreSQL, :mod:`fivecrowns.storage.sql`),
    brought to the newest version by its migrations.

    Every answer is read from the database, so an operator's command run beside the server
    (``fivecrowns accounts disable``), or another server process sharing it, counts from the
    next log-in."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql

    def add_account(self, account: Account) -> None:
        try:
            self._sql.execute(
                f"INSERT INTO accounts ({_ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    account.id,
                    account.name,
                    account.name_key,
                    account.password_hash,
                    account.status,
                    account.created,
                ),
            )
        except self._sql.unique_violation:
            raise NameTakenError(account.name_key) from None

    def _one_account(self, where: str, value: str) -> Account | None:
        row = self._sql.execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE {where} = ?", (value,)
        ).fetchone()
        return None if row is None else _account(row)

    def account(self, account_id: str) -> Account | None:
        return self._one_account("id", account_id)

    def account_by_key(self, name_key: str) -> Account | None:
        return self._one_account("name_key", name_key)

    def accounts(self) -> list[Account]:
        rows = self._sql.execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE status != 'deleted' ORDER BY created"
        ).fetchall()
        return [_account(row) for row in rows]

    def set_status(self, account_id: str, status: Status) -> None:
        self._sql.execute("UPDATE accounts SET status = ? WHERE id = ?", (status, account_id))

    def set_password_hash(self, account_id: str, old: str, new: str) -> bool:
        changed = self._sql.execute(
            "UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?",
            (new, account_id, old),
        )
        return bool(changed.rowcount == 1)

    def delete_account(self, account_id: str) -> None:
        sql = self._sql
        with sql.transaction():
            sql.execute(
                "UPDATE accounts SET name = NULL, name_key = NULL, password_hash = NULL,"
                " status = 'deleted' WHERE id = ?",
                (account_id,),
            )
            sql.execute("DELETE FROM sessions WHERE account_id = ?", (account_id,))
            sql.execute("DELETE FROM used_refresh WHERE account_id = ?", (account_id,))
            # why in this transaction: a process dying between the two cannot leave it on the
            # leaderboard
            sql.execute("DELETE FROM ratings WHERE player_id = ?", (account_id,))
            # why token_hash too: the old token must not take the seat back as anyone
            sql.execute(
                "UPDATE players SET name = ?, token_hash = 'deleted:' || id WHERE id = ?",
                (DELETED_NAME, account_id),
            )
            sql.execute(
                "UPDATE tables SET creator_name = ? WHERE creator_id = ?",
                (DELETED_NAME, account_id),
            )
            _forget_name_in_inputs(sql, account_id)

    def add_session(self, session: Session) -> None:
        self._sql.execute(
            f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
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
        row = self._sql.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {where} = ?", (value,)
        ).fetchone()
        return None if row is None else Session(*row)

    def session_by_access(self, access_hash: str) -> Session | None:
        return self._one_session("access_hash", access_hash)

    def session_by_refresh(self, refresh_hash: str) -> Session | None:
        return self._one_session("refresh_hash", refresh_hash)

    def rotate(self, old: Session, new: Session, now: float) -> None:
        sql = self._sql
        with sql.transaction():
            sql.execute(
                "INSERT INTO used_refresh (refresh_hash, account_id, used) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (old.refresh_hash, old.account_id, now),
            )
            sql.execute(
                "UPDATE sessions SET access_hash = ?, access_expires = ?, refresh_hash = ?,"
                " refresh_expires = ? WHERE id = ?",
                (
                    new.access_hash,
                    new.access_expires,
                    new.refresh_hash,
                    new.refresh_expires,
                    old.id,
                ),
            )

    def used_refresh(self, refresh_hash: str) -> str | None:
        row = self._sql.execute(
            "SELECT account_id FROM used_refresh WHERE refresh_hash = ?", (refresh_hash,)
        ).fetchone()
        return None if row is None else str(row[0])

    def end_session(self, session_id: str) -> None:
        self._sql.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def end_sessions(self, account_id: str) -> int:
        return self._sql.execute(
            "DELETE FROM sessions WHERE account_id = ?", (account_id,)
        ).rowcount


class SqliteAccounts(SqlAccounts):
    """Accounts in the server's SQLite file, through its connection (in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__(SqliteSql(db))


def find_account(store: AccountStore, name: str) -> Account | None:
    """The account named ``name`` (as two names are compared: case, accents, look-alikes)."""
    return store.account_by_key(name_key(" ".join(name.split())))


def forget_name_in_history(path: Path, name: str) -> int:
    """Write :data:`DELETED_NAME` for ``name`` (compared by :func:`name_key`) in every game
    of the history file ``path`` (a server's ``history.jsonl``); how many games named it.

    why by name: a history record keeps names only; while the account lived, nobody else could
    play under its name, so the games that name it are its own (or, before it was made, a
    guest's of that name, whose name goes too: forgetting more is the safe side)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return 0
    key = name_key(name)
    changed = 0
    kept: list[str] = []
    for line in lines:
        try:
            record = json.loads(line)
            players = record["players"]
            mine = [isinstance(p, str) and name_key(p) == key for p in players]
        except (ValueError, KeyError, TypeError):
            kept.append(line)  # why: a damaged or other record stays as it was
            continue
        if any(mine):
            record["players"] = [
                DELETED_NAME if m else p for p, m in zip(players, mine, strict=True)
            ]
            line = json.dumps(record)
            changed += 1
        kept.append(line)
    if changed:
        atomic_write_text(path, "\n".join(kept) + "\n")
    return changed


def _account(row: tuple[str, str | None, str | None, str | None, Status, float]) -> Account:
    account_id, name, key, password_hash, status, created = row
    return Account(account_id, name or "", key or "", password_hash or "", status, created)


def _forget_name_in_inputs(sql: Sql, player_id: str) -> None:
    """The stored inputs of every table (sitting down, chat) say :data:`DELETED_NAME` for the
    player, and their chat lines are emptied to one dash (what they said is theirs)."""
    rows = sql.execute(
        "SELECT table_id, idx, command FROM inputs WHERE command LIKE ?",
        (f'%"{player_id}"%',),
    ).fetchall()
    for table_id, index, text in rows:
        command = json.loads(text)
        if command.get("player") != player_id or command.get("op") not in ("sit", "chat"):
            continue
        command["name"] = DELETED_NAME
        if command["op"] == "chat":
            command["text"] = "-"
        sql.execute(
            "UPDATE inputs SET command = ? WHERE table_id = ? AND idx = ?",
            (json.dumps(command, ensure_ascii=False), table_id, index),
        )
