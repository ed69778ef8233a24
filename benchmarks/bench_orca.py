"""A real screen reader over a whole round: what Orca left unsaid, said twice, and how fast.

Run: nice -n 10 .venv/bin/python benchmarks/bench_orca.py [--browsers chromium firefox]
                                   [--rhythms gated steady] [--runs N] [--out FILE]
Committed output: benchmarks/results/orca.txt. Not part of the tests (tests/web/test_orca.py
asserts the same things). Debian 12 with the dev packages of scripts/apt-packages.txt.
Targets (issue 25): in Chromium and in Firefox, a whole round: 0 page sentences unspoken, 0
heard twice, 0 keys met by silence; key -> Orca's speech: median and p95, the page's own part
under 20 ms, Orca's part quoted apart.

What is measured: tests/support/orca_support.py's desk (its own Xvfb, D-Bus, AT-SPI, Speech
Dispatcher whose only voice is a script that writes each utterance's START and END, 0.25 s a
word; the game server; Debian's Chromium or Firefox ESR; Debian's Orca 43). One player plays
round 1 against a medium computer player (1.5 s per computer move), by keys pressed through
the X server with xdotool: the lobby, Create, Start, F1 and Escape, draws, discards, and while
the computer plays, arrows and information keys (W, P, C, N, F, Home, End).
- rhythm ``gated``: each key waits for a moment when its effect on speech is certain (nothing
  being said, no sentence about to go out, Orca caught up with the page), as the tests do;
- rhythm ``steady``: keys on a steady rhythm whatever is being said (1.3 s apart while the
  computer plays), as a player's might: here a key near a sentence's end can make the page
  give it again although the voice had finished it (the page cannot know), or not give it
  again although the screen reader had not yet begun it.
- unspoken: table news never spoken to its end (in order), or an answer to a key never begun;
  twice: news spoken to its end more often than the page said it; silent: a key after which
  nothing but Orca's key echo began before the next key (4 s at most); X (stop speech) is
  silent on purpose and is not pressed.
- key -> speech: from xdotool's key press to the START of the first utterance after it that
  is not a key echo. Split (window.__keyTimes, on the page's clock): the browser's delivery,
  from the key event's timeStamp to the page's first handler; the page's own part, from there
  to its reply written (the live region, or the card picked in the hand), for the keys the
  page answers itself (for D, Enter and G: the move sent); for the information keys, whose
  answer comes from the server, to the answer written in its region (WebSocket round trip on
  loopback included). Orca's part: from the end of the page's work to the START, i.e. the
  browser's accessibility events, Orca and Speech Dispatcher.
- deal -> Your turn: at round 1 (the player's to start with this seed), from the deal's news
  reaching the page (its record's ``born``) to the START of the first utterance with "your
  turn", and the news sentences of more than 8 words said before it (sr_checks.turn_at_deal).
- lost focus: focus changes Orca failed on (its log's "Could not process"): after one, Orca 43
  in Firefox says no focus change again.
- never got: a key of the page's (arrows and letters while the computer plays) that the page
  never had (Orca took it as its own command, in browse mode); not waited for: a key followed
  by the next within 1 s, not judged silent (tests/support/sr_checks.py).
- per key (why one met silence): with --keep, each desk's folder has keys.txt (each key, where
  the page had it, what the page gave and what was said until the next key) beside Orca's own
  log; the report lists the silent and never-got keys' detail.
- CPU: the benchmark's own process, and apart, the desk's processes it started and waited for
  (Xvfb, D-Bus, Speech Dispatcher, the server, the browser, Orca: RUSAGE_CHILDREN), beside
  the wall time. The machine is shared: wall times include waiting for a core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _stats import commit, percentile, write_report

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from orca_support import OrcaDesk, require_orca  # noqa: E402
from sr_checks import (  # noqa: E402
    TURN_AFTER_WORDS,
    Key,
    TurnAtDeal,
    check_hearing,
    is_echo,
    page_record,
    play_a_round,
    turn_at_deal,
)

SEED = "8167234455913"  # the browser tests' seed
SERVER = ("--bot-delay", "1.5", "--rate", "200", "--seed", SEED, "--grace", "600")
ASKED = {"w", "p", "c", "n"}
MEASURES = ("unspoken", "twice", "silent", "lost_focus", "total", "delivery", "local", "asked")
MEASURES += ("orca", "unwaited", "unreached")


def page_parts(record: dict[str, Any], keys: list[Key]) -> dict[str, Any]:
    """Per key the page handled (ms): the browser's delivery (key event's time to the page's
    first handler), the page's own part (first handler to its reply written: the live region
    or the focused card), for the information keys the server round trip (first handler to
    the answer written); and per key index, the epoch when the page's work was done."""
    origin = record["origin"] / 1000
    handled = [
        (
            origin + k["at"] / 1000,
            origin + k.get("start", k["at"]) / 1000,
            origin + k["done"] / 1000,
        )
        for k in record["keys"]
    ]
    answers = [(origin + a["at"] / 1000) for a in record["said"] if a["region"] == "answer"]
    parts: dict[str, Any] = {"delivery": [], "local": [], "asked": [], "done_at": {}}
    for index, key in enumerate(keys):
        end = keys[index + 1].at if index + 1 < len(keys) else key.at + 4
        event = next((h for h in handled if key.at - 0.05 <= h[0] < end), None)
        if event is None:
            continue
        at, start, done = event
        parts["delivery"].append((start - at) * 1000)
        if key.name in ASKED:
            answer = next((a for a in answers if start <= a < end), None)
            if answer is not None:
                parts["asked"].append((answer - start) * 1000)
                parts["done_at"][index] = answer
        else:
            parts["local"].append((done - start) * 1000)
            parts["done_at"][index] = done
    return parts


