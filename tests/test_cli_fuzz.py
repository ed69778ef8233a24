"""Issue 16: hostile and damaged input, fuzzed (Hypothesis) and hand-picked.

Over saved games, solitaire saves, settings, history and command lines, every
input must give:

- no traceback (nothing but a status escapes :func:`fivecrowns.cli.main`);
- on failure, a sentence on standard error naming the file or the option;
- an exit status as documented: 0 done, 1 a run-time failure, 2 a usage error
  or an input that cannot be used;
- no readable file overwritten or lost: every file of the data and config
  folders is afterwards still there, byte for byte (or kept aside under a new
  name).

Each input is counted; with ``FIVECROWNS_FUZZ_REPORT=FILE`` the counts (inputs,
tracebacks, files lost or overwritten) are written there as JSON at the end.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivecrowns.cli import main

COUNTS: Counter[str] = Counter()
EXAMPLES = int(os.environ.get("FIVECROWNS_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    target = os.environ.get("FIVECROWNS_FUZZ_REPORT")
    if target:
        counts = {"tracebacks": 0, "files lost or overwritten": 0, **COUNTS}
        Path(target).write_text(json.dumps(dict(sorted(counts.items())), indent=1) + "\n")


def _folders() -> list[Path]:
    return [Path(os.environ["FIVECROWNS_DATA_DIR"]), Path(os.environ["FIVECROWNS_CONFIG_DIR"])]


def _snapshot() -> dict[Path, bytes]:
    files: dict[Path, bytes] = {}
    for folder in _folders():
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.is_file() and not path.name.endswith(".lock"):
                    files[path] = path.read_bytes()
    return files


def run(
    argv: list[str], *, kind: str, names: tuple[str, ...] = (), may_change: Path | None = None
) -> tuple[int, str, str]:
    """Run ``fivecrowns ARGV`` in-process without a terminal; check the four promises.

    ``names``: words of which the error sentence must contain at least one (the file,
    the option). ``may_change``: a file the command is asked to write (a settings save
    that succeeds); the caller checks what it kept.
    """
    COUNTS[f"inputs: {kind}"] += 1
    COUNTS["inputs"] += 1
    before = _snapshot()
    raw_out = io.BytesIO()
    out = io.TextIOWrapper(raw_out, encoding="utf-8", write_through=True)
    err = io.StringIO()
    status: int
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            _no_terminal(),
        ):
            try:
                status = main(argv)
            except SystemExit as leave:
                status = leave.code if isinstance(leave.code, int) else 1
    except BaseException as error:  # the promise broken: count it, then fail
        COUNTS["tracebacks"] += 1
        raise AssertionError(f"fivecrowns {argv!r} raised {error!r}") from error
    stderr = err.getvalue()
    if "Traceback" in stderr:
        COUNTS["tracebacks"] += 1
    assert "Traceback" not in stderr, (argv, stderr)
    assert status in (0, 1, 2), (argv, status, stderr)
    if status != 0:
        assert stderr.strip(), (argv, status)
        if names:
            assert any(name in stderr for name in names), (argv, stderr, names)
    after = _snapshot()
    remaining = Counter(after.values())
    for path, content in before.items():
        if path == may_change and status == 0:
            continue
        if after.get(path) == content:
            remaining[content] -= 1
            continue
        if remaining[content] > 0:  # moved aside under a new name, still whole
            remaining[content] -= 1
            continue
        COUNTS["files lost or overwritten"] += 1
        raise AssertionError(f"fivecrowns {argv!r} lost or changed {path}")
    return status, raw_out.getvalue().decode("utf-8", "replace"), stderr


@contextlib.contextmanager
def _no_terminal() -> Iterator[None]:
    import sys

    saved = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        sys.stdin = saved


# --- templates: real saves made by the game ------------------------------------------------


class _ClosedKeyboard:
    def __init__(self, session: Any, line_mode: bool = False, render: Any = None) -> None:
        self.session = session

    def run(self) -> None:
        raise EOFError


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real autosave, a real solitaire save, a settings file and a history file."""
    folder = tmp_path_factory.mktemp("templates")
    patch = pytest.MonkeyPatch()
    patch.setenv("FIVECROWNS_DATA_DIR", str(folder / "data"))
    patch.setenv("FIVECROWNS_CONFIG_DIR", str(folder / "config"))
    patch.setattr("sys.stdin.isatty", lambda: True)
    patch.setattr("fivecrowns.ui.app.Presentation", _ClosedKeyboard)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            main(["play", "--seed", "4", "--speech", "none"])
            main(["solitaire", "--seed", "4", "--speech", "none"])
        autosave = json.loads((folder / "data" / "autosave.json").read_text())
        solitaire = json.loads((folder / "data" / "solitaire.json").read_text())
    finally:
        patch.undo()
    settings_file = {
        "play": {"verbosity": "normal", "delay": 1.0},
        "keys": {"draw": ["d", "F5"], "stop_speech": "Ctrl+X"},
        "output": {"speech": "none", "tts_rate": 180, "sound_muted": False},
    }
    history = [
        {"date": "2026-11-22T10:00+00:00", "players": ["Ann", "Bo"], "totals": [80, 95]},
        {"date": "2026-11-22T11:00+00:00", "game": "solitaire", "won": False, "points_left": 3},
    ]
    return {
        "autosave": autosave,
        "solitaire": solitaire,
        "settings": settings_file,
        "history": history,
    }


