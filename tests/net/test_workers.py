"""``fivecrowns serve --workers 2``: one front process keeps the sockets and the lobby, two
worker processes own a share of the tables each, and real clients play through the relay
(net/server/workers.py, docs/operations.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.client.websocket import CONNECTED_AGAIN
from fivecrowns.net.protocol import MAX_MESSAGE_BYTES
from join_support import Player, _play_a_turn
from pg_support import pg_url_fixture, postgres_fixture
from server_support import (
    FAST,
    Client,
    RecordingLink,
    ServerProcess,
    check_no_leak,
    no_leaks,
    play_until,
    replayed,
    run_against,
)

# why: the fixtures, imported for pytest to find
__all__ = ["pg_url_fixture", "postgres_fixture"]


@pytest.fixture(name="front")
def front_fixture(data: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(data, *FAST, "--grace", "1", "--workers", "2").start()
    yield process
    process.stop()


def _worker_of(table: str | None) -> int:
    """The worker a table id names (``int(id, 16) % 2``, as the front finds it)."""
    assert table is not None
    return int(table, 16) % 2


def _workers(pid: int) -> list[int]:
    """The worker processes ``pid`` started (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            command = (entry / "cmdline").read_bytes() if int(stat[1]) == pid else b""
            if b"fivecrowns.net.server.workers" in command:
                found.append(int(entry.name))
    return found


async def _table(
    url: str, creator: str, joiner: str, bots: tuple[str, ...] = ("easy", "simple")
) -> tuple[Client, Client]:
    """``creator`` makes a table with ``bots`` and two people; ``joiner`` sits down."""
    first, second = Client(creator), Client(joiner)
    await first.connect(url)
    await second.connect(url)
    seats = 2 + len(bots)
    await first.send({"type": "create_table", "seats": seats, "bots": list(bots)})
    await first.until(lambda m: m["type"] == "snapshot")
    await second.send({"type": "join", "table": first.table})
    await second.until(lambda m: m["type"] == "snapshot")
    return first, second


def test_two_tables_on_two_workers_play_and_each_seat_hears_only_its_own(
    front: ServerProcess, data: Path
) -> None:
    """Two tables, one on each worker, play through the front; the lobby lists both; every
    frame each player received is what their seat may know, checked against the tables as
    the store keeps them."""
    assert front.proc is not None
    assert len(_workers(front.proc.pid)) == 2  # the two workers

    async def scenario() -> None:
        ann, ben = await _table(front.url, "Ann", "Ben")
        cy, di = await _table(front.url, "Cy", "Di")
        assert {_worker_of(ann.table), _worker_of(cy.table)} == {0, 1}  # one on each
        eve = Client("Eve")
        await eve.connect(front.url)
        listing = await eve.until(lambda m: m["type"] == "tables")
        assert {table["id"] for table in listing["tables"]} == {ann.table, cy.table}
        await ann.send({"type": "start"})
        await cy.send({"type": "start"})
        players = [ann, ben, cy, di]
        await play_until(players, lambda c: c.seq >= 80)
        for first, second in ((ann, ben), (cy, di)):
            assert first.table is not None
            truth = replayed(data, first.table)
            assert truth.seq >= 80
            for client in (first, second):
                assert client.errors == [], client.errors
                moves = [e for e in client.events if e["data"].get("player") == client.seat]
                assert moves, "each player moved"
                check_no_leak(client, truth, client.seat)
                no_leaks(client.seat, [json.loads(frame) for frame in client.frames])
        for client in (*players, eve):
            await client.close()

    run_against(front, scenario)


def test_the_workers_share_a_postgresql_store_and_a_restart_finds_every_table(
    data: Path, pg_url: str
) -> None:
    """On PostgreSQL (``--store``) the workers open the same database: two tables play on
    two workers, and after a restart each player is seated at their own again."""
    options = (*FAST, "--workers", "2", "--store", pg_url)
    first = ServerProcess(data, *options).start()
    players: list[Client] = []

    async def play() -> None:
        ann, ben = await _table(first.url, "Ann", "Ben")
        cy, di = await _table(first.url, "Cy", "Di")
        assert {_worker_of(ann.table), _worker_of(cy.table)} == {0, 1}
        await ann.send({"type": "start"})
        await cy.send({"type": "start"})
        players.extend((ann, ben, cy, di))
        await play_until(players, lambda c: c.seq >= 40)
        for client in players:
            assert client.errors == [], client.errors
            await client.close()

    run_against(first, play)
    second = ServerProcess(data, *options).start()

    async def back() -> None:
        for before in players:
            client = Client(before.name)
            client.token, client.seq = before.token, before.seq
            await client.connect(second.url)
            seated = await client.until(lambda m: m["type"] in ("seated", "tables"))
            assert seated["type"] == "seated", seated
            assert (seated["table"], seated["seat"]) == (before.table, before.seat)
            await client.close()

    run_against(second, back)


def test_a_bad_or_too_big_message_at_a_worker_table_gets_its_sentence_and_changes_nothing(
    front: ServerProcess, data: Path
) -> None:
    async def scenario() -> None:
        ann, ben = await _table(front.url, "Ann", "Ben", bots=())  # why: only they move
        await ann.send({"type": "start"})
        await ann.until(lambda m: m["type"] == "snapshot" and m["view"] is not None)
        assert ann.table is not None
        before = replayed(data, ann.table).inputs
        seq = ann.seq
        bad: list[tuple[str | dict[str, Any], str]] = [
            ("{not json", "bad_message"),
            ({"type": "act", "action": "fly", "args": {}, "seq": seq}, "bad_move"),
            ({"type": "act", "action": "draw_stock", "args": {}, "extra": 1}, "bad_message"),
            ({"type": "chat", "text": "x" * (MAX_MESSAGE_BYTES + 10)}, "too_big"),
            ({"type": "no_such_thing"}, "bad_message"),
            ({"type": "join", "table": "00000000"}, "at_table"),
        ]
        for message, code in bad:
            ann.errors.clear()
            await ann.send(message)
            error = await ann.until(lambda m: m["type"] == "error")
            assert error["code"] == code or code == "bad_move", (message, error)
            assert error["text"] and error["text"][0].isupper(), error  # a sentence
        assert replayed(data, ann.table).inputs == before  # nothing changed
        assert ann.seq == seq
        await ann.send({"type": "ask", "what": "round"})
        answer = await ann.until(lambda m: m["type"] == "answer")  # the table still answers
        assert answer["text"]
        for client in (ann, ben):
            await client.close()

    run_against(front, scenario)


def test_leave_and_join_a_table_on_the_other_worker(front: ServerProcess) -> None:
    """A player leaves a table on one worker, is back in the lobby (where the front answers),
    and joins a table on the other worker, where they play."""

    async def scenario() -> None:
        ann, ben = Client("Ann"), Client("Ben")
        await ann.connect(front.url)
        await ben.connect(front.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": []})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ben.send({"type": "create_table", "seats": 2, "bots": []})
        await ben.until(lambda m: m["type"] == "snapshot")
        assert _worker_of(ann.table) != _worker_of(ben.table)
        await ann.send({"type": "mute_chat", "who": "everyone"})
        muted = await ann.until(lambda m: m["type"] == "answer")
        assert muted["text"] == "Chat is silent for you; it still comes, without words."
        await ann.send({"type": "leave"})
        await ann.until(lambda m: m["type"] == "left")
        await ann.send({"type": "list_tables"})
        listing = await ann.until(lambda m: m["type"] == "tables")
        assert ben.table in {table["id"] for table in listing["tables"]}
        await ann.send({"type": "act", "action": "draw_stock", "args": {}, "seq": 0})
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "no_table", error  # in the lobby now, at no table
        await ann.send({"type": "join", "table": ben.table})
        seated = await ann.until(lambda m: m["type"] == "seated")
        assert seated["table"] == ben.table and seated["seat"] == 1
        await ben.until(lambda m: m["type"] == "event" and m["kind"] == "seat_taken")
        await ben.send({"type": "chat", "text": "Welcome!"})
        chat = await ann.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
        assert chat["text"] == ""  # her choice went with her to the other worker's table
        await ben.send({"type": "start"})
        await play_until([ann, ben], lambda c: c.seq >= 30)
        assert [e for e in ann.events if e["data"].get("player") == 1], "Ann moved there"
        assert ann.errors == [error], ann.errors
        for client in (ann, ben):
            await client.close()

    run_against(front, scenario)


def test_a_player_back_with_a_token_takes_their_seat_at_the_worker_again(
    front: ServerProcess,
) -> None:
    """Ben's connection drops; a computer stands in; Ben connects again with his token and
    last seq: the front sends him on to the worker, where he hears every event he missed,
    in order, and plays on."""

    async def scenario() -> None:
        ann, ben = await _table(front.url, "Ann", "Ben")
        await ann.send({"type": "start"})
        await play_until([ann, ben], lambda c: c.seq >= 20)
        await ben.close()
        await play_until([ann], lambda c: c.seq >= 60)  # a computer plays Ben's seat meanwhile
        back = Client("Ben")
        back.token, back.seq = ben.token, ben.seq
        await back.connect(front.url)
        seated = await back.until(lambda m: m["type"] in ("seated", "tables"))
        assert seated["type"] == "seated", seated
        assert (seated["table"], seated["seat"]) == (ann.table, ben.seat)
        await back.until(lambda m: m["type"] == "snapshot")
        assert back.seq >= 60  # every event missed came, in order (Client.recv checks)
        await play_until([ann, back], lambda c: c.seq >= 100)
        assert [e for e in back.events if e["data"].get("player") == back.seat]
        assert back.errors == [] and ann.errors == [], (back.errors, ann.errors)
        for client in (ann, back):
            await client.close()

    run_against(front, scenario)


def _worker_pid(front: ServerProcess, index: int) -> int:
    """The process of the worker ``index`` (its command line ends with it)."""
    assert front.proc is not None
    for pid in _workers(front.proc.pid):
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
        if arguments[-1] == str(index).encode():
            return pid
    raise AssertionError(f"no worker {index}")


async def _turn_of(clients: list[Client]) -> Client:
    """The client whose turn it is, reading each one's frames until one has it."""
    for _ in range(2000):
        for client in clients:
            if client.my_turn():
                return client
        for client in clients:
            with contextlib.suppress(TimeoutError):
                await client.recv(timeout=0.05)
    raise AssertionError("nobody's turn came")


def test_a_worker_killed_is_started_again_and_its_players_play_on_unaware(
    front: ServerProcess, data: Path
) -> None:
    """kill -9 of the worker of Ann's table, where Cy watches, with a move on its way to
    it: the front starts the worker again, which brings the table back from the store, and
    puts each connection back where it was, open all along: each hears every event after
    the last it was sent, in order and none twice (Client.recv checks), no error and no new
    ``seated``; the move is sent again and made; they play on. Every event they heard is in
    the store; the other worker's table is listed all along."""

    async def scenario() -> None:
        ann, ben = await _table(front.url, "Ann", "Ben")
        other = await _table(front.url, "Di", "Ed")  # why: the other worker's table stays
        assert _worker_of(other[0].table) != _worker_of(ann.table)
        cy = Client("Cy")
        await cy.connect(front.url)
        await cy.send({"type": "watch", "table": ann.table})
        await cy.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "start"})
        await play_until([ann, ben], lambda c: c.seq >= 30)
        # a move on its way when the worker dies: stopped, it cannot have handled it
        mover = await _turn_of([ann, ben])
        pid = _worker_pid(front, _worker_of(ann.table))
        os.kill(pid, signal.SIGSTOP)
        marks = {client.name: len(client.frames) for client in (ann, ben, cy)}
        before = mover.seq
        await mover.act(mover.choose())
        await asyncio.sleep(0.3)
        os.kill(pid, signal.SIGKILL)

        async def watch() -> None:
            await cy.until(lambda m: m["type"] == "event" and m["seq"] >= 70, timeout=60)

        await asyncio.gather(play_until([ann, ben], lambda c: c.seq >= 70), watch())
        assert ann.table is not None
        truth = replayed(data, ann.table)
        # the move sent to the dead worker was sent again, and made: its events came next
        made = next(e for e in mover.events if e["seq"] == before + 1)
        assert made["data"].get("player") == mover.seat, made
        for client, seat in ((ann, ann.seat), (ben, ben.seat), (cy, None)):
            assert client.errors == [], client.errors
            after = [json.loads(frame) for frame in client.frames[marks[client.name] :]]
            assert not [f for f in after if f["type"] in ("seated", "error", "tables")], after
            check_no_leak(client, truth, seat)  # every event heard is the store's
        eve = Client("Eve")  # the lobby lists both workers' tables again
        await eve.connect(front.url)
        listing = await eve.until(lambda m: m["type"] == "tables")
        assert {table["id"] for table in listing["tables"]} == {ann.table, other[0].table}
        for client in (ann, ben, cy, *other, eve):
            await client.close()

    run_against(front, scenario)


