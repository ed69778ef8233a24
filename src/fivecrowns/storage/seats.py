"""The seats this computer holds at game servers, kept so a restarted client takes its seat back.

When ``fivecrowns join`` sits down at a table, the server's reconnection token for that seat
is written to ``seats.json`` in the user's data folder (platformdirs), keyed by the server's
address and the table. A client started again after a crash finds it and says hello with it,
and the server (the only authority) seats the player again while it still keeps the seat.
The entry is removed when the game ends, when the player leaves the table, and when the
server no longer knows the token or the seat.

A token is the secret of one seat: the file is readable by its owner only (0600), and a
token is never said, shown, logged or sent anywhere but to the server that gave it.
A file that cannot be read is kept aside (``seats-damaged-DATE.json``) with one sentence,
never a traceback, and a new one is started.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

import msgspec

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.atomic import atomic_write_text

__all__ = ["FORGOTTEN", "NO_LONGER_KEPT", "TAKING_BACK", "SavedSeat", "SavedSeats", "seats_path"]

FILE_NAME = "seats.json"
#: Seats kept at most (the oldest go first); far more than anyone plays at once.
MAX_SEATS = 50
#: A bigger file is not a file this game wrote.
MAX_BYTES = 64 * 1024

DAMAGED = N_(
    "The file of seats to take back, {path}, could not be read ({why}), so no seat is "
    "taken back this time; it was kept as {aside}."
)
DAMAGED_NOT_KEPT = N_(
    "The file of seats to take back, {path}, could not be read ({why}), so no seat is "
    "taken back this time."
)
NOT_A_FILE = N_(
    "The file of seats to take back, {path}, is not an ordinary file, so no seat is taken "
    "back this time; it was left as it is."
)
NOT_KEPT = N_(
    "Your seat could not be written down for a restart of this client ({why}); the game goes on."
)
TAKING_BACK = N_("You still have a seat at table {table} here; taking it back.")
NO_LONGER_KEPT = N_("The server no longer keeps your seat at table {table}.")
FORGOTTEN = N_("The server no longer knows your seat; joining again as a new player.")


def seats_path() -> Path:
    """``seats.json`` in the user's data folder."""
    from fivecrowns.storage.paths import data_dir

    return data_dir() / FILE_NAME


class _Seat(msgspec.Struct, frozen=True):
    server: str
    table: str
    name: str
    token: str


class _File(msgspec.Struct):
    seats: list[_Seat] = msgspec.field(default_factory=list)
    version: int = 1


# why made at import: msgspec builds a Struct's type information on its first use, and two
# threads making that first use at once can crash the interpreter (net/protocol.py says more)
_FILE_DECODER = msgspec.json.Decoder(_File)


@dataclass(frozen=True)
class SavedSeat:
    """One seat kept for a restart: the server's address, the table, the player's name
    (two players of one account on one computer keep two seats) and the seat's token."""

    server: str
    table: str
    name: str
    token: str

    def __repr__(self) -> str:  # why: a token must never reach a log or a traceback's text
        return f"SavedSeat(server={self.server!r}, table={self.table!r}, name={self.name!r})"


class SavedSeats:
    """The seats file. Every method is safe to call: a problem becomes :attr:`problems`
    (whole sentences for the player, each told once), never an exception."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else seats_path()
        self.problems: list[str] = []
        self._broken_write = False

    def take_problems(self) -> list[str]:
        problems, self.problems = self.problems, []
        return problems

    def find(self, server: str, name: str) -> SavedSeat | None:
        """The newest seat ``name`` keeps at ``server``, if any."""
        for seat in reversed(self._read()):
            if (seat.server, seat.name) == (server, name):
                return SavedSeat(seat.server, seat.table, seat.name, seat.token)
        return None

    def keep(self, server: str, table: str, name: str, token: str) -> None:
        """Write down ``name``'s seat at ``table`` of ``server`` (the newest last)."""
        key = (server, table, name)
        seats = [s for s in self._read() if (s.server, s.table, s.name) != key]
        if self._broken_write:
            return
        seats.append(_Seat(server, table, name, token))
        self._write(seats[-MAX_SEATS:])

    def forget(self, server: str, table: str, name: str) -> None:
        """Remove ``name``'s seat at ``table`` of ``server``, if it is kept."""
        if not self.path.exists():
            return
        seats = self._read()
        kept = [s for s in seats if (s.server, s.table, s.name) != (server, table, name)]
        if len(kept) != len(seats):
            self._write(kept)

    # --- the file -----------------------------------------------------------------------

    def _read(self) -> list[_Seat]:
        try:
            data = _read_regular(self.path)
        except FileNotFoundError:
            return []
        except _NotAFile:
            self._broken_write = True  # why: what is not a file of ours is never replaced
            text = _(NOT_A_FILE).format(path=self.path)
            if text not in self.problems:
                self.problems.append(text)
            return []
        except OSError as error:
            self._damaged(error.strerror or type(error).__name__, move=False)
            self._broken_write = True  # why: a file that could not be read is not written over
            return []
        try:
            if len(data) > MAX_BYTES:
                raise msgspec.ValidationError(_("it is too big"))
            return list(_FILE_DECODER.decode(data).seats)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
            self._damaged(str(error)[:80], move=True)
            return []

    def _damaged(self, why: str, *, move: bool) -> None:
        if move:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            names = [f"seats-damaged-{stamp}.json"]
            names += [f"seats-damaged-{stamp}-{n}.json" for n in range(2, 100)]
            aside = next(
                (self.path.with_name(n) for n in names if not self.path.with_name(n).exists()),
                self.path.with_name(names[-1]),
            )
            try:
                if aside.exists():
                    raise FileExistsError(aside)
                os.replace(self.path, aside)  # why aside: nothing that could not be read is lost
            except OSError:
                move = False
                self._broken_write = True
        if move:
            text = _(DAMAGED).format(path=self.path, why=why, aside=aside.name)
        else:
            text = _(DAMAGED_NOT_KEPT).format(path=self.path, why=why)
        if text not in self.problems:
            self.problems.append(text)

    def _write(self, seats: list[_Seat]) -> None:
        if self._broken_write:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not seats:
                with contextlib.suppress(FileNotFoundError):
                    self.path.unlink()
                return
            text = msgspec.json.encode(_File(seats)).decode()
            atomic_write_text(self.path, text)  # a temporary file made 0600, then renamed
            os.chmod(self.path, 0o600)  # why again: the token is a secret of the seat
        except OSError as error:
            self.problems.append(_(NOT_KEPT).format(why=error.strerror or type(error).__name__))
            self._broken_write = True


class _NotAFile(Exception):
    """The seats path is a named pipe, a device, a socket or a folder: not a file we wrote."""


def _read_regular(path: Path) -> bytes:
    """At most ``MAX_BYTES + 1`` bytes of ``path``, if it is an ordinary file.

    why O_NONBLOCK and fstat: opening a named pipe for reading waits for a writer for ever,
    and a device may never end; the open does not wait, and the check is on what was opened
    (no race with a rename between a check and the open)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):  # why its own error: the sentence says the folder's strerror
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise _NotAFile(path)
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return stream.read(MAX_BYTES + 1)
    finally:
        os.close(fd)
