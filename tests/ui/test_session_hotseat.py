"""Hot seat (ui/session/hotseat.py): players who share one keyboard, the privacy screen
between them, and what each hears when the keyboard comes back to them.

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and
the output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

from ai_support import table as deal
from fivecrowns.core.game import Phase
from fivecrowns.ui.app import CLEAR_SCREEN_AND_SCROLLBACK
from fivecrowns.ui.session import Seat
from fivecrowns.words.announce import card_list
from ui_support import Table, play_turn, table

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


def review_everything(t: Table) -> list[str]:
    """Every message the review keys reach: oldest, then newer to the end."""
    mark = len(t.spoken())
    t.press("<")
    for _ in range(len(t.spoken()) + 1):
        t.press(".")
    t.press("r", "l")
    return t.said_since(mark)


def test_hot_seat_review_keys_reach_only_your_own_messages() -> None:
    with table(HOT_SEAT, seed=3, first_dealer=2) as t:
        t.press("enter")  # Ann at the keyboard
        ann_hand = list(t.game.hand(0))
        t.press("h", "d")
        ann_drawn = [card for card in t.game.hand(0) if card not in ann_hand]
        t.press(",", ",")  # Ann pages back: her cursor is not where Ben starts
        play_turn(t)  # Ann discards
        assert t.session.privacy_for == 1
        t.press("enter")  # Ben at the keyboard
        reached = " ".join(review_everything(t))
        assert "Ben." in reached  # Ben's own handoff is there
        assert f"Your hand: {card_list(ann_hand, t.game.wild_rank)}" not in reached
        assert "You drew the " not in reached
        assert "You discarded" not in reached
        assert "Ann drew from the stock and discarded the " in reached
        for card in ann_drawn:
            # the card Ann drew is hers alone unless she threw it away
            if not any(f"discarded the {card.spoken}" in text for text in t.spoken()):
                assert f"drew the {card.spoken}" not in reached


def test_line_mode_hot_seat_clears_the_previous_players_lines() -> None:
    with table(HOT_SEAT, seed=3, first_dealer=2, line_mode=True) as t:
        t.press("enter")
        ann_hand = list(t.game.hand(0))
        t.press("h")
        play_turn(t)
        play_turn(t)
        assert t.session.privacy_for == 1
        console = t.lines.getvalue()
        assert CLEAR_SCREEN_AND_SCROLLBACK in console
        after = console.rsplit(CLEAR_SCREEN_AND_SCROLLBACK, 1)[1]
        assert after.startswith("Pass to Ben. Press Enter when ready.")
        assert card_list(ann_hand, t.game.wild_rank) not in after
        assert "You drew" not in after and "You discarded" not in after


def test_last_turn_handoff_says_who_went_out_your_last_turn_and_the_top_discard() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk")
    with table([Seat("Ann"), Seat("Ben")], seed=0, game=game) as t:
        t.press("enter", "d", "g")  # Ann draws the joker and goes out
        assert t.session.privacy_for == 1
        mark = len(t.spoken())
        t.press("enter")  # Ben at the keyboard, for his last turn
        said = " ".join(t.said_since(mark))
        assert "Ann went out with " in said
        assert "This is your last turn." in said
        top = t.game.top_discard
        assert top is not None
        assert f"Top discard: {top.spoken}." in said
        t.press("l")
        assert "Ann went out with " in t.spoken()[-1]


def test_handoff_tells_only_what_you_did_not_hear_and_l_tells_it_all() -> None:
    seats = [Seat("Ann"), Seat("Cy", "medium"), Seat("Ben")]
    with table(seats, seed=3, first_dealer=2) as t:
        t.press("enter")  # Ann
        play_turn(t)
        play_turn(t)  # Ann discards; Cy moves while Ann is still at the keyboard
        cy_move = next(text for text in reversed(t.spoken()) if text.startswith("Cy "))
        assert t.session.privacy_for == 2
        t.press("enter")  # Ben
        play_turn(t)
        play_turn(t)
        assert t.session.privacy_for == 0
        mark = len(t.spoken())
        t.press("enter")  # Ann again: she heard Cy's move, not Ben's
        said = " ".join(t.said_since(mark))
        assert "Ben drew" in said or "Ben took" in said
        assert cy_move not in said
        t.press("l")
        assert t.spoken()[-1].startswith(cy_move.rstrip("."))
