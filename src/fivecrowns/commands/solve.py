"""``fivecrowns solve``: the best arrangement of a hand, in words or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, TextIO

from fivecrowns.cards import Card, Rank, parse_cards, parse_rank, wild_rank_for_round
from fivecrowns.errors import FiveCrownsError
from fivecrowns.melds import Arrangement, best_arrangement, best_with_discard, going_out_discards

__all__ = ["configure", "run"]

DESCRIPTION = """\
Arrange cards into books and runs with the least leftover points, and say how.
Cards are typed as rank then suit: 3 to 10, J, Q, K and st (stars), h (hearts),
c (clubs), sp (spades), d (diamonds); jk is a joker. Example:
fivecrowns solve --round 3 7h 8h 9h jk Qd

The wild rank: give --round N (round N has N + 2 cards, and that rank is wild)
or --wild RANK. With neither, the round is read from the number of cards, as in
play: a hand of N cards is round N - 2 (with --discard, a hand after drawing,
round N - 3), kept within rounds 1 to 11.
"""

EPILOG = """\
JSON keys: cards, wild, leftover_points, melds, leftover, discard, can_go_out.
Bad input gets a one-line message and exit status 2. With --jsonl each line of
standard input is one hand; a bad line gets {"error": "..."} in its place, the
other lines go on, and the exit status is 2 at the end.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    wild = parser.add_mutually_exclusive_group()
    wild.add_argument("--round", metavar="N", help="round 1 to 11: round N makes rank N + 2 wild")
    wild.add_argument("--wild", metavar="RANK", help="the wild rank: 3 to 10, J, Q or K")
    parser.add_argument(
        "--discard",
        action="store_true",
        help="the cards are a hand after drawing: also pick the card to discard",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument(
        "--jsonl",
        action="store_true",
        help="read one hand per line from standard input; write one JSON object per line",
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="the cards, e.g. 7h 8h 9h jk")
    # why: argparse prints usage plus the error on two lines; a player needs one clear line.
    setattr(parser, "error", _one_line_error)  # noqa: B010


def _one_line_error(message: str) -> NoReturn:
    print(f"fivecrowns solve: {message}. See fivecrowns solve --help.", file=sys.stderr)
    raise SystemExit(2)


def _wild_rank(args: argparse.Namespace, card_count: int) -> Rank:
    if args.wild is not None:
        return parse_rank(args.wild)
    if args.round is not None:
        try:
            number = int(args.round)
        except ValueError:
            raise FiveCrownsError(f"'{args.round}' is not a round: rounds are 1 to 11.") from None
        try:
            return wild_rank_for_round(number)
        except ValueError as error:
            raise FiveCrownsError(str(error)) from None
    held = card_count - 1 if args.discard else card_count
    return Rank(min(max(held, 3), 13))


#: The most cards one hand may have here: round 11 after drawing holds 14; far beyond
#: that the exact search runs out of stack (RecursionError) or of time.
MAX_CARDS = 40


def _solve(cards: list[Card], wild_rank: Rank, discard: bool) -> Arrangement:
    if not cards:
        raise FiveCrownsError("There are no cards to solve.")
    if len(cards) > MAX_CARDS:
        raise FiveCrownsError(f"A hand to solve has at most {MAX_CARDS} cards, not {len(cards)}.")
    return best_with_discard(cards, wild_rank) if discard else best_arrangement(cards, wild_rank)


def _as_json(cards: list[Card], arrangement: Arrangement) -> dict[str, Any]:
    result = arrangement.to_json()
    result["cards"] = [card.token for card in cards]
    return result


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _card_words(card: Card, wild_rank: Rank) -> str:
    if card.is_joker:
        return "joker"
    return f"wild {card.spoken}" if card.rank == wild_rank else card.spoken


def _print_words(cards: list[Card], wild_rank: Rank, discard: bool, out: TextIO) -> None:
    arrangement = _solve(cards, wild_rank, discard)
    held = "after drawing" if discard else "in hand"
    counted = "1 card" if len(cards) == 1 else f"{len(cards)} cards"
    print(f"{wild_rank.plural} are wild; {counted} {held}.", file=out)
    print(_sentence(arrangement.describe()), file=out)
    print(f"Leftover points: {arrangement.leftover_points}.", file=out)
    if discard:
        ways = going_out_discards(cards, wild_rank)
        if ways:
            names = [_card_words(card, wild_rank) for card in ways]
            joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            print(f"You can go out by discarding the {joined}.", file=out)
        else:
            print("You cannot go out with this hand.", file=out)
    elif arrangement.all_melded:
        print("Every card is in a meld.", file=out)


def _run_lines(args: argparse.Namespace) -> int:
    status = 0
    for line in sys.stdin:
        try:
            cards = parse_cards(line)
            wild_rank = _wild_rank(args, len(cards))
            result: dict[str, Any] = _as_json(cards, _solve(cards, wild_rank, args.discard))
        except FiveCrownsError as error:
            result = {"error": str(error)}
            status = 2
        print(json.dumps(result), flush=True)
    return status


def run(args: argparse.Namespace) -> int:
    try:
        if args.jsonl:
            if args.cards:
                raise FiveCrownsError(
                    "With --jsonl the hands come from standard input, one per line, "
                    "not from the command line."
                )
            _wild_rank(args, 0)  # a bad --wild or --round stops before reading anything
            return _run_lines(args)
        cards = parse_cards(" ".join(args.cards))
        if not cards:
            raise FiveCrownsError(
                "Give the cards to solve, for example: fivecrowns solve --round 3 7h 8h 9h jk Qd."
            )
        wild_rank = _wild_rank(args, len(cards))
        if args.json:
            print(json.dumps(_as_json(cards, _solve(cards, wild_rank, args.discard))))
        else:
            _print_words(cards, wild_rank, args.discard, sys.stdout)
    except FiveCrownsError as error:
        print(f"fivecrowns solve: {error}", file=sys.stderr)
        return 2
    return 0
