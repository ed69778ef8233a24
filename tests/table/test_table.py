"""The table: seats, bots, the event log, per-seat frames and their sentences in each language,
replay from inputs."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from fivecrowns import i18n
from fivecrowns.core.moves import DrawFromStock, DrewFromStock, GoOut, TakeDiscard
from fivecrowns.table import SeatKind, Table, TableError
from fivecrowns.table.table import SEATING_OPS
from fivecrowns.words.table import table_event_text
from i18n_support import english_words


def _table(record: list[dict[str, Any]] | None = None) -> Table:
    table = Table(
        4,
        creator_name="Ann",
        creator_id="p-ann",
        record=None if record is None else lambda index, command: record.append(command),
    )
    table.sit("Ben", "p-ben")
    table.add_bot("easy")
    table.add_bot("medium")
    return table


def _play_human(table: Table, player_id: str) -> None:
    """A plain human: goes out when it can, else draws from the stock and throws the first card."""
    seat = table.seat_of(player_id)
    assert seat is not None
    legal = table.legal(seat)
    going_out = [move for move in legal if move["move"] == "go_out"]
    choice = going_out[0] if going_out else legal[0]
    from fivecrowns.core.codec import move_from_json

    table.act(player_id, move_from_json(choice), table.seq)


def _play_to_end(table: Table) -> None:
    ids = {0: "p-ann", 1: "p-ben"}
    for _ in range(20_000):
        if table.is_over:
            return
        seat = table.bot_due()
        if seat is not None:
            table.step_bot()
        else:
            assert table.game is not None
            _play_human(table, ids[table.game.current_player])
    raise AssertionError("the game did not end in 20,000 moves")


def test_a_whole_game_with_two_humans_and_two_bots_reaches_the_end() -> None:
    table = _table()
    table.start(seed=11)
    _play_to_end(table)
    assert table.game is not None and table.game.round == 11
    assert table.log[-1].kind == "game_over"
    assert [entry.seq for entry in table.log] == list(range(1, table.seq + 1))


def test_replaying_the_inputs_rebuilds_the_same_table_and_log() -> None:
    record: list[dict[str, Any]] = []
    table = _table(record)
    table.start(seed=5)
    for _ in range(200):
        if table.bot_due() is not None:
            table.step_bot()
        else:
            assert table.game is not None
            _play_human(table, {0: "p-ann", 1: "p-ben"}[table.game.current_player])
    table.chat("p-ben", "Ben", "nice  one")
    again = Table.replay(4, "Ann", "p-ann", record)
    assert [command for command in record if command["op"] in SEATING_OPS] == table.inputs
    assert again.seq == table.seq
    for seat in (None, 0, 1, 2, 3):
        assert again.snapshot(seat) == table.snapshot(seat)
        assert again.frames_since(0, seat) == table.frames_since(0, seat)


def test_a_recorded_table_keeps_no_move_in_memory_game_after_game() -> None:
    """Issue 29: a server's table (its inputs go to the store) held every input it ever
    accepted, about 380 bytes a move, for as long as it lived; it keeps only who sat, who left
    and each game's start (the ratings read them), and the record still gets every input,
    numbered without a gap, from which the same table comes back."""
    record: list[tuple[int, dict[str, Any]]] = []
    table = Table(
        4,
        creator_name="Ann",
        creator_id="p-ann",
        record=lambda index, command: record.append((index, command)),
    )
    table.sit("Ben", "p-ben")
    table.add_bot("easy")
    table.add_bot("medium")
    table.start(seed=5)
    _play_to_end(table)
    table.chat("p-ben", "Ben", "again?")
    table.new_game(seed=6)
    for _ in range(100):
        if table.bot_due() is not None:
            table.step_bot()
        else:
            assert table.game is not None
            _play_human(table, {0: "p-ann", 1: "p-ben"}[table.game.current_player])
    commands = [command for _index, command in record]
    assert [index for index, _command in record] == list(range(len(record)))
    assert sum(command["op"] == "move" for command in commands) > 300
    assert [command["op"] for command in table.inputs] == ["sit", "sit", "start", "new_game"]
    assert table.inputs == [command for command in commands if command["op"] in SEATING_OPS]
    # the record alone brings the same table back, which again keeps no move in memory
    again = Table.replay(4, "Ann", "p-ann", commands, record=lambda index, command: None)
    assert again.seq == table.seq and again.inputs == table.inputs
    for seat in (None, 0, 1, 2, 3):
        assert again.snapshot(seat) == table.snapshot(seat)
    assert again.bot_due() == table.bot_due()


def test_a_seat_gets_its_own_draws_and_never_another_seats() -> None:
    table = _table()
    table.start(seed=3)
    game = table.game
    assert game is not None
    for _ in range(60):
        if table.bot_due() is not None:
            table.step_bot()
        else:
            _play_human(table, {0: "p-ann", 1: "p-ben"}[game.current_player])
    for viewer in (None, 0, 1, 2, 3):
        for entry, frame in zip(table.log, table.frames_since(0, viewer), strict=True):
            if isinstance(entry.event, DrewFromStock):
                own = entry.event.player == viewer
                assert (frame["data"]["card"] is not None) == own
                if not own:
                    assert "drew from the stock" in frame["text"]
        text = json.dumps(table.snapshot(viewer))
        assert "seed" not in text and '"stock"' not in text
        hands = [f'"hand": {json.dumps([c.token for c in game.hand(s)])}' for s in range(4)]
        for seat, hand in enumerate(hands):
            assert (hand in text) == (seat == viewer)


def test_refused_commands_change_nothing_and_say_why() -> None:
    table = _table()
    with pytest.raises(TableError, match="Seat 2 is empty"):
        Table(4, creator_name="A", creator_id="a").start(1)
    with pytest.raises(TableError) as refused:
        table.add_bot("fivecrowns.ai.hard:HardBot")
    assert refused.value.code == "bad_level"
    table.start(seed=9)
    game = table.game
    assert game is not None
    before = (table.seq, list(table.inputs), table.snapshot(0))
    current = game.current_player
    other = "p-ann" if current != 0 else "p-ben"
    for attempt, code in [
        (lambda: table.act(other, DrawFromStock(), table.seq), "illegal"),
        (lambda: table.act("p-nobody", DrawFromStock(), table.seq), "not_seated"),
        (lambda: table.act(other, TakeDiscard(), table.seq - 1), "stale"),
        (lambda: table.add_bot("easy"), "started"),
        (lambda: table.sit("Cy", "p-cy"), "started"),
        (lambda: table.frames_since(table.seq + 1, 0), "bad_seq"),
    ]:
        with pytest.raises(TableError) as error:
            attempt()
        assert error.value.code == code
        assert str(error.value)
    assert (table.seq, table.inputs, table.snapshot(0)) == before
    while table.bot_due() is not None:
        table.step_bot()
    mover = "p-ann" if game.current_player == 0 else "p-ben"
    with pytest.raises(TableError, match="draw before you go out"):
        table.act(mover, GoOut(game.hand(game.current_player)[0]), table.seq)


def test_a_stand_in_plays_for_a_dropped_human_and_hands_the_seat_back() -> None:
    table = _table()
    table.start(seed=2)
    table.stand_in(1)
    assert table.seats[1].standin and table.seats[1].kind is SeatKind.HUMAN
    with pytest.raises(TableError) as error:
        table.act("p-ben", DrawFromStock(), table.seq)
    assert error.value.code == "standin"
    assert table.legal(1) == []
    for _ in range(40):
        if table.bot_due() is None:
            _play_human(table, "p-ann")
        else:
            table.step_bot()
    table.hand_back(1)
    assert not table.seats[1].standin
    texts = [table.frame(e, 0)["text"] for e in table.log if e.kind in ("stand_in", "hand_back")]
    assert texts == [
        "Ben's connection dropped: a computer plays for Ben until they are back.",
        "Ben is back and plays again.",
    ]


def test_snapshots_hold_exactly_the_view_of_their_seat_at_every_step() -> None:
    """The snapshot's fast view builder gives what views.player_view / public_view give."""
    from fivecrowns.core.views import player_view, public_view
    from fivecrowns.table import view_to_json

    table = _table()
    table.start(seed=23)
    ids = {0: "p-ann", 1: "p-ben"}
    steps = 0
    for _ in range(20_000):
        game = table.game
        assert game is not None
        for seat in (None, 0, 1, 2, 3):
            reference = public_view(game) if seat is None else player_view(game, seat)
            assert table.snapshot(seat)["view"] == view_to_json(reference), (steps, seat)
        if table.is_over:
            break
        if table.bot_due() is not None:
            table.step_bot()
        else:
            _play_human(table, ids[game.current_player])
        steps += 1
    assert table.is_over and steps > 300
    with pytest.raises(ValueError):
        table.snapshot(4)


