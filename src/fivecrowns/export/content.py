"""The game's exports as documents: a hand, the melds of a round, the score sheet, the log.

Everything here reads only what a player may know: a player's own
:class:`~fivecrowns.views.PlayerView` for their hand, and otherwise the public
view or the public record of events (:func:`public_events`, every event as a
spectator sees it). No hidden card (another hand, the stock, a card drawn
from the stock) can reach an export.

Lines put the most important word first ("Round 3: Ana 12, Ben 0"), cards are
written as on braille playing cards (``10h``, ``Qsp``, ``jk``), and the legend
line explains the suit letters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from fivecrowns.cards import Card, Rank, format_cards, is_wild, points
from fivecrowns.export.document import CARD_LEGEND, Document, Section, Table
from fivecrowns.game import (
    Discarded,
    DrewFromStock,
    Event,
    GameOver,
    LaidDown,
    LastTurnStarted,
    Phase,
    RoundScored,
    RoundStarted,
    StockReshuffled,
    TookDiscard,
    TurnStarted,
    WentOut,
    redact,
)
from fivecrowns.melds import Meld, MeldKind, best_arrangement, best_with_discard
from fivecrowns.views import PlayerView, PublicView
from fivecrowns.words import join_words, name_numbers, seats_lowest_first

__all__ = [
    "cards_text",
    "hand_document",
    "log_document",
    "meld_line",
    "melds_document",
    "public_events",
    "scores_document",
]

ROUNDS = 11


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in short form, or "none".

    >>> from fivecrowns.cards import parse_cards
    >>> cards_text(parse_cards("10h Qsp jk")), cards_text([])
    ('10h Qsp jk', 'none')
    """
    text = format_cards(tuple(cards))
    return text or "none"


def meld_line(meld: Meld, wild_rank: Rank) -> str:
    """ "Book of 8s: 8h 8c jk", "Run of hearts: 5h jk 7h", "Meld of wilds: jk 5h jk".

    >>> from fivecrowns.cards import parse_cards
    >>> meld_line(Meld(MeldKind.RUN, tuple(parse_cards("5h jk 7h"))), Rank.THREE)
    'Run of hearts: 5h jk 7h'
    """
    natural = [card for card in meld.cards if not is_wild(card, wild_rank)]
    if not natural or natural[0].rank is None or natural[0].suit is None:
        return f"Meld of wilds: {cards_text(meld.cards)}"
    if meld.kind is MeldKind.BOOK:
        return f"Book of {natural[0].rank.plural}: {cards_text(meld.cards)}"
    return f"Run of {natural[0].suit.word}: {cards_text(meld.cards)}"


def _leftover_line(cards: Sequence[Card], wild_rank: Rank) -> str:
    total = sum(points(card, wild_rank) for card in cards)
    if not cards:
        return "Leftover: none, 0 points."
    return f"Leftover: {cards_text(sorted(cards))}, {total} points."


def public_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """Every event as a spectator sees it: stock draws and unscored hands hidden."""
    return tuple(redact(event, None) for event in events)


# --- the hand ------------------------------------------------------------------


def hand_document(view: PlayerView) -> Document:
    """One player's hand: round and wild rank, the solver's melds, leftover and points.

    At the end of a round (and of the game) it shows the hand as it was scored.
    """
    wild = view.wild_rank
    me = view.player
    scored = _last_result(view.events)
    title = f"Hand of {view.name}, round {view.round}."
    intro = [f"Round {view.round} of {ROUNDS}. {wild.plural} wild. {view.round + 2} cards dealt."]
    sections: list[Section] = []
    if scored is not None:
        result = scored.results[me]
        status = "went out" if scored.went_out == me else "had a last turn"
        intro.append(f"Round over: {view.name} {status}, {result.score} points.")
        if result.melds:
            sections.append(
                Section("Laid down.", tuple(meld_line(meld, wild) for meld in result.melds))
            )
        sections.append(Section("Scored.", (_leftover_line(result.leftover, wild),)))
        return Document(title, tuple(sections), CARD_LEGEND, tuple(intro))
    hand = tuple(sorted(view.hand))
    intro.append(f"Cards: {cards_text(hand)}.")
    laid = view.laid_down[me]
    if laid:
        sections.append(Section("Laid down.", tuple(meld_line(meld, wild) for meld in laid)))
    if not hand:  # went out this round; the round is not scored yet
        sections.append(Section("In hand.", ("No cards left.",)))
        return Document(title, tuple(sections), CARD_LEGEND, tuple(intro))
    drawn = view.phase in (Phase.DISCARD, Phase.LAST_LAY_DOWN) and view.current_player == me
    arrangement = best_with_discard(hand, wild) if drawn else best_arrangement(hand, wild)
    melds = tuple(meld_line(meld, wild) for meld in arrangement.melds)
    sections.append(Section("Best melds.", melds or ("No melds yet.",)))
    lines = [_leftover_line(arrangement.leftover, wild)]
    if arrangement.discard is not None:
        lines.append(f"Best discard: {arrangement.discard.token}.")
        if not arrangement.leftover and view.phase is Phase.DISCARD:
            lines.append("You can go out.")
    sections.append(Section("Leftover.", tuple(lines)))
    return Document(title, tuple(sections), CARD_LEGEND, tuple(intro))


