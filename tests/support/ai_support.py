"""Helpers for the computer-player tests: tables with chosen hands, and whole games."""

from __future__ import annotations

from collections.abc import Sequence

from fivecrowns.ai import Decision, load_bot
from fivecrowns.core.cards import parse_card, parse_cards
from fivecrowns.core.game import Game, arrange_deck
from fivecrowns.core.views import player_view


def table(hands: Sequence[str], turned_up: str, stock_top: str = "", dealer: int = -1) -> Game:
    """A round-1 game (3s wild) where seat 0 plays first, with these hands and pile."""
    seats = len(hands)
    dealer = seats - 1 if dealer < 0 else dealer
    order = arrange_deck(
        [parse_cards(hand) for hand in hands],
        dealer=dealer,
        turned_up=parse_card(turned_up),
        stock_top=parse_cards(stock_top) if stock_top else (),
    )
    return Game(
        [f"Seat {seat + 1}" for seat in range(seats)],
        first_dealer=dealer,
        deck_orders=[order],
        seed=0,
    )


def step(game: Game, level: str, seed: int = 0) -> Decision:
    """Let a fresh ``level`` bot decide for the player to move, and play it."""
    seat = game.current_player
    decision = load_bot(level, seed=seed).decide(player_view(game, seat))
    game.apply(seat, decision.move)
    return decision


def whole_game(levels: Sequence[str], seed: int) -> tuple[Game, list[tuple[int, Decision]]]:
    """Play a whole game; returns the game and every (seat, decision)."""
    bots = [load_bot(level, seed=seed * 10 + seat) for seat, level in enumerate(levels)]
    game = Game([f"Seat {seat + 1}" for seat in range(len(levels))], seed=seed)
    log: list[tuple[int, Decision]] = []
    while not game.is_over:
        seat = game.current_player
        decision = bots[seat].decide(player_view(game, seat))
        game.apply(seat, decision.move)
        log.append((seat, decision))
    return game, log


# Each names a module and a zero-argument function that would act if called.
HOSTILE_LEVELS = [
    "code:interact",
    "os:abort",
    "tempfile:mkdtemp",
    "antigravity:geohash",
    "this:x",
    "fivecrowns_no_such_module:Bot",
    "calendar:main",
]
