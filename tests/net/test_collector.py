"""The server's collector keeps full collections out of the moves (issue 29, item 5): CPython's
own full collections are off, long-lived objects are frozen out of the scans, and a full
collection runs only when the frozen objects have doubled."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from fivecrowns.net.server.collector import BACKSTOP, DUE_AFTER, MIDDLE, YOUNG, QuietCollector


@pytest.fixture(name="clean_gc")
def clean_gc_fixture() -> Iterator[None]:
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _middle_collections(count: int) -> None:
    for _ in range(count):
        gc.collect(1)


def test_start_freezes_what_lives_and_stop_gives_everything_back(clean_gc: None) -> None:
    before = gc.get_threshold()
    collector = QuietCollector()
    collector.start()
    assert gc.get_freeze_count() > 1000  # the modules loaded so far
    assert gc.get_threshold() == (YOUNG, MIDDLE, BACKSTOP)
    collector.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_young_collections_wait_for_more_new_objects_than_cpythons_700(clean_gc: None) -> None:
    collector = QuietCollector()
    collector.start()
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.collect(0)  # why: the count starts from nothing
    gc.callbacks.append(note)
    try:
        kept = [[index] for index in range(2000)]  # what a few hundred moves leave alive
        assert not seen, f"a collection of generation {seen} ran after {len(kept)} objects"
        kept += [[index] for index in range(YOUNG)]
        assert seen[:1] == [0]  # and one does run, later
    finally:
        gc.callbacks.remove(note)
        collector.stop()


def test_survivors_are_frozen_when_a_full_collection_would_have_been_due(clean_gc: None) -> None:
    collector = QuietCollector()
    collector.start()
    try:
        assert collector.tick() is None  # nothing due yet
        kept = [[index] for index in range(1000)]  # long-lived objects, tracked by the collector
        _middle_collections(DUE_AFTER)
        frozen = gc.get_freeze_count()
        assert collector.tick() == "promote"
        assert gc.get_freeze_count() >= frozen + len(kept)  # no longer scanned
        assert collector.tick() is None  # the next one is due after as many again
    finally:
        collector.stop()


def test_a_full_collection_runs_once_the_frozen_objects_doubled_and_frees_frozen_cycles(
    clean_gc: None,
) -> None:
    collector = QuietCollector(deep_every=0.0, count_every=0.0)
    collector.start()
    try:
        # cycles that lived long enough to be frozen, then became garbage
        cycles = []
        for _ in range(gc.get_freeze_count()):
            node: list[object] = []
            node.append(node)
            cycles.append(node)
        _middle_collections(DUE_AFTER)
        assert collector.tick() == "promote"
        del cycles, node
        _middle_collections(DUE_AFTER)
        assert collector.tick() == "deep"
        assert collector.deep == 1
        _middle_collections(DUE_AFTER)
        assert collector.tick() == "promote"  # the frozen cycles went; no second full one
    finally:
        collector.stop()


def test_the_benchmark_switch_writes_each_collection_and_its_time(
    clean_gc: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gc.json"
    monkeypatch.setenv("FIVECROWNS_GC_LOG", str(path))
    collector = QuietCollector.from_environment()
    collector.start()
    _middle_collections(DUE_AFTER)
    collector.tick()
    collector.stop()
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["promotions"] == 1
    generations = [entry["generation"] for entry in written["gc"]]
    assert generations.count(2) == 1  # the one at start-up, before anything was frozen
    assert generations.count(1) >= DUE_AFTER + 1
    assert all(entry["ms"] >= 0 and entry["cpu_ms"] >= 0 for entry in written["gc"])


def test_no_full_collection_sooner_than_its_interval_however_much_was_frozen(
    clean_gc: None,
) -> None:
    collector = QuietCollector(deep_every=3600.0, count_every=0.0)
    collector.start()
    try:
        kept = [[index] for index in range(2 * gc.get_freeze_count())]  # a server filling up
        for _ in range(3):
            _middle_collections(DUE_AFTER)
            assert collector.tick() == "promote"
        assert collector.deep == 0 and kept
    finally:
        collector.stop()


def test_frozen_objects_freed_by_their_counts_bring_no_full_collection(clean_gc: None) -> None:
    collector = QuietCollector(deep_every=0.0, count_every=0.0)
    collector.start()
    try:
        tables = [[index] for index in range(2 * gc.get_freeze_count())]  # no cycles
        _middle_collections(DUE_AFTER)
        assert collector.tick() == "promote"
        del tables  # the tables closed: reference counting frees them, frozen or not
        _middle_collections(DUE_AFTER)
        assert collector.tick() == "promote"  # counted: they are gone, nothing to collect
        assert collector.deep == 0
    finally:
        collector.stop()