def test_a_terminal_player_and_spectator_play_on_after_their_worker_is_killed(
    front: ServerProcess,
) -> None:
    """The terminal client (``join --keys``, its real link) needs no change behind the
    front: it plays and watches through it, and when the table's worker is killed its
    connection stays open and the game goes on; the spectator hears every move after, none
    twice."""
    ann: Player | None = None
    sam: Player | None = None
    try:
        ann = Player(front.url, "Ann")
        ann.wait(r"No open tables")
        ann.keys("c", "home", "c-m", "down", "c-m", "up", "c-m", "c-m")  # 2 seats, 1 easy
        ann.wait(r"You sit in seat 1 at table")
        ann.keys("s")
        ann.wait(r"New game: Ann and .+ \(easy\)\.")
        table = ann.link.table
        watcher = RecordingLink(front.url, "Sam")
        sam = Player(front.url, "Sam", link=watcher)
        sam.wait(rf"Table {table}, round 1")
        sam.keys("w")
        sam.wait(r"You are watching table")
        _play_a_turn(ann)
        os.kill(_worker_pid(front, _worker_of(table)), signal.SIGKILL)
        seq = watcher.last_seq()
        for _turn in range(3):
            _play_a_turn(ann)
        assert watcher.wait_for(lambda: watcher.last_seq() > seq, 20)
        seqs = [int(frame["seq"]) for frame in watcher.frames]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # nothing missed or twice
        # the connections stayed open: nothing to connect again, nothing said of it
        for player in (ann, sam):
            assert "connecting again" not in player.said(), player.said()[-500:]
            assert CONNECTED_AGAIN not in player.said()
    finally:
        for player in (ann, sam):
            if player is not None:
                player.close()


