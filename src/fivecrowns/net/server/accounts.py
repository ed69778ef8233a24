"""Accounts at the game server: sign-up, log-in, refresh, log-out, deleting one's account, and
an account's name kept its own (docs/protocol.md, docs/network.md).

- Passwords are hashed with argon2id (argon2-cffi, RFC 9106's low-memory parameters in one
  lane) in a pool of ``hashing_at_once`` threads (one core fewer than the machine has, at
  most 2), each handing its hash to a worker process at the lowest CPU priority
  (background.py), never on the event loop, which keeps a core no hash wants; at most
  ``hashing_waiting`` log-ins wait for it, and more are told the server is busy (a flood
  of log-ins cannot hold every other player's moves, nor the server's memory).
- A log-in is a session: a short-lived access token (``hello`` with ``access`` says hello as
  the account without the password) and a refresh token that is traded once for a new pair.
  A refresh token used a second time was copied: every session of the account ends, and its
  connection is told so (PlayPalace's pattern; RFC 6819 5.2.2.3).
- Log-ins and sign-ups are limited per address and per name (sliding windows).
- A wrong password and an unknown account get the same sentence, after the same work (an
  unknown name is checked against a hash made for nothing); only sign-up says a name is taken.
- No password, hash or token is ever logged or put in a sentence.

Handling a sign-up or a log-in awaits the hash, so it runs as a task; the server's other
messages are still handled whole, without awaiting (app.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

from argon2.exceptions import InvalidHashError, VerificationError

from fivecrowns.i18n import N_, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import (
    PROTOCOL_VERSION,
    AccountPending,
    AccountTokens,
    DeleteAccount,
    Error,
    Hello,
    LoggedOut,
    LogIn,
    LogOut,
    Refresh,
    SignUp,
)
from fivecrowns.net.server.background import QuietHasher, hashing_workers, needs_rehash
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.lobby import WRONG_VERSION, Lobby
from fivecrowns.storage.accounts import (
    Account,
    AccountStore,
    NameTakenError,
    Session,
    Status,
    forget_name_in_history,
)
from fivecrowns.storage.history import HistoryWriter
from fivecrowns.table import TableError
from fivecrowns.words.text import name_key, name_refusal

__all__ = ["AccountRules", "Accounts", "Attempts", "SignUpMode"]

log = logging.getLogger(__name__)

SignUpMode = Literal["open", "approval", "closed"]

NO_MATCH = N_("That name and password do not match an account here.")
NAME_TAKEN = N_("That name is taken; choose another.")
NAME_OWNED = N_("That name belongs to an account here; log in to use it, or choose another name.")
TOO_MANY = N_("Too many log-ins and sign-ups at once; wait a minute and try again.")
BUSY = N_("The server is busy with other log-ins; try again in a moment.")
SIGN_UP_CLOSED = N_("This server takes no new accounts; play as a guest, or log in.")
PENDING = N_("This account waits for the server's operator to approve it.")
PENDING_MADE = N_(
    "Your account {name} is made. It waits for the server's operator to approve it; "
    "log in once they have. Meanwhile you may play as a guest under another name."
)
DISABLED = N_("This account is disabled; ask the server's operator.")
SHORT_PASSWORD = N_("A password needs at least {count} characters; choose a longer one.")
LONG_PASSWORD = N_(
    "A password has at most {count} bytes (about {count} letters without accents); "
    "choose a shorter one."
)
UNKNOWN_LOGIN = N_("That log-in is not known here, or it has ended; log in again.")
EXPIRED_ACCESS = N_("That log-in has expired; refresh it, or log in again.")
REPLAYED = N_(
    "An old log-in of this account was used again, so someone may have copied it. The account "
    "is logged out everywhere; log in again with your password."
)
LOGGED_OUT = N_("You are logged out.")
LOGGED_OUT_EVERYWHERE = N_("You are logged out on every device.")
NOT_LOGGED_IN = N_("You are not logged in to an account on this connection.")
ALREADY_IN = N_("You have already said hello on this connection; log out first.")
IN_PROGRESS = N_("Wait for the answer to your log-in first.")
LEAVE_FIRST = N_("Leave your table first.")
WRONG_PASSWORD = N_("That is not this account's password; nothing was deleted.")
DELETED = N_(
    "Your account is deleted: its name, password and log-ins are gone, and its past games "
    "name a deleted player."
)


@dataclass(frozen=True, slots=True)
class AccountRules:
    """What the server allows of accounts; ``fivecrowns serve`` options change some."""

    sign_up: SignUpMode = "open"  # or new accounts wait for approval, or none are made
    access_seconds: int = 15 * 60  # an access token's life
    refresh_seconds: int = 30 * 24 * 3600  # a refresh token's life, if it is not used
    # argon2 hashes at once (threads and worker processes); each takes 64 MiB. None: one
    # core fewer than the machine has, at most 2 (background.py: a core left to the moves)
    hashing_at_once: int | None = None
    hashing_waiting: int = 64  # log-ins waiting for a hash; more are told the server is busy
    window: float = 60.0  # seconds of the rate limits below
    # why 30: a household or a club behind one address logs in together
    per_address: int = 30  # log-ins and sign-ups per address per window
    per_name: int = 5  # log-ins and sign-ups per name per window
    min_password: int = 8  # characters
    # why 256: argon2 takes up to 4 GiB, but each byte costs hashing time; no typed
    # password is this long
    max_password_bytes: int = 256


class Attempts:
    """A sliding window: at most ``most`` attempts per key in ``window`` seconds."""

    def __init__(self, most: int, window: float, keys_at_most: int = 100_000) -> None:
        self.most = most
        self.window = window
        self.keys_at_most = keys_at_most
        self._times: dict[str, deque[float]] = {}

    def allow(self, key: str, now: float) -> bool:
        if len(self._times) >= self.keys_at_most:
            self._prune(now)
        times = self._times.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.most:
            return False
        times.append(now)
        return True

    def _prune(self, now: float) -> None:
        self._times = {k: t for k, t in self._times.items() if t and t[-1] > now - self.window}
        if len(self._times) >= self.keys_at_most:
            # why: only a flood from many addresses gets here; forgetting is better than
            # refusing everyone or growing without bound
            self._times.clear()


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """The server's accounts: each handler takes one client message (app.py hands them on)."""

    def __init__(
        self,
        store: AccountStore,
        lobby: Lobby,
        rules: AccountRules | None = None,
        clock: Callable[[], float] = time.time,
        history: HistoryWriter | None = None,
    ) -> None:
        self.store = store
        self.history = history  # the server's history of finished games, and its writer
        self.lobby = lobby
        self.rules = rules or AccountRules()
        self.clock = clock
        at_once = self.rules.hashing_at_once or hashing_workers()
        self._workers = QuietHasher(at_once)  # argon2id, in worker processes
        self._hasher = self._workers  # why apart: a test may count the hashes through its own
        self._pool = ThreadPoolExecutor(at_once, "argon2")
        self._waiting = 0
        self._by_address = Attempts(self.rules.per_address, self.rules.window)
        self._by_name = Attempts(self.rules.per_name, self.rules.window)
        self._current: dict[str, str] = {}  # account id: the session of its newest log-in
        self._busy: set[Connection] = set()  # connections whose log-in awaits its hash
        self._tasks: set[asyncio.Task[None]] = set()
        self._work: dict[Connection, asyncio.Task[None]] = {}  # each log-in's task, by its conn
        # the hash an unknown name's password is checked on, made once (a task all wait for)
        self._nothing: asyncio.Future[Any] | None = None

    def logging_in(self, conn: Connection) -> bool:
        """``conn``'s log-in or sign-up waits for its hash (its hello is on its way)."""
        return conn in self._busy

    def gone(self, conn: Connection) -> None:
        """``conn`` ended: its log-in, if one waits for a hash, is cancelled, and the hash
        with it if it has not started (a flood that hangs up leaves no work behind)."""
        task = self._work.pop(conn, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._workers.close()
        for task in self._tasks:
            task.cancel()

    # --- hello: guests may not take an account's name -------------------------------------

    def hello(self, conn: Connection, message: Hello) -> None:
        if conn in self._busy:
            raise TableError("busy", _(IN_PROGRESS))
        if conn.player is not None or message.v != PROTOCOL_VERSION:
            self.lobby.hello(conn, message)  # why: it says what is wrong
            return
        if message.access is not None:
            session = self._session(message.access)
            account = self._usable(session.account_id)
            self.lobby.hello(conn, message, (account.id, account.name))
            self._current[account.id] = session.id
            return
        if message.token is not None:
            record = self.lobby.by_token.get(_sha(message.token))
            if record is not None and self._is_account(record.id):
                self._usable(record.id)  # why: a disabled account's seat token is refused too
            # why: a guest who had this name before it was an account's keeps it no longer
            elif record is not None and self._owned(record.name):
                raise TableError("name_owned", _(NAME_OWNED))
        elif self._owned(message.name):
            raise TableError("name_owned", _(NAME_OWNED))
        self.lobby.hello(conn, message)

    def _owned(self, name: str) -> bool:
        return self.store.account_by_key(name_key(" ".join(name.split()))) is not None

    def _is_account(self, player_id: str) -> bool:
        return self.store.account(player_id) is not None

    def _session(self, access: str) -> Session:
        session = self.store.session_by_access(_sha(access))
        if session is None:
            raise TableError("bad_access", _(UNKNOWN_LOGIN))
        if session.access_expires <= self.clock():
            raise TableError("access_expired", _(EXPIRED_ACCESS))
        return session

    def _usable(self, account_id: str) -> Account:
        account = self.store.account(account_id)
        if account is None or account.status == "deleted":
            raise TableError("bad_access", _(UNKNOWN_LOGIN))
        if account.status == "pending":
            raise TableError("pending", _(PENDING))
        if account.status == "disabled":
            self.store.end_sessions(account.id)
            raise TableError("disabled", _(DISABLED))
        return account

    # --- sign-up and log-in -------------------------------------------------------------------

    def sign_up(self, conn: Connection, message: SignUp) -> None:
        self._before_hello(conn, message.v)
        if self.rules.sign_up == "closed":
            raise TableError("sign_up_closed", _(SIGN_UP_CLOSED))
        name = " ".join(message.name.split())
        self._within_limits(conn, name)
        refusal = name_refusal(name) if name else _("Every player needs a name.")
        if refusal is not None:
            raise TableError("bad_name", refusal)
        self._password_fits(message.password, sign_up=True)
        key = name_key(name)
        if self.store.account_by_key(key) is not None or self._guest_holds(key):
            raise TableError("name_taken", _(NAME_TAKEN))
        self._start(conn, self._make_account(conn, message, name, key), message.language)

    async def _make_account(self, conn: Connection, message: SignUp, name: str, key: str) -> None:
        password_hash = await self._in_pool(self._hasher.hash, message.password)
        account_id = secrets.token_hex(8)
        status: Status = "pending" if self.rules.sign_up == "approval" else "active"
        account = Account(account_id, name, key, password_hash, status, self.clock())
        try:
            self.store.add_account(account)
        except NameTakenError:  # why: another sign-up took it while this one was hashed
            raise TableError("name_taken", _(NAME_TAKEN)) from None
        log.info("A new account was made (%s)", account_id)
        if account.status == "pending":
            conn.send(AccountPending(name, _(PENDING_MADE).format(name=name)))
            return
        self._log_in_as(conn, account, message.language)

    def log_in(self, conn: Connection, message: LogIn) -> None:
        self._before_hello(conn, message.v)
        name = " ".join(message.name.split())
        self._within_limits(conn, name)
        self._password_fits(message.password, sign_up=False)
        account = self.store.account_by_key(name_key(name))
        self._start(conn, self._check_log_in(conn, message, account), message.language)

    async def _check_log_in(
        self, conn: Connection, message: LogIn, account: Account | None
    ) -> None:
        if account is None or not account.password_hash:
            # why the same work as a real check: the time taken says nothing either
            await self._verify(await self._nothing_hash(), message.password)
            raise TableError("no_match", _(NO_MATCH))
        if not await self._verify(account.password_hash, message.password):
            raise TableError("no_match", _(NO_MATCH))
        self._log_in_as(conn, self._usable(account.id), message.language)
        if needs_rehash(account.password_hash):
            self._later(self._rehash(account, message.password))

    async def _rehash(self, account: Account, password: str) -> None:
        """Hash the password again with today's settings, for an account whose hash an older
        server made (4 lanes): its next log-ins take one thread, not four. Best effort: a busy
        pool or a failed write leaves the old hash, which still verifies."""
        if self._waiting:  # why: a log-in waiting for a hash goes first; the next one renews
            return
        try:
            new = await self._in_pool(self._hasher.hash, password)
            self.store.set_password_hash(account.id, account.password_hash, new)
        except Exception:  # why: the player is already logged in; the next log-in tries again
            log.info("A password hash could not be renewed (%s)", account.id, exc_info=True)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of its own, kept until done (a log-in does not wait for it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _log_in_as(self, conn: Connection, account: Account, language: Any) -> None:
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        session = self._new_session(secrets.token_hex(16), account.id, access, refresh)
        self.store.add_session(session)
        conn.send(AccountTokens(account.name, access, refresh, self.rules.access_seconds))
        hello = Hello(v=PROTOCOL_VERSION, name=account.name, language=language)
        self.lobby.hello(conn, hello, (account.id, account.name))
        self._current[account.id] = session.id

    def _new_session(self, session_id: str, account_id: str, access: str, refresh: str) -> Session:
        now = self.clock()
        return Session(
            session_id,
            account_id,
            _sha(access),
            now + self.rules.access_seconds,
            _sha(refresh),
            now + self.rules.refresh_seconds,
        )

    def _before_hello(self, conn: Connection, version: int) -> None:
        if conn in self._busy:
            raise TableError("busy", _(IN_PROGRESS))
        if conn.player is not None:
            raise TableError("already_hello", _(ALREADY_IN))
        if version != PROTOCOL_VERSION:
            text = _(WRONG_VERSION).format(version=PROTOCOL_VERSION, asked=version)
            raise TableError("version", text)

    def _within_limits(self, conn: Connection, name: str) -> None:
        now = time.monotonic()
        by_address = self._by_address.allow(conn.address, now)
        # why both counted even when one refuses: a refused flood still spends its budget
        by_name = self._by_name.allow(name_key(name), now)
        if not (by_address and by_name):
            raise TableError("too_many_log_ins", _(TOO_MANY))

    def _password_fits(self, password: str, sign_up: bool) -> None:
        most = self.rules.max_password_bytes
        if len(password.encode()) > most:
            text = _(LONG_PASSWORD).format(count=most)
            raise TableError("password_too_long", text)
        least = self.rules.min_password
        if sign_up and len(password) < least:
            text = _(SHORT_PASSWORD).format(count=least)
            raise TableError("password_too_short", text)

    def _guest_holds(self, key: str) -> bool:
        """A guest connected or seated now plays under a name with this key."""
        return any(
            (record.conn is not None or record.table_id is not None)
            and name_key(record.name) == key
            and not self._is_account(record.id)
            for record in self.lobby.players.values()
        )

    # --- hashing, off the event loop --------------------------------------------------------

    async def _in_pool(self, work: Callable[..., Any], *args: Any) -> Any:
        if self._waiting >= self.rules.hashing_waiting:
            raise TableError("busy", _(BUSY))
        self._waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        finally:
            self._waiting -= 1

    async def _verify(self, password_hash: str, password: str) -> bool:
        def check() -> bool:
            try:
                return bool(self._hasher.verify(password_hash, password))
            except (VerificationError, InvalidHashError):
                return False

        result: bool = await self._in_pool(check)
        return result

    async def _nothing_hash(self) -> str:
        made = self._nothing
        # why one task for all: a flood's first log-ins of unknown names each made their own,
        # and the hashes they waited for were twice the work of the flood itself
        if made is None or (made.done() and (made.cancelled() or made.exception() is not None)):
            work = self._in_pool(self._hasher.hash, secrets.token_urlsafe(16))
            made = self._nothing = asyncio.ensure_future(work)
        return str(await asyncio.shield(made))

    def _start(self, conn: Connection, work: Coroutine[Any, Any, None], language: str) -> None:
        """Run ``work`` for ``conn`` as a task, its sentences in ``language``; its refusal is
        an ``error``."""
        self._busy.add(conn)

        async def run() -> None:
            # why here: a task's language is its own (a context variable), whatever others do
            with speaking(language):
                try:
                    await work
                except TableError as error:
                    conn.send(Error(error.code, str(error)))
                except Exception:  # why: one bad log-in must not end the server; it is logged
                    log.exception("A log-in could not be handled")
                    text = _("The server could not do that; it has been logged.")
                    conn.send(Error("internal", text))
                finally:
                    self._busy.discard(conn)
                    self._work.pop(conn, None)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        self._work[conn] = task
        task.add_done_callback(self._tasks.discard)

    # --- refresh, log-out, deleting -------------------------------------------------------

    def refresh(self, conn: Connection, message: Refresh) -> None:
        hashed = _sha(message.refresh)
        session = self.store.session_by_refresh(hashed)
        if session is None:
            owner = self.store.used_refresh(hashed)
            if owner is not None:
                log.warning("A used refresh token came again: account %s logged out", owner)
                self.log_out_everywhere(owner, REPLAYED)
                raise TableError("refresh_reused", _(REPLAYED))
            raise TableError("bad_refresh", _(UNKNOWN_LOGIN))
        if session.refresh_expires <= self.clock():
            self.store.end_session(session.id)
            raise TableError("bad_refresh", _(UNKNOWN_LOGIN))
        account = self._usable(session.account_id)
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        new = self._new_session(session.id, account.id, access, refresh)
        self.store.rotate(session, new, self.clock())
        conn.send(AccountTokens(account.name, access, refresh, self.rules.access_seconds))

    def log_out(self, conn: Connection, message: LogOut) -> None:
        account_id = self._logged_in(conn)
        if message.everywhere:
            self.log_out_everywhere(account_id, LOGGED_OUT_EVERYWHERE)
            return
        session_id = self._current.pop(account_id, None)
        if session_id is None:
            # why everywhere: after a restart the server no longer knows which log-in gave this
            # connection its seat, and leaving one logged in would be worse
            self.store.end_sessions(account_id)
        else:
            self.store.end_session(session_id)
        self._forget(account_id, LOGGED_OUT)

    def log_out_everywhere(self, account_id: str, why: str) -> None:
        """End every session of the account, and close its connection saying ``why``."""
        self.store.end_sessions(account_id)
        self._current.pop(account_id, None)
        self._forget(account_id, why)

    def _forget(self, account_id: str, why: str) -> None:
        record = self.lobby.players.get(account_id)
        if record is None:
            return
        self.lobby.forget_token(record)
        conn = record.conn
        if conn is not None:
            with speaking(conn.language):
                conn.close_saying(LoggedOut(_(why)))

    def _logged_in(self, conn: Connection) -> str:
        player = conn.player
        if player is None or not self._is_account(player.id):
            raise TableError("not_logged_in", _(NOT_LOGGED_IN))
        if conn.room is not None:
            raise TableError("at_table", _(LEAVE_FIRST))
        return player.id

    def delete(self, conn: Connection, message: DeleteAccount) -> None:
        account_id = self._logged_in(conn)
        if conn in self._busy:
            raise TableError("busy", _(IN_PROGRESS))
        self._password_fits(message.password, sign_up=False)
        self._start(conn, self._delete(conn, account_id, message.password), conn.language)

    async def _delete(self, conn: Connection, account_id: str, password: str) -> None:
        account = self.store.account(account_id)
        if account is None or not await self._verify(account.password_hash, password):
            raise TableError("wrong_password", _(WRONG_PASSWORD))
        if conn.room is not None:  # why again: the player may have sat down meanwhile
            raise TableError("at_table", _(LEAVE_FIRST))
        self.store.delete_account(account_id)
        if self.history is not None:
            name = account.name
            # why the history's thread: the file is rewritten, off the event loop, and never
            # while a finished game's record is appended (HistoryWriter)
            forgotten = self.history.run(lambda path: forget_name_in_history(path, name))
            with contextlib.suppress(OSError):  # why: a full disk must not stop the server
                await asyncio.wrap_future(forgotten)
        self._current.pop(account_id, None)
        record = self.lobby.players.pop(account_id, None)
        if record is not None:
            self.lobby.by_token.pop(record.token_hash, None)
        log.info("An account was deleted (%s)", account_id)
        conn.close_saying(LoggedOut(_(DELETED)))
