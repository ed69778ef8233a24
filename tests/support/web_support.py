"""The web client in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium).

No browser is downloaded (none can be here): Playwright launches the system Chromium. With
CI=true a missing Chromium or Playwright fails the tests; elsewhere they skip and say why.
Every wait is bounded in time.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from output_support import require
from tmux_support import TmuxWindow, require_tmux

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
#: Screenshots and other things a person may want to look at after a run.
# why one folder per Python: CI runs the suites of two Pythons side by side
OUTPUT = (
    Path(os.environ.get("FIVECROWNS_TEST_OUTPUT", ROOT / "test-output"))
    / "web"
    / f"python{sys.version_info.major}.{sys.version_info.minor}"
)
SEED = "8167234455913"  # long, so finding it in a page or a frame is no accident
AXE = "axe_playwright_python"


def launch() -> Iterator[Any]:
    """One Chromium for the whole session (why: each launch costs a second or two)."""
    require(Path(CHROMIUM).exists(), f"Chromium is not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require(False, "Playwright is not installed (the dev extra)")
        raise
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def unpaced(page: Any) -> None:
    """No screen reader listens here: the page's announcements go out at once, in order, with
    no pause before a view is hidden (the pacing is for a real screen reader: test_orca.py and
    test_channel.py test it)."""
    page.evaluate(
        """() => { const t = window.fivecrowns.timing;
          Object.assign(t.pace, {lead: 0, perWord: 0, minimum: 0, slackMs: 0, repeatWindowMs: 0,
                                 afterKeyMs: 0});
          t.hiding.afterMs = 0; }"""
    )


def page_url(ws_url: str) -> str:
    return ws_url.replace("ws://", "http://").removesuffix("/ws") + "/"


class WebPlayer:
    """One browser page at the table, played with the keyboard only; keeps every frame."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.frames: list[str] = []
        #: every socket the page opened, with the frames it received, oldest first
        self.sockets: list[tuple[Any, list[str]]] = []
        self.errors: list[str] = []
        page.on("websocket", self._socket)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector("html[data-ready=true]", timeout=10_000)
        unpaced(page)

    def _socket(self, ws: Any) -> None:
        frames: list[str] = []
        self.sockets.append((ws, frames))

        def received(payload: Any) -> None:
            self.frames.append(str(payload))
            frames.append(str(payload))

        ws.on("framereceived", received)

    def live_sockets(self) -> int:
        return sum(1 for ws, _frames in self.sockets if not ws.is_closed())

    def connect(self, name: str) -> None:
        self.page.locator("#name").fill(name)
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector("#lobby-body:not([hidden])", timeout=10_000)

    def create_table(
        self,
        seats: int = 2,
        others: Sequence[str] = (),
        *,
        private: bool = False,
        keyboard: bool = False,
    ) -> str:
        """A table made from the lobby: ``seats`` seats; seat 2 on as ``others`` says (a
        computer player's level, or "" to wait for a person), the rest the page's default;
        by keyboard (focus and Enter) or by a click. Returns its id once the page is seated."""
        page = self.page
        page.locator("#seats").select_option(str(seats))
        for number, choice in enumerate(others, start=2):
            page.locator(f"#seat-{number}").select_option(choice)
        if private:
            page.locator("#private").check()
        self._press(page.locator("#create-form button[type=submit]"), keyboard)
        page.wait_for_selector("#table:not([hidden])", timeout=10_000)
        return str(page.evaluate("() => window.fivecrowns.table"))

    def join(self, table: str) -> None:
        """Sit at ``table`` from the lobby with a click on its Join button; returns once the
        page shows the table."""
        self.page.get_by_role("button", name=f"Join table {table}").click()
        self.page.wait_for_selector("#table:not([hidden])", timeout=10_000)

    def start(self, *, keyboard: bool = False) -> None:
        """Start the game at the table this page made, once its Start button shows."""
        self.page.wait_for_selector("#start-button:not([hidden])", timeout=10_000)
        self._press(self.page.locator("#start-button"), keyboard)

    def create_and_start(
        self, name: str, seats: int = 2, others: Sequence[str] = (), *, keyboard: bool = False
    ) -> str:
        """Connect as ``name``, make a table (:meth:`create_table`) and start its game."""
        self.connect(name)
        table = self.create_table(seats, others, keyboard=keyboard)
        self.start(keyboard=keyboard)
        return table

    def dealt(self, name: str, others: Sequence[str] = ("medium",)) -> None:
        """Connect as ``name`` at a new table of 1 + ``others`` seats, start it, and wait for
        round 1's three cards in the hand."""
        self.create_and_start(name, 1 + len(others), others)
        self.page.wait_for_function(
            "() => document.querySelectorAll('#hand [role=option]').length === 3", timeout=10_000
        )

    def _press(self, button: Any, keyboard: bool) -> None:
        if keyboard:
            button.focus()
            self.page.keyboard.press("Enter")
        else:
            button.click()

    def state(self) -> dict[str, Any]:
        script = """() => {
            const app = window.fivecrowns;
            const snap = app.snapshot;
            return {
              seq: app.seq,
              snapSeq: snap ? snap.seq : -1,
              legal: snap ? snap.legal.map(m => m.move) : [],
              over: !!(snap && snap.view && snap.view.game_over),
              round: snap && snap.view ? snap.view.round : 0,
              // where the server's first card is shown (the page sorts by rank, as the
              // terminal; the line client's "x 1" throws the server's first card)
              firstShownAt: snap && snap.view && snap.view.hand && snap.view.hand.length
                ? app.hand().indexOf(snap.view.hand[0]) : 0,
            };
        }"""
        result: dict[str, Any] = self.page.evaluate(script)
        return result

    def my_turn(self) -> dict[str, Any] | None:
        state = self.state()
        if state["legal"] and state["snapSeq"] == state["seq"]:
            return state
        return None

    def wait_turn(self, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.my_turn()
            if state is not None:
                return state
            self.page.wait_for_timeout(20)
        raise AssertionError(f"never my turn; last said: {self.said()[-5:]}")

    def play_one(self, go_out: bool = True) -> bool:
        """One step by keyboard when it is this seat's turn: G, D, or the server's first card."""
        state = self.my_turn()
        if state is None:
            return False
        before = state["seq"]
        # why no locator.focus(): the page itself must keep focus on the hand
        legal = state["legal"]
        if go_out and "go_out" in legal:
            self.page.keyboard.press("g")
        elif "draw_stock" in legal:
            self.page.keyboard.press("d")
        else:  # the card the line client's "x 1" throws, found by arrows as a player would
            self.page.keyboard.press("Home")
            for _ in range(state["firstShownAt"]):
                self.page.keyboard.press("ArrowRight")
            self.page.keyboard.press("Enter")
        # the move is answered by a game event (or an error): wait for the page to hear it
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.state()["seq"] == before:
            self.page.wait_for_timeout(10)
        return True

    def click_one(self) -> bool:
        """One step with the mouse when it is this seat's turn, as a sighted player clicks."""
        state = self.my_turn()
        if state is None:
            return False
        before = state["seq"]
        legal = state["legal"]
        if "go_out" in legal:
            self.page.get_by_role("button", name="Go out (G)").click()
        elif "draw_stock" in legal:
            self.page.get_by_role("button", name="Draw (D)").click()
        else:  # click the card the line client's "x 1" would throw, then Discard
            self.page.locator(f"#card-{state['firstShownAt']}").click()
            self.page.get_by_role("button", name="Discard (Enter)").click()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.state()["seq"] == before:
            self.page.wait_for_timeout(10)
        return True

    def said(self) -> list[dict[str, str]]:
        result: list[dict[str, str]] = self.page.evaluate(
            "() => (window.__announcements || []).map(a => ({region: a.region, text: a.text}))"
        )
        return result

    def aria(self) -> str:
        text: str = self.page.locator("body").aria_snapshot()
        return normalize(text)


def normalize(text: str) -> str:
    """A table's number is random: the snapshot names it ``TABLE``."""
    return re.sub(r"\b[0-9a-f]{8}\b", "TABLE", text)


class Terminal(TmuxWindow):
    """``fivecrowns join`` in a tmux window beside the browser, in line mode."""

    def __init__(self, socket: str, name: str, url: str, folder: Path, extra: str = "") -> None:
        transcript = folder / f"{name}.txt"
        program = Path(os.environ.get("VIRTUAL_ENV", "")) / "bin" / "fivecrowns"
        if not program.exists():
            program = Path(sys.executable).parent / "fivecrowns"
        command = f"{program} join {url} --name {name} {extra} 2>&1 | tee {transcript}"
        super().__init__(socket, name, transcript)
        self.open(command, (120, 30))

    @staticmethod
    def require() -> None:
        require_tmux()


def record_speech(page: Any) -> None:
    """The page's built-in voice is recorded in ``window.__spoken`` (["speak", text] and
    ["cancel"]) from the page's first script on."""
    # why a recorder: headless Chromium has no voices; what the page asks of it is the test
    page.add_init_script(
        """(() => {
          window.__spoken = [];
          speechSynthesis.speak = (u) => window.__spoken.push(['speak', u.text]);
          speechSynthesis.cancel = () => window.__spoken.push(['cancel']);
        })()"""
    )


#: (for page.evaluate) what overlaps or leaves the screen on the page, in words
LAYOUT = (Path(__file__).parent / "web_layout.js").read_text(encoding="utf-8")
#: A laptop, a phone, and the laptop at 200% zoom (half the CSS pixels each way).
SIZES = {"1280x900": (1280, 900), "phone": (375, 740), "zoom200": (640, 450)}
# Each element wholly in the viewport and the topmost thing at its middle (no sticky panel,
# dialog or other part over it); why the middle: a pointer or a finger goes there.
#: (for page.evaluate with a list of selectors) what is out of sight or covered, in words
UNCOVERED = """(selectors) => selectors.flatMap((selector) => {
  const element = document.querySelector(selector);
  if (!element) return [`${selector}: not on the page`];
  const r = element.getBoundingClientRect();
  if (!r.width || !r.height) return [`${selector}: not shown`];
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
    return [`${selector}: out of sight (${r.top}..${r.bottom} of ${innerHeight})`];
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && (top === element || element.contains(top)) ? []
    : [`${selector}: covered by ${top ? `${top.tagName}#${top.id}.${top.className}` : 'nothing'}`];
})"""


def ask_last_moves(page: Any) -> str:
    """Press L on the hand and return the answer it brought (not an older one)."""
    count = "() => (window.__announcements || []).filter(a => a.region === 'answer').length"
    before = page.evaluate(count)
    page.locator("#hand").focus()
    page.keyboard.press("l")
    page.wait_for_function(f"() => ({count})() > {before}", timeout=10_000)
    said = page.evaluate(
        "() => window.__announcements.filter(a => a.region === 'answer').map(a => a.text)"
    )
    return str(said[-1]).replace("\u00a0", "")


def ax_nodes(page: Any) -> list[dict[str, Any]]:
    """Chromium's own accessibility tree of the page (over CDP), every node."""
    session = page.context.new_cdp_session(page)
    try:
        nodes: list[dict[str, Any]] = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return nodes


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """What axe-core finds wrong with the page's accessibility, rule by rule."""
    import importlib.resources

    source = importlib.resources.files(AXE).joinpath("axe.min.js").read_text(encoding="utf-8")
    # why evaluate, not add_script_tag: the page's Content-Security-Policy refuses inline scripts
    page.evaluate(source + "\n;0")
    result: dict[str, Any] = page.evaluate("async () => await axe.run(document)")
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]} for v in result["violations"]
    ]
