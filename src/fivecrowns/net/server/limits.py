"""What one game server allows: message sizes and rates, connections, tables, spectators, waits;
and :class:`Bucket`, the token bucket that keeps a rate."""

from __future__ import annotations

import time
from dataclasses import dataclass

from fivecrowns.net.protocol import MAX_MESSAGE_BYTES

__all__ = ["Bucket", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server allows; ``fivecrowns serve`` options change some of them."""

    max_message: int = MAX_MESSAGE_BYTES  # bytes in one client message; more is refused
    hard_max_message: int = 65536  # bigger frames close the connection (aiohttp's own limit)
    rate: float = 20.0  # messages per second per connection, on average
    burst: int = 40  # messages a connection may send at once
    max_connections: int = 2500
    # why 20: a household or a LAN party behind one address, each with a reconnect or two;
    # one address could hold every slot before. 0: no limit
    max_per_address: int = 20  # connections at once from one address
    hello_deadline: float = 10.0  # seconds a new WebSocket has to say hello
    # seconds a connection has to send its whole HTTP request (slowloris); also how long an
    # idle HTTP keep-alive connection stays open (aiohttp's keepalive_timeout does both)
    request_deadline: float = 10.0
    max_tables: int = 1000
    # why: one client made the server's every table in a second; a player sits at one table at
    # a time, so 3 open tables they made leave room to make another after leaving one
    max_tables_per_player: int = 3  # open tables one player made
    # open tables made from one address; off with max_per_address 0 (behind a proxy)
    max_tables_per_address: int = 10
    max_spectators: int = 50  # per table
    # pages of other origins whose WebSockets are let in besides the server's own page
    # (``serve --allow-origin``; "*" for any: net/server/origins.py)
    allowed_origins: tuple[str, ...] = ()
    # addresses or networks of the reverse proxy in front (``serve --trusted-proxy``): its
    # X-Forwarded-For names each client, so the limits per address hold behind it
    trusted_proxies: tuple[str, ...] = ()
    outgoing_queue: int = 5000  # frames waiting for a slow client before it is dropped
    # why 4 MiB: more than the 5,000 frames of the longest resume with words, so only a client
    # that does not read reaches it; 4 such clients hold 16 MiB, not the 300 MB each of before
    outgoing_bytes: int = 4 * 1024 * 1024  # bytes waiting for a slow client before it is dropped
    grace: float = 30.0  # seconds before a computer stands in for a dropped human
    # why longer than grace: a table whose seated players all dropped waits for them (their
    # clients keep trying for 5 minutes, a restarted one may come back later); a table whose
    # players all left is closed after the grace
    away: float = 1800.0  # seconds a table with no one connected keeps seats of dropped players
    bot_delay: float = 0.8  # seconds a computer player waits before each move
    # why: a round's end is the most there is to hear (the last turns, the scores, the new deal
    # and hand, about 30 s of speech) or read, and computer players moving on at once put a
    # screen-reader player's news 30 s behind the game; so a new round's first computer move
    # waits this many moves' time (6.4 s at 0.8 s a move; none when computers do not wait),
    # but no longer than round_pause_most (or one move's time, if that is longer)
    round_pause_moves: float = 8.0
    round_pause_most: float = 8.0
    # computer players wait for a listener who is behind (issue 25, net/server/listeners.py):
    # why these caps: a computer's move is one sentence of about 2 to 4 s of speech, and a turn
    # (a draw, perhaps a lay-down, a discard) is said in about 8 s; so a computer's move waits at
    # most listen_move seconds, and its whole turn listen_turn, for a seated player's page that
    # says its news is behind: a page saying "behind" forever slows the table, never stops it
    listen_move: float = 4.0
    listen_turn: float = 8.0
    # why 5 a second: a page says only when its queue starts and stops waiting, and paces that
    # itself (3 a second at most, web/listening.js); edges faster than this are refused
    listening_rate: float = 5.0  # "listening" messages a second from one connection
    listening_burst: int = 20
    # why per table as well as per connection: 57 connections at one table made 484 chat lines
    # a second, every one spoken to its screen-reader players
    chat_rate: float = 1.0  # chat lines a second from one connection, on average
    chat_burst: int = 5
    table_chat_rate: float = 3.0  # chat lines a second at one table, everyone together
    table_chat_burst: int = 12
    # why: every event a resume sends again is worded and encoded again (about 56 us each);
    # a client asking for the whole log in a loop took 90% of a core. A connection may be
    # sent again a game's worth of events at once, and more only as fast as this refills.
    resend_burst: int = 5000  # events one connection may be sent again at once
    resend_rate: float = 200.0  # events a second, on average


class Bucket:
    """A token bucket: ``rate`` tokens a second on average, at most ``burst`` at once."""

    __slots__ = ("_stamp", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def take(self, count: float = 1.0) -> bool:
        """Spend ``count`` tokens if there are that many; ``False`` (nothing spent) if not."""
        self._refill()
        if self._tokens < count:
            return False
        self._tokens -= count
        return True

    def wait(self, count: float) -> float:
        """Seconds until ``count`` tokens are there (``inf`` if never: more than the burst)."""
        self._refill()
        if count > self.burst:
            return float("inf")
        return max(0.0, (count - self._tokens) / self.rate) if self.rate > 0 else float("inf")
