"""Each seat's snapshot with the shared part encoded once per fan-out (net/server/snapshots.py)
is byte for byte the snapshot encoded whole, for every seat and a spectator at every step of
whole games: no seat gets another's cards or moves, and nothing older than the table."""

from __future__ import annotations

import json
from typing import Any

from fivecrowns.core.codec import move_from_json
from fivecrowns.net.protocol import Snapshot, encode
from fivecrowns.net.server.snapshots import SnapshotFrames
from fivecrowns.table import Table

WATCHERS = ['Zoë "the third"', "ñu\\x", "Émile"]  # quotes, a backslash, letters beyond ASCII


def _whole(table: Table, seat: int | None, watchers: list[str]) -> bytes:
    return encode(Snapshot(table="t-1", watchers=watchers, **table.snapshot(seat)))


def _check_every_seat(table: Table, watchers: list[str], step: int) -> None:
    frames = SnapshotFrames("t-1", table, watchers)
    for seat in (2, None, 0, 3, 1):
        assert frames.frame(seat) == _whole(table, seat, watchers), (step, seat)


def _move(table: Table, ids: dict[int, str]) -> None:
    if table.bot_due() is not None:
        table.step_bot()
        return
    assert table.game is not None
    player = ids[table.game.current_player]
    seat = table.seat_of(player)
    legal = table.legal(seat)
    going_out = [move for move in legal if move["move"] == "go_out"]
    table.act(player, move_from_json((going_out or legal)[0]), table.seq)


def test_every_seats_spliced_snapshot_is_the_whole_one_at_every_step() -> None:
    table = Table(4, creator_name="Ann", creator_id="p-ann")
    table.sit("Ben", "p-ben")
    _check_every_seat(table, [], -2)  # before the start: no view, no hand
    table.add_bot("easy")
    table.add_bot("medium")
    _check_every_seat(table, WATCHERS, -1)
    table.start(seed=41)
    ids = {0: "p-ann", 1: "p-ben"}
    steps = 0
    for steps in range(20_000):  # bounded: a game has a few hundred moves
        _check_every_seat(table, WATCHERS if steps % 2 else [], steps)
        if steps == 30:  # a seat change with no move
            table.dropped(1, 30)
            _check_every_seat(table, WATCHERS, steps)
            table.hand_back(1)
        if steps == 50:  # a setting with no move
            table.allow_spectator_chat(False)
            _check_every_seat(table, WATCHERS, steps)
        if table.is_over:
            break
        _move(table, ids)
    assert table.is_over and steps > 300
    table.new_game(seed=43)
    _check_every_seat(table, WATCHERS, steps + 1)


def test_a_spectator_gets_no_hand_and_each_seat_only_its_own() -> None:
    table = Table(3, creator_name="Ann", creator_id="p-ann")
    table.add_bot("easy")
    table.add_bot("easy")
    table.start(seed=5)
    game = table.game
    assert game is not None
    frames = SnapshotFrames("t-1", table, [])
    spectator: dict[str, Any] = json.loads(frames.frame(None))
    assert "hand" not in spectator["view"] and spectator["legal"] == []
    for seat in range(3):
        mine = json.loads(frames.frame(seat))
        assert mine["seat"] == seat
        assert mine["view"]["hand"] == [card.token for card in game.hands[seat]]
        assert (mine["legal"] != []) == (seat == game.current_player)


def test_a_name_holding_a_stand_in_still_gives_the_whole_snapshot() -> None:
    """The splice marks a seat's own values with stand-ins; a real value holding one (no name
    can: they are refused) would only make every snapshot be encoded whole."""
    table = Table(2, creator_name="Ann", creator_id="p-ann")
    table.add_bot("easy")
    table.start(seed=3)
    odd = ["\x00seat\x00", "\x00legal\x00"]
    frames = SnapshotFrames("t-1", table, odd)
    for seat in (None, 0, 1):
        assert frames.frame(seat) == _whole(table, seat, odd)
