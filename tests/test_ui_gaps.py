"""The front end's gaps closed: sounds for everyone's moves, every move in the action
menu, number keys past the 9th card, and the quit question shown once.

Driven as in test_ui_games.py: prompt_toolkit pipe input, a dummy terminal output,
and the output layer's RecordingBackend to hear (and see the sounds of) what was said.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from fivecrowns.ai import load_bot
from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard, going_out_discards
from fivecrowns.core.moves import Discard
from fivecrowns.core.views import player_view
from fivecrowns.output.base import Call
from fivecrowns.ui.screen import render_table
from fivecrowns.ui.session import Seat
from ui_support import Table, play_turn, table

THREE = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]


def sound_then_speech(calls: list[Call]) -> list[tuple[str, Call]]:
    """Each sound with the speech call that follows it (braille calls skipped)."""
    pairs: list[tuple[str, Call]] = []
    for index, call in enumerate(calls):
        if call.kind != "sound":
            continue
        after = [c for c in calls[index + 1 :] if c.kind in ("speak", "sound")]
        assert after and after[0].kind == "speak", f"{call.text} was played with no words"
        pairs.append((call.text, after[0]))
    return pairs


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


def never_go_out(t: Table) -> None:
    """A human turn that draws and discards but never goes out (so a bot goes out first)."""
    if t.game.phase in (Phase.DRAW, Phase.LAST_DRAW):
        t.press("d")
        return
    hand = t.session.hand()
    keep = best_with_discard(hand, t.game.wild_rank)
    assert keep.discard is not None
    t.press("home", *["right"] * hand.index(keep.discard), "enter")


# --- 1. sounds for every player's moves ---------------------------------------------


def test_other_players_moves_have_their_sounds_queued_with_their_words() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            never_go_out(t)
        assert t.game.round == 2, "round 1 should have ended"
        pairs = sound_then_speech(t.backend.calls)
        others = [(sound, call) for sound, call in pairs if call.text.startswith(("Ann ", "Ben "))]
        turn_sounds = {sound for sound, call in others if " discarded the " in call.text}
        assert turn_sounds and turn_sounds <= {"draw_stock", "take_discard"}
        for sound, call in others:
            assert not call.interrupt, call.text  # queued: never cuts off the player
            if sound == "take_discard":
                assert " took the " in call.text
            if sound == "draw_stock":
                assert " drew " in call.text
        # A computer player went out (this player never does): its sound and the others'
        # last turn, said and heard.
        went = [call.text for sound, call in others if sound == "went_out"]
        assert went and " went out with " in went[0]
        assert ("last_turn", "This is your last turn.") in [(s, c.text) for s, c in pairs]
        assert "round_over" in t.backend.sounds and "shuffle" in t.backend.sounds
        # Nothing said only by sound, and nothing the player asked for was stopped.
        assert not [c for c in t.backend.calls if c.kind == "stop"]


def test_another_players_last_turn_is_said_and_heard() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            play_turn(t)  # goes out when it can
        said = [(s, c.text) for s, c in sound_then_speech(t.backend.calls)]
        last = [text for sound, text in said if sound == "last_turn"]
        assert any(text in ("Ann's last turn.", "Ben's last turn.") for text in last), said


def test_brief_verbosity_keeps_others_last_turn_silent_and_wordless() -> None:
    with table(THREE, seed=8, first_dealer=2, verbosity="brief") as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            play_turn(t)
        said = [(s, c.text) for s, c in sound_then_speech(t.backend.calls)]
        assert not any(text.endswith("'s last turn.") for _, text in said)
        assert all(text == "This is your last turn." for s, text in said if s == "last_turn")


# --- 2. every move in the menu ------------------------------------------------------


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


# --- 3. number keys reach cards 10 to 14 ----------------------------------------------


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


# --- 5. the quit question once on the screen --------------------------------------------


def test_quit_question_is_shown_once_on_the_full_screen() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        t.press("q")
        screen = "".join(text for _, text in render_table(t.session.table()))
        assert screen.count("Quit? The game stays saved") == 1
        assert t.spoken()[-1].startswith("Quit? The game stays saved")
        t.press("n")
        screen = "".join(text for _, text in render_table(t.session.table()))
        assert "Quit?" not in screen and screen.count("Back to the game.") == 1
