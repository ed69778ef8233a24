"""The action menu (ui/session/menus.py): every move in it, a discard or go-out item for each
card, and a letter that moves to its item or, when no item starts with it, does its own action.

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and the
output layer's RecordingBackend to hear what was said.
"""

from __future__ import annotations

from collections import Counter

from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard, going_out_discards
from fivecrowns.core.moves import Discard
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
