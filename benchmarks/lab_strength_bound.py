"""LAB ONLY, NOT A GAME LEVEL: a perfect-information player for seat 1, an upper bound (issue 15).

This script reads hidden information ON PURPOSE: every hand and the order of the stock. It
lives in ``benchmarks/`` (not in ``src/``), nothing in the game imports it, and it is never
offered as a computer level. Its only use is to measure how far above ``hard`` any player
could get by choosing its draws and discards better, so that the issue's target ("expert
scores at least 10% fewer points than hard") can be judged reachable or not.

    python benchmarks/lab_strength_bound.py --deals 200 --seed 303 --out r.json

The player ("oracle") sits in seat 1; the other three seats play ``hard``. At each of its
decisions it tries the candidate moves on exact copies of the game and plays the rest of the
ROUND out (every seat, itself included, playing ``hard`` from there on; ``hard`` is a pure
function of its view, so each play-out is exactly what would happen if it then played as
hard), and keeps the move whose play-out leaves it the fewest points this round (``--objective
own``) or the lowest own points minus the mean of the other three (``margin``). Ties keep
hard's move, so by the rollout argument (the base policy's move is always a candidate and the
play-outs are exact) its round score, from any state, is never worse than hard's from there.

- Draw (first and last turns): take the top discard or draw; both are played out.
- Discard: going out is taken at once when it can (0 points cannot be beaten on the ``own``
  objective; with ``margin`` every going-out discard is tried); otherwise hard's discard and the
  ``--width`` cheapest other cards by the solver's leftover are played out.
- Laying down and the last discard: as hard (the solver's best arrangement is already exact).

Design (the replacement series of ``bench_strength.py --baseline``): for each deal, the game
is played with the oracle in seat 1 and again with hard in seat 1 (same seeds, the other three
seats hard in both); "own" is seat 1's points per game oracle minus hard, "field" the same for
the mean of seats 2-4, "margin" own minus field; 95% normal intervals on the per-deal
differences. One process, rewritten report after every deal (a stopped run leaves honest
figures for the deals played).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from _stats import commit, mean_interval, percentile, write_report
from fivecrowns.ai.arena import game_seed, seat_names
from fivecrowns.ai.base import allowed_discards
from fivecrowns.ai.evaluate import leftover
from fivecrowns.ai.hard import HardBot
from fivecrowns.ai.loader import load_bot
from fivecrowns.cards import Card, is_wild, points
from fivecrowns.game import (
    Discard,
    DrawFromStock,
    Game,
    GoOut,
    Move,
    Phase,
    TakeDiscard,
)
from fivecrowns.melds import going_out_discards

ORACLE_SEAT = 0
MAX_ROLLOUT_MOVES = 4000  # a round of 4 players is far shorter; a bound, never reached
_HARD = HardBot()  # hard reads nothing but its view and never uses its seed: one serves all


def fork(game: Game) -> Game:
    """An exact, independent copy of ``game`` (hands, stock order, pile, random generator)."""
    other = copy.copy(game)
    other.hands = [list(hand) for hand in game.hands]
    other.stock = list(game.stock)
    other.discard_pile = list(game.discard_pile)
    other.events = list(game.events)  # events are frozen: sharing them is safe
    other.moves = list(game.moves)
    other.laid_down = list(game.laid_down)
    other.last_turns = list(game.last_turns)
    other.totals = list(game.totals)
    other.round_scores = list(game.round_scores)
    other.rng = random.Random()
    other.rng.setstate(game.rng.getstate())
    return other


def hard_move(game: Game, seat: int) -> Move:
    return _HARD.decide(game.view(seat)).move


def play_out_round(game: Game) -> tuple[int, ...]:
    """Play ``game`` (a fork) to the end of its round with hard in every seat; the round's
    scores."""
    rounds = len(game.round_scores)
    for _step in range(MAX_ROLLOUT_MOVES):
        if len(game.round_scores) > rounds:
            return game.round_scores[rounds]
        seat = game.current_player
        game.apply(seat, hard_move(game, seat))
    raise RuntimeError("a play-out did not finish its round")


Objective = Callable[[Sequence[int], int], float]


def own(scores: Sequence[int], seat: int) -> float:
    return float(scores[seat])


def margin(scores: Sequence[int], seat: int) -> float:
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - statistics.fmean(others)


OBJECTIVES: dict[str, Objective] = {"own": own, "margin": margin}


class Oracle:
    """Seat 1's perfect-information chooser; counts its play-outs and times its decisions."""

    def __init__(self, objective: Objective, width: int, objective_name: str) -> None:
        self.objective = objective
        self.objective_name = objective_name
        self.width = width
        self.rollouts = 0
        self.changed = 0  # decisions where the oracle's move was not hard's
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def decide(self, game: Game, seat: int) -> Move:
        start, cpu = time.perf_counter(), time.process_time()
        move = self._decide(game, seat)
        self.wall.append(time.perf_counter() - start)
        self.cpu.append(time.process_time() - cpu)
        return move

    def _value(self, game: Game, seat: int, move: Move) -> float:
        trial = fork(game)
        trial.apply(seat, move)
        self.rollouts += 1
        return self.objective(play_out_round(trial), seat)

    def _best(self, game: Game, seat: int, base: Move, others: Sequence[Move]) -> Move:
        candidates = [base, *(move for move in others if move != base)]
        if len(candidates) == 1:
            return base
        values = [self._value(game, seat, move) for move in candidates]
        best = min(range(len(candidates)), key=lambda i: (values[i], i))  # ties keep hard's
        if best:
            self.changed += 1
        return candidates[best]

    def _decide(self, game: Game, seat: int) -> Move:
        base = hard_move(game, seat)
        phase = game.phase
        if phase in (Phase.DRAW, Phase.LAST_DRAW):
            if game.top_discard is None:
                return base
            return self._best(game, seat, base, [TakeDiscard(), DrawFromStock()])
        if phase is not Phase.DISCARD:
            return base  # laying down the solver's best, and the last discard: exact already
        view = game.view(seat)
        hand = list(view.hand)
        wild = view.wild_rank
        allowed = allowed_discards(view)
        outs = [card for card in going_out_discards(hand, wild) if card in allowed]
        if outs:
            if self.objective_name == "own":
                return base  # going out scores 0: nothing beats it
            return self._best(game, seat, base, [GoOut(card) for card in outs[: self.width + 1]])
        natural = [card for card in allowed if not is_wild(card, wild)] or allowed

        def cost(card: Card) -> tuple[int, int, Card]:
            rest = list(hand)
            rest.remove(card)
            return (leftover(rest, wild), -points(card, wild), card)

        ranked = sorted(natural, key=cost)[: self.width]
        return self._best(game, seat, base, [Discard(card) for card in ranked])