# --- mutations ---------------------------------------------------------------------------

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([1e9, -1, 0, 1, 7, 14, 15, 1000000000, 2**64, -(2**63)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(
        ["code:interact", "os:abort", "tempfile:mkdtemp", "medium", "loud", "jk", "7h", "zz"]
    ),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:6]):
            found += _paths(inner, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, template: Any) -> Any:
    """The template with one to three places replaced, removed or emptied."""
    data = copy.deepcopy(template)
    for _ in range(draw(st.integers(1, 3))):
        paths = [path for path in _paths(data) if path]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "remove", "empty"]))
        if action == "remove":
            del parent[path[-1]]
        elif action == "empty":
            parent[path[-1]] = (
                type(parent[path[-1]])()
                if isinstance(parent[path[-1]], list | dict | str)
                else None
            )
        else:
            parent[path[-1]] = draw(JSON_VALUES)
    return data


def _encode(data: Any) -> bytes:
    return json.dumps(data, allow_nan=True).encode("utf-8")


@st.composite
def damaged_bytes(draw: st.DrawFn, text: bytes) -> bytes:
    """The file cut short, with bytes flipped, or with junk added."""
    how = draw(st.sampled_from(["cut", "flip", "junk"]))
    if how == "cut":
        return text[: draw(st.integers(0, max(len(text) - 1, 0)))]
    if how == "flip":
        position = draw(st.integers(0, max(len(text) - 1, 0)))
        return text[:position] + bytes([draw(st.integers(0, 255))]) + text[position + 1 :]
    return text + draw(st.binary(min_size=1, max_size=20))


# --- saved games -------------------------------------------------------------------------


def _autosave() -> Path:
    path = Path(os.environ["FIVECROWNS_DATA_DIR"]) / "autosave.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _check_save(raw: bytes) -> None:
    path = _autosave()
    path.write_bytes(raw)
    # a save the mutation left whole loads, then the missing terminal is the sentence
    names = (str(path), "saved game", "computer player", "--ai", "terminal")
    status, _, _ = run(["play", "--resume", "--speech", "none"], kind="saves", names=names)
    assert status in (1, 2)
    run(["export", "--game", str(path), "--what", "scores"], kind="saves", names=names)
    path.unlink()


@FUZZ
@given(data=st.data())
def test_fuzzed_saves(templates, data) -> None:
    save = data.draw(mutated(templates["autosave"]))
    _check_save(_encode(save))


@FUZZ
@given(data=st.data())
def test_fuzzed_save_bytes(templates, data) -> None:
    _check_save(data.draw(damaged_bytes(_encode(templates["autosave"]))))