def test_shared_snapshots_equal_fresh_ones_at_every_step_and_change_nothing_shared() -> None:
    """The server's snapshot with seats and view made once per entry is the fresh snapshot,
    for every seat and a spectator, through a whole game (seat changes included)."""
    table = _table()
    ids = {0: "p-ann", 1: "p-ben"}
    assert table.shared_snapshot(0) == table.snapshot(0)  # before the start: no view
    table.start(seed=29)
    steps = 0
    for _ in range(20_000):
        game = table.game
        assert game is not None
        for seat in (3, None, 0, 1, 2):
            shared = json.dumps(table.shared_snapshot(seat), sort_keys=True)
            assert shared == json.dumps(table.snapshot(seat), sort_keys=True), (steps, seat)
        if steps == 40:  # a seat change with no move: the shared seats are made again
            table.dropped(1, 30)
            assert table.shared_snapshot(None) == table.snapshot(None)
            table.hand_back(1)
        if steps == 60:  # a setting with no move: spectators' chat off
            table.allow_spectator_chat(False)
            assert table.shared_snapshot(None) == table.snapshot(None)
        if table.is_over:
            break
        if table.bot_due() is not None:
            table.step_bot()
        else:
            _play_human(table, ids[game.current_player])
        steps += 1
    assert table.is_over and steps > 300
    assert "hand" not in (table.shared_snapshot(None)["view"] or {})
    table.new_game(seed=31)  # a new game, a new view
    assert table.shared_snapshot(2) == table.snapshot(2)
    with pytest.raises(ValueError):
        table.shared_snapshot(4)


