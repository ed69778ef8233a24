"""A log-in flood must not slow other players' moves (issue 28; benchmarks/bench_login_flood.py
measures it): argon2 runs in worker processes at the lowest CPU priority, so the event loop
runs first whenever it has work, and a log-in whose connection ended costs no hash it had not
started."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from fivecrowns.net.protocol import LogIn
from fivecrowns.net.server.accounts import AccountRules, Accounts
from fivecrowns.net.server.background import cgroup_cores, hashing_workers
from fivecrowns.storage.accounts import MemoryAccounts
from server_support import FAST, Client, ServerProcess


def test_hashes_run_in_worker_processes_at_the_lowest_cpu_priority() -> None:
    accounts = Accounts(MemoryAccounts(), None)  # type: ignore[arg-type]
    before = os.getpriority(os.PRIO_PROCESS, 0)

    async def scenario() -> tuple[str, bool, bool]:
        hashed = str(await accounts._in_pool(accounts._hasher.hash, "a long pass phrase"))
        right = await accounts._verify(hashed, "a long pass phrase")
        wrong = await accounts._verify(hashed, "A long pass phrase")
        return hashed, right, wrong

    hashed, right, wrong = asyncio.run(scenario())
    workers = accounts._workers._workers
    niceness = workers.submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=30)
    where = workers.submit(os.getpid).result(timeout=30)
    accounts.close()
    assert hashed.startswith("$argon2id$") and right and not wrong
    assert niceness == 19 and where != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, 0) == before  # the server's own, unchanged


def test_each_hash_runs_in_one_lane_and_hashes_made_with_four_still_verify() -> None:
    # why one lane: 2 workers of argon2's default 4 lanes were 8 threads on a 2-core machine,
    # and the event loop waited for a core behind them (benchmarks/results/login_flood.txt)
    accounts = Accounts(MemoryAccounts(), None)  # type: ignore[arg-type]
    old = PasswordHasher().hash("a long pass phrase")  # as the server made them before

    async def scenario() -> tuple[str, bool, bool, bool]:
        new = str(await accounts._in_pool(accounts._hasher.hash, "a long pass phrase"))
        right = await accounts._verify(old, "a long pass phrase")
        wrong = await accounts._verify(old, "A long pass phrase")
        return new, right, wrong, await accounts._verify(new, "a long pass phrase")

    new, old_right, old_wrong, new_right = asyncio.run(scenario())
    accounts.close()
    assert "$m=65536,t=3,p=4$" in old
    assert new.startswith("$argon2id$v=19$m=65536,t=3,p=1$")  # the memory and passes as before
    assert old_right and not old_wrong and new_right


def test_a_containers_cpu_limit_counts_as_its_cores(tmp_path: Path) -> None:
    """A container limited to 1.5 CPUs on a 64-core host has 1.5 cores: one hash at a time,
    as on a 2-core machine (the least limit along the cgroup path counts)."""
    root = tmp_path / "cgroup"
    place = root / "machine" / "game.scope"
    place.mkdir(parents=True)
    membership = tmp_path / "membership"
    membership.write_text("0::/machine/game.scope\n")
    assert cgroup_cores(root, membership) is None  # no cpu.max anywhere: unlimited
    (place / "cpu.max").write_text("max 100000\n")
    assert cgroup_cores(root, membership) is None
    (root / "machine" / "cpu.max").write_text("150000 100000\n")
    assert cgroup_cores(root, membership) == 1.5
    (place / "cpu.max").write_text("400000 100000\n")  # a looser limit below a stricter one
    assert cgroup_cores(root, membership) == 1.5
    (place / "cpu.max").write_text("50000 100000\n")
    assert cgroup_cores(root, membership) == 0.5
    membership.write_text("12:cpu,cpuacct:/docker/x\n")  # cgroup v1: not read
    assert cgroup_cores(root, membership) is None
    assert cgroup_cores(root, tmp_path / "absent") is None
    assert [hashing_workers(cores) for cores in (0.5, 1.5, 2.5, 3.0)] == [1, 1, 1, 2]


def test_a_core_is_left_to_the_event_loop() -> None:
    assert [hashing_workers(cores) for cores in (1, 2, 3, 4, 64)] == [1, 1, 2, 2, 2]
    accounts = Accounts(MemoryAccounts(), None)  # type: ignore[arg-type]
    accounts.close()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    limit = cgroup_cores()
    usable = min(cores or 1, limit) if limit is not None else (cores or 1)
    assert accounts._workers._count == accounts._pool._max_workers == hashing_workers()
    assert accounts._workers._count == max(1, min(2, int(usable - 1)))
    rules = AccountRules(hashing_at_once=3)  # the operator's number, if given, is kept
    accounts = Accounts(MemoryAccounts(), None, rules)  # type: ignore[arg-type]
    accounts.close()
    assert accounts._workers._count == accounts._pool._max_workers == 3


def test_a_worker_that_died_is_replaced_and_log_ins_go_on() -> None:
    accounts = Accounts(MemoryAccounts(), None)  # type: ignore[arg-type]
    hasher = accounts._workers
    first = hasher.hash("a long pass phrase")
    broken = hasher._workers
    with contextlib.suppress(BrokenProcessPool):
        broken.submit(os._exit, 1).result(timeout=30)  # a worker dies, as one killed would
    again = hasher.hash("a long pass phrase")
    assert hasher._workers is not broken
    assert hasher.verify(first, "a long pass phrase") and again.startswith("$argon2id$")
    accounts.close()


class _Conn:
    def __init__(self, address: str) -> None:
        self.address = address
        self.player = None
        self.sent: list[Any] = []

    def send(self, message: Any) -> None:
        self.sent.append(message)


def test_a_log_in_whose_connection_ended_costs_no_hash_it_had_not_started() -> None:
    rules = AccountRules(hashing_at_once=1, hashing_waiting=100, per_address=100)
    accounts = Accounts(MemoryAccounts(), None, rules)  # type: ignore[arg-type]
    hasher = accounts._hasher
    started = threading.Event()
    release = threading.Event()
    checked: list[str] = []

    class Counting:
        def hash(self, password: str) -> str:
            return str(hasher.hash(password))

        def verify(self, password_hash: str, password: str) -> bool:
            checked.append(password)
            started.set()
            release.wait(10)  # the first check holds the only thread; the others wait
            return bool(hasher.verify(password_hash, password))

    accounts._hasher = Counting()  # type: ignore[assignment]
    conns = [_Conn(f"192.0.2.{n}") for n in range(1, 6)]

    async def scenario() -> None:
        for number, conn in enumerate(conns):
            message = LogIn(v=1, name=f"Nobody {number}", password="wrong password")
            accounts.log_in(conn, message)  # type: ignore[arg-type]
        for _tick in range(500):  # bounded: the first check starts within a few seconds
            if started.is_set():
                break
            await asyncio.sleep(0.01)
        assert started.is_set()
        for conn in conns:  # every one hangs up, as a flood's connections do
            accounts.gone(conn)  # type: ignore[arg-type]
        release.set()
        for _tick in range(100):
            await asyncio.sleep(0.01)
        assert not accounts._tasks and not accounts._busy

    asyncio.run(scenario())
    accounts.close()
    assert len(checked) == 1, checked  # only the check that had started was done
    assert all(conn.sent == [] for conn in conns)  # nobody is answered: nobody is there


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads processes from /proc")
def test_the_hashing_workers_end_with_a_server_killed_at_once(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST).start()
    try:

        async def sign_up() -> None:
            ann = await Client("Ann").connect(server.url, hello=False)
            await ann.send({"type": "sign_up", "v": 1, "name": "Ann", "password": "a long one"})
            await ann.until(lambda m: m["type"] == "welcome")
            await ann.close()

        asyncio.run(sign_up())
        assert server.proc is not None
        workers = _children(server.proc.pid)
        assert workers  # the hash was made in a worker process (and its resource tracker)
        server.kill9()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in workers)
    finally:
        server.stop()
