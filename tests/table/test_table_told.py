"""What a table tells its players when someone leaves or drops (issue 26, items 18 and 21)."""

from __future__ import annotations

from fivecrowns import i18n
from fivecrowns.core.codec import move_from_json
from fivecrowns.table import Table


def _ann_and_ben_with_a_computer() -> Table:
    table = Table(3, creator_name="Ann", creator_id="p-ann")
    table.sit("Ben", "p-ben")
    table.add_bot("easy")
    table.start(seed=5)
    return table


def _play_to_the_end(table: Table) -> None:
    ids = {0: "p-ann", 1: "p-ben"}
    for _ in range(20_000):
        if table.is_over:
            return
        if table.bot_due() is not None:
            table.step_bot()
            continue
        assert table.game is not None
        player = ids[table.game.current_player]
        legal = table.legal(table.game.current_player)
        going_out = [move for move in legal if move["move"] == "go_out"]
        table.act(player, move_from_json((going_out or legal)[0]), table.seq)
    raise AssertionError("the game did not end in 20,000 moves")


def test_leaving_after_the_game_is_over_says_no_computer_plays_on() -> None:
    table = _ann_and_ben_with_a_computer()
    _play_to_the_end(table)
    table.leave("p-ben")
    told = table.log[-1]
    assert told.kind == "seat_left"
    with i18n.speaking("en"):
        assert table.frame(told, 0)["text"] == "Ben left the table."
    with i18n.speaking("es"):
        assert "automático" not in table.frame(told, None)["text"]
    # the same from the stored inputs (a restarted server)
    again = Table.replay(3, "Ann", "p-ann", table.inputs)
    with i18n.speaking("en"):
        assert again.frame(again.log[-1], 0)["text"] == "Ben left the table."


def test_leaving_mid_game_still_says_a_computer_plays_on() -> None:
    table = _ann_and_ben_with_a_computer()
    table.leave("p-ben")
    with i18n.speaking("en"):
        assert table.frame(table.log[-1], 0)["text"] == (
            "Ben left the table; a computer player plays in their place."
        )


def test_a_dropped_connection_is_told_at_once_with_when_a_computer_plays() -> None:
    table = _ann_and_ben_with_a_computer()
    table.dropped(1, 30)
    told = table.log[-1]
    assert told.kind == "dropped" and table.seats[1].away
    assert table.seats[1].to_json()["away"] is True
    with i18n.speaking("en"):
        assert table.frame(told, 0)["text"] == (
            "Ben's connection dropped: a computer plays for Ben in 30 seconds unless they are back."
        )
    with i18n.speaking("es"):
        assert "30 segundos" in table.frame(told, None)["text"]
    table.dropped(1, 30)  # said once
    assert table.log[-1] is told
    # a replay (a restarted server) rebuilds it; coming back says so and clears it
    again = Table.replay(3, "Ann", "p-ann", table.inputs)
    assert again.seats[1].away and again.log[-1].kind == "dropped"
    table.hand_back(1)
    assert not table.seats[1].away and table.log[-1].kind == "hand_back"
    # the stand-in, when it comes, takes over from "away"
    table.dropped(1, 30)
    table.stand_in(1)
    assert table.seats[1].standin and not table.seats[1].away


def test_no_drop_is_told_before_the_start_or_after_the_end() -> None:
    waiting = Table(3, creator_name="Ann", creator_id="p-ann")
    waiting.sit("Ben", "p-ben")
    before = waiting.seq
    waiting.dropped(1, 30)
    assert waiting.seq == before and not waiting.seats[1].away
    table = _ann_and_ben_with_a_computer()
    _play_to_the_end(table)
    before = table.seq
    table.dropped(1, 30)
    assert table.seq == before