def test_the_public_views_kept_bytes_are_the_view_encoded_whole_at_every_step() -> None:
    """public_view_json (its round's fields and its scores, melds and end kept between moves)
    is byte for byte the public view encoded whole, at every step of two whole games: every
    deal, lay-down, going out, last turn, score and the end (and no hand: it is the public
    view)."""
    table = _table()
    ids = {0: "p-ann", 1: "p-ben"}
    assert table.public_view_json() == b"null"  # before the start
    for seed in (37, 53):
        if seed == 37:
            table.start(seed=seed)
        else:
            table.new_game(seed=seed)  # a new game: new players' tuple, round 1 again
        steps = 0
        for steps in range(20_000):  # bounded: a game has a few hundred moves
            view = table.public_view()
            assert view is not None and "hand" not in view
            assert table.public_view_json() == msgspec.json.encode(view), (seed, steps)
            if table.is_over:
                break
            if table.bot_due() is not None:
                table.step_bot()
            else:
                game = table.game
                assert game is not None
                _play_human(table, ids[game.current_player])
        assert table.is_over and steps > 300


def test_the_kept_seats_follow_every_change_of_a_seat() -> None:
    """seats_json is kept until a seat changes: after each way a table changes a seat (and a
    table adopted around a game), it is what the seats are now, and so are the names the
    events are worded with."""
    table = Table(4, creator_name="Ann", creator_id="p-ann")

    def check(step: str) -> None:
        assert table.seats_json() == [seat.to_json() for seat in table.seats], step
        assert table.shared_snapshot(None)["seats"] == table.snapshot(None)["seats"], step

    check("made")
    changes = [
        ("sit", lambda: table.sit("Ben", "p-ben")),
        ("add_bot", lambda: table.add_bot("easy")),
        ("remove_bot", lambda: table.remove_bot(2)),
        ("add_bot again", lambda: table.add_bot("medium", 2)),
        ("sit last", lambda: table.sit("Cy", "p-cy")),
        ("start", lambda: table.start(seed=5)),
        ("dropped", lambda: table.dropped(1, 30)),
        ("stand_in", lambda: table.stand_in(1)),
        ("hand_back", lambda: table.hand_back(1)),
        ("leave", lambda: table.leave("p-cy")),
    ]
    for step, change in changes:
        table.seats_json()  # kept now
        change()
        check(step)
    game = table.game
    assert game is not None

    class Eager(Table):
        """A table that reads its seats as soon as it is made: adopt replaces them after."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.seats_json()

    seats = [("Zed", None), ("Yu", "easy"), ("Xi", "easy"), ("Wu", None)]
    adopted = Eager.adopt(game, seats, {})
    assert adopted.seats_json() == [seat.to_json() for seat in adopted.seats]
    first = adopted.frame(adopted.log[-1], None)["text"]  # the turn of one of the four
    assert any(name in first for name in ("Zed", "Yu", "Xi", "Wu")), first


def test_viewers_of_one_frame_class_get_the_same_frame_and_classes_differ_only_there() -> None:
    """The fan-out words each entry once per class (Table.frame_class): that is only right
    if every viewer of a class would get the very same frame."""
    table = _table()
    table.start(seed=29)
    _play_to_end(table)
    table.chat("p-ben", "Ben", "good game")
    classes_seen = 0
    for entry in table.log:
        by_class: dict[Any, dict[str, Any]] = {}
        for viewer in (None, 0, 1, 2, 3):
            frame = table.frame(entry, viewer)
            key = table.frame_class(entry, viewer)
            if key in by_class:
                assert by_class[key] == frame, (entry.seq, entry.kind, viewer)
            by_class[key] = frame
        classes_seen += len(by_class)
    # drawing from the stock is told apart: the drawer hears the card, nobody else does
    draws = [e for e in table.log if isinstance(e.event, DrewFromStock)]
    drawer = draws[0].event.player  # type: ignore[union-attr]
    other = (drawer + 1) % 4
    assert table.frame_class(draws[0], drawer) != table.frame_class(draws[0], other)
    assert table.frame(draws[0], drawer)["data"]["card"] is not None
    assert table.frame(draws[0], other)["data"]["card"] is None
    assert classes_seen < 5 * len(table.log)


def test_a_computer_player_sitting_down_is_said_without_a_easy() -> None:
    from fivecrowns.table import Table

    table = Table(3, creator_name="Ann", creator_id="p1")
    table.add_bot("easy")
    texts = [frame["text"] for frame in table.frames_since(0, None)]
    assert "Bot 2 joined in seat 2: a computer player of level easy." in texts, texts


def test_table_events_are_whole_sentences_in_both_languages() -> None:
    table = Table(3, creator_name="Ana", creator_id="p1")
    with i18n.speaking("es"):
        table.add_bot("medium")
    table.sit("Ben", "p2")
    table.chat("p2", "Ben", "hola")
    frames = {lang: [] for lang in ("en", "es")}  # type: dict[str, list[dict[str, Any]]]
    for language, found in frames.items():
        with i18n.speaking(language):
            found.extend(table.frames_since(0, None))
    english = [f["text"] for f in frames["en"]]
    spanish = [f["text"] for f in frames["es"]]
    assert english == [
        "Ana sat down in seat 1.",
        "Bot 2 joined in seat 2: a computer player of level medium.",
        "Ben sat down in seat 3.",
        "Ben says: hola",
    ]
    assert spanish == [
        "Ana se sentó en el asiento 1.",
        "Bot 2 se sentó en el asiento 2: jugador automático de nivel medio.",
        "Ben se sentó en el asiento 3.",
        "Ben dice: hola",
    ]
    assert [json.dumps(f["data"]) for f in frames["en"]] == [
        json.dumps(f["data"]) for f in frames["es"]
    ]
    # a replay names the computer player as it was named, whatever the language now
    with i18n.speaking("en"):
        again = Table.replay(3, "Ana", "p1", table.inputs)
    assert again.names() == table.names()
    # every computer level is a word in both languages
    for level in ("easy", "medium", "hard", "simple"):
        with i18n.speaking("es"):
            text = table_event_text("bot_added", {"seat": 1, "name": "X", "level": level}, None)
        assert english_words(text) == [], text


def test_a_table_naming_the_retired_expert_level_seats_hard() -> None:
    """Issue 27 item 4: a kept table's input (or an old page) that adds an expert plays hard."""
    table = Table(3, creator_name="Ana", creator_id="p1")
    seat = table.add_bot("expert")
    assert table.seats[seat].level == "hard"
    # a table kept before expert left: its input names expert
    kept = [
        {**entry, "level": "expert"} if entry.get("op") == "add_bot" else entry
        for entry in table.inputs
    ]
    assert any(entry.get("level") == "expert" for entry in kept)
    again = Table.replay(3, "Ana", "p1", kept)
    assert again.seats[seat].level == "hard"


def test_a_round_s_start_carries_the_seat_s_own_hand_as_dealt_and_no_other() -> None:
    """The web page reads the deal in its hand list's order: it needs the cards as dealt."""
    from fivecrowns.core.moves import RoundStarted

    table = _table()
    table.start(seed=3)
    entry = next(e for e in table.log if isinstance(e.event, RoundStarted))
    for seat in range(4):
        dealt = [card.token for card in entry.dealt[seat]]
        assert table.frame(entry, seat)["data"]["hand"] == dealt
    assert "hand" not in table.frame(entry, None)["data"]
    assert entry.dealt[0] != entry.dealt[1]
