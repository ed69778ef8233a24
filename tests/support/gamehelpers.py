"""Shared helpers for the game tests: stacked decks, a bot loop, invariant checks."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from fivecrowns.ai.simple import SimplePlayer
from fivecrowns.core.cards import Card, new_deck, parse_cards
from fivecrowns.core.codec import game_to_json
from fivecrowns.core.game import Game, GameOptions, Phase, arrange_deck
from fivecrowns.core.moves import Event, Move
from fivecrowns.core.views import player_view

__all__ = [
    "bot_move",
    "check_invariants",
    "random_move",
    "snapshot",
    "stacked_game",
    "write_file",
]

_BOT = SimplePlayer()


def stacked_game(
    hands: list[str],
    *,
    dealer: int | None = None,
    turned_up: str | None = None,
    stock_top: str = "",
    names: list[str] | None = None,
    options: GameOptions | None = None,
    seed: int = 0,
) -> Game:
    """A game whose round 1 deals ``hands`` (card tokens, by seat).

    By default the last seat deals, so seat 0 plays first.
    """
    count = len(hands)
    dealer = count - 1 if dealer is None else dealer
    order = arrange_deck(
        [parse_cards(hand) for hand in hands],
        dealer=dealer,
        turned_up=parse_cards(turned_up)[0] if turned_up else None,
        stock_top=parse_cards(stock_top),
        decks=(options or GameOptions()).decks,
    )
    names = names or ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"][:count]
    return Game(names, seed=seed, first_dealer=dealer, deck_orders=[order], options=options)


def bot_move(game: Game) -> Move:
    seat = game.current_player
    return _BOT.choose_move(player_view(game, seat))


def random_move(game: Game, rng: random.Random, greed: float = 0.7) -> Move:
    """Mostly the simple player's move, sometimes any legal move (never refusing to go out)."""
    if rng.random() < greed:
        return bot_move(game)
    moves = game.legal_moves(game.current_player)
    return rng.choice(moves)


def snapshot(game: Game) -> dict[str, object]:
    return game_to_json(game)


def check_invariants(game: Game) -> None:
    """What must hold after every move."""
    assert game.all_cards() == Counter(new_deck(game.decks_in_play))
    size = game.hand_size
    counts = [len(hand) for hand in game.hands]
    if game.phase is Phase.GAME_OVER:
        return
    seat = game.current_player
    if game.went_out is None:
        expected = [size] * len(counts)
        if game.phase is Phase.DISCARD:
            expected[seat] += 1
        assert counts == expected, (counts, expected, game.phase)
        assert all(melds == () for melds in game.laid_down)
    else:
        assert counts[game.went_out] == 0
        for other in game.last_turns:
            assert counts[other] == size
            assert game.laid_down[other] == ()
        melded = sum(len(meld.cards) for meld in game.laid_down[seat])
        extra = 0 if game.phase is Phase.LAST_DRAW else 1
        assert counts[seat] + melded == size + extra
        finished = set(range(len(counts))) - {game.went_out, seat, *game.last_turns}
        for other in finished:
            assert counts[other] + sum(len(m.cards) for m in game.laid_down[other]) == size
    assert [sum(column) for column in zip(*game.round_scores, strict=True)] in (
        [],
        list(game.totals),
    )


def card(token: str) -> Card:
    return parse_cards(token)[0]


def events_of(events: list[Event], kind: type) -> list[Event]:
    return [event for event in events if isinstance(event, kind)]


def write_file(path: Path, content: str | bytes) -> Path:
    """Write a (usually damaged) save file: text as UTF-8, bytes as they are."""
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


DEEP = "[" * 100_000 + "]" * 100_000
