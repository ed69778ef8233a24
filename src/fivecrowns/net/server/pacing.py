"""What happens at the game server's tables without a message from anyone: computer players
move, one paced move at a time; a computer stands in for a human whose connection dropped,
after the grace; and a sweep closes the tables nobody is at any more.

Every change at a table goes through :meth:`Pacing.change`, so whichever computer player is
to move next is woken by it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from typing import TypeVar

from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.listeners import Listeners
from fivecrowns.net.server.rooms import Room, Rooms
from fivecrowns.table import Entry, SeatKind

__all__ = ["SWEEPS", "Pacing"]

log = logging.getLogger(__name__)

SWEEPS = 10_000_000  # passes of the sweep at most (years of a server's life at 5 s a pass)

T = TypeVar("T")


class Pacing:
    """The computer players, the stand-ins and the sweep of every table in ``rooms``.

    ``publish`` sends a table's new entries to everyone there; ``close`` takes a table out
    of the server (both are the server's)."""

    def __init__(
        self,
        rooms: Rooms,
        limits: Limits,
        publish: Callable[[Room, list[Entry]], None],
        close: Callable[[Room], None],
    ) -> None:
        self._rooms = rooms
        self._limits = limits
        self._publish = publish
        self._close = close
        self._stopping = False
        # seated players' pages whose news is behind hold the computers (issue 25)
        self.listeners = Listeners(limits.listen_move, limits.listen_turn)

    def change(self, room: Room, command: Callable[[], T]) -> T:
        """Run one table command; send its new entries to everyone there; pace the bots.

        Returns what the command returns."""
        before = room.table.seq
        result = command()
        entries = room.table.entries_since(before)
        if entries:
            self._publish(room, entries)
            self.kick(room)
        return result

    # --- computer players ---------------------------------------------------------------

    def start(self) -> None:
        """Wake the computer players of every table (at start-up, after a restart)."""
        for room in self._rooms.values():
            self.kick(room)

    def kick(self, room: Room) -> None:
        """Make sure a computer player due to move at ``room`` will."""
        if room.table.bot_due() is None:
            return
        task = room.bot_task
        if task is not None and not task.done():
            return
        room.bot_task = asyncio.ensure_future(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        turn_of: tuple[int, int] | None = None  # the computer's turn (round, seat) waited in
        waited = 0.0  # seconds it waited for listeners
        # why bounded: a game has at most a few thousand moves; the loop ends when no bot is due
        for _step in range(100_000):
            if room.table.bot_due() is None or room.id not in self._rooms:
                return
            await asyncio.sleep(self._delay(room))
            game, seat = room.table.game, room.table.bot_due()
            # why not at --bot-delay 0: computers that do not wait (tests, benchmarks) never do
            if self._limits.bot_delay > 0 and game is not None and seat is not None:
                if turn_of != (game.round, seat):
                    turn_of, waited = (game.round, seat), 0.0
                most = min(self._limits.listen_move, self._limits.listen_turn - waited)
                waited += await self.listeners.wait(room, most)
            turn = room.table.bot_turn()
            if turn is None:
                continue
            # why a thread: a hard bot thinks for up to ~40 ms, which on the event
            # loop would hold up every other table; the view it reads is a frozen snapshot, and
            # the GIL's switch interval (5 ms) keeps the loop answering meanwhile
            decided = await asyncio.to_thread(turn.decide)
            if room.id not in self._rooms:
                return
            before = room.table.seq
            try:
                room.table.play_bot(turn, decided)
            except Exception:  # why: log it and stop this table's bots, never the server
                log.exception("A computer player could not move at table %s", room.id)
                return
            entries = room.table.entries_since(before)
            if entries:
                self._publish(room, entries)

    def _delay(self, room: Room) -> float:
        """How long the computer player due at ``room`` waits before its move."""
        limits = self._limits
        delay = limits.bot_delay
        if room.table.round_untouched:
            return min(delay * limits.round_pause_moves, max(delay, limits.round_pause_most))
        return delay

    # --- dropped connections and stand-ins ------------------------------------------------

    def start_grace(self, room: Room, seat: int) -> None:
        """A computer stands in at ``seat`` after the grace, unless someone is back there."""
        if room.table.is_over or not room.table.started or self._stopping:
            return
        self.end_grace(room, seat)
        loop = asyncio.get_event_loop()
        room.timers[seat] = loop.call_later(self._limits.grace, self._stand_in, room, seat)

    def dropped(self, room: Room, seat: int) -> None:
        """``seat``'s connection dropped: the grace starts, and everyone at the table is told
        at once when a computer will play for them (not 30 silent seconds later)."""
        self.listeners.wake(room)  # why: a dropped page holds the computers no more
        self.start_grace(room, seat)
        if seat in room.timers:  # why: no grace before the start, after the end, or stopping
            seconds = max(1, math.ceil(self._limits.grace))
            self.change(room, lambda: room.table.dropped(seat, seconds))

    def end_grace(self, room: Room, seat: int) -> None:
        """No stand-in for ``seat`` after all: its player is back, or left."""
        timer = room.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def _stand_in(self, room: Room, seat: int) -> None:
        room.timers.pop(seat, None)
        if room.conns.get(seat) or room.id not in self._rooms:
            return
        self.change(room, lambda: room.table.stand_in(seat))

    # --- stopping ------------------------------------------------------------------------------

    def halt(self, room: Room) -> None:
        """Nothing more happens at ``room`` by itself: no stand-in, no computer player's move."""
        for timer in room.timers.values():
            timer.cancel()
        room.timers.clear()
        if room.bot_task is not None:
            room.bot_task.cancel()

    def stop(self) -> None:
        """Halt every table, and start no grace from now on (the server is stopping)."""
        self._stopping = True
        for room in self._rooms.values():
            self.halt(room)

    # --- the sweep ---------------------------------------------------------------------------

    def sweep(self, now: float) -> list[str]:
        """Close the tables nobody is at any more; returns their ids.

        A table with no connection (no player, no spectator) is closed once it has been so
        for the grace (``limits.grace``) if none of its seats holds a person (everyone left:
        empty seats and computer players only) or its game never started, or for
        ``limits.away`` if some seated player of a started game only dropped (they may be
        reconnecting). A finished table with nobody there is forgotten at once. A closed
        table's moves stay in the store, marked finished (a restart does not bring it back);
        a finished game is already in the history.
        Bounded: one pass looks at each table once (at most ``limits.max_tables``)."""
        closed: list[str] = []
        for room in list(self._rooms.values()):
            if any(room.all_conns()):
                room.deserted_since = None
                continue
            table = room.table
            if table.is_over:
                self._close(room)
                closed.append(room.id)
                continue
            if room.deserted_since is None:
                room.deserted_since = now
                continue
            seated = any(seat.kind is SeatKind.HUMAN for seat in table.seats)
            # why not a table that never started: there is no game to come back to, and one
            # client made the server's every table that way, each kept for half an hour
            wait = self._limits.away if seated and table.started else self._limits.grace
            if now - room.deserted_since >= wait:
                self._close(room)
                closed.append(room.id)
        return closed

    async def sweeps(self) -> None:
        """Sweep the tables every few seconds (sooner with a short grace, as tests use)."""
        every = min(5.0, max(0.2, self._limits.grace / 2))
        for _pass in range(SWEEPS):
            await asyncio.sleep(every)
            try:
                self.sweep(time.monotonic())
            except Exception:  # why: a store error must not end the sweeping; the log has it
                log.exception("The tables could not be swept")
