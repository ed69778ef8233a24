"""The two presentations over the one command layer: full screen and line mode.

Both are prompt_toolkit applications whose key bindings come from the keymap
table and forward every key to :meth:`Controller.press`. The full screen draws
the table; line mode draws nothing (its renderer writes to a dummy output) and
appends each message as a plain line, so a screen reader or braille display
reading the console gets every message once and nothing is redrawn.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Callable
from typing import Protocol, TextIO

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app, set_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import DummyOutput, Output

from fivecrowns.ui.idle_gc import IDLE_AFTER_KEY, IdleCollector
from fivecrowns.ui.keymap import Keymap
from fivecrowns.ui.model import TableModel
from fivecrowns.ui.screen import STYLE, render_table
from fivecrowns.words.text import printable

__all__ = ["CLEAR_SCREEN_AND_SCROLLBACK", "Controller", "Presentation", "key_name"]

#: Cursor home, erase the screen (CSI 2 J), then the scrollback (CSI 3 J), as `clear` does.
#: why this order: terminals like tmux move a cleared screen into the scrollback first.
CLEAR_SCREEN_AND_SCROLLBACK = "\x1b[H\x1b[2J\x1b[3J"


class Controller(Protocol):
    """What a presentation needs from the command layer."""

    keymap: Keymap
    delay: float

    def press(self, key: str) -> None: ...
    def table(self) -> TableModel: ...
    def bot_due(self) -> bool: ...
    def step_bot(self) -> None: ...
    def wants_exit(self) -> bool: ...
    def add_listener(self, listener: Callable[[str], None]) -> None: ...
    def add_clear_listener(self, listener: Callable[[], None]) -> None: ...


def key_name(key: object) -> str:
    """prompt_toolkit's name for a pressed key ("left", "c-m", "H", ",")."""
    return key.value if isinstance(key, Keys) else str(key)