def _last_result(events: Sequence[Event]) -> RoundScored | None:
    for event in reversed(events):
        if isinstance(event, RoundScored):
            return event
        if isinstance(event, RoundStarted):
            return None
    return None


# --- rounds from the public record ----------------------------------------------


@dataclass
class _Round:
    """One round of the public record, gathered from its events."""

    started: RoundStarted
    events: list[Event] = field(default_factory=list)
    scored: RoundScored | None = None

    def melds(self, seat: int) -> tuple[Meld, ...] | None:
        """What ``seat`` laid down this round, or None if nothing yet."""
        for event in self.events:
            if isinstance(event, WentOut | LaidDown) and event.player == seat:
                return event.melds
        return None

    @property
    def went_out(self) -> int | None:
        for event in self.events:
            if isinstance(event, WentOut):
                return event.player
        return None


def _rounds(events: Iterable[Event]) -> list[_Round]:
    rounds: list[_Round] = []
    for event in public_events(events):
        if isinstance(event, RoundStarted):
            rounds.append(_Round(event))
        elif rounds:
            rounds[-1].events.append(event)
            if isinstance(event, RoundScored):
                rounds[-1].scored = event
    return rounds


def melds_document(
    players: Sequence[str], events: Iterable[Event], round_number: int | None = None
) -> Document:
    """The melds laid down in a round (default: the latest round), player by player.

    In a round still being played, only melds already on the table show; once
    the round is scored, every player's leftover and points show too.
    """
    rounds = _rounds(events)
    if not rounds:
        return Document("Melds.", (), None, ("No round has started.",))
    if round_number is None:
        chosen = rounds[-1]
    else:
        found = [r for r in rounds if r.started.round == round_number]
        if not found:
            played = rounds[-1].started.round
            return Document(
                f"Melds, round {round_number}.",
                (),
                None,
                (f"Round {round_number} has not been played: rounds 1 to {played} have.",),
            )
        chosen = found[0]
    wild = chosen.started.wild_rank
    number = chosen.started.round
    intro = [f"Round {number}. {wild.plural} wild."]
    went_out = chosen.went_out
    if went_out is None:
        intro.append("Nobody has gone out yet.")
    else:
        intro.append(f"{players[went_out]} went out.")
    sections = []
    seats = list(range(len(players)))
    if went_out is not None:  # the player who went out first, then the table in order
        seats = seats[went_out:] + seats[:went_out]
    for seat in seats:
        melds = chosen.melds(seat)
        lines = [meld_line(meld, wild) for meld in melds or ()]
        if chosen.scored is not None:
            result = chosen.scored.results[seat]
            lines.append(_leftover_line(result.leftover, wild))
            title = f"{players[seat]}, {result.score} points."
        else:
            title = f"{players[seat]}."
        if not lines:
            lines.append("Nothing laid down yet." if melds is None else "Nothing laid down.")
        sections.append(Section(title, tuple(lines)))
    return Document(f"Melds, round {number}.", tuple(sections), CARD_LEGEND, tuple(intro))


# --- the score sheet ------------------------------------------------------------


def _totals_lines(
    players: Sequence[str], totals: Sequence[int], winners: Sequence[int]
) -> list[str]:
    """Lowest total first; "winner" after each winner's total."""
    return [
        f"{players[seat]} {totals[seat]}" + (", winner." if seat in winners else ".")
        for seat in seats_lowest_first(totals)
    ]