def key_detail(desk: OrcaDesk, record: dict[str, Any], keys: list[Key]) -> list[str]:
    """Per key (why a key met silence): when it was pressed, where the page's focus was (its
    record), what the page gave and what the synthesiser began until the next key (4 s at
    most), and Orca's focus failures in that time."""
    origin = record["origin"] / 1000
    given = [
        (origin + e.get("last", e["at"]) / 1000, e["region"], e["text"]) for e in record["said"]
    ]
    handled = [
        (origin + k["at"] / 1000, f"{k['key']} on {k.get('focus', '?')}") for k in record["keys"]
    ]
    heard = desk.heard()
    failures = desk.focus_failures()
    lines = []
    for index, key in enumerate(keys):
        end = keys[index + 1].at if index + 1 < len(keys) else key.at + 4
        end = min(end, max(key.at, key.sent) + 4)
        clock = time.strftime("%H:%M:%S", time.localtime(key.at)) + f"{key.at % 1:.2f}"[1:]
        seen = [f for at, f in handled if key.at - 0.05 <= at < end]
        lines.append(
            f"{index} {key.name} at {clock} (sent +{max(0.0, key.sent - key.at):.2f} s, next +"
            f"{end - key.at:.2f} s; page's key: {seen[0] if seen else 'none'})"
        )
        lines += [
            f"    page +{at - key.at:.2f} [{region}] {text}"
            for at, region, text in given
            if key.at - 1 <= at < end
        ]
        lines += [
            f"    said +{u.at - key.at:.2f} {'' if u.whole else 'CUT '}{u.text!r}"
            for u in heard
            if key.at - 1 <= u.at < end
        ]
        until = time.strftime("%H:%M:%S", time.localtime(end)) + f"{end % 1:.2f}"[1:]
        lines += [f"    orca {failure}" for failure in failures if clock <= failure < until]
    return lines


def key_of_line(detail: list[str]) -> list[int]:
    """The key index each line of key_detail belongs to."""
    index, owners = -1, []
    for line in detail:
        if not line.startswith(" "):
            index = int(line.split(" ", 1)[0])
        owners.append(index)
    return owners