def _crafted_saves(template: dict[str, Any]) -> list[bytes]:
    """The issue's hand-picked cases."""
    cases: list[Any] = []

    def edit(change: Any) -> None:
        data = copy.deepcopy(template)
        change(data)
        cases.append(data)

    for level in ["code:interact", "os:abort", "tempfile:mkdtemp", 3, ["medium"], None, ""]:
        edit(lambda d, level=level: d["seats"][1].update(level=level))
    edit(lambda d: d["seats"].pop())  # fewer seats than players
    edit(lambda d: d.update(decks=1000000000, game=None))
    edit(lambda d: d.update(verbosity="loud"))
    edit(lambda d: d["game"]["totals"].__setitem__(0, -5))
    edit(lambda d: d["game"]["round_scores"].append([-1, 0, 0]))
    edit(lambda d: d.update(at_keyboard=1))
    edit(lambda d: d.update(at_keyboard=99))
    edit(lambda d: d["seats"][0].update(name="x" * 60_000))
    edit(lambda d: d.update(moves=[[0, {"move": "draw_stock"}]] * 100_000, game=None))
    raw = [_encode(case) for case in cases]
    text = _encode(template).decode()
    raw.append(text.replace('"at_keyboard": 0', '"at_keyboard": Infinity').encode())
    raw.append(text.replace('"totals": [', '"totals": [Infinity, ', 1).encode())
    raw.append(text.replace('"decks": 2', '"decks": 1e9').encode())
    raw.append(text.replace('"seed": ', '"seed": 1' + "0" * 5000 + ', "x": ', 1).encode())
    raw += [b"", b"[]", b"null", b"[" * 100_000, b"\xff\xfe", b'{"version": 1}', b"{" * 50]
    return raw


def test_crafted_saves(templates) -> None:
    for raw in _crafted_saves(templates["autosave"]):
        _check_save(raw)


