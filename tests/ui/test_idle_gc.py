"""Full garbage collections move to idle moments while a presentation runs (issue 15)."""

from __future__ import annotations

import asyncio
import gc

from fivecrowns.ui import idle_gc
from fivecrowns.ui.idle_gc import IdleCollector


def test_full_collections_wait_for_an_idle_moment_and_the_old_schedule_comes_back() -> None:
    before = gc.get_threshold()
    collector = IdleCollector()
    assert not collector.idle()  # not started: never collects
    collector.start()
    try:
        assert gc.get_threshold()[2] == idle_gc.BACKSTOP
        assert gc.get_freeze_count() > 0
        assert not collector.idle()  # just collected at start: nothing due
        # Young collections pile up as in play; CPython itself would have run a full one.
        for _ in range(idle_gc.DUE_AFTER):
            gc.collect(1)
        assert gc.get_count()[2] >= idle_gc.DUE_AFTER
        assert collector.idle()
        assert gc.get_count()[2] == 0
        assert collector.collections == 1
    finally:
        collector.stop()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    collector.stop()  # twice is harmless


def test_the_paced_computer_turns_collect_while_the_player_waits() -> None:
    from fivecrowns.ui.app import _Driver

    class Table:
        delay = 0.001

        def __init__(self) -> None:
            self.moves_left = 3
            self.order: list[str] = []

        def bot_due(self) -> bool:
            return self.moves_left > 0

        def wants_exit(self) -> bool:
            return False

        def step_bot(self) -> None:
            self.order.append("move")
            self.moves_left -= 1

    class App:
        is_running = False
        is_done = False

        def invalidate(self) -> None:
            pass

    table = Table()
    driver = _Driver(table, App())  # type: ignore[arg-type]
    driver.collector.idle = lambda: table.order.append("idle") or False  # type: ignore[method-assign]
    asyncio.run(driver._paced())
    assert table.order == ["idle", "move"] * 3  # each pause before a move is an idle moment
