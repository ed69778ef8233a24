"""Front-end fixes from the audit: hot-seat players hear each other's moves, the privacy
screen lets you quit and get help, reviewed messages are shown, and the advice agrees.

Driven as in test_ui_games.py: prompt_toolkit pipe input, a dummy terminal output, and
the output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

from ai_support import table as deal
from ai_support import whole_game
from fivecrowns.ai import load_bot
from fivecrowns.core.cards import JOKER, Rank, parse_cards
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.moves import DrawFromStock
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.screen import render_table
from fivecrowns.ui.session import Seat, Session
from fivecrowns.ui.settings import Settings
from fivecrowns.words.announce import card_list
from ui_support import Table, play_turn, table

ONE_HUMAN = [Seat("You"), Seat("Ann", "medium")]
HOT_SEAT = [Seat("Ann"), Seat("Ben"), Seat("Cy", "medium")]


def human_turn(t: Table) -> None:
    """Enter on the privacy screen if it is up, then one whole turn (draw and discard)."""
    if t.session.privacy_for is not None:
        t.press("enter")
    round_now = t.game.round
    play_turn(t)
    if t.game.round == round_now and t.game.phase in (Phase.DISCARD, Phase.LAST_DISCARD):
        play_turn(t)


def test_hot_seat_players_hear_each_others_moves_and_l_lists_them() -> None:
    with table(HOT_SEAT, seed=3, first_dealer=2) as t:
        human_turn(t)  # Ann
        assert t.session.privacy_for == 1
        t.press("enter")  # Ben at the keyboard
        t.press("d")
        ben_card = t.session.hand()[t.session.focus()]
        t.press("enter")  # Ben discards the card he drew (focus moves to a drawn card)
        assert t.session.privacy_for == 0, "after Cy moves, it is Ann's turn"
        mark = len(t.spoken())
        t.press("enter")  # Ann at the keyboard
        said = " ".join(t.said_since(mark))
        assert "Ben drew from the stock and discarded the " in said
        assert f"discarded the {ben_card.spoken}" in said
        assert "Cy " in said
        t.press("l")
        last = t.spoken()[-1]
        assert last.startswith("Ben drew from the stock and discarded the ")
        assert "Cy " in last
        assert "You " not in last and "Ann " not in last


def test_privacy_screen_quits_helps_and_stops_speech_without_showing_the_hand(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    with table(HOT_SEAT, seed=3, first_dealer=2, data_dir=tmp_path) as t:
        assert t.session.privacy_for == 0
        before = t.state()
        hand_words = [card.spoken for card in t.game.hand(0)]
        mark = len(t.spoken())
        t.press("f1")
        assert t.spoken()[-1].startswith("Help: the keys.")
        t.press("escape")
        assert t.spoken()[-1] == "Help closed."
        t.press("x")
        assert t.backend.calls[-1].kind == "stop"
        t.press("q")
        assert t.spoken()[-1].startswith("Quit? The game stays saved for --resume.")
        t.press("n")
        assert not t.session.wants_exit()
        t.press("h")  # still hidden: the hand key is refused
        assert t.spoken()[-1].startswith("The hand is hidden.")
        assert t.session.table().hand == ()
        said = " ".join(t.said_since(mark))
        assert not any(words in said for words in hand_words)
        assert t.state() == before
        t.press("\x03")  # Ctrl+C
        t.press("y")
        assert t.session.wants_exit()
        assert t.spoken()[-1] == "Saved. Goodbye."


def test_message_review_is_shown_on_the_screens_message_line() -> None:
    with table(ONE_HUMAN, seed=5) as t:
        t.press("w")
        round_words = t.spoken()[-1]
        t.press("p")
        piles_words = t.spoken()[-1]
        assert t.session.table().message == piles_words
        t.press(",")
        count = len(t.session.messages())
        assert t.session.table().message == f"{round_words} {count - 1} of {count}."
        assert round_words in "".join(text for _, text in render_table(t.session.table()))
        t.press(">")
        assert t.session.table().message == f"{piles_words} {count} of {count}."


def test_hand_and_hint_agree_on_going_out_and_keep_the_joker() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk")
    with table(ONE_HUMAN, seed=0, game=game) as t:
        t.press("d")  # the joker: 6, 7, 8 of stars and a joker; any one card can go
        assert JOKER in t.game.hand(0)
        t.press("h")
        assert t.spoken()[-1].startswith("4 cards, sorted by rank. Melds: ")
        assert t.spoken()[-1].endswith("Discard: 6 of stars.")
        t.press("o", "h")
        assert t.spoken()[-1].startswith("4 cards, sorted by suit. Melds: ")
        t.press("o")
        t.press("H")
        assert t.spoken()[-1] == "Go out (G), discarding the 6 of stars."


def test_after_the_game_hint_says_it_is_over_and_n_starts_a_new_game() -> None:
    game, _ = whole_game(["easy", "easy"], seed=4)
    assert game.is_over
    with table([Seat("You"), Seat("Ann", "easy")], seed=4, game=game) as t:
        t.press("H")
        assert t.spoken()[-1] == (
            "The game is over. Press N for a new game, S for scores, Q or Ctrl+C to leave."
        )
        mark = len(t.spoken())
        t.press("n")
        said = t.said_since(mark)
        assert said[0].startswith("New game: You and Ann (easy). ")
        assert said[1].startswith("Round 1 of 11.")
        assert not t.game.is_over and t.game.round == 1
        assert t.game.current_player == 0  # the computer player moved; now it is yours
        moves = len(t.game.moves)
        t.press("d")
        assert len(t.game.moves) == moves + 1


def test_a_joker_is_just_a_joker_when_no_rank_is_wild() -> None:
    cards = parse_cards("jk 5c")
    assert card_list(cards, None) == "joker and 5 of clubs"
    assert card_list(cards, Rank.FIVE) == "joker and wild 5 of clubs"


def resumed_session(game: Game, seats: list[Seat]) -> tuple[Session, RecordingBackend]:
    backend = RecordingBackend()
    session = Session(
        game,
        seats,
        Output(backend),
        Settings(delay=0.0),
        bot_loader=lambda level, index: load_bot(level, seed=index),
        autosave=False,
    )
    session.start(resumed=True)
    return session, backend


def test_resume_after_drawing_says_where_the_game_stands() -> None:
    game = deal(["6st 7st 9h", "4h 9c Kd"], turned_up="5d", stock_top="Qsp")
    game.apply(0, DrawFromStock())
    _, backend = resumed_session(game, ONE_HUMAN)
    said = backend.spoken
    assert said[0] == "Resumed. Round 1 of 11. 3s are wild, and jokers."
    assert said[1] == "Your hand: 6 of stars, 7 of stars, 9 of hearts and Queen of spades."
    assert said[2] == "Your turn: discard a card, or go out."
    assert not any("cards each" in words for words in said)


def test_resume_in_hot_seat_after_drawing_asks_for_the_discard() -> None:
    game = deal(["6st 7st 9h", "4h 9c Kd", "3c 4c 5c"], turned_up="5d", stock_top="Qsp")
    game.apply(0, DrawFromStock())
    session, backend = resumed_session(game, HOT_SEAT)
    assert backend.spoken[-1] == "Pass to Ann. Press Enter when ready."
    session.press("c-m")
    assert backend.spoken[-1] == "Your turn: discard a card, or go out."
