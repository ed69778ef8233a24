"""A review of one seat's round: the choices the strongest computer player would have made
otherwise, and the points the solver expects each to have cost.

The round is replayed from the game's seed and moves, and at each of the seat's choices the
strongest level (:class:`~fivecrowns.ai.hard.HardBot`) is asked what it would do with that
seat's own :class:`~fivecrowns.core.views.PlayerView` of the moment. Everything it weighs
comes from that view (the seat's hand, the public pile and melds, the scores), so a review
never depends on another seat's hidden cards or on the stock order. The sentences are in
:mod:`fivecrowns.words.review`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fivecrowns.ai.evaluate import arrangement_with_discard, leftover, leftover_with_discard
from fivecrowns.ai.hard import HardBot, blind_draw_value
from fivecrowns.ai.memory import read_memory
from fivecrowns.core.cards import Card, Rank
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.moves import Discard, GoOut, Move, RoundScored, TakeDiscard
from fivecrowns.core.replay import dealt_again
from fivecrowns.core.views import PlayerView, player_view

__all__ = ["STRONGEST", "Miss", "MissKind", "review_round"]

#: The level whose choices a review compares with (the strongest one in docs/bots.md).
STRONGEST = "hard"

#: took: you took the top discard, a blind draw was better; drew: the other way round;
#: discard: another discard was better; go_out: you could have gone out;
#: last_turn: your last turn's melds and discard left more than the best ones.
MissKind = Literal["took", "drew", "discard", "go_out", "last_turn"]


@dataclass(frozen=True, slots=True)
class Miss:
    """One choice the strongest player would have made otherwise."""

    turn: int  # the seat's own turn in the round, from 1
    kind: MissKind
    stake: float  # points the solver expects the other choice to have saved, above 0
    wild: Rank
    played: Card | None  # the card you took or threw (None: you drew from the stock)
    better: Card | None  # the card it would take or throw (None: it draws from the stock)
    kept: int = 0  # last turn: the points you were left with


def review_round(game: Game, seat: int, round_number: int) -> list[Miss] | None:
    """The misses of ``seat`` in round ``round_number``, dearest first; None when the game
    cannot be replayed (it was not made from a seed)."""
    replay = dealt_again(game)
    if replay is None:
        return None
    scores = next(
        (e.scores for e in game.events if isinstance(e, RoundScored) and e.round == round_number),
        None,
    )
    bot = HardBot()
    misses: list[Miss] = []
    turn = 0
    for player, move in game.moves:
        if replay.round > round_number or replay.is_over:
            break
        if replay.round == round_number and player == seat:
            phase = replay.phase
            if phase in (Phase.DRAW, Phase.LAST_DRAW):
                turn += 1
            view = player_view(replay, seat)
            miss = _judge(bot, view, move, turn, scores[seat] if scores else None)
            if miss is not None:
                misses.append(miss)
        try:
            replay.apply(player, move)
        except FiveCrownsError:
            return None  # a game that does not replay: better no review than a wrong one
    if replay.events != game.events[: len(replay.events)]:
        return None  # it replayed another game: better no review than a wrong one
    misses.sort(key=lambda miss: (-miss.stake, miss.turn))
    return misses


def _judge(bot: HardBot, view: PlayerView, move: Move, turn: int, score: int | None) -> Miss | None:
    phase = view.phase
    wild = view.wild_rank
    hand = list(view.hand)
    if phase in (Phase.DRAW, Phase.LAST_DRAW):
        top = view.top_discard
        best = bot.decide(view).move
        if top is None or type(best) is type(move):
            return None
        taken = leftover_with_discard([*hand, top], wild)
        blind = blind_draw_value(hand, wild, read_memory(view).unseen)
        if isinstance(move, TakeDiscard):
            return _miss(turn, "took", taken - blind, wild, top, None)
        return _miss(turn, "drew", blind - taken, wild, None, top)
    if phase is Phase.DISCARD:
        best = bot.decide(view).move
        if isinstance(move, GoOut) or not isinstance(move, Discard):
            return None  # out is out: which card went with it costs you nothing
        if isinstance(best, GoOut):
            kept = leftover(_without(hand, move.card), wild)
            return _miss(turn, "go_out", kept, wild, move.card, best.discard)
        assert isinstance(best, Discard)
        if best.card == move.card:
            return None
        unseen = read_memory(view).unseen
        mine = blind_draw_value(_without(hand, move.card), wild, unseen)
        its = blind_draw_value(_without(hand, best.card), wild, unseen)
        return _miss(turn, "discard", mine - its, wild, move.card, best.card)
    if phase is Phase.LAST_LAY_DOWN and score is not None:
        best_arrangement = arrangement_with_discard(hand, wild)
        stake = score - best_arrangement.leftover_points
        if stake < 1:
            return None
        return Miss(turn, "last_turn", stake, wild, None, best_arrangement.discard, kept=score)
    return None  # the last discard is judged with the lay-down before it


def _miss(
    turn: int, kind: MissKind, stake: float, wild: Rank, played: Card | None, better: Card | None
) -> Miss | None:
    # why a whole point: a choice the solver rates within a point is a matter of taste
    if round(stake) < 1:
        return None
    return Miss(turn, kind, stake, wild, played, better)


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest
