"""A lease in Redis with an epoch (who owns the tables now), and a pub/sub listener that
comes back after Redis restarts.

A :class:`Lease` is one Redis key, held by one process at a time for ``ttl`` seconds and
renewed well before that. Each time it is taken it gets a new *epoch*, one more than any
before (a Redis counter), so an owner that lost it (paused, cut off) can be told apart from
the owner after it: the store refuses writes of an older epoch (fencing,
:mod:`fivecrowns.net.server.cluster`). Taking, renewing and giving up are each one Lua script,
so no two processes can both believe they took it.

:class:`Listener` follows one pub/sub channel. redis-py's asyncio pub/sub does not subscribe
again by itself when its connection drops (redis-py issue 2089: ``get_message`` raises, or
waits for ever on a dead socket); the listener catches the drop, waits a moment and
subscribes again, bounded in tries, so a restarted Redis is heard again.

Needs the ``cluster`` extra (redis-py); nothing here is imported without ``--bus``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from redis import asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["Holder", "Lease", "Listener", "connect"]

log = logging.getLogger(__name__)

#: What a lost connection to Redis looks like to redis-py (and to the socket beneath it).
DROPS = (RedisConnectionError, RedisTimeoutError, OSError)

# KEYS[1] the lease, KEYS[2] its epoch counter; ARGV[1] who (without the epoch), ARGV[2] ttl ms,
# ARGV[3] the floor: the new epoch is past it. Returns the new epoch, or 0 if another holds it.
_TAKE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local epoch = redis.call('INCR', KEYS[2])
if epoch <= tonumber(ARGV[3]) then
  epoch = tonumber(ARGV[3]) + 1
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], epoch .. ' ' .. ARGV[1], 'PX', ARGV[2])
return epoch
"""
# KEYS[1] the lease, KEYS[2] its epoch counter; ARGV[1] the whole value held, ARGV[2] ttl ms,
# ARGV[3] its epoch. Returns 1 if still ours (and renewed). Why the second case: a holder late
# to renew (a pause, a loaded machine) finds the key expired; if the counter still ends at its
# epoch nobody took the lease since, so no newer owner exists and it holds it again (it
# stopped instead, and with the other processes dead or paused, nobody served the tables).
_RENEW = """
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if held == false and redis.call('GET', KEYS[2]) == ARGV[3] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_GIVE_UP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def connect(url: str) -> aioredis.Redis:
    """A Redis client for ``url`` (redis://host:port/db or unix:///path), answers as text;
    short timeouts, so a Redis that is gone is noticed within a lease's time."""
    client: aioredis.Redis = aioredis.Redis.from_url(
        url, decode_responses=True, socket_timeout=2.0, socket_connect_timeout=2.0
    )
    return client


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lease: its epoch, the holder's name, the address it serves on and, if it
    gave one, where on its machine it takes handed-off sockets (handoff.py's ``Offer``)."""

    epoch: int
    name: str
    address: str
    offer: str = ""

    @classmethod
    def parse(cls, value: str) -> Holder | None:
        parts = value.split(" ", 3)
        if len(parts) < 3 or not parts[0].isdigit():
            return None
        return cls(int(parts[0]), parts[1], parts[2], parts[3] if len(parts) == 4 else "")


class Lease:
    """The lease ``key`` in ``redis``, taken by ``name`` (serving at ``address``, then after a
    space what else the others must know of it) for ``ttl`` seconds at a time."""

    def __init__(
        self, redis: aioredis.Redis, key: str, name: str, address: str, ttl: float
    ) -> None:
        self.redis = redis
        self.key = key
        self.name = name
        self.address = address
        self.ttl_ms = max(1, round(ttl * 1000))
        self.epoch = 0  # why 0: no epoch is 0, so a lease not taken matches nothing

    @property
    def value(self) -> str:
        return f"{self.epoch} {self.name} {self.address}"

    async def take(self, floor: int = 0) -> bool:
        """Take the lease if nobody holds it; its new epoch, past ``floor`` and every epoch
        before, is then :attr:`epoch`."""
        who = f"{self.name} {self.address}"
        epoch = int(
            await self.redis.eval(_TAKE, 2, self.key, self.key + ":epoch", who, self.ttl_ms, floor)
        )
        if epoch:
            self.epoch = epoch
        return bool(epoch)

    async def renew(self) -> bool:
        """Keep the lease another ``ttl``; False if it is no longer ours: another took it
        (even one who let it go since). Expired with nobody taking it since, it is ours again."""
        if not self.epoch:
            return False
        kept = await self.redis.eval(
            _RENEW, 2, self.key, self.key + ":epoch", self.value, self.ttl_ms, self.epoch
        )
        return bool(int(kept))

    async def give_up(self) -> None:
        """Let another take the lease at once (a clean stop), if it is still ours."""
        if self.epoch:
            await self.redis.eval(_GIVE_UP, 1, self.key, self.value)

    async def holder(self) -> Holder | None:
        """Who holds the lease now, if anyone."""
        value = await self.redis.get(self.key)
        return None if value is None else Holder.parse(str(value))


class Listener:
    """Calls ``on_message`` with each message published on ``channel``, subscribing again
    after a drop (issue 2089), at most ``tries`` times in a row without a message between."""

    def __init__(
        self,
        redis: aioredis.Redis,
        channel: str,
        on_message: Callable[[str], Awaitable[None] | None],
        pause: float = 0.2,
        tries: int = 1000,
    ) -> None:
        self.redis = redis
        self.channel = channel
        self.on_message = on_message
        self.pause = pause
        self.tries = tries
        self.subscribed = asyncio.Event()  # set each time a subscription is confirmed
        self.subscriptions = 0  # how many times it subscribed (1 + the times it came back)

    async def run(self) -> None:
        """Listen until cancelled, or until ``tries`` drops in a row."""
        failures = 0
        while failures < self.tries:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                await self._listen(pubsub)
            except DROPS as error:
                failures += 1
                self.subscribed.clear()
                log.info("The bus dropped (%s); subscribing again", error)
                await asyncio.sleep(self.pause)
            else:
                failures = 0
            finally:
                # why reset, not close, and suppressed: the connection is dead anyway, and a
                # fresh PubSub (a fresh connection) is made for the next subscription
                with contextlib.suppress(*DROPS):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
        log.warning("The bus could not be reached %d times in a row; not listening", self.tries)

    async def _listen(self, pubsub: Any) -> None:
        for _message in range(10**12):  # why bounded: every loop is; this one by a count
            # why a timeout: a dead socket is then found by the next ping, not waited on
            message = await pubsub.get_message(timeout=1.0)
            if message is None:
                await pubsub.ping()
                continue
            if message["type"] == "subscribe":
                self.subscriptions += 1
                self.subscribed.set()
            elif message["type"] == "message":
                result = self.on_message(str(message["data"]))
                if result is not None:
                    await result