class _Driver:
    """Runs computer players' turns after a key, paced by the controller's delay."""

    def __init__(self, controller: Controller, app: Application[None]) -> None:
        self.controller = controller
        self.app = app
        self.task: asyncio.Task[None] | None = None
        self.collector = IdleCollector()
        self._idle_timer: asyncio.TimerHandle | None = None

    def after_key(self) -> None:
        if self.controller.delay <= 0:
            while self.controller.bot_due() and not self.controller.wants_exit():
                self.controller.step_bot()
        elif self.controller.bot_due() and (self.task is None or self.task.done()):
            self.task = self.app.create_background_task(self._paced())
        self._idle_soon()
        self._maybe_exit()

    def _idle_soon(self) -> None:
        """A full collection, if due, once no key came for a moment (a new key postpones it)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # driven without an event loop (tests, benchmarks): they call idle() themselves
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        self._idle_timer = loop.call_later(IDLE_AFTER_KEY, self.idle)

    def idle(self) -> None:
        """The player is waiting anyway: run a full garbage collection now if one is due."""
        self.collector.idle()

    async def _paced(self) -> None:
        while self.controller.bot_due() and not self.controller.wants_exit():
            self.idle()  # why: the pause before a computer's move is idle time, not a key's
            await asyncio.sleep(self.controller.delay)
            self.controller.step_bot()
            self.app.invalidate()  # a move changed the table: the only redraw without a key
        self._maybe_exit()

    def _maybe_exit(self) -> None:
        if self.controller.wants_exit() and self.app.is_running and not self.app.is_done:
            self.app.exit()


def _bindings(controller: Controller, driver: Callable[[], _Driver]) -> KeyBindings:
    bindings = KeyBindings()

    def forward(event: KeyPressEvent) -> None:
        name = key_name(event.key_sequence[0].key)
        if name.startswith("<") and len(name) > 1:
            return  # terminal reports and prompt_toolkit's internal keys, not a key press
        controller.press(name)
        driver().after_key()

    # Every key of the table gets its own binding so that none of prompt_toolkit's
    # default bindings can take it; Any catches the rest to say they do nothing.
    for key in sorted(controller.keymap.all_keys()):
        bindings.add(key, eager=True)(forward)
    bindings.add(Keys.Any)(forward)
    # why: mouse support is off, yet prompt_toolkit's parser reads colour codes such as
    # ESC[0m or ESC[1;31m (pasted or sent by a terminal) as mouse reports, and its own
    # mouse handler then raises; this binding wins over it and drops them (issue 16).
    bindings.add(Keys.Vt100MouseEvent, eager=True)(lambda event: None)
    return bindings


class Presentation:
    """One prompt_toolkit application over a controller: full screen or line mode.

    In line mode the renderer gets a :class:`DummyOutput` and messages go to
    ``stdout`` (the real console) as lines.
    """

    def __init__(
        self,
        controller: Controller,
        *,
        line_mode: bool,
        input: Input | None = None,
        output: Output | None = None,
        stdout: TextIO | None = None,
        render: Callable[[], StyleAndTextTuples] | None = None,
    ) -> None:
        self.controller = controller
        bindings = _bindings(controller, lambda: self.driver)
        if line_mode:
            console = stdout or sys.stdout

            def write_line(text: str) -> None:
                # why printable: at a network table names, chat and sentences come from a
                # server, and must not drive the terminal (full screen draws them as text)
                console.write(printable(text) + "\n")
                console.flush()

            def clear_lines() -> None:
                # Hot seat: push the previous player's lines off the screen, then clear the
                # screen and the scrollback, so the next player cannot read them back.
                rows = shutil.get_terminal_size().lines
                console.write("\n" * rows + CLEAR_SCREEN_AND_SCROLLBACK)
                console.flush()

            controller.add_listener(write_line)
            controller.add_clear_listener(clear_lines)
            self.app: Application[None] = Application(
                layout=Layout(Window(FormattedTextControl(""), height=0)),
                key_bindings=bindings,
                input=input,
                output=DummyOutput(),
                full_screen=False,
            )
        else:
            # why render: another game (solitaire) draws its own screen over the same controller
            def fitted() -> StyleAndTextTuples:
                size = get_app().output.get_size()  # why: the table fits the terminal
                return render_table(controller.table(), size.columns, size.rows)

            draw = render or fitted
            control = FormattedTextControl(draw, focusable=True, show_cursor=True)
            window = Window(control, wrap_lines=True)
            self.app = Application(
                layout=Layout(window, focused_element=window),
                key_bindings=bindings,
                style=STYLE,
                input=input,
                output=output,
                full_screen=True,
                mouse_support=False,
            )
        # A lone Escape opens the menu: wait only briefly to tell it from an arrow key's sequence.
        self.app.ttimeoutlen = 0.05
        # why: no binding is longer than one key, so never wait for a second key (and no timer).
        self.app.timeoutlen = None  # type: ignore[assignment]  # documented as float or None
        self.driver = _Driver(controller, self.app)
        self._loop: asyncio.AbstractEventLoop | None = None  # set when the application runs
        self._early: list[Callable[[], None]] = []  # call_soon before that
        self._prime_key_bindings()

    def _prime_key_bindings(self) -> None:
        """Build prompt_toolkit's merged key-binding table now, not on the first key press.

        why: building it takes about 20 ms, which the player would otherwise wait
        for on the first key; a harmless Ignore key press makes it happen here.
        """
        with set_app(self.app):
            self.app.key_processor.feed(KeyPress(Keys.Ignore))
            self.app.key_processor.process_keys()

    def call_soon(self, action: Callable[[], None]) -> None:
        """From any thread (a network link's): run ``action`` on the application's loop, then
        redraw; news from a table is told without waiting for a key. What comes before the
        application runs is done when it starts; after it ends, nothing happens."""
        loop = self._loop
        if loop is None:
            self._early.append(action)  # why: news that came before the loop must not be lost
            return
        if loop.is_closed():
            return

        def run() -> None:
            if not self.app.is_running or self.app.is_done:
                return
            action()
            self.app.invalidate()
            self.driver._maybe_exit()

        loop.call_soon_threadsafe(run)

    def _pre_run(self) -> None:
        self._loop = asyncio.get_running_loop()
        early, self._early = self._early, []
        for action in early:
            self.call_soon(action)
        self.driver.after_key()

    async def run_async(self) -> None:
        """Run until the controller wants to exit; computer players may move before any key."""
        self.driver.collector.start()
        try:
            await self.app.run_async(pre_run=self._pre_run)
        finally:
            self.driver.collector.stop()

    def run(self) -> None:
        self.driver.collector.start()
        try:
            self.app.run(pre_run=self._pre_run)
        finally:
            self.driver.collector.stop()
