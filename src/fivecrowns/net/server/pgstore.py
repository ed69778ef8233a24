"""The server's tables, players, inputs and accounts in PostgreSQL, shared by several processes.

:class:`PgStore` is a :class:`fivecrowns.net.server.store.Store` for
``fivecrowns serve --store postgresql://...``. It keeps what :class:`SqliteStore` keeps, with
the same behaviour (the same contract tests run on both), and is made for several server
processes writing to one database, each owning different tables:

- a table's inputs are keyed by (table, index): a second writer of an index is refused by the
  primary key, so two processes that both believe they own a table cannot both write a move
  (:class:`TableTakenError` names the tables and keeps the other tables' inputs);
- inputs wait in memory until :meth:`PgStore.flush` writes them all in one transaction; the
  server flushes before it sends any frame, so an acknowledged move is committed;
- the schema has versions (:mod:`fivecrowns.storage.pgschema`), brought up under an advisory
  lock, so processes starting together do it once.

Why psycopg 3, not asyncpg: its synchronous client fits the synchronous Store interface, and
it binds values on the client, so a flush is one query string in one round trip. Why
synchronous: the server calls flush() between a move and its answer, on its event loop; a
flush cost 0.08 ms of CPU and 0.48 ms of waiting (benchmarks/results/pgstore.txt, database
on the same machine), and moves made meanwhile share the next flush. An awaitable flush
would free that wait for other tables, at the price of changing the Store interface and the
server's order of saving and answering; left for when a database far away needs it. Why one
long-held connection, not one per flush: a new connection is a new PostgreSQL process
(milliseconds); a lost one is opened again at the next call.

Known trap (PgBouncer in transaction mode): a server-side prepared statement lives on one
server connection, and PgBouncer may give the next transaction another; psycopg prepares a
query after its fifth use, which then fails behind such a pooler ("prepared statement
\"_pg3_0\" does not exist"; psycopg issue 280, the counterpart of asyncpg's issue 945, and
PgBouncer does not announce itself). This store never prepares (``prepare_threshold=None``):
tests/net/test_pgstore.py plays behind a real PgBouncer and shows the failure with psycopg's
default. The store never LISTENs either, so psycopg's notifies() holding its connection
(psycopg issue 340) cannot stall a flush; a listener must take a connection of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.server.store import (
    StoredPlayer,
    StoredTable,
    StoreError,
    _decode_input,
    _encode,
)
from fivecrowns.storage.accounts import AccountStore
from fivecrowns.storage.friends import FriendStore
from fivecrowns.storage.ratings import RatingStore

if TYPE_CHECKING:
    import psycopg

__all__ = ["FencedOutError", "FencedPgStore", "PgStore", "StoreUnavailableError", "TableTakenError"]

NO_DRIVER = N_(
    "The PostgreSQL store needs psycopg; install it with: pip install 'fivecrowns[postgresql]'"
)
BAD_ADDRESS = N_(
    "The database address is not one PostgreSQL takes ({reason}); write it as "
    "postgresql://USER:PASSWORD@HOST:PORT/DATABASE."
)
UNREACHABLE = N_("Cannot reach the database {where}: {reason}.")

#: How long to wait for the database when connecting, unless the address says (seconds).
CONNECT_TIMEOUT = 10


class StoreUnavailableError(StoreError):
    """The database cannot be used (no driver, a bad address, unreachable); the message is
    one sentence for the operator."""


class TableTakenError(StoreError):
    """Another writer already wrote these inputs: the tables are another process's now."""

    def __init__(self, tables: list[str]) -> None:
        super().__init__(f"inputs already written by another writer: tables {', '.join(tables)}")
        self.tables = tables


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0].rstrip(".") if text else type(error).__name__


