"""Computer players for Five Crowns Solitaire, and the auto mode that runs many deals.

Terminology:
    natural    a card that is not wild in the hand it sits in.
    junk       a natural the hand plans to throw away.
    filler     a card a partial meld still lacks (a wild can be any filler).
    distance   the fewest turns that could close a hand if the right cards came:
               each turn puts one card in and takes one out.
    outs       the cards still in the stock that would bring a hand one turn closer.

Strategies:
    greedy  puts each card where it lowers the leftover points most (exact solver).
    best    looks at the known contents of the stock: it keeps every hand's distance
            as low as it can and, among equal moves, keeps the most outs for the hands
            that need them (a card wanted by two hands goes where it is scarcer).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from fivecrowns.core.cards import Card, Rank, is_wild, points
from fivecrowns.core.melds.solver import best_with_discard, least_leftover
from fivecrowns.core.solitaire.rules import (
    DiscardCard,
    Hand,
    Phase,
    PutCard,
    Solitaire,
    SolitaireView,
)
from fivecrowns.i18n import gettext as _

__all__ = [
    "STRATEGIES",
    "AutoReport",
    "BestStrategy",
    "GreedyStrategy",
    "Play",
    "Strategy",
    "auto_play",
    "best_discard",
    "distance",
    "load_strategy",
    "outs",
    "play_game",
]

_INF = 99
_JOKER_CODE = 55


@dataclass(frozen=True, slots=True)
class Play:
    """One whole turn: put the turned card into ``hand``, then discard ``discard`` from it."""

    hand: int
    discard: Card


class Strategy(Protocol):
    name: str

    def plan(self, view: SolitaireView) -> Play:
        """The turn to play; ``view.phase`` is PUT."""
        ...


# --- distance to going out ---------------------------------------------------


_FRONTIERS: dict[tuple[int, ...], tuple[int, ...]] = {(): (0,)}
_FRONTIERS_LIMIT = 200_000  # why: a plain dict is faster than lru_cache; clear it when full


def _frontier(naturals: tuple[int, ...]) -> tuple[int, ...]:
    """For sorted natural card codes: entry j is the fewest fillers the kept cards need
    when exactly j of them are junk (``_INF`` if no grouping has j junk).

    A kept card is in a group that becomes a meld once fillers are added: cards of one
    rank (a book needs 3), or cards of one suit with distinct ranks (a run fills its
    gaps and reaches length 3). Codes are rank-major, so the lowest card starts its run.
    """
    cached = _FRONTIERS.get(naturals)
    if cached is not None:
        return cached
    first, rest = naturals[0], naturals[1:]
    sub = _frontier(rest)
    best = [_INF, *sub]  # the first card is junk
    _merge(best, sub, 2)  # the first card alone, waiting for two fillers
    rank, suit = divmod(first, 5)
    same_rank = 0
    while same_rank < len(rest) and rest[same_rank] // 5 == rank:
        same_rank += 1
    if same_rank:
        # why only these subsets: a card with no suit neighbour within two ranks can
        # only be in a book, so it always joins the book this card starts
        flexible = [
            i
            for i in range(same_rank)
            if any(
                other % 5 == rest[i] % 5 and 0 < abs(other // 5 - rank) <= 2 for other in naturals
            )
        ]
        tail = rest[same_rank:]
        seen: set[tuple[int, ...]] = set()
        for mask in range(1 << len(flexible)):
            left_out = {flexible[i] for i in range(len(flexible)) if mask >> i & 1}
            kept = tuple(rest[i] for i in range(same_rank) if i in left_out)
            if kept in seen:
                continue
            seen.add(kept)
            taken = same_rank - len(kept)
            if taken:
                _merge(best, _frontier(kept + tail), 2 - taken if taken < 2 else 0)
    # a run takes the next higher cards of its suit in order, one copy per rank;
    # why not every subset: leaving a card out of a run's middle is almost never
    # better, and trying every subset makes the search far too slow for look-ahead
    last = rank
    count = 1
    remaining = list(rest)
    index = same_rank
    while index < len(remaining):
        code = remaining[index]
        if code % 5 != suit or code // 5 == last:
            index += 1
            continue
        last = code // 5
        count += 1
        del remaining[index]
        span = last - rank + 1
        _merge(best, _frontier(tuple(remaining)), span - count + (3 - span if span < 3 else 0))
    result = tuple(best)
    if len(_FRONTIERS) > _FRONTIERS_LIMIT:
        _FRONTIERS.clear()
        _FRONTIERS[()] = (0,)
    _FRONTIERS[naturals] = result
    return result


def _merge(best: list[int], sub: tuple[int, ...], need: int) -> None:
    for junk, sub_need in enumerate(sub):
        if sub_need + need < best[junk]:
            best[junk] = sub_need + need


def _split(cards: Iterable[Card], wild_rank: Rank) -> tuple[tuple[int, ...], int]:
    naturals: list[int] = []
    wilds = 0
    for card in cards:
        if is_wild(card, wild_rank):
            wilds += 1
        else:
            naturals.append(card.code)
    naturals.sort()
    return tuple(naturals), wilds


def _distance(naturals: tuple[int, ...], wilds: int) -> int:
    for junk, need in enumerate(_frontier(naturals)):
        if need <= wilds + junk:
            return junk
    return len(naturals)


def _distance_after_discard(frontier: tuple[int, ...], wilds: int) -> int:
    """Distance of a hand holding one card too many (its naturals' ``frontier``),
    after its best discard."""
    result = _INF
    for junk, need in enumerate(frontier):
        if junk >= 1 and need <= wilds + junk - 1:
            result = min(result, junk - 1)
        if wilds >= 1 and need <= wilds - 1 + junk:
            result = min(result, junk)
    return result


def distance(cards: Sequence[Card], wild_rank: Rank) -> int:
    """The fewest turns that could close this hand (0: every card is melded already).

    >>> from fivecrowns.core.cards import parse_cards
    >>> distance(parse_cards("5h 6h 7h"), Rank.THREE)
    0
    >>> distance(parse_cards("5h 6h 9c"), Rank.THREE)
    1
    >>> distance(parse_cards("5h 9c Kd"), Rank.THREE)
    2
    """
    return _distance(*_split(cards, wild_rank))


@functools.lru_cache(maxsize=1 << 16)
def _near(naturals: tuple[int, ...]) -> frozenset[int]:
    """Natural cards that could join a group with these: same rank, or same suit within 3."""
    near: set[int] = set()
    for code in naturals:
        rank, suit = divmod(code, 5)
        near.update(rank * 5 + other for other in range(5))
        for step in (-3, -2, -1, 1, 2, 3):
            if 0 <= rank + step <= 10:
                near.add((rank + step) * 5 + suit)
    return frozenset(near)


@functools.lru_cache(maxsize=1 << 18)
def _helps(naturals: tuple[int, ...], wilds: int, code: int) -> bool:
    """Would natural card ``code`` bring this hand one turn closer?"""
    return _distance_after_discard(_frontier_with(naturals, code), wilds) < _distance(
        naturals, wilds
    )


def _frontier_with(naturals: tuple[int, ...], code: int) -> tuple[int, ...]:
    """``_frontier`` of the naturals plus card ``code``, trying that card's roles first.

    Why: the groupings of the other cards are then frontiers of the hand minus a few
    cards, which the next card tried shares; the plain search would start afresh.
    """
    rank, suit = divmod(code, 5)
    base = _frontier(naturals)
    best = [_INF, *base]  # the new card is junk
    _merge(best, base, 2)  # alone, waiting for two fillers
    same = [i for i, other in enumerate(naturals) if other // 5 == rank]
    seen: set[tuple[int, ...]] = set()
    for mask in range(1, 1 << len(same)):
        taken = {same[i] for i in range(len(same)) if mask >> i & 1}
        remaining = tuple(other for i, other in enumerate(naturals) if i not in taken)
        if remaining in seen:
            continue
        seen.add(remaining)
        _merge(best, _frontier(remaining), 2 - len(taken) if len(taken) < 2 else 0)
    below: list[int] = []  # one copy per rank, nearest first
    above: list[int] = []
    for i, other in enumerate(naturals):
        other_rank = other // 5
        if other % 5 != suit or other_rank == rank:
            continue
        side = below if other_rank < rank else above
        if not side or naturals[side[-1]] // 5 != other_rank:
            side.append(i)
    below.reverse()
    for low_count in range(len(below) + 1):
        low = naturals[below[low_count - 1]] // 5 if low_count else rank
        for high_count in range(len(above) + 1):
            if low_count == high_count == 0:
                continue
            high = naturals[above[high_count - 1]] // 5 if high_count else rank
            members = set(below[:low_count]) | set(above[:high_count])
            remaining = tuple(other for i, other in enumerate(naturals) if i not in members)
            span = high - low + 1
            need = span - (len(members) + 1) + (3 - span if span < 3 else 0)
            _merge(best, _frontier(remaining), need)
    return tuple(best)


def _outs(naturals: tuple[int, ...], wilds: int, wild_value: int, stock: Counter[int]) -> int:
    if _distance(naturals, wilds) == 0:
        return 0
    near = _near(naturals)
    total = 0
    for code, count in stock.items():
        wild = code == _JOKER_CODE or code // 5 + 3 == wild_value
        if wild or (code in near and _helps(naturals, wilds, code)):
            total += count
    return total


def outs(cards: Sequence[Card], wild_rank: Rank, stock: Iterable[Card]) -> int:
    """How many cards of ``stock`` would bring this hand one turn closer to closing.

    >>> from fivecrowns.core.cards import parse_cards
    >>> outs(parse_cards("5h 6h 9c"), Rank.THREE, parse_cards("7h 4h 5c 3d jk Kc"))
    4
    """
    naturals, wilds = _split(cards, wild_rank)
    return _outs(naturals, wilds, int(wild_rank), Counter(card.code for card in stock))


# --- strategies --------------------------------------------------------------


class GreedyStrategy:
    """Puts each card where it lowers the leftover points most; the solver picks the discard.

    Ties go to the lower hand number. A card that lowers nothing is put into the
    lowest open hand and the solver's discard is made there.
    """

    name = "greedy"

    def plan(self, view: SolitaireView) -> Play:
        turned = _turned(view)
        choice: tuple[int, int, int] | None = None
        result: Play | None = None
        for hand in view.open_hands:
            before = least_leftover(hand.cards, hand.wild_rank)
            after = best_with_discard((*hand.cards, turned), hand.wild_rank)
            assert after.discard is not None
            key = (after.leftover_points - before, after.leftover_points, hand.number)
            if choice is None or key < choice:
                choice, result = key, Play(hand.number, after.discard)
        assert result is not None
        return result


class BestStrategy:
    """Keeps the hands as close to closing as it can, counting the outs left in the stock.

    A move is scored on the hand it changes: ``distance + weight * distance / (outs + 0.5)``
    is the cost of a hand (0 once closed); the move that lowers the total cost most is
    played. Why this shape: a closer hand is always better, and among equally close
    hands the one with few cards left to help it is the one at risk.
    """

    name = "best"

    def __init__(self, weight: float = 2.0, sideways: bool = True) -> None:
        self.weight = weight
        self.sideways = sideways

    def cost(self, distance_left: int, outs_left: int) -> float:
        if distance_left == 0:
            return 0.0
        return distance_left + self.weight * distance_left / (outs_left + 0.5)

    def plan(self, view: SolitaireView) -> Play:
        turned = _turned(view)
        stock = Counter(card.code for card in view.stock_cards)
        hands = view.open_hands
        # putting the card in and discarding it again changes nothing: the baseline
        first = hands[0]
        best_key = (0.0, -float(points(turned, first.wild_rank)), first.number, turned.code)
        best_play = Play(first.number, turned)
        for hand in hands:
            wild_rank = hand.wild_rank
            naturals, wilds = _split(hand.cards, wild_rank)
            if not is_wild(turned, wild_rank) and turned.code not in _near(naturals):
                continue  # why: a card far from every group can neither help nor open outs
            options = _discard_options(hand, turned)
            nearest = min(option[2] for option in options)
            current = _distance(naturals, wilds)
            if nearest >= current and not self.sideways:
                continue
            before = self.cost(current, _outs(naturals, wilds, hand.number, stock))
            for discard, after_naturals, after_distance, after_wilds in options:
                if after_distance != nearest:
                    continue
                after_outs = _outs(after_naturals, after_wilds, hand.number, stock)
                gain = self.cost(after_distance, after_outs) - before
                # ties: shed the most points, then the lowest hand, then the lowest card
                key = (gain, -float(points(discard, wild_rank)), hand.number, discard.code)
                if key < best_key:
                    best_key, best_play = key, Play(hand.number, discard)
        return best_play


def _discard_options(hand: Hand, turned: Card) -> list[tuple[Card, tuple[int, ...], int, int]]:
    """For each distinct discard from the hand plus the turned card: the card, the
    resulting naturals, distance and wild count."""
    return _options((*hand.cards, turned), hand.wild_rank)


def _options(
    cards: Sequence[Card], wild_rank: Rank
) -> list[tuple[Card, tuple[int, ...], int, int]]:
    naturals, wilds = _split(cards, wild_rank)
    options = []
    for discard in set(cards):
        if is_wild(discard, wild_rank):
            after_naturals, after_wilds = naturals, wilds - 1
        else:
            remaining = list(naturals)
            remaining.remove(discard.code)
            after_naturals, after_wilds = tuple(remaining), wilds
        options.append(
            (discard, after_naturals, _distance(after_naturals, after_wilds), after_wilds)
        )
    return options


def best_discard(view: SolitaireView, strategy: BestStrategy | None = None) -> Card:
    """The discard ``best`` would make from the hand holding the turned card (phase DISCARD)."""
    if view.phase is not Phase.DISCARD or view.target is None:
        raise ValueError("There is a discard to choose only after a card is put into a hand.")
    strategy = strategy or BestStrategy()
    hand = view.hand(view.target)
    stock = Counter(card.code for card in view.stock_cards)
    choice: tuple[int, float, float, int] | None = None
    best: Card | None = None
    for discard, naturals, left, wilds in _options(hand.cards, hand.wild_rank):
        cost = strategy.cost(left, _outs(naturals, wilds, hand.number, stock))
        key = (left, cost, -float(points(discard, hand.wild_rank)), discard.code)
        if choice is None or key < choice:
            choice, best = key, discard
    assert best is not None
    return best


def _turned(view: SolitaireView) -> Card:
    if view.phase is not Phase.PUT or view.turned is None:
        raise ValueError("A strategy plans a turn only when a card is turned.")
    return view.turned


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "greedy": GreedyStrategy,
    "best": BestStrategy,
}


def load_strategy(name: str) -> Strategy:
    """A strategy by name: ``greedy`` or ``best``."""
    factory = STRATEGIES.get(name)
    if factory is None:
        known = ", ".join(STRATEGIES)  # names as typed on the command line
        raise ValueError(
            _("There is no strategy {name}: choose one of {known}.").format(
                name=repr(name), known=known
            )
        )
    return factory()


# --- playing whole games -----------------------------------------------------


def play_game(game: Solitaire, strategy: Strategy) -> Solitaire:
    """Let ``strategy`` play ``game`` to the end; returns the same game."""
    while not game.phase.is_over:
        play = strategy.plan(game.view())
        game.apply(PutCard(play.hand))
        game.apply(DiscardCard(play.discard))
    return game


@dataclass(frozen=True, slots=True)
class AutoReport:
    games: int
    wins: int
    points_left: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_points_left(self) -> float:
        return self.points_left / self.games if self.games else 0.0

    def to_json(self) -> dict[str, int | float]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "mean_points_left": self.mean_points_left,
        }

    def confidence_interval(self, z: float = 1.959964) -> tuple[float, float]:
        """Wilson score interval for the win rate (95% by default)."""
        return wilson_interval(self.wins, self.games, z)


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval: sound also near 0% and 100%.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def auto_play(
    games: int,
    seed: int,
    strategy: Strategy,
    progress: Callable[[int], None] | None = None,
) -> AutoReport:
    """Play ``games`` deals; deal k uses seed ``seed + k`` (so any deal can be replayed)."""
    wins = 0
    points_left = 0
    for number in range(games):
        game = play_game(Solitaire.deal(seed + number), strategy)
        if game.phase is Phase.WON:
            wins += 1
        points_left += game.points_left()
        if progress is not None:
            progress(number + 1)
    return AutoReport(games, wins, points_left)