def scores_document(view: PublicView) -> Document:
    """Round by round scores for every player, the totals, and the winners."""
    players = view.players
    played = len(view.round_scores)
    if view.game_over:
        state = "Game over."
        winners = list(view.winners)
        lowest = view.totals[winners[0]]
        word = "Winner" if len(winners) == 1 else "Winners"
        headline = f"{word}: {join_words([players[s] for s in winners])}, {lowest} points."
    else:
        state = f"After round {played} of {ROUNDS}." if played else "No round scored yet."
        winners = []
        lowest = min(view.totals)
        leaders = [players[s] for s, total in enumerate(view.totals) if total == lowest]
        word = "Leader" if len(leaders) == 1 else "Leaders"
        headline = f"{word}: {join_words(leaders)}, {lowest} points." if played else ""
    intro = [line for line in (state, headline) if line]
    intro.append(f"{len(players)} players: {join_words(list(players))}.")
    rows = [
        (str(number), *(str(score) for score in scores))
        for number, scores in enumerate(view.round_scores, start=1)
    ]
    lines = [
        f"Round {number}: {name_numbers(players, scores)}"
        for number, scores in enumerate(view.round_scores, start=1)
    ]
    rows.append(("Total", *(str(total) for total in view.totals)))
    lines.append(f"Totals: {name_numbers(players, view.totals)}")
    table = Table(("Round", *players), tuple(rows), tuple(lines))
    sections = (
        Section("Rounds.", (table,)),
        Section("Totals, lowest first.", tuple(_totals_lines(players, view.totals, winners))),
    )
    return Document("Score sheet.", sections, None, tuple(intro))


# --- the game log -----------------------------------------------------------------


def _melds_phrase(melds: Sequence[Meld], wild: Rank) -> str:
    """ "book of 8s: 8h 8c jk; run of hearts: 5h 6h 7h" (lower case inside a sentence)."""
    lines = (meld_line(meld, wild) for meld in melds)
    return "; ".join(line[0].lower() + line[1:] for line in lines)


def _turn_phrases(event: Event, wild: Rank) -> list[str]:
    if isinstance(event, DrewFromStock):
        return ["draws from the stock"]
    if isinstance(event, TookDiscard):
        return [f"takes {event.card.token}"]
    if isinstance(event, WentOut):
        return [
            f"goes out with {_melds_phrase(event.melds, wild)}",
            f"discards {event.discard.token}",
        ]
    if isinstance(event, LaidDown):
        return [
            f"lays down {_melds_phrase(event.melds, wild)}" if event.melds else "lays down nothing"
        ]
    if isinstance(event, Discarded):
        return [f"discards {event.card.token}"]
    return []


def _round_section(players: Sequence[str], played: _Round) -> Section:
    start = played.started
    wild = start.wild_rank
    lines = [
        f"Dealer {players[start.dealer]}. {start.hand_size} cards each. "
        f"Turned up: {start.turned_up.token}. {players[start.first_player]} plays first."
    ]
    turn: list[str] = []
    who = ""

    def flush() -> None:
        if turn:
            lines.append(f"{who} " + ", ".join(turn) + ".")
            turn.clear()

    for event in played.events:
        if isinstance(event, TurnStarted | LastTurnStarted):
            flush()
            last = ", last turn:" if isinstance(event, LastTurnStarted) else ""
            who = players[event.player] + last
        elif isinstance(event, StockReshuffled):
            flush()
            added = " A new deck was added." if event.added_decks else ""
            lines.append(f"Stock reshuffled from the discard pile: {event.cards} cards.{added}")
        elif isinstance(event, RoundScored):
            flush()
            for seat, result in enumerate(event.results):
                lines.append(
                    f"{players[seat]} scores {result.score}, total {event.totals[seat]}. "
                    f"Left: {cards_text(sorted(result.leftover))}."
                )
        elif isinstance(event, GameOver):
            flush()
        else:
            turn += _turn_phrases(event, wild)
    flush()
    return Section(f"Round {start.round}. {wild.plural} wild.", tuple(lines))


def log_document(players: Sequence[str], events: Iterable[Event]) -> Document:
    """The whole public game: each round's deal, every turn, the scores, the winners."""
    rounds = _rounds(events)
    sections = [_round_section(players, played) for played in rounds]
    intro = [f"{len(players)} players: {join_words(list(players))}."]
    all_events = [event for played in rounds for event in played.events]
    over = next((event for event in all_events if isinstance(event, GameOver)), None)
    if over is not None:
        lowest = over.totals[over.winners[0]]
        word = "Winner" if len(over.winners) == 1 else "Winners"
        names = join_words([players[seat] for seat in over.winners])
        sections.append(
            Section(
                "Game over.",
                (
                    f"{word}: {names}, {lowest} points.",
                    *_totals_lines(players, over.totals, over.winners),
                ),
            )
        )
    elif rounds:
        intro.append(f"In round {rounds[-1].started.round}.")
    return Document("Game log.", tuple(sections), CARD_LEGEND, tuple(intro))
