"""A real screen reader reading the web page: Orca under Xvfb, its speech captured as text.

Each ``OrcaDesk`` starts its own Xvfb (a display number Xvfb picks itself), a private session
D-Bus, the AT-SPI bus, Speech Dispatcher whose only voice is a script that writes what it is
given (and sleeps as long as a voice would), the game server, the browser (Debian's Chromium
or Firefox ESR) and Orca, all in one temporary folder, on free loopback ports, each stopped by
its own pid. Two Pythons can run these tests side by side on one machine (CI does).

The recipe and its traps: ../shared/tools/screen-reader/README.md. What it captures:
- ``orca.debug``: Orca's own log, one ``SPEECH OUTPUT: '...'`` line per utterance;
- ``spoken.txt``: what reached the synthesiser, ``START`` and ``END`` lines with the time; a
  START with no END was cut off (a key press stops speech).
Every wait is bounded in time, every loop in count.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from output_support import require
from server_support import ServerProcess

ORCA = "/usr/bin/orca"
PROGRAMS = {
    "Xvfb": "xvfb",
    "xdotool": "xdotool",
    "dbus-daemon": "dbus",
    "dbus-send": "dbus",
    "speech-dispatcher": "speech-dispatcher",
    "xdpyinfo": "x11-utils",
}
AT_SPI = "/usr/libexec/at-spi-bus-launcher"
BROWSERS = {"chromium": "/usr/bin/chromium", "firefox": "/usr/bin/firefox-esr"}
#: seconds a word takes in the recording voice (as the recipe: about 240 words a minute)
WORD_SECONDS = 0.25


def require_orca(browser: str) -> None:
    """Skip (fail under CI=true) when a part of the screen-reader desk is missing."""
    for program, package in PROGRAMS.items():
        require(shutil.which(program) is not None, f"{program} is not installed ({package})")
    require(Path(ORCA).exists(), "Orca is not installed (orca)")
    require(Path(AT_SPI).exists(), "the AT-SPI bus is not installed (at-spi2-core)")
    require(Path(BROWSERS[browser]).exists(), f"{BROWSERS[browser]} is not installed")
    found = subprocess.run(
        ["/usr/bin/python3", "-c", "import pyatspi, speechd"],
        capture_output=True,
        timeout=30,
        check=False,
    )
    require(found.returncode == 0, "python3-pyatspi or python3-speechd is not installed")


def free_port() -> int:
    """A loopback port free now (the browser binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip().rstrip(".")


@dataclass
class Utterance:
    at: float  # epoch seconds the synthesiser started it
    text: str
    whole: bool  # the synthesiser finished it (no key cut it off)


class OrcaDesk:
    """Xvfb, D-Bus, AT-SPI, Speech Dispatcher, the server, a browser and Orca, all private."""

    def __init__(self, folder: Path, browser: str, server_args: tuple[str, ...]) -> None:
        self.folder = folder
        self.browser = browser
        self.server_args = server_args
        self.procs: list[subprocess.Popen[bytes]] = []
        self.server: ServerProcess | None = None
        self.env: dict[str, str] = {}
        self.runtime: Path | None = None
        self.debug = folder / "orca.debug"
        self.spoken = folder / "spoken.txt"
        self.remote_port = 0
        self.page_url = ""
        self.window = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._counter = 0
        self._server_after = 0  # processes started after the game server stop before it
        self._debug_read = 0  # how much of Orca's log orca_behind() has read, and its counts
        self._debug_tail = b""
        self._queued = 0
        self._dequeued = 0
        self.key_sent = 0.0  # when the last key() had been sent (xdotool done)

    # --- starting --------------------------------------------------------------------------

    def start(self) -> OrcaDesk:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _spawn(self, name: str, command: list[str], **extra: Any) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{name}.log").open("wb")
        proc = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=self.env,
            start_new_session=True,  # why: a child's own children go with it (by its pid)
            **extra,
        )
        log.close()
        self.procs.append(proc)
        return proc

    def _wait(self, what: str, ready: Callable[[], bool], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}; logs in {self.folder}")

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(command), env=self.env, capture_output=True, text=True, timeout=15, check=False
        )

    def _start(self) -> None:
        home = self.folder / "home"
        # why a short folder of its own under /tmp: the buses' and Speech Dispatcher's sockets
        # live there, and a socket's path may be at most 107 bytes (pytest's own are deeper)
        runtime = Path(tempfile.mkdtemp(prefix="sr-", dir="/tmp"))
        self.runtime = runtime
        for folder in (home / ".config/speech-dispatcher/modules", home / "orca", home / "web"):
            folder.mkdir(parents=True)
        runtime.chmod(0o700)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "XDG_RUNTIME_DIR": str(runtime),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local/share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "LANG": "C.UTF-8",
            "GTK_MODULES": "gail:atk-bridge",
            "ACCESSIBILITY_ENABLED": "1",
            "NO_AT_BRIDGE": "0",
            "GNOME_ACCESSIBILITY": "1",
        }
        self._speech_dispatcher_config(home)
        # 1. Xvfb, on a display number it picks itself (why: two test runs side by side)
        read, write = os.pipe()
        self._spawn(
            "xvfb",
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number.isdigit(), f"Xvfb gave no display number; see {self.folder}/xvfb.log"
        self.env["DISPLAY"] = f":{number}"
        self._wait("Xvfb", lambda: self._run("xdpyinfo").returncode == 0, 15)
        # 2. a private session bus, 3. the accessibility bus, switched on
        bus = runtime / "bus"
        self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={bus}"
        self._spawn(
            "dbus",
            ["dbus-daemon", "--session", "--nofork", f"--address=unix:path={bus}"],
        )
        self._wait("the session bus", bus.exists, 10)
        self._spawn("atspi", [AT_SPI, "--launch-immediately"])
        a11y = ["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus"]
        self._wait(
            "the AT-SPI bus",
            lambda: self._run(*a11y, "org.a11y.Bus.GetAddress").returncode == 0,
            15,
        )
        self._run(
            *a11y,
            "org.freedesktop.DBus.Properties.Set",
            "string:org.a11y.Status",
            "string:IsEnabled",
            "variant:boolean:true",
        )
        # 4. Speech Dispatcher in the foreground, its socket in our runtime folder
        self._spawn("speechd", ["speech-dispatcher", "--run-single", "-t", "0"])
        sock = runtime / "speech-dispatcher" / "speechd.sock"
        self._wait("Speech Dispatcher", sock.exists, 60)  # why 60 s: slow under load
        # 5. the game server (its own process, port 0: the system picks a free one)
        self.server = ServerProcess(None, *self.server_args).start()
        self._server_after = len(self.procs)
        self.page_url = self.server.url.replace("ws://", "http://").removesuffix("/ws") + "/"
        # 6. the browser, 7. Orca
        self._start_browser(home / "web")
        self._wait(
            "the page",
            lambda: self.evaluate("document.documentElement.dataset.ready") == "true",
            60,
        )
        self._start_orca(home / "orca")
        title = " — Mozilla Firefox$" if self.browser == "firefox" else " - Chromium$"
        self._wait("the browser window", lambda: bool(self._find_window(title)), 30)
        self.window = self._find_window(title)
        self._run("xdotool", "windowactivate", "--sync", self.window)
        self._run("xdotool", "windowfocus", "--sync", self.window)
        # why a click low in the window: keys must reach the page, not the browser's own bar
        # (Firefox may start with focus there); nothing of the page is that low at first
        self._wait(
            "the page to have focus",
            lambda: self._click_page() and self.evaluate("document.hasFocus()") is True,
            20,
        )

    def _click_page(self) -> bool:
        self._run("xdotool", "mousemove", "--window", self.window, "1100", "860", "click", "1")
        time.sleep(0.5)
        return True

    def _find_window(self, title: str) -> str:
        out = self._run("xdotool", "search", "--name", title).stdout.split()
        return out[0] if out else ""

    def _speech_dispatcher_config(self, home: Path) -> None:
        record = self.folder / "sd-record.sh"
        # why one chunk a message (GenericDelimiters): a real voice gets Orca's utterance whole,
        # and a message cut into sentences could not be matched to what the page said
        record.write_text(
            "#!/bin/sh\n"
            f'printf \'%s START %s\\n\' "$(date +%s.%N)" "$1" >> {self.spoken}\n'
            'sleep $(awk -v w="$(printf \'%s\' "$1" | wc -w)" '
            f"'BEGIN{{d={WORD_SECONDS}*w; if (d<0.3) d=0.3; print d}}')\n"
            f'printf \'%s END   %s\\n\' "$(date +%s.%N)" "$1" >> {self.spoken}\n'
        )
        record.chmod(0o755)
        self.spoken.write_text("")
        (home / ".asoundrc").write_text("pcm.!default { type null }\n")
        config = home / ".config/speech-dispatcher"
        (config / "speechd.conf").write_text(
            "LogLevel 3\n"
            f'LogDir "{self.folder}"\n'
            "Timeout 0\n"
            'AudioOutputMethod "alsa"\n'
            'AddModule "recorder" "sd_generic" "recorder.conf"\n'
            "DefaultModule recorder\n"
            'LanguageDefaultModule "en" "recorder"\n'
        )
        (config / "modules/recorder.conf").write_text(
            f"GenericExecuteSynth \"{record} '$DATA'\"\n"
            'GenericDelimiters "~"\n'
            "GenericMaxChunkLength 100000\n"
            'AddVoice "en" "MALE1" "default"\n'
            'DefaultVoice "default"\n'
            'GenericLanguage "en" "en" "utf-8"\n'
        )

    def _start_browser(self, profile: Path) -> None:
        self.remote_port = free_port()
        if self.browser == "firefox":
            (profile / "user.js").write_text(
                "".join(
                    f'user_pref("{name}", {value});\n'
                    for name, value in (
                        ("browser.shell.checkDefaultBrowser", "false"),
                        ("browser.startup.homepage_override.mstone", '"ignore"'),
                        ("browser.aboutwelcome.enabled", "false"),
                        ("datareporting.policy.dataSubmissionEnabled", "false"),
                        ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
                        ("trailhead.firstrun.didSeeAboutWelcome", "true"),
                        ("browser.tabs.warnOnClose", "false"),
                        ("app.update.enabled", "false"),
                        ("browser.sessionstore.resume_from_crash", "false"),
                    )
                )
            )
            command = [
                BROWSERS["firefox"],
                "--no-remote",
                "--new-instance",
                "--profile",
                str(profile),
                "--remote-debugging-port",
                str(self.remote_port),
                "--width",
                "1200",
                "--height",
                "900",
                self.page_url,
            ]
        else:
            command = [
                BROWSERS["chromium"],
                "--no-sandbox",
                "--force-renderer-accessibility",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--password-store=basic",
                f"--remote-debugging-port={self.remote_port}",
                "--remote-debugging-address=127.0.0.1",
                "--window-size=1200,900",
                "--window-position=0,0",
                "--disable-features=Translate,MediaRouter",
                self.page_url,
            ]
        self._spawn("browser", command)

    def _start_orca(self, prefs: Path) -> None:
        # why a copy of /usr/bin/orca: its debug log is block-buffered; line-buffered here, so
        # the test reads each utterance as it is spoken
        source = Path(ORCA).read_text()
        opened = "debug.debugFile = open(args.debug_file, 'w')"
        assert opened in source, "this Orca opens its debug file another way"
        # why no check for other Orcas: Orca refuses to start while any process of the same
        # user is named orca (pgrep), machine-wide; each desk has its own display and buses, so
        # two desks side by side (pytest -n 2: Chromium and Firefox at once) are no conflict
        others = "    if otherOrcas():\n"
        assert others in source, "this Orca looks for other Orcas another way"
        source = source.replace(opened, opened[:-1] + ", buffering=1)")
        launcher = self.folder / "orca-launch"
        launcher.write_text(source.replace(others, "    if False:  # a private desk\n"))
        self._spawn(
            "orca",
            ["/usr/bin/python3", str(launcher), "-u", str(prefs), "--debug-file", str(self.debug)],
        )
        self._wait(
            "Orca",
            lambda: (
                self.debug.exists()
                and "Screen reader on." in self.debug.read_text("utf-8", "replace")
            ),
            60,
        )

    # --- stopping --------------------------------------------------------------------------

    def stop(self) -> str:
        """Stops every process this desk started, newest first, each by its own pid (its
        process group: a browser's helpers go with it; Orca may ignore SIGTERM, so SIGKILL
        after a bounded wait); returns what the game server wrote to stderr."""
        self._close_remote()
        for proc in reversed(self.procs[self._server_after :]):
            self._end(proc)
        errors = self.server.stop() if self.server is not None else ""
        self.server = None
        for proc in reversed(self.procs[: self._server_after]):
            self._end(proc)
        self.procs = []
        if self.runtime is not None:
            shutil.rmtree(self.runtime, ignore_errors=True)
            self.runtime = None
        return errors

    @staticmethod
    def _end(proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    # --- the page, read-only ---------------------------------------------------------------

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the game's tab (None if unreachable)."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            threading.Thread(target=self._loop.run_forever, daemon=True).start()
        future = asyncio.run_coroutine_threadsafe(self._evaluate(expression), self._loop)
        try:
            return future.result(timeout=20)
        except (OSError, aiohttp.ClientError, TimeoutError, IndexError, KeyError, StopIteration):
            future.cancel()
            return None

    async def _evaluate(self, expression: str) -> Any:
        wrapped = f"JSON.stringify({expression})"
        if self._session is None:
            self._session = aiohttp.ClientSession()
        if self.browser == "firefox":
            return await asyncio.wait_for(self._bidi(wrapped), 15)
        return await asyncio.wait_for(self._cdp(wrapped), 10)

    async def _cdp(self, expression: str) -> Any:
        assert self._session is not None
        base = f"http://127.0.0.1:{self.remote_port}"
        async with self._session.get(f"{base}/json/list") as reply:
            targets = [t for t in await reply.json() if t.get("url", "").startswith(self.page_url)]
        url = targets[0]["webSocketDebuggerUrl"]
        async with self._session.ws_connect(url, max_msg_size=0) as ws:
            params = {"expression": expression, "returnByValue": True, "awaitPromise": True}
            await ws.send_json({"id": 1, "method": "Runtime.evaluate", "params": params})
            async for message in ws:
                data = json.loads(message.data)
                if data.get("id") == 1:
                    value = data["result"].get("result", {}).get("value")
                    return json.loads(value) if isinstance(value, str) else None
        return None

    async def _bidi_call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self._ws is not None
        self._counter += 1
        number = self._counter
        await self._ws.send_json({"id": number, "method": method, "params": params})
        async for message in self._ws:
            data: dict[str, Any] = json.loads(message.data)
            if data.get("id") == number:
                return data
        return {}

    async def _bidi(self, expression: str) -> Any:
        # why one session for the desk's life: Firefox allows one WebDriver BiDi session, and a
        # session left behind by a call that timed out would refuse every later one
        assert self._session is not None
        if self._ws is None or self._ws.closed:
            url = f"ws://127.0.0.1:{self.remote_port}/session"
            self._ws = await self._session.ws_connect(url, max_msg_size=0)
            await self._bidi_call("session.new", {"capabilities": {}})
        tree = await self._bidi_call("browsingContext.getTree", {})
        contexts = tree["result"]["contexts"]
        # why a default: before the page has loaded, no tab shows it yet (and StopIteration
        # inside a coroutine would turn into a RuntimeError)
        target = next((c["context"] for c in contexts if c["url"].startswith(self.page_url)), None)
        if target is None:
            return None
        result = await self._bidi_call(
            "script.evaluate",
            {
                "expression": expression,
                "target": {"context": target},
                "awaitPromise": True,
                "resultOwnership": "none",
            },
        )
        value = result.get("result", {}).get("result", {}).get("value")
        return json.loads(value) if isinstance(value, str) else None

    def _close_remote(self) -> None:
        loop = self._loop
        if loop is None:
            return

        async def close() -> None:
            if self._ws is not None:
                await self._ws.close()
            if self._session is not None:
                await self._session.close()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(close(), loop).result(timeout=5)
        loop.call_soon_threadsafe(loop.stop)
        self._loop = None

    def wait_page(self, expression: str, seconds: float = 30) -> None:
        self._wait(expression, lambda: self.evaluate(expression) is True, seconds)

    def active(self) -> str:
        found = self.evaluate(
            "(e => !document.hasFocus() ? 'NOT-IN-PAGE' : e ?"
            " (e.id || e.textContent.trim().slice(0, 40) || e.tagName) : 'NONE')"
            "(document.activeElement)"
        )
        return str(found)

    def wait_active(self, element: str, seconds: float = 10) -> str:
        """The focused element once it is ``element``, or after ``seconds`` (focus moves late)."""
        deadline = time.monotonic() + seconds
        found = self.active()
        while found != element and time.monotonic() < deadline:
            time.sleep(0.2)
            found = self.active()
        return found

    def wait_said(self, seconds: float = 60) -> None:
        """Until everything is said, at most ``seconds``: nothing being said, nothing the page
        still has to say or may have to give again, Orca caught up (see clear_moment)."""
        self.clear_moment(limit=seconds)

    # --- keys ------------------------------------------------------------------------------

    def clear_moment(self, limit: float = 30.0, mid_sentence: bool = False) -> bool:
        """Waits (at most ``limit`` s) for a moment when a key's effect on speech is certain:
        in silence (nothing being said, nothing the page thinks may still be unsaid, and no
        sentence about to go out, and Orca caught up with the page), or with ``mid_sentence``
        also in the middle of the page's own sentence (begun 0.3 s ago, 0.6 s still to say);
        False if none came in ``limit`` s. Why:
        near a sentence's end, or while the screen reader says its own words before it, the
        page cannot know whether the sentence was heard, and a key there may hear it again
        (docs/web.md says so); the tests press keys where the answer is sure."""
        deadline = time.monotonic() + limit
        page = (
            "((n, now) => !n ? null : {text: n.current ? n.current.text : '',"
            " idle: !n.current || n.current.unsure < now,"
            " left: n.current ? (n.current.unsure - now) / 1000 : 0,"
            # how soon the next waiting sentence goes out (a key then would race it)
            " next: !n.queue.length ? 99 : (Math.max(n.current ? n.current.until : 0,"
            " n.lastKeyAt + window.fivecrowns.timing.pace.afterKeyMs, n.busyUntil) - now) / 1000})"
            "(window.fivecrowns && window.fivecrowns.news, performance.now())"
        )
        while time.monotonic() < deadline:
            if self.orca_behind() > 0:  # Orca has not yet caught up with the page
                time.sleep(0.15)
                continue
            open_one = self.speaking()
            current = self.evaluate(page)
            now = time.time()
            if open_one is not None:
                start, text = open_one
                end = start + max(0.3, WORD_SECONDS * len(text.split()))
                mine = current is not None and normalize(text) == normalize(current["text"])
                # and the page still counts it unsure: it gives it again if a key cuts it
                mine = mine and current is not None and current["left"] >= 0.5
                if mid_sentence and mine and now - start >= 0.3 and end - now >= 0.6:
                    return True
            elif (
                current is None or (current["idle"] and current["next"] >= 0.5)
            ) and now - self.last_spoken() >= 0.3:
                return True
            time.sleep(0.15)  # why not faster: each look at the page costs the browser time
        return False

    def orca_behind(self) -> int:
        """How many events Orca has received and not yet handled (its log: Queueing, Dequeued).
        Why it matters: Orca may run seconds behind the page, and a key pressed then lands
        before Orca has said (or even heard of) what came before it."""
        if not self.debug.exists():
            return 0
        with self.debug.open("rb") as log:
            log.seek(self._debug_read)
            data = log.read()
        self._debug_read += len(data)
        complete, _, self._debug_tail = (self._debug_tail + data).rpartition(b"\n")
        self._queued += complete.count(b"EVENT MANAGER: Queueing ")
        self._dequeued += complete.count(b"EVENT MANAGER: Dequeued ")
        return self._queued - self._dequeued

    def speaking(self) -> tuple[float, str] | None:
        """The utterance the synthesiser is saying now (start, text), if any."""
        open_ones: dict[str, float] = {}
        for line in self.spoken.read_text("utf-8", "replace").splitlines():
            parts = line.split(" ", 2)
            if len(parts) < 3:
                continue
            text = parts[2].lstrip(" ")  # why not strip: Orca's key echo ends with a space
            if parts[1] == "START":
                open_ones[text] = float(parts[0])
            else:
                open_ones.pop(text, None)
        if not open_ones:
            return None
        text, start = max(open_ones.items(), key=lambda item: item[1])
        # a START with no END long after its length was cut off, not being said
        if time.time() - start > WORD_SECONDS * len(text.split()) + 1.0:
            return None
        return start, text

    def last_spoken(self) -> float:
        lines = self.spoken.read_text("utf-8", "replace").splitlines()
        return float(lines[-1].split(" ", 1)[0]) if lines else 0.0

    def key(self, name: str) -> float:
        """Presses a key (as a keyboard would, through the X server); its epoch time, taken
        before xdotool starts; ``key_sent`` is when xdotool had sent it (why both: on a
        loaded machine starting xdotool took up to 2 s, so the key reached the browser late)."""
        at = time.time()
        done = self._run("xdotool", "key", "--clearmodifiers", name)
        self.key_sent = time.time()
        assert done.returncode == 0, done.stderr
        return at

    def type_text(self, text: str) -> None:
        self._run("xdotool", "type", "--delay", "80", text)

    def tab_to(self, element: str, key: str = "Tab", tries: int = 30) -> None:
        for _ in range(tries):
            before = self.active()
            if before == element:
                return
            self.clear_moment()
            self.key(key)
            deadline = time.monotonic() + 1  # until focus moved (in the browser's bar: unseen)
            while self.active() == before and time.monotonic() < deadline:
                time.sleep(0.1)
        raise AssertionError(f"{key} never reached #{element}; at {self.active()}")

    # --- what was said -----------------------------------------------------------------------

    def orca_said(self) -> list[tuple[float, str]]:
        """Orca's utterances (its own log), with their epoch times, key echoes left out."""
        today = dt.date.today()
        said = []
        pattern = re.compile(r"^(\d\d:\d\d:\d\d\.\d+) - SPEECH OUTPUT: '(.*)'")
        for line in self.debug.read_text("utf-8", "replace").splitlines():
            found = pattern.match(line)
            if found:
                clock = dt.time.fromisoformat(found.group(1))
                at = dt.datetime.combine(today, clock).timestamp()
                said.append((at, found.group(2)))
        return said

    def focus_failures(self) -> list[str]:
        """Orca's own errors on focus events (its log), each with its time."""
        failed = re.compile(r"^(\S+) - ERROR: Could not process (\S*focus\S*)")
        found = (
            failed.match(line) for line in self.debug.read_text("utf-8", "replace").splitlines()
        )
        return [f"{m.group(1)} {m.group(2)}" for m in found if m]

    def heard(self) -> list[Utterance]:
        """What reached the synthesiser, in order; ``whole`` when it was spoken to its end."""
        heard: list[Utterance] = []
        open_ones: dict[str, list[Utterance]] = {}
        for line in self.spoken.read_text("utf-8", "replace").splitlines():
            parts = line.split(" ", 2)
            if len(parts) < 3:
                continue
            # why not strip: Orca's key echo ("return ") ends with a space, a page's sentence not
            at, kind, text = float(parts[0]), parts[1], parts[2].lstrip(" ")
            if kind == "START":
                utterance = Utterance(at, text, False)
                heard.append(utterance)
                open_ones.setdefault(text, []).append(utterance)
            elif kind == "END" and open_ones.get(text):
                open_ones[text].pop().whole = True  # a cut START never ends: the last one did
        return heard


def wait_quiet(desk: OrcaDesk, seconds: float = 2.0, limit: float = 60.0) -> None:
    """Until the synthesiser has had nothing new for ``seconds`` (at most ``limit``)."""
    deadline = time.monotonic() + limit
    last = -1
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        size = desk.spoken.stat().st_size
        if size != last:
            last = size
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= seconds:
            text = desk.spoken.read_text("utf-8", "replace").splitlines()
            starts = sum(1 for line in text if " START " in line)
            ends = sum(1 for line in text if " END " in line)
            if starts == ends or time.monotonic() - quiet_since >= seconds * 3:
                return
        time.sleep(0.2)


__all__ = ["OrcaDesk", "Utterance", "normalize", "require_orca", "wait_quiet"]