def test_a_fifo_a_device_and_a_huge_file_are_refused_at_once(tmp_path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(50_000_000)  # sparse: no disk used
    for target in (fifo, Path("/dev/zero"), Path("/dev/urandom"), huge, tmp_path):
        for argv in (
            ["export", "--game", str(target)],
            ["solitaire", "--export", "text", "--game", str(target)],
        ):
            status, _, _ = run(argv, kind="special files", names=(str(target),))
            assert status == 1  # a save that cannot be read: a run-time failure (cli.py)


def test_a_fifo_or_device_as_settings_or_history_does_not_hang(tmp_path) -> None:
    config = Path(os.environ["FIVECROWNS_CONFIG_DIR"])
    data = Path(os.environ["FIVECROWNS_DATA_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    os.mkfifo(config / "settings.json")
    os.mkfifo(data / "history.jsonl")
    status, _, _ = run(["history"], kind="special files", names=("history.jsonl",))
    assert status == 1
    status, _, _ = run(
        ["speech", "--mute", "--save"], kind="special files", names=("settings.json",)
    )
    assert status == 1
    run(["play", "--speech", "none"], kind="special files", names=("terminal",))
    assert status in (1, 2)  # no terminal here: the settings file did not hang


# --- solitaire saves ---------------------------------------------------------------------


def _check_solitaire(raw: bytes) -> None:
    path = Path(os.environ["FIVECROWNS_DATA_DIR"]) / "solitaire-fuzz.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    run(
        ["solitaire", "--export", "text", "--game", str(path)],
        kind="solitaire saves",
        names=(str(path),),
    )
    path.unlink()


@FUZZ
@given(data=st.data())
def test_fuzzed_solitaire_saves(templates, data) -> None:
    _check_solitaire(_encode(data.draw(mutated(templates["solitaire"]))))


@FUZZ
@given(data=st.data())
def test_fuzzed_solitaire_bytes(templates, data) -> None:
    _check_solitaire(data.draw(damaged_bytes(_encode(templates["solitaire"]))))


def test_crafted_solitaire_saves(templates) -> None:
    template = templates["solitaire"]
    cases = []
    for change in (
        {"version": -7},
        {"stock": ""},  # missing cards
        {"turns": -1},
        {"hands": {}},
        {"seed": 1.5},
        {"target": 99},
    ):
        cases.append(_encode({**template, **change}))
    cases.append(_encode(template).replace(b'"version": 1', b'"version": 1' + b"0" * 5000))
    for raw in cases:
        _check_solitaire(raw)


# --- settings ----------------------------------------------------------------------------


def _settings_path() -> Path:
    path = Path(os.environ["FIVECROWNS_CONFIG_DIR"]) / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _check_settings(raw: bytes) -> None:
    path = _settings_path()
    path.write_bytes(raw)
    status, _, _ = run(
        ["speech", "--mute", "--save"], kind="settings", names=(str(path),), may_change=path
    )
    if status == 0:
        # written: the other sections are whatever the file had
        before = json.loads(raw)
        after = json.loads(path.read_bytes())
        assert {k: v for k, v in after.items() if k != "output"} == {
            k: v for k, v in before.items() if k != "output"
        }
    else:
        assert path.read_bytes() == raw
    run(["play", "--speech", "none"], kind="settings", names=("terminal", str(path)))
    path.unlink()


@FUZZ
@given(data=st.data())
def test_fuzzed_settings(templates, data) -> None:
    _check_settings(_encode(data.draw(mutated(templates["settings"]))))


@FUZZ
@given(data=st.data())
def test_fuzzed_settings_bytes(templates, data) -> None:
    _check_settings(data.draw(damaged_bytes(_encode(templates["settings"]))))


# --- history -----------------------------------------------------------------------------


def _check_history(raw: bytes) -> None:
    path = Path(os.environ["FIVECROWNS_DATA_DIR"]) / "history.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    _status, out, _ = run(["history", "--last", "5"], kind="history", names=(str(path),))
    assert "\x1b" not in out  # stored escape sequences never reach the terminal
    path.unlink()


@FUZZ
@given(data=st.data())
def test_fuzzed_history(templates, data) -> None:
    lines = [
        _encode(data.draw(mutated(record))) if data.draw(st.booleans()) else _encode(record)
        for record in templates["history"] * 2
    ]
    _check_history(b"\n".join(lines) + data.draw(st.sampled_from([b"\n", b""])))


@FUZZ
@given(data=st.data())
def test_fuzzed_history_bytes(templates, data) -> None:
    text = b"\n".join(_encode(record) for record in templates["history"]) + b"\n"
    _check_history(data.draw(damaged_bytes(text)))


def test_crafted_history() -> None:
    record = {"date": "2026-11-22T10:00+00:00", "players": ["\x1b[2J\x1b[31mAnn", "Bo"]}
    _check_history(_encode({**record, "totals": [1, 2]}) + b"\n")
    _check_history(_encode({**record, "players": ["x" * 30_000, "Bo"], "totals": [1, 2]}))
    _check_history(b'{"date": "2026", "players": ["A", "B"], "totals": [1' + b"0" * 5000 + b", 2]}")


# --- command lines -----------------------------------------------------------------------

NUMBERS = ["-1", "0", "1", "2", "3", "8", "15", "1000000000", str(10**40), "1e9", "x", "", "nan"]
SMALL = ["-1", "0", "1", "x", "", "1.5"]
TEXT = ["", ",", "Ann,Ben", "a" * 300, "code:interact", "os:abort", "medium", "\x1b[31m", "é"]
# why no os:abort here: a module:Class typed on the command line is the person's own choice
AI = ["", ",", "easy,,simple", "nobody", "simple", "a" * 300, "no_such_module_here:X", "é"]
OPTIONS: dict[str, dict[str, list[str] | None]] = {
    "simulate": {
        "--players": NUMBERS, "--decks": NUMBERS, "--games": SMALL, "--seed": NUMBERS,
        "--ai": AI, "--json": None,
    },
    "solve": {"--round": NUMBERS, "--wild": ["3", "K", "jk", "x", ""], "--discard": None,
              "--json": None},
    "export": {
        "--what": ["hand", "melds", "scores", "log", "x"], "--format": ["text", "brf", "x"],
        "--width": NUMBERS, "--player": TEXT, "--round": NUMBERS, "--seed": SMALL,
        "--players": NUMBERS, "--game": ["/dev/zero", "/nonexistent/x.json", ""],
    },
    "history": {"--last": NUMBERS},
    "play": {
        "--players": NUMBERS, "--humans": NUMBERS, "--names": TEXT, "--ai": AI,
        "--seed": NUMBERS, "--delay": NUMBERS, "--resume": ["last", "previous", "list", "0",
        "x", "99999999"], "--verbosity": ["brief", "loud"], "--speech": ["none", "x"],
    },
    "solitaire": {
        "--auto": None, "--games": SMALL, "--seed": NUMBERS, "--strategy": ["best", "x"],
        "--export": ["text", "x"], "--width": NUMBERS, "--resume": ["last", "list", "x"],
        "--json": None,
    },
    "speech": {"--rate": NUMBERS, "--volume": NUMBERS, "--sound-volume": NUMBERS,
               "--backend": ["none", "print", "x"], "--list": None},
}  # fmt: skip
CARDS = ["7h", "jk", "Ks", "10d", "3c", "11h", "x", "", "7", "-1"]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    for option in draw(st.lists(st.sampled_from(sorted(OPTIONS[command])), max_size=4)):
        values = OPTIONS[command][option]
        argv.append(option)
        if values is not None:
            argv.append(draw(st.sampled_from(values)))
    if command == "solve":
        argv += draw(st.lists(st.sampled_from(CARDS), max_size=8))
    # why: keep each run short (the suite must stay fast): one game, the quick computer
    if command in ("simulate", "solitaire") and "--games" not in argv:
        argv += ["--games", "1"]
    if command == "simulate" and "--ai" not in argv:
        argv += ["--ai", "simple"]
    return argv


def _option_names(argv: list[str]) -> tuple[str, ...]:
    # the sentence names an option, a value given, the command, or what is missing
    words = [word for word in argv if word.startswith("-")]
    return (*words, *argv, "fivecrowns", "terminal", "card", "There is no", "--")


@FUZZ
@given(argv=command_lines())
def test_fuzzed_command_lines(argv) -> None:
    if "--list" in argv:  # probing every speech backend is slow and checked elsewhere
        argv.remove("--list")
    run(argv, kind="command lines", names=_option_names(argv))


CRAFTED_COMMANDS = [
    ["simulate", "--players", "1000000000", "--games", "1"],
    ["simulate", "--players", str(10**40), "--games", "1"],
    ["simulate", "--decks", "1000000000", "--games", "1"],
    ["simulate", "--players", "0", "--games", "1"],
    ["solve", *(["7h"] * 5000)],
    ["play", "--names", "x" * 60_000 + ",B,C"],
    ["play", "--resume", "code:interact"],
    ["solitaire", "--auto", "--export", "text"],
    ["solitaire", "--auto", "--resume"],
    ["speech", "--test", "--backend", "tts", "--wav", "/dev/null", "x" * 25_000],
    ["export", "--seed", "1", "--players", "1000000000"],
]


@pytest.mark.parametrize("argv", CRAFTED_COMMANDS, ids=lambda argv: " ".join(argv)[:40])
def test_crafted_command_lines(argv) -> None:
    status, _, err = run(argv, kind="command lines", names=_option_names(argv))
    assert status in (1, 2), err
    if argv[:3] == ["simulate", "--players", "0"]:
        assert "--players 0" in err and "--ai" not in err  # the right option is blamed


def test_solve_jsonl_with_a_huge_hand_goes_on(monkeypatch) -> None:
    hands = "7h " * 5000 + "\n" + "7h 8h 9h\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(hands))
    out, err = io.StringIO(), io.StringIO()
    COUNTS["inputs"] += 1
    COUNTS["inputs: command lines"] += 1
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["solve", "--jsonl", "--round", "1"])
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "Traceback" not in err.getvalue()
    assert "error" in json.loads(lines[0]) and "error" not in json.loads(lines[1])
    assert status in (0, 1, 2)
