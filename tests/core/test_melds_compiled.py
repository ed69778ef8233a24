"""The compiled search (src/fivecrowns/core/melds/_melds_c.c): built, current, same answers.

``test_melds_reference.py`` runs every comparison with the reference through both searches;
this file checks what only the compiled one has: that CI built it from the source it has,
that cards which are not the deck's own objects read the same, that tables which fill in the
middle of a call change no answer (the call starts again, and a hand too big even then goes
to the pure-Python search), and that bad input is an exception, never a crash.
"""

from __future__ import annotations

import hashlib
import random
import sys
import threading
from pathlib import Path

import pytest

from fivecrowns.core.cards import JOKER, Card, Rank, Suit, card_from_code, new_deck, parse_cards
from fivecrowns.core.melds import reference as melds_reference
from fivecrowns.core.melds import solver as melds
from melds_support import assert_same, dealt, dense, require_compiled

SOURCE = Path(melds.__file__).with_name("_melds_c.c")


@pytest.fixture(autouse=True)
def compiled() -> object:
    require_compiled()
    return melds._C


def test_the_compiled_module_was_built_from_the_source_beside_it() -> None:
    assert melds._C is not None
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert digest == melds._C.SOURCE_SHA256, (
        "fivecrowns/core/melds/_melds_c.c changed after it was built: run bash scripts/setup again"
    )


def test_cards_that_are_not_the_deck_objects_read_the_same() -> None:
    rng = random.Random(3)
    for _ in range(200):
        hand, wild_rank = dealt(rng, rng.randint(3, 14))
        copies = [Card(card.rank, card.suit) for card in hand]  # equal, not the same objects
        assert all(a == b and a is not b for a, b in zip(hand, copies, strict=True))
        assert melds.best_with_discard(copies, wild_rank) == melds.best_with_discard(
            hand, wild_rank
        )
        assert melds.best_arrangement(copies, wild_rank) == melds_reference.best_arrangement(
            hand, wild_rank
        )


def test_full_tables_start_the_call_again_and_change_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert melds._C is not None
    fallbacks = []
    python_hand = melds._hand

    def counting(*args: object) -> object:
        fallbacks.append(args)
        return python_hand(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(melds, "_hand", counting)
    rng = random.Random(11)
    try:
        # Tiny tables: emptied before most calls, and filled in the middle of large hands.
        melds._C.limits(40, 120, 4, 8, 200, 400)
        for _ in range(150):
            assert_same(*dealt(rng, rng.randint(3, 14)))
            assert_same(*dense(rng))
            memo, tables, options = melds._C.sizes()
            assert memo < 120 and tables < 8 and options <= 400
    finally:
        melds._C.limits(0, 0, 0, 0, 0, 0)
    # some hands were too big even for empty tiny tables: the pure-Python search took them
    assert fallbacks
    # and with the real bounds the compiled search takes every one of those hands itself
    fallbacks.clear()
    rng = random.Random(11)
    for _ in range(150):
        assert_same(*dealt(rng, rng.randint(3, 14)))
        assert_same(*dense(rng))
    assert not fallbacks


def test_clear_caches_empties_the_compiled_tables() -> None:
    assert melds._C is not None
    worst = parse_cards("3h 6c 7st 7st 7h 7h 7c 7c 7sp 7sp 7d 7d 10c Ksp")
    melds.best_with_discard(worst, Rank.THREE)
    assert all(melds._C.sizes())
    melds.clear_caches(tables=False)
    memo, tables, options = melds._C.sizes()
    assert memo == 0 and tables and options
    melds.clear_caches()
    assert melds._C.sizes() == (0, 0, 0)


def test_bad_input_is_the_same_exception_as_the_pure_python_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert melds._C is not None
    with pytest.raises(AttributeError):
        melds.best_arrangement([object()], Rank.FIVE)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="wild rank"):
        melds._C.arrange(parse_cards("3h 4h 5h"), 2, 0)
    with pytest.raises(TypeError):
        melds._C.arrange(5, 5, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        melds._C.limits(-1, 0, 0, 0, 0, 0)
    monkeypatch.setattr(melds, "_C", None)
    with pytest.raises(AttributeError):
        melds.best_arrangement([object()], Rank.FIVE)  # type: ignore[list-item]


def test_every_dealt_hand_of_a_whole_deck_agrees() -> None:
    """The 116-card deck dealt out into hands of every size, many times over."""
    rng = random.Random(2026)
    for _ in range(40):
        deck = new_deck(2)
        rng.shuffle(deck)
        size = rng.randint(3, 14)
        for start in range(0, len(deck) - size, size):
            assert_same(deck[start : start + size], Rank(rng.randint(3, 13)))


def test_threads_solving_at_once_get_the_reference_answers() -> None:
    """The server's computer players think in a thread while others solve: cards that are not
    the deck's objects and new melds run Python code in the middle of a call, where another
    thread may take its turn."""
    rng = random.Random(5)
    cases = []
    for _ in range(240):
        hand, wild_rank = dealt(rng, rng.randint(3, 14))
        cases.append(([Card(card.rank, card.suit) for card in hand], wild_rank))
    expected = [melds_reference.best_with_discard(hand, wild_rank) for hand, wild_rank in cases]
    melds.clear_caches()
    errors: list[str] = []

    def solve(offset: int) -> None:
        for index in range(len(cases)):
            hand, wild_rank = cases[(index + offset) % len(cases)]
            if melds.best_with_discard(hand, wild_rank) != expected[(index + offset) % len(cases)]:
                errors.append(f"hand {(index + offset) % len(cases)}")

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # why: switch threads as often as CPython allows
    try:
        threads = [threading.Thread(target=solve, args=(offset * 60,)) for offset in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    finally:
        sys.setswitchinterval(old_interval)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []


def test_the_largest_hands_the_fast_form_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 of every natural card and up to 31 wilds: deep searches, many melds, long walks; the
    compiled search's fixed arrays must hold them, and it must agree with solver.py's own."""
    compiled = melds._C
    assert compiled is not None
    rng = random.Random(9)
    for _ in range(12):
        wild_rank = Rank(rng.randint(3, 13))
        naturals = [
            card_from_code(code)
            for code in range(55)
            if card_from_code(code).rank != wild_rank
            for _ in range(rng.randint(0, 3))
        ]
        hand = naturals + [JOKER] * rng.randint(0, 31 - 5) + [Card(wild_rank, Suit.STARS)] * 5
        rng.shuffle(hand)
        found = [melds.best_with_discard(hand, wild_rank), melds.best_arrangement(hand, wild_rank)]
        going = melds.going_out_discards(hand, wild_rank)
        monkeypatch.setattr(melds, "_C", None)
        assert found == [
            melds.best_with_discard(hand, wild_rank),
            melds.best_arrangement(hand, wild_rank),
        ]
        assert going == melds.going_out_discards(hand, wild_rank)
        monkeypatch.setattr(melds, "_C", compiled)
