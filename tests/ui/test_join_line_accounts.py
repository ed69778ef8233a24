"""`fivecrowns join --sign-up` and `--log-in`, and the typed `logout`, against a real server
(issue 28): every answer is a line a screen reader reads; the password is never shown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from join_support import TypedClient
from server_support import FAST, ServerProcess

PASSWORD = "correct horse battery"


def _finish(client: TypedClient) -> tuple[int, str]:
    """Wait for the process to end; its exit status and everything it wrote."""
    out, err = client.proc.communicate(timeout=30)
    return client.proc.returncode, "\n".join([*client.transcript, out, err])


def test_sign_up_log_out_log_in_and_a_refused_log_in_typed(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST).start()
    try:
        ann = TypedClient(server.url, "Ann", "--sign-up")
        ann.type(PASSWORD)  # not a terminal: the password is the first line of input
        ann.until(lambda line: line.startswith("Logged in as Ann. Type logout"))
        ann.until(lambda line: line.startswith("No open tables"))
        ann.type("logout")
        ann.until(lambda line: line == "You are logged out.")
        status, text = _finish(ann)
        assert status == 0 and PASSWORD not in text, text

        back = TypedClient(server.url, "ANN", "--log-in")
        back.type(PASSWORD)
        back.until(lambda line: line.startswith("Logged in as Ann."))
        back.type("create 2 easy")
        back.until(lambda line: line.startswith("You sit in seat 1"))
        back.type("logout")
        back.until(lambda line: line == "Leave your table first.")
        back.type("leave")
        back.until(lambda line: line == "You left the table.")
        back.type("logout all")
        back.until(lambda line: line == "You are logged out on every device.")
        status, text = _finish(back)
        assert status == 0 and PASSWORD not in text, text

        wrong = TypedClient(server.url, "Ann", "--log-in")
        wrong.type("not the password")
        wrong.until(lambda line: line == "That name and password do not match an account here.")
        status, text = _finish(wrong)
        assert status == 1 and "not the password" not in text, text

        guest = TypedClient(server.url, "ann")  # no account: the name is Ann's
        guest.until(lambda line: line.startswith("That name belongs to an account here"))
        guest.type("q")
        _finish(guest)
    finally:
        errors = server.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors


def test_keys_without_a_terminal_says_so_before_asking_a_password() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fivecrowns", "join", "--keys", "--log-in", "--name", "Ann"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        input=PASSWORD + "\n",
    )
    assert done.returncode == 1
    assert "needs a terminal" in done.stdout + done.stderr
    assert "No password" not in done.stdout + done.stderr
