"""How far the page's news runs behind the game, heard through a real screen reader (issue 25).

Run: nice -n 10 .venv/bin/python benchmarks/bench_news_lag.py [--browser chromium] [--rounds 2]
Committed output: benchmarks/results/news_lag.txt. Not a test (tests/web/test_orca.py checks
that every sentence is heard once, in order).

What is measured: tests/support/orca_support.py's desk (Xvfb, D-Bus, AT-SPI, Speech Dispatcher
whose voice writes each utterance's START and END at 0.25 s a word, the game server with its
default pace of 0.8 s before each computer move, the browser, Debian's Orca 43). One player
makes a 3-seat table with two medium computer players by keys, starts it, and plays ``rounds``
rounds: at each of its turns D (draw) and Enter (discard), and no other key, so the news is
heard as a player who waits hears it. For every news sentence of the table log: lag = Orca's
START of it (spoken.txt) minus when its news reached the page (its first part, for another
player's turn said as one sentence); also the page's own part (the release minus the arrival).
The news's arrival is read from the page: the channel's record (``born``), or, on a page
without it (main before issue 25's lag fix), the time a wrapper round News.announce last saw
its text before its release. The player listens: at its turn it waits until the page's news
is out and its time over before each key (a key meanwhile holds the news back, by design).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from orca_support import OrcaDesk, normalize, require_orca  # noqa: E402
from web_support import SEED  # noqa: E402

VERBOSE = bool(os.environ.get("VERBOSE"))
SERVER = ("--rate", "200", "--seed", SEED, "--grace", "600")
WRAP = """(() => {
  const news = window.fivecrowns.news, announce = news.announce.bind(news);
  window.__born = {};
  news.announce = (text, options) => {
    if (text) (window.__born[text] ??= []).push(performance.now());
    return announce(text, options);
  };
  return true;
})()"""
STATE = """(() => {
  const app = window.fivecrowns, snap = app && app.snapshot;
  const legal = snap ? snap.legal.map(m => m.move) : [];
  return {mine: !!snap && legal.length > 0 && snap.seq === app.seq, legal,
          scored: app ? app.events.filter(e => e.kind === 'round_scored').length : 0};
})()"""
HEARD = """(() => { const news = window.fivecrowns.news;
  return news.queue.length === 0
    && (!news.current || news.current.until < performance.now()); })()"""
RECORD = """(() => ({origin: performance.timeOrigin, born: window.__born || {},
  started: window.__startedAt || 0,
  said: (window.__announcements || []).filter(e => e.region === 'log')}))()"""


def play(desk: OrcaDesk, rounds: int) -> None:
    desk.evaluate("document.getElementById('name').value = 'Ann'")
    desk.tab_to("name")
    desk.key("Return")
    desk.wait_page("!document.getElementById('lobby-body').hidden", 20)
    # 3 seats: the other two are computers (medium); set, not keyed: the setup is not measured
    desk.evaluate(
        "(() => { const s = document.getElementById('seats'); s.value = '3';"
        " s.dispatchEvent(new Event('change', {bubbles: true})); return s.value; })()"
    )
    desk.tab_to("Create the table")
    desk.key("Return")
    desk.wait_page("!!window.fivecrowns.table && !!window.fivecrowns.snapshot", 20)
    desk.evaluate(WRAP)
    time.sleep(3.0)
    desk.tab_to("start-button", "shift+Tab")
    desk.evaluate("window.__startedAt = performance.now()")
    desk.key("Return")
    desk.wait_page("!!window.fivecrowns.snapshot && window.fivecrowns.snapshot.started", 20)
    desk.evaluate("document.getElementById('hand').focus()")
    deadline = time.monotonic() + 150 * rounds
    while time.monotonic() < deadline:
        state: dict[str, Any] = desk.evaluate(STATE) or {}
        if state.get("scored", 0) >= rounds:
            desk.wait_page(HEARD, 120)
            break
        if state.get("mine"):
            # as a player who listens: the news said (the page's queue empty, its sentence's
            # time over) before the key; a key meanwhile would hold the news back (by design)
            desk.wait_page(HEARD, 150)
            legal = state["legal"]
            desk.key("d" if "draw_stock" in legal else "Return")
            time.sleep(1.0)
            continue
        time.sleep(0.3)
    else:
        raise SystemExit(f"{rounds} rounds did not end in time")
    desk.wait_page(HEARD, 120)


def lags(desk: OrcaDesk, record: dict[str, Any]) -> tuple[list[float], list[float], int]:
    origin = record["origin"] / 1000
    starts = [(u.at, normalize(u.text)) for u in desk.heard()]
    spoken: list[float] = []
    page: list[float] = []
    unheard = 0
    for entry in record["said"]:
        # the old page: the newest arrival of this text before its release ("Bot 2's turn."
        # comes every round)
        arrivals = [t for t in record["born"].get(entry["text"], []) if t <= entry["at"] + 1]
        born_ms = entry.get("born", max(arrivals) if arrivals else None)
        if born_ms is None or born_ms < record["started"]:
            continue  # the lobby's news: only the game's is measured
        born = origin + born_ms / 1000
        released = origin + entry["at"] / 1000
        wanted = normalize(entry["text"])
        start = next((at for at, text in starts if text == wanted and at >= released - 0.05), None)
        page.append(released - born)
        if start is None:
            unheard += 1
        else:
            spoken.append(start - born)
        if VERBOSE:
            late = "never" if start is None else f"{start - born:5.1f}"
            print(f"  {late} s  (page {released - born:5.1f} s)  {entry['text'][:90]}")
    return spoken, page, unheard


def figure(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.1f} s, max {max(values):.1f} s (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--browser", default="chromium")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    require_orca(args.browser)
    wall = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        place = args.keep or Path(folder) / args.browser
        place.mkdir(parents=True, exist_ok=True)
        desk = OrcaDesk(place, args.browser, SERVER)
        try:
            desk.start()
            try:
                play(desk, args.rounds)
            finally:
                record = desk.evaluate(RECORD)
            desk.wait_said()
        finally:
            desk.stop()
        (place / "record.json").write_text(json.dumps(record), "utf-8")
        spoken, page, unheard = lags(desk, record)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"code: {os.environ.get('LABEL', 'this checkout')}; {args.browser}; {args.rounds} rounds")
    print(f"news -> Orca's speech start: {figure(spoken)}")
    print(f"news -> the page's release: {figure(page)}")
    print(f"news sentences never begun: {unheard}")
    print(f"wall {time.monotonic() - wall:.0f} s, desk CPU {usage.ru_utime + usage.ru_stime:.0f} s")
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
