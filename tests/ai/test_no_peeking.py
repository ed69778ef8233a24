"""Computer players see only their own view: changing any card hidden from a
player (the other hands, the order of the stock) never changes its decision."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivecrowns.ai import load_bot
from fivecrowns.core.game import Game
from fivecrowns.core.views import player_view

LEVELS = ("easy", "medium", "hard")


def reach(seed: int, moves: int, players: int) -> Game:
    """A game after ``moves`` moves of medium play (it may be in any round and phase)."""
    game = Game([f"Seat {seat + 1}" for seat in range(players)], seed=seed)
    mover = load_bot("medium")
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.current_player
        game.apply(seat, mover.decide(player_view(game, seat)).move)
    return game


def reshuffle_hidden(game: Game, viewer: int, rng: random.Random) -> Game:
    """A copy where every card hidden from ``viewer`` is dealt again at random:
    the other hands and the stock are pooled, shuffled and refilled to the same sizes."""
    other = copy.deepcopy(game)
    seats = [seat for seat in range(len(game.players)) if seat != viewer]
    pool = list(other.stock)
    for seat in seats:
        pool.extend(other.hands[seat])
    rng.shuffle(pool)
    for seat in seats:
        size = len(other.hands[seat])
        other.hands[seat], pool = pool[:size], pool[size:]
    other.stock = pool
    return other


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 400),
    players=st.integers(2, 5),
    shuffle_seed=st.integers(0, 2**32 - 1),
)
def test_changing_hidden_cards_never_changes_a_decision(
    seed: int, moves: int, players: int, shuffle_seed: int
) -> None:
    game = reach(seed, moves, players)
    if game.is_over:
        return
    viewer = game.current_player
    other = reshuffle_hidden(game, viewer, random.Random(shuffle_seed))
    # The change is real (unless nothing was hidden that could move)...
    hidden_before = [game.hands[s] for s in range(players) if s != viewer] + [game.stock]
    hidden_after = [other.hands[s] for s in range(players) if s != viewer] + [other.stock]
    assert sorted(c for cards in hidden_before for c in cards) == sorted(
        c for cards in hidden_after for c in cards
    )
    # ...and the player sees the same thing in both games.
    assert player_view(game, viewer) == player_view(other, viewer)
    for level in LEVELS:
        for bot_seed in (0, 1):
            first = load_bot(level, seed=bot_seed).decide(player_view(game, viewer))
            second = load_bot(level, seed=bot_seed).decide(player_view(other, viewer))
            assert first == second, level


def test_the_reshuffle_really_moves_hidden_cards() -> None:
    game = reach(5, 30, 4)
    viewer = game.current_player
    other = reshuffle_hidden(game, viewer, random.Random(1))
    assert other.hands[viewer] == game.hands[viewer]
    assert other.stock != game.stock
    assert any(other.hands[s] != game.hands[s] for s in range(4) if s != viewer)


def test_a_bot_that_peeks_would_be_caught() -> None:
    """The check above can fail: a bot that reads a hidden card decides differently."""
    from fivecrowns.ai import Decision
    from fivecrowns.core.moves import DrawFromStock, TakeDiscard

    def peeking_decision(game: Game) -> Decision:
        # Cheats: takes the discard unless the hidden top of the stock is a high card.
        card = game.stock[-1]
        if card.rank is not None and card.rank >= 10:
            return Decision(DrawFromStock(), "Peeked.")
        return Decision(TakeDiscard(), "Peeked.")

    game = reach(5, 0, 4)
    viewer = game.current_player
    changed = [
        peeking_decision(game) != peeking_decision(reshuffle_hidden(game, viewer, random.Random(s)))
        for s in range(20)
    ]
    assert any(changed)
    assert all(
        player_view(game, viewer)
        == player_view(reshuffle_hidden(game, viewer, random.Random(s)), viewer)
        for s in range(20)
    )
