"""What one player may know: the only thing computer players, speech and exports read.

:func:`player_view` gives a :class:`PlayerView`: the player's own hand, the top
discard, how many cards every other hand holds, the stock count, scores, the
round and wild rank, whose turn it is, the melds laid down this round, and the
public history of the discard pile. It never holds another player's cards, the
stock order, or what another player drew from the stock. :func:`public_view`
gives the same without any hand, for spectators and score sheets.

Views are snapshots: they do not change when the game moves on.

>>> from fivecrowns.core.game import Game
>>> game = Game(["Ann", "Ben", "Cy"], seed=3)
>>> view = player_view(game, game.current_player)
>>> len(view.hand), view.hand_counts, view.stock_count
(3, (3, 3, 3), 106)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fivecrowns.core.cards import Card, Rank
from fivecrowns.core.game import Game, Phase, legal_moves_for
from fivecrowns.core.melds.solver import Meld
from fivecrowns.core.moves import Discarded, Event, Move, RoundStarted, TookDiscard, WentOut, redact

__all__ = ["PileAction", "PlayerView", "PublicView", "pile_history", "player_view", "public_view"]


@dataclass(frozen=True, slots=True)
class PileAction:
    """One public change to the discard pile this round.

    ``action`` is "turned up" (the card that started the pile; ``player`` is
    ``None``), "took" or "discarded": a key for programs, not words for people (whoever
    says it words it in the player's language).
    """

    player: int | None
    action: str
    card: Card


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone at the table may know."""

    players: tuple[str, ...]
    round: int
    wild_rank: Rank
    dealer: int
    current_player: int
    phase: Phase
    hand_counts: tuple[int, ...]
    top_discard: Card | None
    discard_count: int
    stock_count: int
    round_scores: tuple[tuple[int, ...], ...]  # one tuple per finished round
    totals: tuple[int, ...]
    went_out: int | None
    last_turns_left: tuple[int, ...]
    laid_down: tuple[tuple[Meld, ...], ...]  # melds on the table this round, by seat
    pile_history: tuple[PileAction, ...]  # this round, oldest first
    events: tuple[Event, ...]  # this round's events as this viewer may see them
    decks_in_play: int
    game_over: bool
    winners: tuple[int, ...]  # empty until the game is over

    @property
    def current_name(self) -> str:
        return self.players[self.current_player]

    @property
    def in_last_turns(self) -> bool:
        return self.went_out is not None


@dataclass(frozen=True, slots=True)
class PlayerView(PublicView):
    """What ``player`` may know: the public view plus their own hand."""

    player: int
    hand: tuple[Card, ...]
    forbidden_discard: Card | None  # set only with the forbid-return-discard option

    @property
    def name(self) -> str:
        return self.players[self.player]

    @property
    def my_turn(self) -> bool:
        return not self.game_over and self.current_player == self.player

    def legal_moves(self) -> list[Move]:
        """The legal moves now (empty when it is not this player's turn)."""
        if not self.my_turn:
            return []
        return legal_moves_for(self.phase, self.hand, self.wild_rank, self.forbidden_discard)


def pile_history(round_events: Sequence[Event]) -> tuple[PileAction, ...]:
    """What everyone saw happen at the discard pile this round, from the round's events."""
    history: list[PileAction] = []
    for event in round_events:
        if isinstance(event, RoundStarted):
            history.append(PileAction(None, "turned up", event.turned_up))
        elif isinstance(event, TookDiscard):
            history.append(PileAction(event.player, "took", event.card))
        elif isinstance(event, Discarded):
            history.append(PileAction(event.player, "discarded", event.card))
        elif isinstance(event, WentOut):
            history.append(PileAction(event.player, "discarded", event.discard))
    return tuple(history)


def _public_fields(game: Game, viewer: int | None) -> dict[str, object]:
    round_events = game.round_events
    history = pile_history(round_events)
    return {
        "players": game.players,
        "round": game.round,
        "wild_rank": game.wild_rank,
        "dealer": game.dealer,
        "current_player": game.current_player,
        "phase": game.phase,
        "hand_counts": tuple(len(hand) for hand in game.hands),
        "top_discard": game.top_discard,
        "discard_count": len(game.discard_pile),
        "stock_count": len(game.stock),
        "round_scores": tuple(game.round_scores),
        "totals": tuple(game.totals),
        "went_out": game.went_out,
        "last_turns_left": tuple(game.last_turns),
        "laid_down": tuple(game.laid_down),
        "pile_history": history,
        "events": tuple(redact(event, viewer) for event in round_events),
        "decks_in_play": game.decks_in_play,
        "game_over": game.is_over,
        "winners": game.winners if game.is_over else (),
    }


def public_view(game: Game) -> PublicView:
    """The spectator's view: no hand, no stock order, no stock draws."""
    return PublicView(**_public_fields(game, None))  # type: ignore[arg-type]


def player_view(game: Game, player: int) -> PlayerView:
    """What ``player`` may know now."""
    if not 0 <= player < len(game.players):
        raise ValueError(f"There is no player {player}.")
    forbidden = game.taken_discard if game.options.forbid_return_discard else None
    if player != game.current_player:
        forbidden = None
    return PlayerView(
        **_public_fields(game, player),  # type: ignore[arg-type]
        player=player,
        hand=game.hand(player),
        forbidden_discard=forbidden,
    )
