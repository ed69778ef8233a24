"""``fivecrowns solve``: the best arrangement of a hand, in words or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, TextIO

from fivecrowns import i18n
from fivecrowns.core.cards import (
    Card,
    Rank,
    parse_cards,
    parse_rank,
    spoken_name,
    wild_rank_for_round,
)
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.melds.solver import (
    Arrangement,
    best_arrangement,
    best_with_discard,
    going_out_discards,
)
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

__all__ = ["configure", "run"]

DESCRIPTION = N_("""\
Arrange cards into books and runs with the least leftover points, and say how.
Cards are typed as rank then suit: 3 to 10, J, Q, K and st (stars), h (hearts),
c (clubs), sp (spades), d (diamonds); jk is a joker. Example:
fivecrowns solve --round 3 7h 8h 9h jk Qd

The wild rank: give --round N (round N has N + 2 cards, and that rank is wild)
or --wild RANK. With neither, the round is read from the number of cards, as in
play: a hand of N cards is round N - 2 (with --discard, a hand after drawing,
round N - 3), kept within rounds 1 to 11.
""")

EPILOG = N_("""\
JSON keys: cards, wild, leftover_points, melds, leftover, discard, can_go_out.
Bad input gets a one-line message and exit status 2. With --jsonl each line of
standard input is one hand; a bad line gets {"error": "..."} in its place, the
other lines go on, and the exit status is 2 at the end.
""")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = _(DESCRIPTION)
    parser.epilog = _(EPILOG)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    wild = parser.add_mutually_exclusive_group()
    wild.add_argument(
        "--round", metavar="N", help=_("round 1 to 11: round N makes rank N + 2 wild")
    )
    wild.add_argument("--wild", metavar=_("RANK"), help=_("the wild rank: 3 to 10, J, Q or K"))
    parser.add_argument(
        "--discard",
        action="store_true",
        help=_("the cards are a hand after drawing: also pick the card to discard"),
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=_("print one JSON object"))
    output.add_argument(
        "--jsonl",
        action="store_true",
        help=_("read one hand per line from standard input; write one JSON object per line"),
    )
    parser.add_argument(
        "cards", nargs="*", metavar=_("CARD"), help=_("the cards, e.g. 7h 8h 9h jk")
    )
    # why: argparse prints usage plus the error on two lines; a player needs one clear line.
    setattr(parser, "error", _one_line_error)  # noqa: B010


def _one_line_error(message: str) -> NoReturn:
    from fivecrowns.cli import USAGE_ERROR

    print(_(USAGE_ERROR).format(prog="fivecrowns solve", message=message), file=sys.stderr)
    raise SystemExit(2)


def _wild_rank(args: argparse.Namespace, card_count: int) -> Rank:
    if args.wild is not None:
        return parse_rank(args.wild)
    if args.round is not None:
        try:
            number = int(args.round)
        except ValueError:
            raise FiveCrownsError(
                _("'{round}' is not a round: rounds are 1 to 11.").format(round=args.round)
            ) from None
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
        raise FiveCrownsError(_("There are no cards to solve."))
    if len(cards) > MAX_CARDS:
        raise FiveCrownsError(
            _("A hand to solve has at most {most} cards, not {count}.").format(
                most=MAX_CARDS, count=len(cards)
            )
        )
    return best_with_discard(cards, wild_rank) if discard else best_arrangement(cards, wild_rank)


def _as_json(cards: list[Card], arrangement: Arrangement) -> dict[str, Any]:
    result = arrangement.to_json()
    result["cards"] = [card.token for card in cards]
    return result


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _either(names: list[str]) -> str:
    """ "a, b or c" by the language's rules (Babel's CLDR "or" lists).

    >>> _either(["7 of hearts"]), _either(["joker", "7 of hearts", "wild 5 of stars"])
    ('7 of hearts', 'joker, 7 of hearts or wild 5 of stars')
    """
    if len(names) < 2:
        return "".join(names)
    from babel.lists import format_list

    # why en_GB: no serial comma, as the English sentence always had (i18n.join_list's rule)
    locale = {"en": "en_GB"}.get(i18n.current_language(), i18n.current_language())
    return format_list(names, style="or", locale=locale)


def _print_words(cards: list[Card], wild_rank: Rank, discard: bool, out: TextIO) -> None:
    arrangement = _solve(cards, wild_rank, discard)
    if discard:
        held = ngettext(
            "{ranks} are wild; 1 card after drawing.",
            "{ranks} are wild; {count} cards after drawing.",
            len(cards),
        )
    else:
        held = ngettext(
            "{ranks} are wild; 1 card in hand.",
            "{ranks} are wild; {count} cards in hand.",
            len(cards),
        )
    print(held.format(ranks=wild_rank.plural, count=len(cards)), file=out)
    print(_sentence(arrangement.describe()), file=out)
    leftover = _("Leftover points: {points}.")
    print(leftover.format(points=arrangement.leftover_points), file=out)
    if discard:
        ways = going_out_discards(cards, wild_rank)
        if ways:
            names = _either([spoken_name(card, wild_rank) for card in ways])
            print(_("You can go out by discarding the {cards}.").format(cards=names), file=out)
        else:
            print(_("You cannot go out with this hand."), file=out)
    elif arrangement.all_melded:
        print(_("Every card is in a meld."), file=out)


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
                    _(
                        "With --jsonl the hands come from standard input, one per line, "
                        "not from the command line."
                    )
                )
            _wild_rank(args, 0)  # a bad --wild or --round stops before reading anything
            return _run_lines(args)
        cards = parse_cards(" ".join(args.cards))
        if not cards:
            raise FiveCrownsError(
                _(
                    "Give the cards to solve, for example: "
                    "fivecrowns solve --round 3 7h 8h 9h jk Qd."
                )
            )
        wild_rank = _wild_rank(args, len(cards))
        if args.json:
            print(json.dumps(_as_json(cards, _solve(cards, wild_rank, args.discard))))
        else:
            _print_words(cards, wild_rank, args.discard, sys.stdout)
    except FiveCrownsError as error:
        print(_("fivecrowns solve: {error}").format(error=error), file=sys.stderr)
        return 2
    return 0
