"""A player who leaves mid-game: a computer player plays in their place, and everyone is told
so in words a person understands (the lobby used to list "Ann, computer, medium", as if Ann
were a computer player)."""

from __future__ import annotations

from fivecrowns import i18n
from fivecrowns.table import SeatKind, Table
from fivecrowns.table.info import answer
from fivecrowns.ui.lobby import table_words
from fivecrowns.words.table import table_event_text


def _left_mid_game() -> Table:
    table = Table(3, creator_name="Ben", creator_id="p1")
    table.sit("Ann", "p2")
    table.add_bot("easy")
    table.start(seed=3)
    table.leave("p2")
    return table


def test_a_seat_left_mid_game_is_a_computer_player_in_the_players_place() -> None:
    table = _left_mid_game()
    seat = table.seats[1]
    assert (seat.kind, seat.name, seat.left) == (SeatKind.BOT, "Ann", True)
    assert table.seats[1].to_json() == {
        "kind": "bot",
        "name": "Ann",
        "level": "medium",
        "standin": False,
        "left": True,
        "away": False,
    }
    assert seat.bot_driven  # a computer player plays the seat on
    # a replay from the stored inputs gives the same seat
    again = Table.replay(3, "Ben", "p1", table.inputs)
    assert again.seats[1].to_json() == seat.to_json()
    told = table.log[-1]
    assert told.kind == "seat_left"
    with i18n.speaking("en"):
        assert table.frame(told, 0)["text"] == (
            "Ann left the table; a computer player plays in their place."
        )
    with i18n.speaking("es"):
        assert table.frame(told, None)["text"] == (
            "Ann dejó la mesa; un jugador automático juega en su lugar."
        )


def test_a_seat_left_before_the_start_is_empty_and_said_as_before() -> None:
    table = Table(3, creator_name="Ben", creator_id="p1")
    table.sit("Ann", "p2")
    table.leave("p2")
    assert table.seats[1].kind is SeatKind.EMPTY and not table.seats[1].left
    with i18n.speaking("en"):
        assert table_event_text("seat_left", table.log[-1].data, 0) == "Ann left the table."


def test_the_lobby_lists_a_left_seat_as_a_computer_playing_in_the_players_place() -> None:
    table = _left_mid_game()
    assert table.game is not None
    info = {
        "id": "71f0a1e1",
        "seats": [seat.to_json() for seat in table.seats],
        "started": True,
        "round": table.game.round,
    }
    with i18n.speaking("en"):
        assert table_words(info) == (
            "Table 71f0a1e1, round 1 of 11: Ben, Ann (left; a computer player plays in their "
            "place) and Bot 3 (computer, easy)."
        )
    table.stand_in(0)  # Ben's connection dropped
    info["seats"] = [seat.to_json() for seat in table.seats]
    with i18n.speaking("es"):
        words = table_words(info)
    assert words == (
        "Mesa 71f0a1e1, ronda 1 de 11: Ben (se cortó su conexión; un jugador automático juega "
        "hasta que vuelva), Ann (se fue; un jugador automático juega en su lugar) y Bot 3 "
        "(jugador automático, fácil)."
    )


def test_the_card_counts_say_a_computer_plays_for_a_player_who_left_or_dropped() -> None:
    table = _left_mid_game()
    table.stand_in(0)  # Ben's connection dropped too
    game = table.game
    assert game is not None
    counts = [len(game.hand(i)) for i in range(3)]
    with i18n.speaking("en"):
        said = answer(table, None, "counts")
    assert f"Ben (a computer player plays for them), {counts[0]} cards" in said
    assert f"Ann (a computer player plays for them), {counts[1]} cards" in said
    assert f"Bot 3 (computer, easy), {counts[2]} cards" in said
    assert "Ann (computer" not in said
    with i18n.speaking("es"):
        said = answer(table, None, "counts")
    assert f"Ann (un jugador automático juega en su lugar), {counts[1]} naipes" in said