def test_a_private_table_is_joined_by_its_code_through_the_front_and_not_listed(
    front: ServerProcess,
) -> None:
    """The front finds a private table's worker by its invite code (as typed: any case,
    spaces); the lobby does not list it; a code nobody has gets its sentence."""

    async def scenario() -> None:
        ann, ben, eve = Client("Ann"), Client("Ben"), Client("Eve")
        for client in (ann, ben, eve):
            await client.connect(front.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": [], "private": True})
        await ann.until(lambda m: m["type"] == "snapshot")
        assert ann.code is not None
        await ben.send({"type": "join", "code": "zzzzz-zzzzz"})
        error = await ben.until(lambda m: m["type"] == "error")
        assert error["code"] == "no_table" and error["text"] == "No table has that invite code."
        typed = " ".join(ann.code.lower().split("-"))
        await ben.send({"type": "join", "code": typed})
        seated = await ben.until(lambda m: m["type"] == "seated")
        assert seated["table"] == ann.table and seated["seat"] == 1
        await eve.send({"type": "list_tables"})
        listing = await eve.until(lambda m: m["type"] == "tables")
        assert listing["tables"] == []
        for client in (ann, ben, eve):
            await client.close()

    run_against(front, scenario)


def test_an_account_at_a_worker_table_must_leave_before_logging_out(
    front: ServerProcess,
) -> None:
    async def scenario() -> None:
        ann = await Client("Ann").connect(front.url, hello=False)
        password = "correct horse battery"
        await ann.send({"type": "sign_up", "v": 1, "name": "Ann", "password": password})
        await ann.until(lambda m: m["type"] == "welcome")
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "snapshot")
        await ann.send({"type": "log_out"})
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "at_table" and error["text"] == "Leave your table first."
        await ann.send({"type": "leave"})
        await ann.until(lambda m: m["type"] == "left")
        await ann.send({"type": "log_out"})
        await ann.until(lambda m: m["type"] == "logged_out")
        await ann.close()

    run_against(front, scenario)


