"""The session's keys: the action menu (every move in it, a letter moves to its item), the
number keys past the 9th card, capital letters, the review keys, the draw and the focus.

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and the
output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from fivecrowns.ai import load_bot
from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard, going_out_discards
from fivecrowns.core.moves import Discard
from fivecrowns.core.views import player_view
from fivecrowns.ui.screen import render_table
from fivecrowns.ui.session import Seat
from ui_support import Table, never_go_out, table

THREE = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]


def menu_items(t: Table) -> list[str]:
    state = t.session.list_state
    assert state is not None
    return [label for label, _ in state.items]


def choose(t: Table, label_start: str) -> str:
    """Open the menu, walk down to the first item starting with ``label_start``, Enter."""
    t.press("escape")
    items = menu_items(t)
    index = next(i for i, item in enumerate(items) if item.startswith(label_start))
    t.press("home", *["down"] * index)
    assert t.spoken()[-1].startswith(label_start)
    t.press("enter")
    return items[index]


def test_menu_discards_any_card_not_only_the_focused_one() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        t.press("d")
        assert t.game.phase is Phase.DISCARD
        hand = t.session.hand()
        wild = t.game.wild_rank
        t.press("escape")
        items = menu_items(t)
        discards = [item for item in items if item.startswith("Discard the ")]
        distinct = list(dict.fromkeys(hand))
        assert [item.split(":")[0] for item in discards] == [
            f"Discard the {spoken_name(card, wild)}" for card in distinct
        ]
        focused = hand[t.session.focus()]
        keyed = [item for item in discards if item.endswith(": Enter or Space")]
        assert keyed == [f"Discard the {spoken_name(focused, wild)}: Enter or Space"]
        for card in going_out_discards(hand, wild):
            assert any(
                item.startswith(f"Go out, discarding the {spoken_name(card, wild)}")
                for item in items
            )
        t.press("escape")
        other = next(card for card in distinct if card != focused)
        choose(t, f"Discard the {spoken_name(other, wild)}")
        mine = [move for player, move in t.game.moves if player == 0]
        assert mine == [mine[0], Discard(other)]
        assert Counter(t.game.hand(0)) == Counter(hand) - Counter([other])


def test_menu_offers_lay_down_and_discard_for_each_card_in_the_last_turn() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        for _ in range(60):
            if t.game.current_player == 0 and t.game.phase is Phase.LAST_DRAW:
                break
            never_go_out(t)
        assert t.game.phase is Phase.LAST_DRAW and t.game.current_player == 0
        choose(t, "Draw from the stock")
        assert t.game.phase is Phase.LAST_LAY_DOWN
        hand = t.session.hand()
        wild = t.game.wild_rank
        t.press("escape")
        items = menu_items(t)
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            left = best_arrangement(rest, wild).leftover_points
            label = f"Lay down and discard the {spoken_name(card, wild)}, leaving {left} points"
            assert any(item.startswith(label) for item in items), (label, items)
        best = best_with_discard(hand, wild)
        assert best.discard is not None
        assert (
            f"Lay down your best melds and discard the {spoken_name(best.discard, wild)}, "
            f"leaving {best.leftover_points} points: G"
        ) in items
        t.press("escape")
        other = next(card for card in reversed(hand) if card != best.discard)
        rest = list(hand)
        rest.remove(other)
        rounds = len(t.game.round_scores)
        moves_before = len(t.game.moves)
        choose(t, f"Lay down and discard the {spoken_name(other, wild)}")
        assert t.game.moves[moves_before] == (0, Discard(other))
        # The round ends after the last turns: this player scores what the menu said.
        assert len(t.game.round_scores) == rounds + 1
        assert t.game.round_scores[-1][0] == best_arrangement(rest, wild).leftover_points


def game_at_round(round_number: int, seed: int = 3) -> Game:
    """A two-player game played by computer players up to your draw in ``round_number``."""
    game = Game(["You", "Ann"], seed=seed, first_dealer=1)
    bots = {0: load_bot("easy", seed=seed), 1: load_bot("easy", seed=seed + 1)}
    for _ in range(5000):
        if game.round == round_number and game.current_player == 0 and game.phase is Phase.DRAW:
            return game
        seat = game.current_player
        decision: Any = bots[seat].decide(player_view(game, seat))
        move = getattr(decision, "move", decision)
        game.apply(seat, move if game.can(seat, move) else game.legal_moves(seat)[0])
    raise AssertionError("the computer players did not reach the round")


def test_zero_and_a_number_twice_jump_to_cards_ten_to_fourteen() -> None:
    game = game_at_round(11)  # 13 cards; 14 after drawing
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, game=game) as t:
        t.press("d")
        hand = t.session.hand()
        wild = t.game.wild_rank
        assert len(hand) == 14

        def heard(place: int) -> str:
            return f"{spoken_name(hand[place - 1], wild)}, {place} of 14"

        for keys, place in [
            (["0"], 10), (["1"], 1), (["1"], 11), (["1"], 1), (["4", "4"], 14),
            (["3", "3"], 13), (["9"], 9), (["9"], 9), (["2", "2"], 12), (["0", "0"], 10),
        ]:  # fmt: skip
            t.press(*keys)
            assert t.spoken()[-1] == heard(place), keys
            assert t.session.focus() == place - 1
        screen = "".join(text for _, text in render_table(t.session.table()))
        assert " 10   11   12   13   14" in screen  # every card is numbered on the screen


def test_a_number_past_the_hand_is_a_sentence_and_changes_nothing() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=1) as t:
        t.press("2")
        before = t.session.focus()
        t.press("0")
        assert t.spoken()[-1] == "You have only 3 cards."
        assert t.backend.sounds[-1] == "invalid" and t.session.focus() == before
        t.press("2")  # card 2 again: no 12th card, so it stays on card 2
        assert t.spoken()[-1].endswith(", 2 of 3")


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


def test_a_letter_no_menu_item_starts_with_does_its_own_action() -> None:
    """Item 8: a menu opened before the turn has no draw item; D then draws, as keys.md
    says, instead of "No item starts with D."."""
    with table([Seat("You"), Seat("Ann", "medium")], seed=5, first_dealer=1) as t:
        t.press("escape")
        state = t.session.list_state
        assert state is not None
        # the menu as it was before the turn: no item starts with D
        state.items = [item for item in state.items if not item[0].startswith("D")]
        hand = len(t.session.hand())
        t.press("d")
        assert t.session.list_state is None
        assert t.spoken()[-1].startswith("You drew the "), t.spoken()[-1]
        assert len(t.session.hand()) == hand + 1
        # a letter an item starts with still moves to it, and a letter with neither says so
        t.press("escape", "s")
        state = t.session.list_state
        assert state is not None and state.items[state.selected][0].startswith("S")
        t.press("z")
        assert t.spoken()[-1] == "No item starts with Z."