def one_run(browser: str, gate: bool, keep: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-orca-") as folder:
        place = Path(tempfile.mkdtemp(prefix=f"{browser}-", dir=keep)) if keep else Path(folder)
        desk = OrcaDesk(place, browser, SERVER)
        keys: list[Key] = []
        started = time.perf_counter()
        try:
            desk.start()
            play_a_round(desk, keys, gate=gate, strict=False)
            record = page_record(desk)
            desk.wait_said()
        finally:
            errors = desk.stop()
        wall = time.perf_counter() - started
        result = check_hearing(desk, record, keys)
        detail = key_detail(desk, record, keys)
        if keep:
            (place / "keys.txt").write_text("\n".join(detail) + "\n")
            (place / "record.json").write_text(json.dumps(record))
    parts = page_parts(record, keys)
    done_at = parts["done_at"]
    totals = [seconds * 1000 for _, seconds in result.latencies]
    orca: list[float] = []
    heard = result.heard
    for index, key in enumerate(keys):
        if index not in done_at:
            continue
        end = keys[index + 1].at if index + 1 < len(keys) else key.at + 4
        first = next(
            (u for u in heard if done_at[index] <= u.at < end and not is_echo(u.text)), None
        )
        if first is not None:
            orca.append((first.at - done_at[index]) * 1000)
    deal = turn_at_deal(record, heard)
    silent_at = {int(text.rsplit(" ", 1)[1]) for text in result.silent + result.unreached}
    return {
        "detail": [
            line
            for line, index in zip(detail, key_of_line(detail), strict=True)
            if index in silent_at
        ],
        "browser": browser,
        "rhythm": "gated" if gate else "steady",
        "meant": len(result.meant),
        "keys": len(keys),
        "unspoken": result.unspoken,
        "twice": result.twice,
        "silent": result.silent,
        "lost_focus": result.lost_focus,
        "unwaited": result.unwaited,
        "unreached": result.unreached,
        "total": totals,
        "delivery": parts["delivery"],
        "local": parts["local"],
        "asked": parts["asked"],
        "orca": orca,
        "wall": wall,
        "traceback": "Traceback" in errors,
        "deal": deal,
    }


def figures(values: list[float]) -> str:
    if not values:
        return "-"
    median, p95 = percentile(values, 0.5), percentile(values, 0.95)
    return f"median {median:.0f} ms, p95 {p95:.0f} ms (n={len(values)})"


def deal_line(deal: TurnAtDeal | None) -> str:
    """The round's deal -> "Your turn" said, when the player starts the round."""
    if deal is None:
        return "deal -> Your turn: not the player's round to start"
    said = "never said" if deal.seconds is None else f"speech start {deal.seconds:.1f} s"
    return (
        f"deal (its news at the page) -> Your turn: {said}; news longer than "
        f"{TURN_AFTER_WORDS} words before it: {len(deal.before)} {deal.before}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browsers", nargs="+", default=["chromium", "firefox"])
    parser.add_argument("--rhythms", nargs="+", default=["gated", "steady"])
    parser.add_argument("--runs", type=int, default=1, help="rounds per browser and rhythm")
    parser.add_argument("--out", default=None)
    parser.add_argument("--keep", type=Path, default=None, help="keep each desk's logs here")
    args = parser.parse_args()
    os.environ.setdefault("CI", "true")  # why: a missing part is an error here, not a skip
    for browser in args.browsers:
        require_orca(browser)
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall_before = time.perf_counter()
    lines = [
        f"# bench_orca.py: commit {commit()}, {platform.platform()}, "
        f"Python {platform.python_version()}",
        "",
    ]
    for browser in args.browsers:
        for rhythm in args.rhythms:
            runs = [one_run(browser, rhythm == "gated", args.keep) for _ in range(args.runs)]
            joined = {name: [value for run in runs for value in run[name]] for name in MEASURES}
            walls = ", ".join(str(round(run["wall"])) for run in runs)
            lines += [
                f"## {browser}, keys {rhythm}: {len(runs)} round(s), "
                f"{sum(run['meant'] for run in runs)} page sentences, "
                f"{sum(run['keys'] for run in runs)} keys, wall {walls} s",
                f"unspoken {len(joined['unspoken'])}, heard twice {len(joined['twice'])}, "
                f"keys met by silence {len(joined['silent'])}, "
                f"focus changes Orca lost {len(joined['lost_focus'])}, "
                f"keys the page never got {len(joined['unreached'])}, "
                f"keys not waited for (the next within 1 s) {len(joined['unwaited'])}"
                + (", a traceback in the server" if any(r["traceback"] for r in runs) else ""),
                *(f"  unspoken: {text}" for text in joined["unspoken"]),
                *(f"  twice: {text}" for text in joined["twice"]),
                *(f"  silent: {text}" for text in joined["silent"]),
                *(f"    {line}" for run in runs for line in run["detail"]),
                *(f"  lost focus: {text}" for text in joined["lost_focus"]),
                *(f"  never got: {text}" for text in joined["unreached"]),
                *(f"  not waited for: {text}" for text in joined["unwaited"]),
                f"key -> speech start: {figures(joined['total'])}",
                "  the browser's delivery (key event -> the page's first handler): "
                + figures(joined["delivery"]),
                "  the page's own part (first handler -> its reply written), keys it answers: "
                + figures(joined["local"]),
                "  the page's own part, information keys (server round trip): "
                + figures(joined["asked"]),
                f"  Orca's part (page done -> speech start): {figures(joined['orca'])}",
                *(deal_line(run["deal"]) for run in runs),
                "",
            ]
            print("\n".join(lines[-11:]), flush=True)
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = cpu.ru_utime - cpu_before.ru_utime + cpu.ru_stime - cpu_before.ru_stime
    spent = children.ru_utime - children_before.ru_utime
    spent += children.ru_stime - children_before.ru_stime
    lines.append(
        f"wall {time.perf_counter() - wall_before:.0f} s; CPU: this process {own:.1f} s, "
        f"the desk's processes (browser, Orca, server, Xvfb...) {spent:.1f} s"
    )
    write_report(args.out, "\n".join(lines) + "\n")
    print(lines[-1])


if __name__ == "__main__":
    main()