class PgStore:
    """Tables, players, inputs and accounts in one PostgreSQL database."""

    # why not wait for the disk: an fsync per move blocked the server's one thread for about
    # 5 ms (benchmarks/results/pgstore.txt). The commit is still made before the answer, so a
    # killed server or backend loses nothing, as with SQLite's synchronous=NORMAL; only a crash
    # of PostgreSQL's machine may lose the last fraction of a second. SET LOCAL: it ends with
    # the transaction, so it is right behind PgBouncer in transaction mode too.
    _commit_setting = "SET LOCAL synchronous_commit = off"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError:
            raise StoreUnavailableError(_(NO_DRIVER)) from None
        from fivecrowns.storage.pgaccounts import PgAccounts
        from fivecrowns.storage.pgfriends import PgFriends
        from fivecrowns.storage.pgratings import PgRatings
        from fivecrowns.storage.pgschema import migrate

        self._psycopg = psycopg
        try:
            params = conninfo_to_dict(url)
        except psycopg.Error as error:
            raise StoreUnavailableError(_(BAD_ADDRESS).format(reason=_first_line(error))) from None
        self._url = url
        self._timeout = {} if "connect_timeout" in params else {"connect_timeout": CONNECT_TIMEOUT}
        # why no password in it: this names the database in messages and in the log
        host = params.get("host") or "localhost"
        port = params.get("port") or "5432"
        self.where = (
            f"postgresql://{host}:{port}/{params.get('dbname') or params.get('user') or ''}"
        )
        self._db: psycopg.Connection[Any] | None = None
        db = self._connection()
        migrate(db, self.where)
        self.accounts: AccountStore = PgAccounts(self._connection)
        self.ratings: RatingStore = PgRatings(self._connection)
        self.friends: FriendStore = PgFriends(self._connection)
        self._pending: list[tuple[str, int, str]] = []

    def _connection(self) -> psycopg.Connection[Any]:
        """The open connection, or a new one if there is none or it was lost."""
        if self._db is not None and not self._db.closed and not self._db.broken:
            return self._db
        psycopg = self._psycopg
        try:
            # why prepare_threshold=None: no server-side prepared statements, which a pooler
            # in transaction mode (PgBouncer) would send to a connection that lacks them
            self._db = psycopg.connect(
                self._url, autocommit=True, prepare_threshold=None, **self._timeout
            )
        except psycopg.OperationalError as error:
            raise StoreUnavailableError(
                _(UNREACHABLE).format(where=self.where, reason=_first_line(error))
            ) from None
        except psycopg.ProgrammingError as error:
            raise StoreUnavailableError(_(BAD_ADDRESS).format(reason=_first_line(error))) from None
        return self._db

    def add_player(self, player: StoredPlayer) -> None:
        self._connection().execute(
            "INSERT INTO players (id, name, token_hash) VALUES (%s, %s, %s)"
            " ON CONFLICT (id) DO UPDATE SET name = excluded.name,"
            " token_hash = excluded.token_hash",
            (player.id, player.name, player.token_hash),
        )

    def player(self, token_hash: str) -> StoredPlayer | None:
        row = (
            self._connection()
            .execute(
                "SELECT id, name, token_hash FROM players WHERE token_hash = %s", (token_hash,)
            )
            .fetchone()
        )
        return None if row is None else StoredPlayer(*row)

    def add_table(self, table: StoredTable) -> None:
        self._connection().execute(
            "INSERT INTO tables (id, seats, creator_id, creator_name, code, private, guests,"
            " rated) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            (
                table.id,
                table.seats,
                table.creator_id,
                table.creator_name,
                table.code,
                table.private,
                table.guests,
                table.rated,
            ),
        )

    def append_input(self, table_id: str, index: int, command: dict[str, Any]) -> None:
        self._pending.append((table_id, index, _encode(command).decode()))

    def flush(self) -> None:
        """Write the kept inputs in one transaction. A failure keeps them for the next flush,
        except those another writer already wrote (:class:`TableTakenError`)."""
        if not self._pending:
            return
        rows = self._pending
        psycopg = self._psycopg
        try:
            cursor = psycopg.ClientCursor(self._connection())
            # why one string of two statements: PostgreSQL runs it as one transaction (all the
            # rows or none) in one round trip; a transaction of BEGIN, SET, INSERT and COMMIT
            # was four, and psycopg's pipeline mode cost more CPU than it saved
            # (benchmarks/results/pgstore.txt). The client binds the values (ClientCursor).
            statement, params = self._insert(rows)
            cursor.execute(f"{self._commit_setting}; {statement}", params)
            cursor.nextset()  # why: the first result is the SET's; the INSERT's count is next
            self._inserted(cursor.rowcount, rows)
        except psycopg.errors.UniqueViolation:
            taken = self._taken(rows)
            # why drop them: they can never be written, and kept they would fail every flush
            self._pending = [row for row in rows if row[0] not in taken]
            raise TableTakenError(sorted(taken)) from None
        except psycopg.OperationalError as error:  # why: the connection was lost; kept for later
            raise StoreError(_first_line(error)) from error
        self._pending = []

    def _insert(self, rows: list[tuple[str, int, str]]) -> tuple[str, list[Any]]:
        """The statement that writes ``rows``, and its values."""
        values = ", ".join(["(%s, %s, %s)"] * len(rows))
        statement = f"INSERT INTO inputs (table_id, idx, command) VALUES {values}"
        return statement, [value for row in rows for value in row]

    def _inserted(self, count: int, rows: list[tuple[str, int, str]]) -> None:
        """What the database said it wrote of ``rows``: here always all of them."""

    def _taken(self, rows: list[tuple[str, int, str]]) -> set[str]:
        """The tables among ``rows`` with an index another writer already wrote."""
        found = (
            self._connection()
            .execute(
                "SELECT DISTINCT i.table_id FROM inputs i JOIN unnest(%s::text[], %s::int[])"
                " AS k(table_id, idx) ON i.table_id = k.table_id AND i.idx = k.idx",
                ([row[0] for row in rows], [row[1] for row in rows]),
            )
            .fetchall()
        )
        return {table_id for (table_id,) in found}

    def finish_table(self, table_id: str, finished: bool = True) -> None:
        self.flush()
        self._connection().execute(
            "UPDATE tables SET finished = %s WHERE id = %s", (finished, table_id)
        )

    def load(self, most: int | None = None) -> tuple[list[StoredTable], int]:
        db = self._connection()
        rows = db.execute(
            "SELECT id, seats, creator_id, creator_name, code, private, guests, rated FROM tables"
            " WHERE NOT finished AND id NOT IN (SELECT table_id FROM set_aside) ORDER BY seq"
        ).fetchall()
        left_out = 0 if most is None else max(0, len(rows) - most)
        tables: list[StoredTable] = []
        for table_id, seats, creator_id, creator_name, code, private, guests, rated in rows[
            left_out:
        ]:
            table = StoredTable(
                table_id, seats, creator_id, creator_name, code, private, guests=guests, rated=rated
            )
            try:
                table.inputs = [
                    _decode_input(text)
                    for (text,) in db.execute(
                        "SELECT command FROM inputs WHERE table_id = %s ORDER BY idx", (table_id,)
                    ).fetchall()
                ]
            except (ValueError, TypeError) as error:  # why: one bad row must not stop the rest
                table.inputs = []
                table.damaged = f"an input is unreadable: {error}"
            tables.append(table)
        return tables, left_out

    def set_aside(self, table_id: str, why: str) -> None:
        self._connection().execute(
            "INSERT INTO set_aside (table_id, why, at) VALUES (%s, %s, now()::text)"
            " ON CONFLICT (table_id) DO UPDATE SET why = excluded.why, at = excluded.at",
            (table_id, why),
        )

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self._db is not None:
                self._db.close()


