"""Each seat's snapshot with the shared part encoded once per fan-out (net/server/snapshots.py)
is byte for byte the snapshot encoded whole, for every seat and a spectator at every step of
whole games: no seat gets another's cards or moves, and nothing older than the table, also with
the parts kept from the table's earlier snapshots (SnapshotMemory) and each move's JSON kept.
So is every event frame the fan-out sends, with the frames kept from earlier turns
(rooms.EventMemory), in each connection's language."""

from __future__ import annotations

import json
from typing import Any

from fivecrowns import i18n
from fivecrowns.core.cards import parse_cards
from fivecrowns.core.codec import move_from_json, move_to_json
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from fivecrowns.net.protocol import EventFrame, Snapshot, encode
from fivecrowns.net.server import snapshots
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.limits import Limits
from fivecrowns.net.server.rooms import LocalFanout, PlayerRecord, Room, attach
from fivecrowns.net.server.snapshots import SnapshotFrames, SnapshotMemory, moves_json
from fivecrowns.table import Table

WATCHERS = ['Zoë "the third"', "ñu\\x", "Émile"]  # quotes, a backslash, letters beyond ASCII


def _whole(table: Table, seat: int | None, watchers: list[str]) -> bytes:
    return encode(Snapshot(table="t-1", watchers=watchers, **table.snapshot(seat)))


def _check_every_seat(
    table: Table, watchers: list[str], step: int, memory: SnapshotMemory | None = None
) -> None:
    """Fresh, and with ``memory`` (the table's parts from its earlier snapshots) if given."""
    for kept in (None, memory) if memory is not None else (None,):
        frames = SnapshotFrames("t-1", table, watchers, kept)
        for seat in (2, None, 0, 3, 1):
            assert frames.frame(seat) == _whole(table, seat, watchers), (step, seat, kept)


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
    memory = SnapshotMemory()  # kept for the whole test, as a room keeps its table's
    table.sit("Ben", "p-ben")
    _check_every_seat(table, [], -2, memory)  # before the start: no view, no hand
    table.add_bot("easy")
    table.add_bot("medium")
    _check_every_seat(table, WATCHERS, -1, memory)
    table.start(seed=41)
    ids = {0: "p-ann", 1: "p-ben"}
    steps = 0
    for steps in range(20_000):  # bounded: a game has a few hundred moves
        # watchers come and go, rounds are dealt (every hand new), seats change, settings too
        _check_every_seat(table, WATCHERS if steps % 2 else [], steps, memory)
        if steps == 30:  # a seat change with no move
            table.dropped(1, 30)
            _check_every_seat(table, WATCHERS, steps, memory)
            table.hand_back(1)
        if steps == 50:  # a setting with no move
            table.allow_spectator_chat(False)
            _check_every_seat(table, WATCHERS, steps, memory)
        if table.is_over:
            break
        _move(table, ids)
    assert table.is_over and steps > 300
    table.new_game(seed=43)
    _check_every_seat(table, WATCHERS, steps + 1, memory)


def test_one_memory_for_two_tables_still_gives_each_its_own_snapshot() -> None:
    """A kept part is used only while what it was made from is equal: a memory handed two
    tables in turn (a room has one table, but a part keyed by less than its source would
    show here) gives each table exactly its own seats, hands and moves."""
    tables = []
    for number, seed in enumerate((7, 8)):
        table = Table(3, creator_name=f"Ann{number}", creator_id=f"p-{number}")
        table.add_bot("easy")
        table.add_bot("easy")
        table.start(seed=seed)
        tables.append(table)
    memory = SnapshotMemory()
    for step in range(200):  # bounded
        for number, table in enumerate(tables):
            watchers = WATCHERS[:number]
            frames = SnapshotFrames("t-1", table, watchers, memory)
            for seat in (0, None, 1, 2):
                assert frames.frame(seat) == _whole(table, seat, watchers), (step, number, seat)
            if not table.is_over:
                table.step_bot()


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


def _encoded(moves: list[Move]) -> bytes:
    return encode(Snapshot(0, "t", None, False, [], None, [move_to_json(m) for m in moves]))


