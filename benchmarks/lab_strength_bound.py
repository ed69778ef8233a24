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
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from _stats import commit, mean_interval, percentile, write_report
from fivecrowns.ai.arena import game_seed, seat_names
from fivecrowns.ai.base import allowed_discards
from fivecrowns.ai.evaluate import leftover, leftover_with_discard
from fivecrowns.ai.hard import SLACK, HardBot
from fivecrowns.ai.loader import load_bot
from fivecrowns.ai.memory import read_memory
from fivecrowns.core.cards import Card, is_wild, points
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import going_out_discards
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, Move, TakeDiscard, redact
from fivecrowns.core.views import player_view

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
    return _HARD.decide(player_view(game, seat)).move


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


KNOWLEDGE = ("perfect", "stock", "hands", "fair")
MAX_WORLDS = 64  # determinisations per decision, a bound on --worlds


class Oracle:
    """Seat 1's chooser by play-outs; counts its play-outs and times its decisions.

    ``knowledge`` says what the play-outs may use: ``perfect`` plays out the real game (every
    hand and the stock order); ``stock`` knows the stock order but deals the other hands' cards
    (which follow from it as a whole) among the opponents at random; ``hands`` knows every hand
    but shuffles the stock; ``fair`` knows only its view: the cards it cannot see are dealt at
    random to the other hands and the stock (cards an opponent took from the pile and still
    holds stay in that hand). Every knowledge but ``perfect`` averages ``worlds`` such
    determinisations, the same ones for every candidate move.
    """

    def __init__(
        self,
        knowledge: str,
        objective: str,
        *,
        width: int,
        worlds: int = 1,
        prune: bool = False,
        confidence: float = 0.0,
        seed: int = 0,
    ) -> None:
        if knowledge not in KNOWLEDGE or objective not in OBJECTIVES:
            raise ValueError(f"unknown knowledge {knowledge!r} or objective {objective!r}")
        self.knowledge = knowledge
        self.objective_name = objective
        self.objective = OBJECTIVES[objective]
        self.width = width
        self.worlds = 1 if knowledge == "perfect" else max(1, min(MAX_WORLDS, worlds))
        self.prune = prune
        self.confidence = confidence
        self.seed = seed
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

    def _worlds(self, game: Game, seat: int) -> list[Game]:
        if self.knowledge == "perfect":
            return [game]
        view = player_view(game, seat)
        hand = " ".join(card.token for card in sorted(view.hand))
        # why: seeded only from what the view shows, so the same view gives the same worlds.
        rng = random.Random(f"{self.seed}/{view.round}/{len(view.events)}/{view.phase}/{hand}")
        return [determinise(game, seat, self.knowledge, rng) for _ in range(self.worlds)]

    def _values(self, worlds: Sequence[Game], seat: int, move: Move) -> list[float]:
        values = []
        for world in worlds:
            trial = fork(world)
            trial.apply(seat, move)
            self.rollouts += 1
            values.append(self.objective(play_out_round(trial), seat))
        return values

    def _best(self, game: Game, seat: int, base: Move, others: Sequence[Move]) -> Move:
        candidates = [base, *(move for move in others if move != base)]
        if len(candidates) == 1:
            return base
        worlds = self._worlds(game, seat)
        values = [self._values(worlds, seat, move) for move in candidates]
        means = [statistics.fmean(found) for found in values]
        eligible = [0]
        for index in range(1, len(candidates)):
            gain = [a - b for a, b in zip(values[index], values[0], strict=True)]
            spread = statistics.stdev(gain) / len(gain) ** 0.5 if len(gain) > 1 else 0.0
            # why: with few sampled worlds, a lucky sample beats hard's move by chance; leave
            # hard's move only when the paired gain is beyond ``confidence`` standard errors.
            if statistics.fmean(gain) + self.confidence * spread < 0:
                eligible.append(index)
        best = min(eligible, key=lambda i: (means[i], i))  # ties keep hard's
        if best:
            self.changed += 1
        return candidates[best]

    def _decide(self, game: Game, seat: int) -> Move:
        base = hard_move(game, seat)
        phase = game.phase
        view = player_view(game, seat)
        hand = list(view.hand)
        wild = view.wild_rank
        if phase in (Phase.DRAW, Phase.LAST_DRAW):
            top = view.top_discard
            if top is None:
                return base
            if self.prune:
                # Close decisions only: a wild, a discard that does not lower the leftover now,
                # or one that lets it go out are left to hard (which takes, draws, takes).
                after = leftover_with_discard([*hand, top], wild)
                if is_wild(top, wild) or after >= leftover(hand, wild) or after == 0:
                    return base
            return self._best(game, seat, base, [TakeDiscard(), DrawFromStock()])
        if phase is not Phase.DISCARD:
            return base  # laying down the solver's best, and the last discard: exact already
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

        ranked = sorted(natural, key=cost)
        if self.prune:
            cheapest = cost(ranked[0])[0]
            ranked = [card for card in ranked if cost(card)[0] <= cheapest + SLACK]
        return self._best(game, seat, base, [Discard(card) for card in ranked[: self.width]])