class FencedOutError(StoreError):
    """A write refused: a newer owner of the lease has written its epoch in the database."""


class FencedPgStore(PgStore):
    """A :class:`PgStore` for ``serve --bus``, whose inputs are written only by the process
    holding the newest epoch of the lease ``fence`` names (the counterpart of
    :class:`fivecrowns.net.server.cluster.FencedStore`, which fences the SQLite file).

    The epoch is checked in the same statement, so the same transaction, that writes the
    inputs: the fence's row is read ``FOR SHARE``, so a newer owner's :meth:`claim` (an update
    of that row) waits for a write under way to commit, and a write after the claim reads the
    newer epoch and writes nothing. An owner that lost its lease therefore never writes a move
    again, whatever it believes (only the inputs are fenced: a table marked finished, a new
    table or a game's ratings written before it notices are not)."""

    def __init__(self, url: str, fence: str) -> None:
        super().__init__(url)
        self.fence_name = fence
        self.epoch = 0  # why 0: no lease's epoch is 0, so an owner not yet claimed writes nothing
        # why kept: a later flush with nothing new would succeed, and the server would then send
        # the frames of the moves the refused flush held; once refused, every flush is refused
        self.fenced_out = False

    def flush(self) -> None:
        """As :meth:`PgStore.flush`; :class:`FencedOutError` once any flush was refused (the
        inputs kept meanwhile are dropped: they can never be this owner's)."""
        if self.fenced_out:
            self._pending = []
            raise FencedOutError(f"epoch {self.epoch} is no longer the newest")
        super().flush()

    def fence(self) -> int:
        """The newest epoch any owner has written (0: none yet)."""
        try:
            row = (
                self._connection()
                .execute("SELECT epoch FROM fences WHERE name = %s", (self.fence_name,))
                .fetchone()
            )
        except self._psycopg.OperationalError as error:  # why: as a lost database is told
            raise StoreError(_first_line(error)) from error
        return 0 if row is None else int(row[0])

    def claim(self, epoch: int) -> None:
        """Write ``epoch`` as the newest; :class:`FencedOutError` if a newer one (or the same)
        is there already. One statement: two processes claiming at once cannot both win."""
        try:
            cursor = self._connection().execute(
                "INSERT INTO fences (name, epoch) VALUES (%s, %s) ON CONFLICT (name) DO UPDATE"
                " SET epoch = excluded.epoch WHERE fences.epoch < excluded.epoch",
                (self.fence_name, epoch),
            )
        except self._psycopg.OperationalError as error:
            raise StoreError(_first_line(error)) from error
        if cursor.rowcount != 1:
            raise FencedOutError(f"epoch {epoch} is not newer than the database's")
        self.epoch = epoch
        self.fenced_out = False
        self._pending = []  # why: nothing kept before the claim is this owner's

    def _insert(self, rows: list[tuple[str, int, str]]) -> tuple[str, list[Any]]:
        # why the casts: the values' types are named once, so PostgreSQL reads the rows of
        # VALUES as the inputs' columns whatever the first row holds
        values = ", ".join(["(%s::text, %s::integer, %s::text)"] * len(rows))
        statement = (
            "WITH fence AS (SELECT 1 FROM fences WHERE name = %s AND epoch = %s FOR SHARE)"
            " INSERT INTO inputs (table_id, idx, command)"
            f" SELECT * FROM (VALUES {values}) AS v WHERE EXISTS (SELECT 1 FROM fence)"
        )
        return statement, [self.fence_name, self.epoch, *[value for row in rows for value in row]]

    def _inserted(self, count: int, rows: list[tuple[str, int, str]]) -> None:
        if count == len(rows):
            return
        # why drop them: a newer owner has the tables; these inputs are no longer this one's
        self._pending = []
        self.fenced_out = True
        raise FencedOutError(f"epoch {self.epoch} is no longer the newest")

    def close(self) -> None:
        try:
            self.flush()
        except FencedOutError:  # why: a fenced owner's last inputs are not its own
            pass
        finally:
            if self._db is not None:
                self._db.close()
