"""What a blind player and a sighted player ran into (issue 10), through the command layer.

Driven as in test_ui_games.py: prompt_toolkit pipe input, a dummy terminal output, and
the output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

import json
import re

from ai_support import table as deal
from fivecrowns.ai import load_bot
from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.views import player_view
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.ui.app import CLEAR_SCREEN_AND_SCROLLBACK
from fivecrowns.ui.launch import speech_note
from fivecrowns.ui.screen import render_table
from fivecrowns.ui.session import Seat, Session, game_from_save
from fivecrowns.ui.settings import Settings
from fivecrowns.words.announce import card_list
from ui_support import Table, play_turn, table

HOT_SEAT = [Seat("Ann"), Seat("Ben"), Seat("Cy", "medium")]


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


def test_review_restarts_from_the_newest_and_says_the_place() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=5) as t:
        t.press("w", "p", "s")
        count = len(t.session.output.history)
        t.press(",")
        assert t.spoken()[-1].endswith(f" {count - 1} of {count}.")
        t.press(",")
        assert t.spoken()[-1].endswith(f" {count - 2} of {count}.")
        t.press("p")  # a new message: the next step back starts from it
        count = len(t.session.output.history)
        t.press(",")
        assert t.spoken()[-1].startswith("Scores")
        assert t.spoken()[-1].endswith(f" {count - 1} of {count}.")


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


def test_resume_keeps_the_last_moves_and_why() -> None:
    seats = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]
    with table(seats, seed=4, first_dealer=0) as t:
        play_turn(t)
        play_turn(t)  # You discard; Ann and Ben move
        assert t.game.current_player == 0
        t.press("l")
        live_moves = t.spoken()[-1]
        t.press("y")
        live_why = t.spoken()[-1]
        assert live_moves.startswith("Ann ") and "Ben " in live_moves
        assert live_why.startswith("Ben: ")
        payload = json.loads(json.dumps(t.session.save_payload()))
    game, saved_seats, _ = game_from_save(payload)
    backend = RecordingBackend()
    session = Session(
        game,
        saved_seats,
        Output(backend),
        Settings(delay=0.0),
        bot_loader=lambda level, index: load_bot(level, seed=4 + index),
        autosave=False,
    )
    session.start(resumed=True)
    session.press("l")
    assert backend.spoken[-1] == live_moves
    session.press("y")
    assert backend.spoken[-1] == live_why


def test_round_result_comes_first_short_and_waits_for_a_key() -> None:
    seats = [Seat("You")] + [Seat(name, "medium") for name in ("Ann", "Ben", "Cy", "Dee", "Eve")]
    game = deal(
        ["6st 7st 8st", "4h 9c Kd", "5c 9h Jd", "6c 10h Qd", "7c Jh Kc", "8c Qh Ksp"],
        turned_up="5d",
        stock_top="jk",
    )
    with table(seats, seed=0, game=game, verbosity="brief") as t:
        t.press("d", "left", "g")  # the joker on the left goes out with the run
        said = t.spoken()
        result = next(text for text in said if text.startswith("Round 1 over."))
        assert result.startswith("Round 1 over. You went out. ")
        assert re.fullmatch(
            r"Round 1 over\. You went out\. ([A-Z][a-z]+ \d+, )*[A-Z][a-z]+ \d+\. "
            r"Totals: you 0, .+\.",
            result,
        ), result
        assert len(result) < 160, len(result)
        assert said[-1] == "Round 2 next. Press Enter or Space to deal it."
        assert t.game.round == 2
        assert not any(text.startswith("Round 2 of 11") for text in said)
        before = t.state()
        t.press("d")  # a move waits for the deal
        assert t.spoken()[-1] == "Round 2 next. Press Enter or Space to deal it."
        assert t.state() == before
        t.press("b")
        detail = t.spoken()[-1]
        assert detail.startswith(result)
        assert "You went out with a run of " in detail and "left " in detail
        mark = len(t.spoken())
        t.press("enter")
        assert t.said_since(mark)[0].startswith("Round 2, 4s wild.")


def test_round_detail_at_full_verbosity() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk")
    with table([Seat("You"), Seat("Ann", "medium")], seed=0, game=game, verbosity="full") as t:
        t.press("d", "left", "g")
        result = next(text for text in t.spoken() if text.startswith("Round 1 over."))
        head = r"Round 1 over\. You went out\. Ann (\d+)\. Totals: you 0, Ann \1\. "
        assert re.match(head, result)
        assert "You went out with a run of " in result
        assert re.search(r"Ann: \d+ points, left ", result)


def test_capital_letters_without_their_own_key_act_as_small_letters() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=5) as t:
        t.press("w")
        round_words = t.spoken()[-1]
        t.press("W")  # Caps Lock on
        assert t.spoken()[-1] == round_words
        t.press("G")  # before drawing: the same refusal as g, not "does nothing here"
        assert t.spoken()[-1] == "You must draw before you go out: press D or T."
        t.press("D")
        assert t.spoken()[-1].startswith("You drew the ")
        t.press("H")  # Shift+H keeps its own action: the hint
        assert not t.spoken()[-1].startswith(("Your hand", "4 cards"))
        t.press("f1", "end")
        assert t.spoken()[-1].startswith("Caps Lock: a capital letter with no key of its own")
        assert "Shift+H and Shift+S do their own actions" in t.spoken()[-1]


def test_start_up_says_the_game_first_and_speech_details_on_a_key() -> None:
    report = (
        "Speech: printed lines, because no screen reader is running; the built-in voice is "
        "not available: no sound device could be opened (miniaudio: failed to init device)."
    )
    note = speech_note(report, "print", "I")
    assert note == "Speech: printed lines. Press I for details."
    assert speech_note("Speech: silence, as chosen.", "none", "I") is None
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        assert t.spoken()[0].startswith("New game: You and Ann (medium).")
        t.session.speech_report = report
        t.press("i")
        assert t.spoken()[-1].startswith(report)
        assert t.spoken()[-1].endswith("run: fivecrowns speech --list.")


def test_full_verbosity_round_start_says_you_start_and_the_top_discard_once() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=8, first_dealer=1, verbosity="full") as t:
        said = " ".join(t.spoken())
        assert "Ann dealt. You start." in said
        assert "You starts" not in said
        assert said.count("Top discard: ") == 1


def test_game_over_keys_say_what_to_do_and_goodbye() -> None:
    game = Game(["You", "Ann"], seed=3)
    bot = load_bot("easy", seed=1)
    while not game.is_over:
        seat = game.current_player
        game.apply(seat, bot.decide(player_view(game, seat)).move)
    with table([Seat("You"), Seat("Ann", "medium")], seed=3, game=game) as t:
        t.press("d")
        assert t.spoken()[-1] == (
            "The game is over. Press N for a new game, S for scores, Q or Ctrl+C to leave."
        )
        t.press("q")
        assert t.spoken()[-1] == "Goodbye."
        assert t.session.wants_exit()


def test_hint_names_one_discard_before_and_after_taking_and_keeps_the_wild() -> None:
    game = deal(["7st 9st 10st", "4h 9c Kd"], turned_up="8st")
    with table([Seat("You"), Seat("Ann", "medium")], seed=0, game=game) as t:
        t.press("H")
        before = t.spoken()[-1]
        match = re.match(r"Take the 8 of stars \(T\): then discard the (.+?) and go out", before)
        assert match, before
        assert "wild" not in match.group(1)
        t.press("t", "H")
        assert t.spoken()[-1] == f"Go out (G), discarding the {match.group(1)}."


def test_last_turn_hint_uses_the_menus_words() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk 10h")
    with table([Seat("Ann", "medium"), Seat("You")], seed=0, game=game) as t:
        assert t.game.phase is Phase.LAST_DRAW  # Ann went out with the joker
        t.press("d", "H")
        hint = t.spoken()[-1]
        assert re.fullmatch(r"Lay down and discard the .+, leaving \d+ points\.", hint), hint
        t.press("escape")
        assert any(hint.rstrip(".") in label for label, _ in t.session.list_state.items)


def test_a_letter_in_the_menu_moves_to_the_item_starting_with_it() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        before = t.state()
        t.press("escape", "s")
        state = t.session.list_state
        assert state is not None, "the menu stays open"
        assert state.items[state.selected][0].startswith("S")
        assert t.spoken()[-1].startswith("S")
        t.press("z")
        assert t.spoken()[-1] == "No item starts with Z."
        assert t.state() == before


def test_draw_keeps_the_focus_and_says_where_the_card_went() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        t.press("home")
        first = t.session.hand()[0]
        t.press("d")
        said = t.spoken()[-1]
        drawn = re.match(r"You drew the (.+)\. It is card (\d+) of (\d+)\.", said)
        assert drawn, said
        hand = t.session.hand()
        assert hand[t.session.focus()] == first or hand[0] == first
        assert spoken_name(hand[int(drawn.group(2)) - 1], t.game.wild_rank) == drawn.group(1)
        t.press("enter")  # discards the card you were on, not the one you drew
        assert t.spoken()[-2 if t.game.current_player == 0 else 0]
        assert f"You discarded the {spoken_name(first, t.game.wild_rank)}." in t.spoken()


def test_screen_fits_80_by_24_with_7_players_and_keeps_recent_moves() -> None:
    seats = [Seat("You")] + [Seat(n, "medium") for n in ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")]
    with table(seats, seed=3) as t:
        for _ in range(3):
            play_turn(t)
        rows = "".join(text for _, text in render_table(t.session.table(), 80, 24)).split("\n")
        assert len(rows) <= 24 and all(len(row) < 80 for row in rows)
        assert any(row.startswith("Your hand, ") for row in rows)
        header = next(row for row in rows if "last round" in row)
        ann = next(row for row in rows if row[2:].startswith("Ann "))
        assert ann[: header.index("cards") + 5].endswith(str(len(t.game.hand(1))))
        moves = [row for row in rows if re.match(r"(Ann|Ben|Cy|Dee|Eve|Fay) (drew|took)", row)]
        assert moves, rows  # the others' moves stay on the screen
        if any(card.rank == t.game.wild_rank or card.rank is None for card in t.session.hand()):
            assert any(row.strip().startswith("wild") for row in rows)


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