def determinise(game: Game, seat: int, knowledge: str, rng: random.Random) -> Game:
    """A copy of ``game`` whose cards hidden from ``seat`` (as far as ``knowledge`` hides
    them) are dealt again at random; other seats' stock draws are redacted from its events."""
    world = fork(game)
    start = game.round_start_event
    world.events = game.events[:start] + [redact(event, seat) for event in game.events[start:]]
    world.rng = random.Random(rng.getrandbits(64))  # future reshuffles are unknown too
    others = [other for other in range(len(game.players)) if other != seat]
    if knowledge == "hands":
        stock = sorted(game.stock)  # why: sorted first, so the shuffle cannot keep any order
        rng.shuffle(stock)
        world.stock = stock
        return world
    view = player_view(game, seat)
    memory = read_memory(view)
    known = {other: sorted(memory.known[other].elements()) for other in others}
    if knowledge == "stock":
        held: Counter[Card] = Counter()
        for other in others:
            held.update(game.hands[other])
        for other in others:
            held -= Counter(known[other])
        pool = sorted(held.elements())
    else:  # fair: only the view (the unseen pool, the hand sizes, the stock's size)
        pool = sorted(memory.unseen.elements())
    rng.shuffle(pool)
    for other in others:
        need = view.hand_counts[other] - len(known[other])
        if need < 0:
            raise RuntimeError(f"seat {other} is known to hold more cards than it has")
        world.hands[other] = known[other] + pool[:need]
        pool = pool[need:]
    if knowledge == "fair":
        if len(pool) != view.stock_count:
            raise RuntimeError(f"{len(pool)} unseen cards left for a stock of {view.stock_count}")
        world.stock = pool
    elif pool:
        raise RuntimeError("cards left over after dealing the opponents' hands")
    return world


def play_deal(seed: int, number: int, seat1: Oracle | str) -> list[int]:
    """Game ``number`` of series ``seed`` as bench_strength deals it, seats 2-4 hard; seat 1 is
    the oracle or a level (``"hard"``, ``"expert"``). Its totals."""
    specs = [seat1 if isinstance(seat1, str) else "hard", "hard", "hard", "hard"]
    bots = [load_bot(spec, seed=game_seed(seed, number) * 31 + s) for s, spec in enumerate(specs)]
    game = Game(seat_names(specs), seed=game_seed(seed, number), first_dealer=number % len(specs))
    for _step in range(100_000):  # a whole game is a few hundred moves; a bound
        if game.is_over:
            return list(game.totals)
        seat = game.current_player
        if seat == ORACLE_SEAT and isinstance(seat1, Oracle):
            move = seat1.decide(game, seat)
        else:
            move = bots[seat].decide(player_view(game, seat)).move
        game.apply(seat, move)
    raise RuntimeError("a game did not finish")


def self_check(states: int, worlds: int) -> int:
    """The fair oracle never reads hidden cards: at ``states`` game states reached by hard play,
    dealing every card hidden from the mover again (the other hands and the stock) leaves its
    view and its move unchanged. The number of states where the move changed (0 expected)."""
    changed = 0
    oracle = Oracle("fair", "own", width=4, worlds=worlds, prune=False)
    for number in range(states):
        rng = random.Random(number)
        game = Game(["a", "b", "c", "d"], seed=9_000 + number, first_dealer=number % 4)
        for _step in range(rng.randrange(0, 300)):
            if game.is_over:
                break
            game.apply(game.current_player, hard_move(game, game.current_player))
        if game.is_over:
            continue
        seat = game.current_player
        other = fork(game)
        hidden = list(other.stock)
        for who in range(4):
            if who != seat:
                hidden.extend(other.hands[who])
        rng.shuffle(hidden)
        for who in range(4):
            if who != seat:
                size = len(other.hands[who])
                other.hands[who], hidden = hidden[:size], hidden[size:]
        other.stock = hidden
        if player_view(game, seat) != player_view(other, seat):
            raise RuntimeError("the reshuffle changed the view")
        if oracle.decide(game, seat) != oracle.decide(other, seat):
            changed += 1
    return changed


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


