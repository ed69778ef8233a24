"""Words for what happened: the game's events turned into short sentences.

The core announces typed events; this module is the one place that words them
(STYLE practice 9). Every function is pure: it gets the events as the listener
may see them, the seat names and the listener's seat, and a verbosity
(``brief``, ``normal`` or ``full``), and returns sentences. The most important
word comes first ("Ann went out", "Round 3", "Your turn").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fivecrowns.cards import Card, Rank, spoken_name
from fivecrowns.game import (
    Discarded,
    DrewFromStock,
    Event,
    GameOver,
    LaidDown,
    LastTurnStarted,
    RoundScored,
    RoundStarted,
    StockReshuffled,
    TookDiscard,
    WentOut,
)
from fivecrowns.melds import Meld
from fivecrowns.words import join_words, name_numbers, seats_lowest_first

__all__ = [
    "Announcement",
    "card_list",
    "describe_events",
    "game_result",
    "join_words",
    "melds_words",
    "round_detail",
    "round_result",
    "round_start",
    "turn_summary",
]


@dataclass(frozen=True)
class Announcement:
    """One sentence to speak and the sound that goes with it (if any)."""

    text: str
    sound: str | None = None
    move: bool = False  # a player's turn (draw, lay down, discard), kept for the last-moves key


def card_list(cards: Sequence[Card], wild: Rank | None) -> str:
    """Cards in a list; a card of the wild rank is "wild 5 of clubs" (no inner comma).

    >>> from fivecrowns.cards import parse_cards
    >>> card_list(parse_cards("5c 7h jk"), Rank.FIVE)
    'wild 5 of clubs, 7 of hearts and joker'
    """
    # why the None check: a joker's rank is None, so with no wild rank it matched "wild".
    return join_words(
        [f"wild {c.spoken}" if wild is not None and c.rank == wild else c.spoken for c in cards]
    )


def melds_words(melds: Sequence[Meld], wild: Rank) -> str:
    return join_words([meld.describe(wild) for meld in melds])


def _who(seat: int, names: Sequence[str], you: int | None) -> str:
    return "You" if seat == you else names[seat]


#: Who dealt and who plays first, at full verbosity.
DEALT = "{dealer} dealt. {first} starts."
DEALT_YOU_START = "{dealer} dealt. You start."


def round_start(
    event: RoundStarted, names: Sequence[str], you: int | None, hand: Sequence[Card], verbosity: str
) -> str:
    """Round, wild rank, your hand in brief, the top discard."""
    wild = event.wild_rank
    top = spoken_name(event.turned_up, wild)
    if verbosity == "brief":
        head = f"Round {event.round}, {wild.plural} wild."
    else:
        head = f"Round {event.round} of 11. {wild.plural} are wild. {event.hand_size} cards each."
    parts = [head]
    if hand:
        parts.append(f"Your hand: {card_list(hand, wild)}.")
    if event.first_player != you or verbosity == "brief":
        parts.append(f"Top discard: {top}.")  # else "Your turn. Top discard: ..." says it
    if verbosity == "full":
        dealer = _who(event.dealer, names, you)
        if event.first_player == you:
            parts.append(DEALT_YOU_START.format(dealer=dealer))
        else:
            parts.append(DEALT.format(dealer=dealer, first=names[event.first_player]))
    return " ".join(parts)


def turn_summary(
    events: Sequence[Event], names: Sequence[str], you: int | None, wild: Rank, verbosity: str
) -> str:
    """One sentence for one player's turn: "Ann took the 8 of clubs and discarded ..."."""
    pieces: list[str] = []
    player: int | None = None
    for event in events:
        if isinstance(event, DrewFromStock):
            player = event.player
            if event.card is not None and event.player == you:
                pieces.append(f"drew the {spoken_name(event.card, wild)}")
            else:
                pieces.append("drew from the stock" if verbosity != "brief" else "drew")
        elif isinstance(event, TookDiscard):
            player = event.player
            pieces.append(f"took the {spoken_name(event.card, wild)}")
        elif isinstance(event, LaidDown):
            player = event.player
            if event.melds:
                pieces.append(f"laid down {melds_words(event.melds, wild)}")
            elif verbosity != "brief":
                pieces.append("laid down nothing")
        elif isinstance(event, Discarded):
            player = event.player
            pieces.append(f"discarded the {spoken_name(event.card, wild)}")
    if player is None:
        return ""
    return f"{_who(player, names, you)} {join_words(pieces)}."


#: The result of a round, result first; the melds and leftovers follow only at full verbosity.
ROUND_OVER = "Round {round} over. {who} went out. {scores}. Totals: {totals}."
#: When the one who went out was the only other player.
ROUND_OVER_ALONE = "Round {round} over. {who} went out. Totals: {totals}."
#: One player's melds and leftover cards in a round's detail.
ROUND_DETAIL_LEFT = "{who}: {points} points, left {cards}."
ROUND_DETAIL_MELDED_LEFT = "{who}: {points} points, laid down {melds}, left {cards}."
ROUND_DETAIL_OUT = "{who} went out with {melds}."


def _listener_names(names: Sequence[str], you: int | None) -> list[str]:
    return ["you" if seat == you else name for seat, name in enumerate(names)]


