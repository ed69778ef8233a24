"""Where the game server keeps friends, blocks and private messages, behind a small interface.

:class:`FriendStore` is all the server uses (:mod:`fivecrowns.net.server.friends`), so a
shared database can implement it. Two stores: :class:`SqlFriends` (in the server's SQLite
file, tables made by a step of :mod:`fivecrowns.storage.migrations`, or in PostgreSQL) and
:class:`MemoryFriends` (``fivecrowns serve`` without a data folder). Everything is keyed by
account id, never by name: a name is looked up in the account store when it is said, so a
deleted account's name is gone from here too.

- a friend request: who asked whom (one row until it is accepted or declined);
- a friendship: kept both ways (one row for each side), so each side's list is one lookup;
- a block: who will not hear from whom;
- a private message kept for an account that was away: its inbox, read once (and then gone);
- a table's ban: a player its creator removed and will not have sit there again (kept until
  the table closes, over a restart of the server).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Protocol

from fivecrowns.storage.sql import Sql, SqliteSql

__all__ = ["FriendStore", "MemoryFriends", "PrivateMessage", "SqlFriends", "SqliteFriends"]


@dataclass(frozen=True, slots=True)
class PrivateMessage:
    sender: str  # account id
    recipient: str  # account id
    text: str
    sent: float  # seconds since the epoch


class FriendStore(Protocol):
    def ask(self, asker: str, asked: str, now: float) -> None:
        """Keep ``asker``'s request to be ``asked``'s friend (asking again changes nothing)."""
        ...

    def asked(self, asker: str, asked: str) -> bool:
        """``asker`` asked ``asked`` to be friends, and it is not answered yet."""
        ...

    def asking(self, account_id: str) -> list[str]:
        """Who asks ``account_id`` to be friends, oldest first."""
        ...

    def asks_of(self, account_id: str) -> list[str]:
        """Whom ``account_id`` asked, not answered yet, oldest first."""
        ...

    def drop_request(self, asker: str, asked: str) -> None: ...

    def befriend(self, one: str, other: str, now: float) -> None:
        """Make the two friends, and drop any request between them."""
        ...

    def unfriend(self, one: str, other: str) -> None: ...

    def are_friends(self, one: str, other: str) -> bool: ...

    def friends(self, account_id: str) -> list[str]:
        """``account_id``'s friends, oldest friendship first."""
        ...

    def block(self, blocker: str, blocked: str, now: float) -> None:
        """``blocker`` hears no more from ``blocked``: any friendship or request between the
        two ends too."""
        ...

    def unblock(self, blocker: str, blocked: str) -> None: ...

    def blocks(self, blocker: str, blocked: str) -> bool: ...

    def blocked_by(self, blocker: str) -> list[str]:
        """Whom ``blocker`` blocks, oldest first."""
        ...

    def keep_message(self, message: PrivateMessage) -> None:
        """Put a message in its recipient's inbox."""
        ...

    def inbox_size(self, account_id: str) -> int: ...

    def take_inbox(self, account_id: str) -> list[PrivateMessage]:
        """The inbox, oldest first, and empty it (each message is told once)."""
        ...

    def forget(self, account_id: str) -> None:
        """Drop everything about the account (its account is deleted)."""
        ...

    # a table's bans: the players its creator removed and will not have sit there again
    # (a guest too: a ban is of a player's id, not an account's); kept over a restart
    def ban(self, table_id: str, player_id: str, now: float) -> None: ...

    def banned(self, table_id: str, player_id: str) -> bool: ...

    def forget_table(self, table_id: str) -> None:
        """The table closed: its bans are of no use any more."""
        ...

    def forget_finished_tables(self) -> None:
        """Forget the bans of every table the store has marked finished (one that ended while
        nobody was at it, or while the server was away, is never closed, so nothing else
        would); a server calls it as it brings its tables back."""
        ...


