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
    "join_words",
    "melds_words",
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
    parts.append(f"Top discard: {top}.")
    if verbosity == "full":
        parts.append(f"{names[event.dealer]} dealt; {names[event.first_player]} starts.")
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


def _round_scored(event: RoundScored, names: Sequence[str], you: int | None, wild: Rank) -> str:
    parts = [f"Round {event.round} over."]
    for seat, result in enumerate(event.results):
        who = _who(seat, names, you)
        if seat == event.went_out:
            parts.append(f"{who} went out: 0.")
            continue
        melded = f" laid down {melds_words(result.melds, wild)}," if result.melds else ""
        left = f" left {card_list(result.leftover, wild)}" if result.leftover else " left nothing"
        parts.append(f"{who}{melded}{left}: {event.scores[seat]} points.")
    totals = name_numbers(names, event.totals, seats_lowest_first(event.totals))
    parts.append(f"Totals: {totals}.")
    return " ".join(parts)


def _game_over(event: GameOver, names: Sequence[str], you: int | None) -> str:
    winners = [_who(seat, names, you) for seat in event.winners]
    best = event.totals[event.winners[0]]
    if len(winners) == 1:
        verb = "win" if winners[0] == "You" else "wins"
        head = f"Game over. {winners[0]} {verb} with {best} points."
    else:
        head = f"Game over. {join_words(winners)} share the win with {best} points."
    totals = name_numbers(names, event.totals, seats_lowest_first(event.totals))
    return f"{head} Final totals: {totals}."


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
            out.append(Announcement(_round_scored(event, names, you, wild), "round_over"))
        elif isinstance(event, GameOver):
            out.append(Announcement(_game_over(event, names, you), "game_over"))
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
