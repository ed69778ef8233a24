"""Computer players wait longer before a new round's first move (issue 25: a round's end is
about 30 s of speech, the last turns, the scores and the new deal with one's hand, and computer
players moving on at once left a screen-reader player's news 30 s behind the game)."""

from __future__ import annotations

from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.pacing import Pacing
from fivecrowns.net.server.rooms import Room, Rooms
from fivecrowns.table import Table


def _room() -> Room:
    table = Table(3, creator_name="Ann", creator_id="p-ann")
    table.add_bot("easy")
    table.add_bot("easy")
    table.start(7)
    table.stand_in(0)  # a computer plays for Ann: every seat moves by itself
    return Room("t1", table, None, False)


def _pacing(limits: Limits) -> Pacing:
    return Pacing(Rooms(), limits, lambda room, entries: None, lambda room: None)


def test_a_new_rounds_first_computer_move_waits_longer_and_the_others_do_not() -> None:
    room = _room()
    pacing = _pacing(Limits(bot_delay=0.5))
    table = room.table
    assert table.round_untouched and pacing._delay(room) == 0.5 * 8  # the first deal
    table.step_bot()  # a draw, at least: the round is under way
    assert not table.round_untouched and pacing._delay(room) == 0.5
    assert table.game is not None
    for _ in range(3000):  # bounded: a round of 3 computer players ends long before
        if table.game.round == 2:
            break
        table.step_bot()
        if table.game.round == 1:
            assert pacing._delay(room) == 0.5  # every move of the round waits as before
    assert table.game.round == 2
    assert table.round_untouched and pacing._delay(room) == 0.5 * 8  # the next deal
    # computers that do not wait (the tests' and benchmarks' --bot-delay 0) do not wait here
    assert _pacing(Limits(bot_delay=0.0))._delay(room) == 0.0
    # a slow pace waits 8 s at most, or one move's time if that is longer
    assert _pacing(Limits(bot_delay=1.5))._delay(room) == 8.0
    assert _pacing(Limits(bot_delay=12.0))._delay(room) == 12.0


def test_a_finished_game_has_no_round_to_wait_for() -> None:
    room = _room()
    table = room.table
    assert table.game is not None
    for _ in range(100_000):  # bounded: a game of 11 rounds
        if table.is_over:
            break
        table.step_bot()
    assert table.is_over and not table.round_untouched
    assert not Table(3, creator_name="Ann", creator_id="p-ann").round_untouched  # not started