class MemoryFriends:
    """Friends that last as long as the server process."""

    def __init__(self) -> None:
        self._requests: dict[tuple[str, str], float] = {}
        self._friends: dict[tuple[str, str], float] = {}
        self._blocks: dict[tuple[str, str], float] = {}
        self._inbox: dict[str, list[PrivateMessage]] = {}
        self._bans: dict[tuple[str, str], float] = {}

    def ask(self, asker: str, asked: str, now: float) -> None:
        self._requests.setdefault((asker, asked), now)

    def asked(self, asker: str, asked: str) -> bool:
        return (asker, asked) in self._requests

    def asking(self, account_id: str) -> list[str]:
        return [a for (a, b) in self._requests if b == account_id]

    def asks_of(self, account_id: str) -> list[str]:
        return [b for (a, b) in self._requests if a == account_id]

    def drop_request(self, asker: str, asked: str) -> None:
        self._requests.pop((asker, asked), None)

    def befriend(self, one: str, other: str, now: float) -> None:
        self.drop_request(one, other)
        self.drop_request(other, one)
        self._friends.setdefault((one, other), now)
        self._friends.setdefault((other, one), now)

    def unfriend(self, one: str, other: str) -> None:
        self._friends.pop((one, other), None)
        self._friends.pop((other, one), None)

    def are_friends(self, one: str, other: str) -> bool:
        return (one, other) in self._friends

    def friends(self, account_id: str) -> list[str]:
        return [b for (a, b) in self._friends if a == account_id]

    def block(self, blocker: str, blocked: str, now: float) -> None:
        self.unfriend(blocker, blocked)
        self.drop_request(blocker, blocked)
        self.drop_request(blocked, blocker)
        self._blocks.setdefault((blocker, blocked), now)

    def unblock(self, blocker: str, blocked: str) -> None:
        self._blocks.pop((blocker, blocked), None)

    def blocks(self, blocker: str, blocked: str) -> bool:
        return (blocker, blocked) in self._blocks

    def blocked_by(self, blocker: str) -> list[str]:
        return [b for (a, b) in self._blocks if a == blocker]

    def keep_message(self, message: PrivateMessage) -> None:
        self._inbox.setdefault(message.recipient, []).append(message)

    def inbox_size(self, account_id: str) -> int:
        return len(self._inbox.get(account_id, ()))

    def take_inbox(self, account_id: str) -> list[PrivateMessage]:
        return self._inbox.pop(account_id, [])

    def forget(self, account_id: str) -> None:
        for kept in (self._requests, self._friends, self._blocks):
            for key in [k for k in kept if account_id in k]:
                del kept[key]
        self._inbox.pop(account_id, None)
        for recipient, messages in list(self._inbox.items()):
            self._inbox[recipient] = [m for m in messages if m.sender != account_id]

    def ban(self, table_id: str, player_id: str, now: float) -> None:
        self._bans.setdefault((table_id, player_id), now)

    def banned(self, table_id: str, player_id: str) -> bool:
        return (table_id, player_id) in self._bans

    def forget_table(self, table_id: str) -> None:
        for key in [k for k in self._bans if k[0] == table_id]:
            del self._bans[key]

    def forget_finished_tables(self) -> None:
        pass  # why nothing: these bans last as long as the process, as its tables do