def test_workers_cannot_go_with_memory(tmp_path: Path) -> None:
    process = ServerProcess(None, "--workers", "2")
    with pytest.raises(AssertionError):
        process.start()
    assert "--memory" in process.stop()


def test_an_open_table_comes_back_on_its_worker_after_a_restart(data: Path) -> None:
    """A restarted front starts its workers, and each brings back its own tables: the lobby
    lists them all again."""
    first = ServerProcess(data, *FAST, "--workers", "2").start()
    tables: list[str | None] = []
    creators: list[Client] = []

    async def make() -> None:
        for name in ("Ann", "Ben", "Cy"):
            client = Client(name)
            await client.connect(first.url)
            await client.send({"type": "create_table", "seats": 3, "bots": ["easy"]})
            await client.until(lambda m: m["type"] == "snapshot")
            tables.append(client.table)
            creators.append(client)
            await client.close()

    run_against(first, make)
    assert {_worker_of(table) for table in tables} == {0, 1}
    second = ServerProcess(data, *FAST, "--workers", "2").start()

    async def look() -> None:
        eve = Client("Eve")
        await eve.connect(second.url)
        listing = await eve.until(lambda m: m["type"] == "tables")
        assert {table["id"] for table in listing["tables"]} == set(tables)
        await eve.close()
        for creator in creators:  # each, back with their token, is seated at their own
            await creator.connect(second.url)
            seated = await creator.until(lambda m: m["type"] in ("seated", "tables"))
            assert seated["type"] == "seated" and seated["seat"] == 0, seated
            assert seated["table"] == tables[creators.index(creator)]
            await creator.close()

    run_against(second, look)
