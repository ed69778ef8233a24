"""Friends in PostgreSQL: :class:`fivecrowns.storage.friends.FriendStore` for a server whose
tables are in PostgreSQL (:mod:`fivecrowns.net.server.pgstore`).

The same rows and the same behaviour as :class:`fivecrowns.storage.friends.SqliteFriends`, in
PostgreSQL's SQL, through the store's connection (psycopg 3, autocommit). Every answer is read
from the database, so several server processes sharing it agree.
"""

from __future__ import annotations

from typing import Any

import psycopg

from fivecrowns.storage.friends import PrivateMessage

__all__ = ["PgFriends"]


class PgFriends:
    """Friends in the server's PostgreSQL database. ``connect`` gives the store's open
    connection (why a function: the store opens a new one when its connection was lost)."""

    def __init__(self, connect: Any) -> None:
        self._connect = connect

    def _execute(self, sql: str, values: tuple[object, ...] = ()) -> psycopg.Cursor[Any]:
        db: psycopg.Connection[Any] = self._connect()
        return db.execute(sql, values)

    def _ids(self, sql: str, value: str) -> list[str]:
        return [str(row[0]) for row in self._execute(sql, (value,)).fetchall()]

    def _exists(self, sql: str, *values: str) -> bool:
        return self._execute(sql, values).fetchone() is not None

    def _in_one(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        """Run ``statements`` in one transaction (all of them, or none)."""
        db: psycopg.Connection[Any] = self._connect()
        with db.transaction():
            for sql, values in statements:
                db.execute(sql, values)

    def ask(self, asker: str, asked: str, now: float) -> None:
        self._execute(
            "INSERT INTO friend_requests (asker, asked, at) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (asker, asked, now),
        )

    def asked(self, asker: str, asked: str) -> bool:
        return self._exists(
            "SELECT 1 FROM friend_requests WHERE asker = %s AND asked = %s", asker, asked
        )

    def asking(self, account_id: str) -> list[str]:
        sql = "SELECT asker FROM friend_requests WHERE asked = %s ORDER BY at"
        return self._ids(sql, account_id)

    def asks_of(self, account_id: str) -> list[str]:
        sql = "SELECT asked FROM friend_requests WHERE asker = %s ORDER BY at"
        return self._ids(sql, account_id)

    def drop_request(self, asker: str, asked: str) -> None:
        self._execute("DELETE FROM friend_requests WHERE asker = %s AND asked = %s", (asker, asked))

    def befriend(self, one: str, other: str, now: float) -> None:
        friend = (
            "INSERT INTO friends (account_id, friend_id, since) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING"
        )
        self._in_one(
            ("DELETE FROM friend_requests WHERE asker = %s AND asked = %s", (one, other)),
            ("DELETE FROM friend_requests WHERE asker = %s AND asked = %s", (other, one)),
            (friend, (one, other, now)),
            (friend, (other, one, now)),
        )

    def unfriend(self, one: str, other: str) -> None:
        self._execute(
            "DELETE FROM friends WHERE (account_id = %s AND friend_id = %s)"
            " OR (account_id = %s AND friend_id = %s)",
            (one, other, other, one),
        )

    def are_friends(self, one: str, other: str) -> bool:
        return self._exists(
            "SELECT 1 FROM friends WHERE account_id = %s AND friend_id = %s", one, other
        )

    def friends(self, account_id: str) -> list[str]:
        return self._ids(
            "SELECT friend_id FROM friends WHERE account_id = %s ORDER BY since", account_id
        )

    def block(self, blocker: str, blocked: str, now: float) -> None:
        self._in_one(
            (
                "DELETE FROM friends WHERE (account_id = %s AND friend_id = %s)"
                " OR (account_id = %s AND friend_id = %s)",
                (blocker, blocked, blocked, blocker),
            ),
            (
                "DELETE FROM friend_requests WHERE (asker = %s AND asked = %s)"
                " OR (asker = %s AND asked = %s)",
                (blocker, blocked, blocked, blocker),
            ),
            (
                "INSERT INTO blocks (blocker, blocked, at) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (blocker, blocked, now),
            ),
        )

    def unblock(self, blocker: str, blocked: str) -> None:
        self._execute("DELETE FROM blocks WHERE blocker = %s AND blocked = %s", (blocker, blocked))

    def blocks(self, blocker: str, blocked: str) -> bool:
        return self._exists(
            "SELECT 1 FROM blocks WHERE blocker = %s AND blocked = %s", blocker, blocked
        )

    def blocked_by(self, blocker: str) -> list[str]:
        return self._ids("SELECT blocked FROM blocks WHERE blocker = %s ORDER BY at", blocker)

    def keep_message(self, message: PrivateMessage) -> None:
        self._execute(
            "INSERT INTO private_messages (recipient, sender, text, sent) VALUES (%s, %s, %s, %s)",
            (message.recipient, message.sender, message.text, message.sent),
        )

    def inbox_size(self, account_id: str) -> int:
        row = self._execute(
            "SELECT count(*) FROM private_messages WHERE recipient = %s", (account_id,)
        ).fetchone()
        return 0 if row is None else int(row[0])

    def take_inbox(self, account_id: str) -> list[PrivateMessage]:
        # why DELETE ... RETURNING: one statement reads and empties the inbox, so a message kept
        # meanwhile is either taken now or stays for next time, never lost unread
        rows = self._execute(
            "DELETE FROM private_messages WHERE recipient = %s"
            " RETURNING id, sender, recipient, text, sent",
            (account_id,),
        ).fetchall()
        return [PrivateMessage(*row[1:]) for row in sorted(rows)]

    def forget(self, account_id: str) -> None:
        self._in_one(
            ("DELETE FROM friend_requests WHERE asker = %s OR asked = %s", (account_id,) * 2),
            ("DELETE FROM friends WHERE account_id = %s OR friend_id = %s", (account_id,) * 2),
            ("DELETE FROM blocks WHERE blocker = %s OR blocked = %s", (account_id,) * 2),
            (
                "DELETE FROM private_messages WHERE recipient = %s OR sender = %s",
                (account_id,) * 2,
            ),
        )

    def ban(self, table_id: str, player_id: str, now: float) -> None:
        self._execute(
            "INSERT INTO table_bans (table_id, player_id, at) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (table_id, player_id, now),
        )

    def banned(self, table_id: str, player_id: str) -> bool:
        return self._exists(
            "SELECT 1 FROM table_bans WHERE table_id = %s AND player_id = %s", table_id, player_id
        )

    def forget_table(self, table_id: str) -> None:
        self._execute("DELETE FROM table_bans WHERE table_id = %s", (table_id,))