class SqlFriends:
    """Friends in the server's database (SQLite or PostgreSQL, :mod:`fivecrowns.storage.sql`),
    at the newest version of its migrations. Every answer is read from the database, so
    several server processes sharing it agree."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql

    def _ids(self, sql: str, value: str) -> list[str]:
        return [str(row[0]) for row in self._sql.execute(sql, (value,)).fetchall()]

    def _exists(self, sql: str, *values: str) -> bool:
        return self._sql.execute(sql, values).fetchone() is not None

    def ask(self, asker: str, asked: str, now: float) -> None:
        self._sql.execute(
            "INSERT INTO friend_requests (asker, asked, at) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (asker, asked, now),
        )

    def asked(self, asker: str, asked: str) -> bool:
        return self._exists(
            "SELECT 1 FROM friend_requests WHERE asker = ? AND asked = ?", asker, asked
        )

    def asking(self, account_id: str) -> list[str]:
        sql = "SELECT asker FROM friend_requests WHERE asked = ? ORDER BY at"
        return self._ids(sql, account_id)

    def asks_of(self, account_id: str) -> list[str]:
        sql = "SELECT asked FROM friend_requests WHERE asker = ? ORDER BY at"
        return self._ids(sql, account_id)

    def drop_request(self, asker: str, asked: str) -> None:
        self._sql.execute(
            "DELETE FROM friend_requests WHERE asker = ? AND asked = ?", (asker, asked)
        )

    def befriend(self, one: str, other: str, now: float) -> None:
        friend = (
            "INSERT INTO friends (account_id, friend_id, since) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING"
        )
        self._in_one(
            ("DELETE FROM friend_requests WHERE asker = ? AND asked = ?", (one, other)),
            ("DELETE FROM friend_requests WHERE asker = ? AND asked = ?", (other, one)),
            (friend, (one, other, now)),
            (friend, (other, one, now)),
        )

    def unfriend(self, one: str, other: str) -> None:
        self._sql.execute(
            "DELETE FROM friends WHERE (account_id = ? AND friend_id = ?)"
            " OR (account_id = ? AND friend_id = ?)",
            (one, other, other, one),
        )

    def are_friends(self, one: str, other: str) -> bool:
        return self._exists(
            "SELECT 1 FROM friends WHERE account_id = ? AND friend_id = ?", one, other
        )

    def friends(self, account_id: str) -> list[str]:
        return self._ids(
            "SELECT friend_id FROM friends WHERE account_id = ? ORDER BY since", account_id
        )

    def block(self, blocker: str, blocked: str, now: float) -> None:
        self._in_one(
            (
                "DELETE FROM friends WHERE (account_id = ? AND friend_id = ?)"
                " OR (account_id = ? AND friend_id = ?)",
                (blocker, blocked, blocked, blocker),
            ),
            (
                "DELETE FROM friend_requests WHERE (asker = ? AND asked = ?)"
                " OR (asker = ? AND asked = ?)",
                (blocker, blocked, blocked, blocker),
            ),
            (
                "INSERT INTO blocks (blocker, blocked, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (blocker, blocked, now),
            ),
        )

    def unblock(self, blocker: str, blocked: str) -> None:
        self._sql.execute(
            "DELETE FROM blocks WHERE blocker = ? AND blocked = ?", (blocker, blocked)
        )

    def blocks(self, blocker: str, blocked: str) -> bool:
        return self._exists(
            "SELECT 1 FROM blocks WHERE blocker = ? AND blocked = ?", blocker, blocked
        )

    def blocked_by(self, blocker: str) -> list[str]:
        return self._ids("SELECT blocked FROM blocks WHERE blocker = ? ORDER BY at", blocker)

    def keep_message(self, message: PrivateMessage) -> None:
        self._sql.execute(
            "INSERT INTO private_messages (recipient, sender, text, sent) VALUES (?, ?, ?, ?)",
            (message.recipient, message.sender, message.text, message.sent),
        )

    def inbox_size(self, account_id: str) -> int:
        row = self._sql.execute(
            "SELECT count(*) FROM private_messages WHERE recipient = ?", (account_id,)
        ).fetchone()
        return 0 if row is None else int(row[0])

    def take_inbox(self, account_id: str) -> list[PrivateMessage]:
        # why DELETE ... RETURNING: one statement reads and empties the inbox, so a message kept
        # meanwhile is either taken now or stays for next time, never lost unread
        rows = self._sql.execute(
            "DELETE FROM private_messages WHERE recipient = ?"
            " RETURNING id, sender, recipient, text, sent",
            (account_id,),
        ).fetchall()
        return [PrivateMessage(*row[1:]) for row in sorted(rows)]

    def forget(self, account_id: str) -> None:
        self._in_one(
            ("DELETE FROM friend_requests WHERE asker = ? OR asked = ?", (account_id,) * 2),
            ("DELETE FROM friends WHERE account_id = ? OR friend_id = ?", (account_id,) * 2),
            ("DELETE FROM blocks WHERE blocker = ? OR blocked = ?", (account_id,) * 2),
            ("DELETE FROM private_messages WHERE recipient = ? OR sender = ?", (account_id,) * 2),
        )

    def ban(self, table_id: str, player_id: str, now: float) -> None:
        self._sql.execute(
            "INSERT INTO table_bans (table_id, player_id, at) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (table_id, player_id, now),
        )

    def banned(self, table_id: str, player_id: str) -> bool:
        return self._exists(
            "SELECT 1 FROM table_bans WHERE table_id = ? AND player_id = ?", table_id, player_id
        )

    def forget_table(self, table_id: str) -> None:
        self._sql.execute("DELETE FROM table_bans WHERE table_id = ?", (table_id,))

    def forget_finished_tables(self) -> None:
        # why TRUE: PostgreSQL's finished is a boolean, SQLite's an integer that TRUE equals
        self._sql.execute(
            "DELETE FROM table_bans WHERE table_id IN (SELECT id FROM tables WHERE finished = TRUE)"
        )

    def _in_one(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        """Run ``statements`` in one transaction (all of them, or none)."""
        with self._sql.transaction():
            for sql, values in statements:
                self._sql.execute(sql, values)


class SqliteFriends(SqlFriends):
    """Friends in the server's SQLite file, through its connection (in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__(SqliteSql(db))
