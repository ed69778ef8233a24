"""Views: what one player may know, and nothing more."""

from __future__ import annotations

import random

from fivecrowns.core.cards import JOKER
from fivecrowns.core.codec import game_from_json, game_to_json
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.moves import (
    DrawFromStock,
    DrewFromStock,
    GoOut,
    LaidDown,
    LayDown,
    TakeDiscard,
)
from fivecrowns.core.views import PileAction, PlayerView, player_view, public_view
from gamehelpers import card, random_move, stacked_game


def _hide_differently(game: Game, viewer: int | None) -> Game:
    """The same game as ``viewer`` sees it, with everything hidden from them changed."""
    other = game_from_json(game_to_json(game))
    other.stock.reverse()
    for seat, hand in enumerate(other.hands):
        if seat != viewer and hand and other.stock:
            hand[0], other.stock[0] = other.stock[0], hand[0]
    for index, event in enumerate(other.events):
        if isinstance(event, DrewFromStock) and event.player != viewer:
            other.events[index] = DrewFromStock(event.player, JOKER)
        if isinstance(event, LaidDown) and event.player != viewer:
            other.events[index] = LaidDown(event.player, event.melds, (JOKER,))
    return other


def test_a_view_does_not_change_when_hidden_cards_change() -> None:
    rng = random.Random(2)
    game = Game(["Ann", "Ben", "Cy"], seed=2)
    checked_last_turns = False
    while not game.is_over:
        for viewer in range(3):
            assert player_view(_hide_differently(game, viewer), viewer) == player_view(game, viewer)
        assert public_view(_hide_differently(game, None)) == public_view(game)
        checked_last_turns |= game.went_out is not None
        game.apply(game.current_player, random_move(game, rng))
        if game.round == 3:
            break
    assert checked_last_turns


def test_a_view_shows_what_the_player_may_know() -> None:
    game = stacked_game(["5h 6h 7h", "4d 9d Qc", "Jst Qst 4c"], turned_up="10c", stock_top="Kc")
    game.apply(0, DrawFromStock())
    mine = player_view(game, 0)
    theirs = player_view(game, 1)
    assert isinstance(mine, PlayerView)
    assert mine.events[-1] == DrewFromStock(0, card("Kc"))
    assert theirs.events[-1] == DrewFromStock(0, None)
    assert mine.hand == game.hand(0) and theirs.hand == game.hand(1)
    assert theirs.hand_counts == (4, 3, 3)
    assert theirs.top_discard == card("10c") and theirs.stock_count == len(game.stock)
    assert (theirs.round, theirs.wild_rank.token, theirs.dealer) == (1, "3", 2)
    assert (theirs.current_player, theirs.phase) == (0, Phase.DISCARD)
    assert mine.my_turn and not theirs.my_turn
    assert mine.legal_moves() == game.legal_moves(0) and theirs.legal_moves() == []
    game.apply(0, GoOut(card("Kc")))
    game.apply(1, TakeDiscard())
    game.apply(1, LayDown(()))
    view = player_view(game, 2)
    assert view.pile_history == (
        PileAction(None, "turned up", card("10c")),
        PileAction(0, "discarded", card("Kc")),
        PileAction(1, "took", card("Kc")),
    )
    assert view.went_out == 0 and view.in_last_turns and view.last_turns_left == (2,)
    assert [m.cards for m in view.laid_down[0]] == [m.cards for m in game.laid_down[0]]
    laid = view.events[-1]
    assert isinstance(laid, LaidDown) and laid.leftover is None
    own = player_view(game, 1).events[-1]
    assert isinstance(own, LaidDown) and own.leftover is not None
    spectator = public_view(game)
    assert not hasattr(spectator, "hand")
    assert spectator.hand_counts == (0, 4, 3) and spectator.totals == (0, 0, 0)


def test_views_are_snapshots() -> None:
    game = Game(["Ann", "Ben"], seed=1)
    before = player_view(game, 0)
    game.apply(game.current_player, DrawFromStock())
    assert player_view(game, 0) != before
    assert before.phase is Phase.DRAW