def round_result(event: RoundScored, names: Sequence[str], you: int | None) -> str:
    """ "Round 8 over. Ben went out. You 18, Ann 48. Totals: Ann 63, Ben 111, you 126." """
    listed = _listener_names(names, you)
    others = [seat for seat in seats_lowest_first(event.scores) if seat != event.went_out]
    totals = name_numbers(listed, event.totals, seats_lowest_first(event.totals))
    who = _who(event.went_out, names, you)
    if not others:
        return ROUND_OVER_ALONE.format(round=event.round, who=who, totals=totals)
    scores = name_numbers(listed, event.scores, others)
    return ROUND_OVER.format(
        round=event.round, who=who, scores=scores[0].upper() + scores[1:], totals=totals
    )


def round_detail(event: RoundScored, names: Sequence[str], you: int | None, wild: Rank) -> str:
    """Each player's melds and leftover cards in a round, the one who went out first."""
    parts = []
    order = [event.went_out] + [s for s in seats_lowest_first(event.scores) if s != event.went_out]
    for seat in order:
        result = event.results[seat]
        who = _who(seat, names, you)
        melds = melds_words(result.melds, wild)
        if seat == event.went_out:
            parts.append(ROUND_DETAIL_OUT.format(who=who, melds=melds or "nothing laid down"))
            continue
        cards = card_list(result.leftover, wild) or "nothing"
        template = ROUND_DETAIL_MELDED_LEFT if result.melds else ROUND_DETAIL_LEFT
        parts.append(template.format(who=who, points=event.scores[seat], melds=melds, cards=cards))
    return " ".join(parts)


def _round_scored(
    event: RoundScored, names: Sequence[str], you: int | None, wild: Rank, verbosity: str
) -> str:
    text = round_result(event, names, you)
    if verbosity == "full":
        text += " " + round_detail(event, names, you, wild)
    return text


#: The end of the game, the winner first.
GAME_WON = "Game over. {who} {verb} with {points} points. Final totals: {totals}."
GAME_SHARED = "Game over. {who} share the win with {points} points. Final totals: {totals}."


def game_result(event: GameOver, names: Sequence[str], you: int | None) -> str:
    winners = [_who(seat, names, you) for seat in event.winners]
    best = event.totals[event.winners[0]]
    totals = name_numbers(
        _listener_names(names, you), event.totals, seats_lowest_first(event.totals)
    )
    if len(winners) == 1:
        verb = "win" if winners[0] == "You" else "wins"
        return GAME_WON.format(who=winners[0], verb=verb, points=best, totals=totals)
    return GAME_SHARED.format(who=join_words(winners), points=best, totals=totals)


def describe_events(
    events: Sequence[Event],
    names: Sequence[str],
    you: int | None,
    wild: Rank,
    verbosity: str,
    hand_at_start: Sequence[Card] = (),
) -> list[Announcement]:
    """Announcements for events as ``you`` may see them, in order.

    ``wild`` is the wild rank when the first event happened; ``hand_at_start``
    is your hand as dealt, for a round that starts among the events.

    A player's draw, lay-down and discard make one sentence; going out, the
    last turn, the end of a round and of the game each get their own, with
    their sound.
    """
    out: list[Announcement] = []
    turn: list[Event] = []

    def flush() -> None:
        if turn:
            mine = turn[0].player == you  # type: ignore[union-attr]
            sound = _own_sound(turn) if mine else _others_sound(turn)
            text = turn_summary(turn, names, you, wild, verbosity)
            if text:
                out.append(Announcement(text, sound, move=True))
            turn.clear()

    for event in events:
        if isinstance(event, DrewFromStock | TookDiscard | Discarded | LaidDown):
            if turn and turn[0].player != event.player:  # type: ignore[union-attr]
                flush()
            turn.append(event)
            continue
        flush()
        if isinstance(event, WentOut):
            who = _who(event.player, names, you)
            text = (
                f"{who} went out with {melds_words(event.melds, wild)}, "
                f"discarding the {spoken_name(event.discard, wild)}."
            )
            out.append(Announcement(text, "went_out"))
        elif isinstance(event, LastTurnStarted):
            if event.player == you:
                out.append(Announcement("This is your last turn.", "last_turn"))
            elif verbosity != "brief":
                out.append(Announcement(f"{names[event.player]}'s last turn.", "last_turn"))
        elif isinstance(event, StockReshuffled):
            text = "The stock ran out: the discard pile was shuffled into a new stock."
            if event.added_decks:
                text = "The stock ran out: a new deck was shuffled in."
            out.append(Announcement(text, "shuffle"))
        elif isinstance(event, RoundScored):
            text = _round_scored(event, names, you, wild, verbosity)
            out.append(Announcement(text, "round_over"))
        elif isinstance(event, GameOver):
            out.append(Announcement(game_result(event, names, you), "game_over"))
        elif isinstance(event, RoundStarted):
            wild = event.wild_rank  # the events after this belong to the new round
            text = round_start(event, names, you, hand_at_start, verbosity)
            out.append(Announcement(text, "shuffle"))
    flush()
    return out


def _others_sound(turn: Sequence[Event]) -> str | None:
    """One earcon for another player's whole turn: how they drew, else their discard.

    why one: the turn is one sentence, and two earcons started together would sound as one
    blur; the discard ends every turn, so where the card came from is what the sound tells.
    """
    for event in turn:
        if isinstance(event, TookDiscard):
            return "take_discard"
        if isinstance(event, DrewFromStock):
            return "draw_stock"
    return "discard" if any(isinstance(event, Discarded) for event in turn) else None


def _own_sound(turn: Sequence[Event]) -> str | None:
    last = turn[-1]
    if isinstance(last, Discarded):
        return "discard"
    if isinstance(last, TookDiscard):
        return "take_discard"
    if isinstance(last, DrewFromStock):
        return "draw_stock"
    return None
