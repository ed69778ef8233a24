"""What a real `fivecrowns serve` says to rude input and a full disk (issue 26, item 13):
answers to messages too big are rate-limited like any other, a bad HTTP request is one log
line and not a traceback, and on a full disk the server stays up, tells the players, logs
one short line and saves again once there is room."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from server_support import FAST, LOOPBACK, Client, ServerProcess, play_until, run_against

TOO_BIG = "x" * 5000  # more than a message's 4,096 bytes


def test_a_flood_of_messages_too_big_is_rate_limited() -> None:
    server = ServerProcess(None, "--rate", "5").start()  # 40 at once, then 5 a second

    async def scenario() -> None:
        eve = await Client("Eve").connect(server.url)
        for _ in range(100):
            await eve.send(TOO_BIG)
        for _ in range(100):
            await eve.until(lambda m: m["type"] == "error")
        codes = [error["code"] for error in eve.errors]
        # the burst (less the hello) is answered too_big; the rest only rate_limited
        assert 30 <= codes.count("too_big") <= 45, codes
        assert codes.count("rate_limited") >= 55, codes
        await eve.close()

    run_against(server, scenario)


def test_a_bad_http_request_is_one_log_line() -> None:
    server = ServerProcess(None).start()
    port = int(server.url.rsplit(":", 1)[1].removesuffix("/ws"))
    try:
        for _ in range(3):
            with socket.create_connection((LOOPBACK, port), timeout=5) as raw:
                raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
                assert raw.recv(100).startswith(b"HTTP/1.0 400 Bad Request")
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
    lines = [line for line in errors.splitlines() if line.startswith("Bad HTTP request")]
    assert (
        lines
        == ["Bad HTTP request from 127.0.0.1: Invalid character in Content-Length: (answered 400)"]
        * 3
    ), errors


@pytest.mark.skipif(sys.platform != "linux", reason="fills the disk with the file-size limit")
def test_on_a_full_disk_the_server_stays_up_and_says_so(data: Path) -> None:
    import resource

    server = ServerProcess(data, *FAST).start()
    assert server.proc is not None
    pid = server.proc.pid
    _soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)

    async def scenario() -> None:
        ann = await Client("Ann").connect(server.url)
        await ann.send({"type": "create_table", "seats": 2, "bots": ["easy"]})
        await ann.until(lambda m: m["type"] == "seated")
        await ann.send({"type": "start"})
        await play_until([ann], lambda c: c.my_turn(), 30)
        # why the file-size limit: the server's every write past the first byte of a file
        # fails as on a full disk (EFBIG; Python ignores SIGXFSZ), with no disk to fill
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (1, hard))
        await ann.act(ann.choose())
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "cannot_save"
        assert error["text"] == (
            "The server cannot save moves now; its disk may be full. This connection closes; "
            "connect again in a minute."
        )
        with pytest.raises(ConnectionError):
            await ann.until(lambda m: False, 10)
        assert server.alive()
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))  # room again
        back = Client("Ann")
        back.token = ann.token
        await back.connect(server.url)
        shot = await back.until(lambda m: m["type"] == "snapshot")
        assert shot["table"] == ann.table  # her seat, and her move was kept meanwhile
        assert shot["seq"] > ann.seq
        await back.close()

    errors = run_against(server, scenario)
    failed = [line for line in errors.splitlines() if "could not be saved" in line]
    assert len(failed) == 1, errors  # one line a minute, however many saves failed
    assert failed[0].startswith("The moves could not be saved: "), failed
    assert "The moves are saved again." in errors
