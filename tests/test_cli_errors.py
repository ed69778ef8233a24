"""Every command answers a bad option with one line on standard error and status 2."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fivecrowns.cli import COMMANDS, main


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_option_gets_one_line_and_status_2(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--no-such-option"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "unrecognized arguments: --no-such-option" in lines[0]
    assert lines[0].startswith("fivecrowns") and lines[0].endswith(" --help.")


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["simulate", "--players", "x"], "argument --players: invalid int value: 'x'"),
        (["speech", "--backend", "loud"], "argument --backend: invalid choice: 'loud'"),
        (["export", "--format", "pdf"], "argument --format: invalid choice: 'pdf'"),
        (["no-such-command"], "argument COMMAND: invalid choice: 'no-such-command'"),
    ],
)
def test_a_bad_value_is_named_in_one_line(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("3h 4h 5h\n" * 20_000, encoding="utf-8")
    command = (
        f"{shlex.quote(sys.executable)} -m fivecrowns solve --jsonl --wild K"
        f" < {shlex.quote(str(hands))} 2> {shlex.quote(str(tmp_path / 'err.txt'))} | head -1"
    )
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True)
    assert result.stdout.startswith('{"cards": ["3h", "4h", "5h"]')
    assert (tmp_path / "err.txt").read_text(encoding="utf-8") == ""
