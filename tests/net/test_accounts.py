"""The server's accounts in process: the sliding windows of the limits, and argon2 kept off the
event loop with a bound on how many hashes run and wait at once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from fivecrowns.net.server.accounts import AccountRules, Accounts, Attempts
from fivecrowns.storage.accounts import MemoryAccounts
from fivecrowns.table import TableError


def test_attempts_are_limited_per_key_in_a_sliding_window() -> None:
    attempts = Attempts(2, 60.0)
    assert attempts.allow("ann", 0.0) and attempts.allow("ann", 1.0)
    assert not attempts.allow("ann", 2.0)
    assert attempts.allow("bob", 2.0)  # another key has its own
    assert not attempts.allow("ann", 59.0)
    assert attempts.allow("ann", 60.5)  # the first try has left the window


def test_attempts_keep_a_bounded_number_of_keys() -> None:
    attempts = Attempts(1, 60.0, keys_at_most=100)
    for number in range(1000):
        attempts.allow(f"name {number}", float(number) / 1000)
        assert len(attempts._times) <= 101


def test_hashing_runs_in_threads_at_most_so_many_at_once_and_too_many_waiting_are_busy() -> None:
    rules = AccountRules(hashing_at_once=2, hashing_waiting=4)
    accounts = Accounts(MemoryAccounts(), None, rules)  # type: ignore[arg-type]
    release = threading.Event()
    running: list[int] = []
    most = [0]
    lock = threading.Lock()
    loop_thread: list[int] = []

    def work() -> int:
        with lock:
            running.append(1)
            most[0] = max(most[0], len(running))
        release.wait(10)
        with lock:
            running.pop()
        return threading.get_ident()

    async def scenario() -> list[Any]:
        loop_thread.append(threading.get_ident())
        jobs = [asyncio.ensure_future(accounts._in_pool(work)) for _ in range(5)]
        ticks = 0
        for _tick in range(20):  # the loop goes on while the hashes are held
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 20 and not any(job.done() for job in jobs[:4])
        release.set()
        return await asyncio.gather(*jobs, return_exceptions=True)

    results = asyncio.run(scenario())
    accounts.close()
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(refused) == 1 and refused[0].code == "busy"
    assert most[0] == 2
    assert all(r != loop_thread[0] for r in results if isinstance(r, int))


def test_a_real_password_is_argon2id_and_checks() -> None:
    accounts = Accounts(MemoryAccounts(), None)  # type: ignore[arg-type]

    async def scenario() -> tuple[str, bool, bool]:
        hashed = str(await accounts._in_pool(accounts._hasher.hash, "a long pass phrase"))
        right = await accounts._verify(hashed, "a long pass phrase")
        wrong = await accounts._verify(hashed, "A long pass phrase")
        return hashed, right, wrong

    hashed, right, wrong = asyncio.run(scenario())
    accounts.close()
    assert hashed.startswith("$argon2id$") and right and not wrong


@pytest.mark.parametrize("password", ["x" * 257, "é" * 129])
def test_a_password_over_256_bytes_is_refused_before_any_hash(password: str) -> None:
    accounts = Accounts(MemoryAccounts(), None)  # type: ignore[arg-type]
    with pytest.raises(TableError) as refused:
        accounts._password_fits(password, sign_up=False)
    accounts.close()
    assert refused.value.code == "password_too_long"
    assert password not in str(refused.value)


class _Conn:
    def __init__(self, address: str) -> None:
        self.address = address


def test_log_ins_are_limited_per_address_whatever_the_names() -> None:
    accounts = Accounts(MemoryAccounts(), None, AccountRules(per_address=3, per_name=100))  # type: ignore[arg-type]
    here, there = _Conn("192.0.2.1"), _Conn("192.0.2.2")
    for number in range(3):
        accounts._within_limits(here, f"name {number}")  # type: ignore[arg-type]
    with pytest.raises(TableError) as refused:
        accounts._within_limits(here, "another name")  # type: ignore[arg-type]
    assert refused.value.code == "too_many_log_ins"
    accounts._within_limits(there, "another name")  # type: ignore[arg-type]
    accounts.close()


def test_unknown_names_at_once_share_the_one_hash_they_are_checked_on() -> None:
    """A flood's first log-ins of unknown names made a hash each before checking on it."""
    accounts = Accounts(MemoryAccounts(), None, AccountRules(hashing_waiting=100))  # type: ignore[arg-type]
    made: list[str] = []
    hasher = accounts._hasher

    class Counting:
        def hash(self, password: str) -> str:
            made.append(password)
            return str(hasher.hash(password))

    accounts._hasher = Counting()  # type: ignore[assignment]

    async def scenario() -> list[str]:
        return list(await asyncio.gather(*(accounts._nothing_hash() for _ in range(10))))

    hashes = asyncio.run(scenario())
    again = asyncio.run(accounts._nothing_hash())
    accounts.close()
    assert len(made) == 1 and set(hashes) == {again} and again.startswith("$argon2id$")