def compare(rows: list[dict[str, Any]], mode: str, base: str) -> dict[str, Any]:
    """Seat 1 with ``mode`` minus seat 1 with ``base``, deal by deal (a replacement series)."""
    pairs = [(row[mode], row[base]) for row in rows if mode in row and base in row]
    first = [float(a[0]) for a, _ in pairs]
    second = [float(b[0]) for _, b in pairs]
    own_diff = [a - b for a, b in zip(first, second, strict=True)]
    field_diff = [statistics.fmean(a[1:]) - statistics.fmean(b[1:]) for a, b in pairs]
    out: dict[str, Any] = {
        "deals": len(pairs),
        f"{base}_seat1_mean": statistics.fmean(second) if pairs else None,
        f"{mode}_seat1_mean": statistics.fmean(first) if pairs else None,
    }
    if len(pairs) > 1:
        out["fewer_points_fraction"] = 1 - statistics.fmean(first) / statistics.fmean(second)
        out["fewer_points_ci95"] = _bootstrap_fraction(first, second)
        out["own"] = _interval(own_diff)
        out["field"] = _interval(field_diff)
        out["margin"] = _interval([a - b for a, b in zip(own_diff, field_diff, strict=True)])
        out["own_sd"] = statistics.stdev(own_diff)
    return out


def _times(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ms = [value * 1000 for value in values]
    return {"median": statistics.median(ms), "p99": percentile(ms, 0.99), "max": max(ms)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=303)
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument(
        "--modes",
        default="perfect",
        help="comma-separated seat-1 players: perfect, stock, hands, fair (oracles), expert",
    )
    parser.add_argument("--objective", choices=sorted(OBJECTIVES), default="own")
    parser.add_argument("--width", type=int, default=4, help="other discards played out")
    parser.add_argument("--worlds", type=int, default=8, help="determinisations (not perfect)")
    parser.add_argument("--prune", action="store_true", help="play out close decisions only")
    parser.add_argument(
        "--confidence",
        type=float,
        default=0.0,
        help="leave hard's move only for a paired gain beyond this many standard errors",
    )
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this (0: never)")
    parser.add_argument("--self-check", type=int, default=0, metavar="STATES")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.self_check:
        changed = self_check(args.self_check, args.worlds)
        print(f"fair oracle: {changed} of {args.self_check} states changed their move")
        return 1 if changed else 0
    modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    seat1: dict[str, Oracle | str] = {}
    for mode in modes:
        if mode == "expert":
            seat1[mode] = "lab_expert:ExpertBot"  # why: expert left the levels (issue 27)
        else:
            seat1[mode] = Oracle(
                mode,
                args.objective,
                width=args.width,
                worlds=args.worlds,
                prune=args.prune,
                confidence=args.confidence,
            )
    rows: list[dict[str, Any]] = []
    start, cpu_start = time.perf_counter(), time.process_time()
    cpu_by_mode = dict.fromkeys(modes, 0.0)
    report: dict[str, Any] = {}
    for number in range(args.first, args.first + args.deals):
        if args.minutes and time.perf_counter() - start > 60 * args.minutes:
            break
        row: dict[str, Any] = {"deal": number, "hard": play_deal(args.seed, number, "hard")}
        for mode in modes:
            before = time.process_time()
            row[mode] = play_deal(args.seed, number, seat1[mode])
            cpu_by_mode[mode] += time.process_time() - before
        rows.append(row)
        elapsed = time.perf_counter() - start
        versus: dict[str, Any] = {mode: compare(rows, mode, "hard") for mode in modes}
        if "expert" in modes:
            versus.update(
                {f"{m}_vs_expert": compare(rows, m, "expert") for m in modes if m != "expert"}
            )
        oracles = {
            mode: {
                "rollouts": player.rollouts,
                "decisions": len(player.wall),
                "decisions_changed": player.changed,
                "decision_wall_ms": _times(player.wall),
                "decision_cpu_ms": _times(player.cpu),
            }
            for mode, player in seat1.items()
            if isinstance(player, Oracle)
        }
        report = {
            "what": "LAB ONLY (the oracles read hidden cards): seat 1 against three hard, "
            "replacement series; own/field/margin are seat 1's player minus hard (or expert), "
            "points a game",
            "seed": args.seed,
            "first_deal": args.first,
            "deals_asked": args.deals,
            "deals": len(rows),
            "modes": modes,
            "objective": args.objective,
            "width": args.width,
            "worlds": args.worlds,
            "prune": args.prune,
            "confidence": args.confidence,
            "versus": versus,
            "oracles": oracles,
            "cpu_seconds_by_mode": cpu_by_mode,
            "seconds": elapsed,
            "cpu_seconds": time.process_time() - cpu_start,
            "load_average": os.getloadavg(),
            "commit": commit(),
            "rows": rows,
        }
        write_report(args.out, json.dumps(report, indent=1) + "\n")
        text = "; ".join(
            f"{mode} {versus[mode]['own']['mean']:+.1f} ± {versus[mode]['own']['half']:.1f}"
            for mode in modes
            if "own" in versus[mode]
        )
        print(f"deal {number}: {len(rows)} done; {text}; {elapsed:.0f} s", file=sys.stderr)
    brief = {key: value for key, value in report.items() if key != "rows"}
    print(json.dumps(brief, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