def test_moves_json_is_each_moves_json_also_for_moves_made_afresh() -> None:
    """Each move's JSON is kept by the move object: a move made afresh (a lay-down of given
    melds, as a client may name) gets its own JSON, and the memory's bound changes nothing."""
    melds = (tuple(parse_cards("3h 4h 5h")), tuple(parse_cards("7c 7d jk")))
    cards = parse_cards("3h 4h 5h 7c 7d jk Kst")
    lists: list[list[Move]] = [
        [DrawFromStock(), TakeDiscard()],
        [LayDown(), LayDown(()), LayDown(melds), LayDown(melds[:1])],
        [Discard(card) for card in cards] + [GoOut(card) for card in cards],
    ]
    for round_ in range(3 * snapshots.MOVES_KEPT // 20):  # past the bound more than once
        for moves in lists:
            fresh = [type(move)(*(getattr(move, f) for f in move.__slots__)) for move in moves]
            for each in (moves, fresh):
                legal = b',"legal":' + moves_json(each) + b","
                assert legal in _encoded(each), (round_, each)
    assert len(snapshots._MOVES) <= snapshots.MOVES_KEPT
    assert moves_json([]) == b"[]"


class _Socket:
    async def close(self, **_: Any) -> None:
        pass


def _listener(room: Room, seat: int | None, language: str, mute: str = "nobody") -> Connection:
    conn = Connection(_Socket(), Limits(outgoing_queue=10**6, outgoing_bytes=10**9))  # type: ignore[arg-type]
    conn.language = language
    conn.player = PlayerRecord(f"p-{seat}-{language}", "x", "h", mute=mute)
    attach(conn, room, seat)
    return conn


def test_every_event_frame_the_fan_out_sends_is_the_frame_made_afresh() -> None:
    """Every connection (each seat in English and Spanish, spectators, one muting spectators)
    gets, for every entry of two whole games (chat, a dropped seat, a setting, a new game:
    table events that empty the memory), exactly the frame ``Table.frame`` makes for its seat
    in its language: the frames kept from earlier turns give no seat another's card, and
    nothing older than the table."""
    table = Table(4, creator_name="Ann", creator_id="p-ann")
    table.sit("Ben", "p-ben")
    table.add_bot("easy")
    table.add_bot("medium")
    room = Room("t-1", table, None, False)
    conns = [(seat, _listener(room, seat, language)) for seat in (0, 1, 2, 3, None)
             for language in ("en", "es")]  # fmt: skip
    conns.append((None, _listener(room, None, "en", mute="spectators")))
    fanout = LocalFanout()
    ids = {0: "p-ann", 1: "p-ben"}
    sent = 0

    def publish(before: int) -> None:
        nonlocal sent
        entries = table.entries_since(before)
        fanout.publish(room, entries)
        for seat, conn in conns:
            got = [conn.take() for _ in range(len(conn.queue))]
            with i18n.speaking(conn.language):
                wanted = []
                for entry in entries:
                    frame = table.frame(entry, seat)
                    if (
                        entry.kind == "chat"
                        and frame["data"].get("seat") is None
                        and (conn.player is not None and conn.player.mute == "spectators")
                    ):
                        frame["text"] = ""
                    wanted.append(encode(EventFrame(**frame)))
            assert got == wanted, (table.seq, seat, conn.language)
            sent += len(got)

    for game, seed in enumerate((41, 42)):
        before = table.seq
        if game:
            table.new_game(seed)
        else:
            table.start(seed)
        publish(before)
        for step in range(20_000):  # bounded: a game has a few hundred moves
            if table.is_over:
                break
            before = table.seq
            if step == 40:
                if table.spectators_chat:  # a spectator's line, muted for one
                    table.chat(None, "Zoë", "hola")
                else:
                    table.chat("p-ben", "Ben", "hola")
            elif step == 60:
                table.dropped(1, 30)
            elif step == 80:
                table.stand_in(1)
            elif step == 100:
                table.hand_back(1)
            elif step == 120:
                table.allow_spectator_chat(game == 1)
            else:
                _move(table, ids)
            publish(before)
        assert table.is_over
    assert sent > 2 * 300 * len(conns)