def play_deal(seed: int, number: int, oracle: Oracle | None) -> tuple[list[int], int]:
    """Game ``number`` of series ``seed`` as bench_strength deals it; seat 1 is the oracle
    (or hard when ``oracle`` is None). Its totals and its moves."""
    specs = ["hard"] * 4
    bots = [load_bot(spec, seed=game_seed(seed, number) * 31 + s) for s, spec in enumerate(specs)]
    game = Game(seat_names(specs), seed=game_seed(seed, number), first_dealer=number % len(specs))
    for moves in range(100_000):  # a whole game is a few hundred moves; a bound
        if game.is_over:
            return list(game.totals), moves
        seat = game.current_player
        if seat == ORACLE_SEAT and oracle is not None:
            move = oracle.decide(game, seat)
        else:
            move = bots[seat].decide(game.view(seat)).move
        game.apply(seat, move)
    raise RuntimeError("a game did not finish")


def _interval(values: list[float]) -> dict[str, float]:
    mean, half = mean_interval(values, 1.96)
    return {"mean": mean, "ci95_low": mean - half, "ci95_high": mean + half, "half": half}


def _bootstrap_fraction(a: list[float], b: list[float]) -> list[float]:
    rng = random.Random(24680)
    n = len(a)
    ratios = []
    for _ in range(2000):
        sample = [rng.randrange(n) for _ in range(n)]
        ratios.append(1 - sum(a[i] for i in sample) / sum(b[i] for i in sample))
    ratios.sort()
    return [ratios[50], ratios[1949]]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    oracle_own = [float(row["oracle"][0]) for row in rows]
    hard_own = [float(row["hard"][0]) for row in rows]
    own_diff = [a - b for a, b in zip(oracle_own, hard_own, strict=True)]
    field_diff = [
        statistics.fmean(row["oracle"][1:]) - statistics.fmean(row["hard"][1:]) for row in rows
    ]
    margin_diff = [a - b for a, b in zip(own_diff, field_diff, strict=True)]
    out: dict[str, Any] = {
        "deals": len(rows),
        "hard_seat1_mean": statistics.fmean(hard_own),
        "oracle_seat1_mean": statistics.fmean(oracle_own),
        "fewer_points_fraction": 1 - statistics.fmean(oracle_own) / statistics.fmean(hard_own),
    }
    if len(rows) > 1:
        out["own"] = _interval(own_diff)
        out["field"] = _interval(field_diff)
        out["margin"] = _interval(margin_diff)
        out["own_sd"] = statistics.stdev(own_diff)
        out["fewer_points_ci95"] = _bootstrap_fraction(oracle_own, hard_own)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=303)
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument("--objective", choices=sorted(OBJECTIVES), default="own")
    parser.add_argument("--width", type=int, default=4, help="other discards played out")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this (0: never)")
    parser.add_argument("--out")
    args = parser.parse_args()
    oracle = Oracle(OBJECTIVES[args.objective], args.width, args.objective)
    rows: list[dict[str, Any]] = []
    start, cpu_start = time.perf_counter(), time.process_time()
    report: dict[str, Any] = {}
    for number in range(args.first, args.first + args.deals):
        if args.minutes and time.perf_counter() - start > 60 * args.minutes:
            break
        hard_totals, _moves = play_deal(args.seed, number, None)
        oracle_totals, _moves = play_deal(args.seed, number, oracle)
        rows.append({"deal": number, "oracle": oracle_totals, "hard": hard_totals})
        elapsed = time.perf_counter() - start
        report = {
            "what": "LAB ONLY (reads hidden cards): perfect-information seat 1 against three "
            "hard, replacement series; own/field/margin are oracle minus hard, points a game",
            "seed": args.seed,
            "first_deal": args.first,
            "deals_asked": args.deals,
            "objective": args.objective,
            "width": args.width,
            **summary(rows),
            "rollouts": oracle.rollouts,
            "decisions": len(oracle.wall),
            "decisions_changed": oracle.changed,
            "decision_wall_ms": _times(oracle.wall),
            "decision_cpu_ms": _times(oracle.cpu),
            "seconds": elapsed,
            "cpu_seconds": time.process_time() - cpu_start,
            "load_average": os.getloadavg(),
            "commit": commit(),
            "rows": rows,
        }
        write_report(args.out, json.dumps(report, indent=1) + "\n")
        own_text = ""
        if "own" in report:
            own_text = f" own {report['own']['mean']:+.2f} ± {report['own']['half']:.2f}"
        print(f"deal {number}: {len(rows)} done{own_text}; {elapsed:.0f} s", file=sys.stderr)
    brief = {key: value for key, value in report.items() if key != "rows"}
    print(json.dumps(brief, indent=2))
    return 0


def _times(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ms = [value * 1000 for value in values]
    return {"median": statistics.median(ms), "p99": percentile(ms, 0.99), "max": max(ms)}


if __name__ == "__main__":
    raise SystemExit(main())
