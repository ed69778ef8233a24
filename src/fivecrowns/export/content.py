"""The game's exports as documents: a hand, the melds of a round, the score sheet, the log.

Everything here reads only what a player may know: a player's own
:class:`~fivecrowns.core.views.PlayerView` for their hand, and otherwise the public
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

from fivecrowns.core.cards import Card, Rank, format_cards, is_wild, points
from fivecrowns.core.game import Phase
from fivecrowns.core.melds.solver import Meld, MeldKind, best_arrangement, best_with_discard
from fivecrowns.core.moves import (
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
    TurnStarted,
    WentOut,
    redact,
)
from fivecrowns.core.views import PlayerView, PublicView
from fivecrowns.export.document import Document, Section, Table, card_legend
from fivecrowns.i18n import N_, join_list, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.words.lists import name_numbers, seats_lowest_first

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

    >>> from fivecrowns.core.cards import parse_cards
    >>> cards_text(parse_cards("10h Qsp jk")), cards_text([])
    ('10h Qsp jk', 'none')
    """
    text = format_cards(tuple(cards))
    # TRANSLATORS: in place of a list of cards: "Leftover: none, 0 points."
    return text or _("none")


def meld_line(meld: Meld, wild_rank: Rank) -> str:
    """ "Book of 8s: 8h 8c jk", "Run of hearts: 5h jk 7h", "Meld of wilds: jk 5h jk".

    >>> from fivecrowns.core.cards import parse_cards
    >>> meld_line(Meld(MeldKind.RUN, tuple(parse_cards("5h jk 7h"))), Rank.THREE)
    'Run of hearts: 5h jk 7h'
    """
    natural = [card for card in meld.cards if not is_wild(card, wild_rank)]
    cards = cards_text(meld.cards)
    if not natural or natural[0].rank is None or natural[0].suit is None:
        return _("Meld of wilds: {cards}").format(cards=cards)
    if meld.kind is MeldKind.BOOK:
        # TRANSLATORS: a book (familia); {ranks} is a rank in the plural: "8s", "Queens"
        return _("Book of {ranks}: {cards}").format(ranks=natural[0].rank.plural, cards=cards)
    # TRANSLATORS: a run (palo); {suit} is a suit's name: "hearts"
    return _("Run of {suit}: {cards}").format(suit=natural[0].suit.word, cards=cards)


def _leftover_line(cards: Sequence[Card], wild_rank: Rank) -> str:
    total = sum(points(card, wild_rank) for card in cards)
    if not cards:
        return _("Leftover: none, 0 points.")
    return ngettext(
        "Leftover: {cards}, {count} point.", "Leftover: {cards}, {count} points.", total
    ).format(cards=cards_text(sorted(cards)), count=total)


def _wild_sentence(wild: Rank) -> str:
    # TRANSLATORS: {ranks} is a rank in the plural ("7s", "Kings"); word it so it fits any rank
    return _("{ranks} wild.").format(ranks=wild.plural)


def _round_of(number: int) -> str:
    return _("Round {round} of {rounds}.").format(round=number, rounds=ROUNDS)


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
    title = _("Hand of {name}, round {round}.").format(name=view.name, round=view.round)
    dealt = view.round + 2
    intro = [
        " ".join(
            (
                _round_of(view.round),
                _wild_sentence(wild),
                ngettext("{count} card dealt.", "{count} cards dealt.", dealt).format(count=dealt),
            )
        )
    ]
    sections: list[Section] = []
    if scored is not None:
        result = scored.results[me]
        if scored.went_out == me:
            over = ngettext(
                "Round over: {name} went out, {count} point.",
                "Round over: {name} went out, {count} points.",
                result.score,
            )
        else:
            over = ngettext(
                "Round over: {name} had a last turn, {count} point.",
                "Round over: {name} had a last turn, {count} points.",
                result.score,
            )
        intro.append(over.format(name=view.name, count=result.score))
        if result.melds:
            sections.append(
                Section(_("Laid down."), tuple(meld_line(meld, wild) for meld in result.melds))
            )
        sections.append(Section(_("Scored."), (_leftover_line(result.leftover, wild),)))
        return Document(title, tuple(sections), card_legend(), tuple(intro))
    hand = tuple(sorted(view.hand))
    intro.append(_("Cards: {cards}.").format(cards=cards_text(hand)))
    laid = view.laid_down[me]
    if laid:
        sections.append(Section(_("Laid down."), tuple(meld_line(meld, wild) for meld in laid)))
    if not hand:  # went out this round; the round is not scored yet
        sections.append(Section(_("In hand."), (_("No cards left."),)))
        return Document(title, tuple(sections), card_legend(), tuple(intro))
    drawn = view.phase in (Phase.DISCARD, Phase.LAST_LAY_DOWN) and view.current_player == me
    arrangement = best_with_discard(hand, wild) if drawn else best_arrangement(hand, wild)
    melds = tuple(meld_line(meld, wild) for meld in arrangement.melds)
    sections.append(Section(_("Best melds."), melds or (_("No melds yet."),)))
    lines = [_leftover_line(arrangement.leftover, wild)]
    if arrangement.discard is not None:
        lines.append(_("Best discard: {card}.").format(card=arrangement.discard.token))
        if not arrangement.leftover and view.phase is Phase.DISCARD:
            lines.append(_("You can go out."))
    sections.append(Section(_("Leftover."), tuple(lines)))
    return Document(title, tuple(sections), card_legend(), tuple(intro))


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
        return Document(_("Melds."), (), None, (_("No round has started."),))
    if round_number is None:
        chosen = rounds[-1]
    else:
        found = [r for r in rounds if r.started.round == round_number]
        if not found:
            played = rounds[-1].started.round
            return Document(
                _("Melds, round {round}.").format(round=round_number),
                (),
                None,
                (
                    _("Round {round} has not been played: rounds 1 to {played} have.").format(
                        round=round_number, played=played
                    ),
                ),
            )
        chosen = found[0]
    wild = chosen.started.wild_rank
    number = chosen.started.round
    intro = [_round_and_wild(number, wild)]
    went_out = chosen.went_out
    if went_out is None:
        intro.append(_("Nobody has gone out yet."))
    else:
        intro.append(_("{name} went out.").format(name=players[went_out]))
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
            title = ngettext("{name}, {count} point.", "{name}, {count} points.", result.score)
            title = title.format(name=players[seat], count=result.score)
        else:
            title = f"{players[seat]}."  # a name alone: no words to translate
        if not lines:
            lines.append(_("Nothing laid down yet.") if melds is None else _("Nothing laid down."))
        sections.append(Section(title, tuple(lines)))
    title = _("Melds, round {round}.").format(round=number)
    return Document(title, tuple(sections), card_legend(), tuple(intro))


def _round_and_wild(number: int, wild: Rank) -> str:
    """ "Round 3. 5s wild." """
    return " ".join((_("Round {round}.").format(round=number), _wild_sentence(wild)))


# --- the score sheet ------------------------------------------------------------


def _totals_lines(
    players: Sequence[str], totals: Sequence[int], winners: Sequence[int]
) -> list[str]:
    """Lowest total first; "winner" after each winner's total."""
    return [
        _("{name} {total}, winner.").format(name=players[seat], total=totals[seat])
        if seat in winners
        else f"{players[seat]} {totals[seat]}."  # a name and a number: no words
        for seat in seats_lowest_first(totals)
    ]


def _winners_line(names: list[str], lowest: int) -> str:
    if len(names) == 1:
        line = ngettext(
            "Winner: {names}, {count} point.", "Winner: {names}, {count} points.", lowest
        )
    else:
        line = ngettext(
            "Winners: {names}, {count} point.", "Winners: {names}, {count} points.", lowest
        )
    return line.format(names=join_list(names), count=lowest)


def _players_line(players: Sequence[str]) -> str:
    count = len(players)
    line = ngettext("{count} player: {names}.", "{count} players: {names}.", count)
    return line.format(count=count, names=join_list(list(players)))


def scores_document(view: PublicView) -> Document:
    """Round by round scores for every player, the totals, and the winners."""
    players = view.players
    played = len(view.round_scores)
    if view.game_over:
        state = _("Game over.")
        winners = list(view.winners)
        lowest = view.totals[winners[0]]
        headline = _winners_line([players[s] for s in winners], lowest)
    elif played:
        state = _("After round {round} of {rounds}.").format(round=played, rounds=ROUNDS)
        winners = []
        lowest = min(view.totals)
        leaders = [players[s] for s, total in enumerate(view.totals) if total == lowest]
        if len(leaders) == 1:
            headline = ngettext(
                "Leader: {names}, {count} point.", "Leader: {names}, {count} points.", lowest
            )
        else:
            headline = ngettext(
                "Leaders: {names}, {count} point.", "Leaders: {names}, {count} points.", lowest
            )
        headline = headline.format(names=join_list(leaders), count=lowest)
    else:
        state = _("No round scored yet.")
        winners = []
        headline = ""
    intro = [line for line in (state, headline) if line]
    intro.append(_players_line(players))
    rows = [
        (str(number), *(str(score) for score in scores))
        for number, scores in enumerate(view.round_scores, start=1)
    ]
    lines = [
        # TRANSLATORS: {scores} is each player's name and score: "Ana 12, Ben 0"
        _("Round {round}: {scores}").format(round=number, scores=name_numbers(players, scores))
        for number, scores in enumerate(view.round_scores, start=1)
    ]
    # TRANSLATORS: a column heading and the last row of the score sheet's table
    rows.append((_("Total"), *(str(total) for total in view.totals)))
    lines.append(_("Totals: {scores}").format(scores=name_numbers(players, view.totals)))
    # TRANSLATORS: the first column heading of the score sheet's table (the round number)
    table = Table((_("Round"), *players), tuple(rows), tuple(lines))
    sections = (
        Section(_("Rounds."), (table,)),
        Section(_("Totals, lowest first."), tuple(_totals_lines(players, view.totals, winners))),
    )
    return Document(_("Score sheet."), sections, None, tuple(intro))


# --- the game log -----------------------------------------------------------------


def _melds_phrase(melds: Sequence[Meld], wild: Rank) -> str:
    """ "book of 8s: 8h 8c jk; run of hearts: 5h 6h 7h" (lower case inside a sentence)."""
    lines = (meld_line(meld, wild) for meld in melds)
    return "; ".join(line[0].lower() + line[1:] for line in lines)


# One whole sentence for each shape a turn takes in the game log, keyed by (last turn, how
# the player drew: "stock", "take" or "" for none seen, what they laid down: "out" went out,
# "melds", "nothing" or "", whether a discard followed). The placeholders: {name} the player,
# {card} the card taken, {melds} the melds, {discard} the card discarded (tokens, as 7h).
_LOG_TURNS: dict[tuple[bool, str, str, bool], str] = {
    (False, "stock", "", True): N_("{name} draws from the stock, discards {discard}."),
    (False, "stock", "", False): N_("{name} draws from the stock."),
    (False, "stock", "out", True): N_(
        "{name} draws from the stock, goes out with {melds}, discards {discard}."
    ),
    (False, "stock", "melds", True): N_(
        "{name} draws from the stock, lays down {melds}, discards {discard}."
    ),
    (False, "stock", "melds", False): N_("{name} draws from the stock, lays down {melds}."),
    (False, "stock", "nothing", True): N_(
        "{name} draws from the stock, lays down nothing, discards {discard}."
    ),
    (False, "stock", "nothing", False): N_("{name} draws from the stock, lays down nothing."),
    (False, "take", "", True): N_("{name} takes {card}, discards {discard}."),
    (False, "take", "", False): N_("{name} takes {card}."),
    (False, "take", "out", True): N_(
        "{name} takes {card}, goes out with {melds}, discards {discard}."
    ),
    (False, "take", "melds", True): N_(
        "{name} takes {card}, lays down {melds}, discards {discard}."
    ),
    (False, "take", "melds", False): N_("{name} takes {card}, lays down {melds}."),
    (False, "take", "nothing", True): N_(
        "{name} takes {card}, lays down nothing, discards {discard}."
    ),
    (False, "take", "nothing", False): N_("{name} takes {card}, lays down nothing."),
    (False, "", "", True): N_("{name} discards {discard}."),
    (False, "", "out", True): N_("{name} goes out with {melds}, discards {discard}."),
    (False, "", "melds", True): N_("{name} lays down {melds}, discards {discard}."),
    (False, "", "melds", False): N_("{name} lays down {melds}."),
    (False, "", "nothing", True): N_("{name} lays down nothing, discards {discard}."),
    (False, "", "nothing", False): N_("{name} lays down nothing."),
    (True, "stock", "", True): N_("{name}, last turn: draws from the stock, discards {discard}."),
    (True, "stock", "", False): N_("{name}, last turn: draws from the stock."),
    (True, "stock", "out", True): N_(
        "{name}, last turn: draws from the stock, goes out with {melds}, discards {discard}."
    ),
    (True, "stock", "melds", True): N_(
        "{name}, last turn: draws from the stock, lays down {melds}, discards {discard}."
    ),
    (True, "stock", "melds", False): N_(
        "{name}, last turn: draws from the stock, lays down {melds}."
    ),
    (True, "stock", "nothing", True): N_(
        "{name}, last turn: draws from the stock, lays down nothing, discards {discard}."
    ),
    (True, "stock", "nothing", False): N_(
        "{name}, last turn: draws from the stock, lays down nothing."
    ),
    (True, "take", "", True): N_("{name}, last turn: takes {card}, discards {discard}."),
    (True, "take", "", False): N_("{name}, last turn: takes {card}."),
    (True, "take", "out", True): N_(
        "{name}, last turn: takes {card}, goes out with {melds}, discards {discard}."
    ),
    (True, "take", "melds", True): N_(
        "{name}, last turn: takes {card}, lays down {melds}, discards {discard}."
    ),
    (True, "take", "melds", False): N_("{name}, last turn: takes {card}, lays down {melds}."),
    (True, "take", "nothing", True): N_(
        "{name}, last turn: takes {card}, lays down nothing, discards {discard}."
    ),
    (True, "take", "nothing", False): N_("{name}, last turn: takes {card}, lays down nothing."),
    (True, "", "", True): N_("{name}, last turn: discards {discard}."),
    (True, "", "out", True): N_("{name}, last turn: goes out with {melds}, discards {discard}."),
    (True, "", "melds", True): N_("{name}, last turn: lays down {melds}, discards {discard}."),
    (True, "", "melds", False): N_("{name}, last turn: lays down {melds}."),
    (True, "", "nothing", True): N_("{name}, last turn: lays down nothing, discards {discard}."),
    (True, "", "nothing", False): N_("{name}, last turn: lays down nothing."),
}


@dataclass
class _Turn:
    """What one player did in one turn of the game log, so far."""

    who: str
    last: bool
    draw: str = ""
    card: str = ""
    lay: str = ""
    melds: str = ""
    discard: str | None = None

    def take(self, event: Event, wild: Rank) -> bool:
        """Add ``event`` to this turn; False when it cannot belong to it (a new sentence)."""
        if isinstance(event, DrewFromStock | TookDiscard):
            if self.draw or self.lay or self.discard is not None:
                return False
            self.draw = "stock" if isinstance(event, DrewFromStock) else "take"
            self.card = event.card.token if isinstance(event, TookDiscard) else ""
        elif isinstance(event, WentOut | LaidDown):
            if self.lay or self.discard is not None:
                return False
            if isinstance(event, WentOut):
                self.lay, self.discard = "out", event.discard.token
            else:
                self.lay = "melds" if event.melds else "nothing"
            self.melds = _melds_phrase(event.melds, wild)
        elif isinstance(event, Discarded):
            if self.discard is not None:
                return False
            self.discard = event.card.token
        return True

    def sentence(self) -> str | None:
        template = _LOG_TURNS.get((self.last, self.draw, self.lay, self.discard is not None))
        if template is None:
            return None  # nothing seen of this turn
        return _(template).format(
            name=self.who, card=self.card, melds=self.melds, discard=self.discard or ""
        )


def _round_section(players: Sequence[str], played: _Round) -> Section:
    start = played.started
    wild = start.wild_rank
    size = start.hand_size
    deal = (
        _("Dealer {name}.").format(name=players[start.dealer]),
        ngettext("{count} card each.", "{count} cards each.", size).format(count=size),
        _("Turned up: {card}.").format(card=start.turned_up.token),
        _("{name} plays first.").format(name=players[start.first_player]),
    )
    lines = [" ".join(deal)]
    turn: _Turn | None = None

    def flush() -> None:
        nonlocal turn
        if turn is not None:
            said = turn.sentence()
            if said is not None:
                lines.append(said)
            turn = None

    for event in played.events:
        if isinstance(event, TurnStarted | LastTurnStarted):
            flush()
            turn = _Turn(players[event.player], isinstance(event, LastTurnStarted))
        elif isinstance(event, StockReshuffled):
            flush()
            reshuffled = ngettext(
                "Stock reshuffled from the discard pile: {count} card.",
                "Stock reshuffled from the discard pile: {count} cards.",
                event.cards,
            ).format(count=event.cards)
            if event.added_decks:
                reshuffled = " ".join((reshuffled, _("A new deck was added.")))
            lines.append(reshuffled)
        elif isinstance(event, RoundScored):
            flush()
            for seat, result in enumerate(event.results):
                scores = _("{name} scores {score}, total {total}.").format(
                    name=players[seat], score=result.score, total=event.totals[seat]
                )
                left = _("Left: {cards}.").format(cards=cards_text(sorted(result.leftover)))
                lines.append(" ".join((scores, left)))
        elif isinstance(event, GameOver):
            flush()
        elif (
            turn is not None
            and isinstance(event, DrewFromStock | TookDiscard | WentOut | LaidDown | Discarded)
            and not turn.take(event, wild)
        ):
            last = turn.last
            flush()
            turn = _Turn(players[event.player], last)
            turn.take(event, wild)
    flush()
    return Section(_round_and_wild(start.round, wild), tuple(lines))


def log_document(players: Sequence[str], events: Iterable[Event]) -> Document:
    """The whole public game: each round's deal, every turn, the scores, the winners."""
    rounds = _rounds(events)
    sections = [_round_section(players, played) for played in rounds]
    intro = [_players_line(players)]
    all_events = [event for played in rounds for event in played.events]
    over = next((event for event in all_events if isinstance(event, GameOver)), None)
    if over is not None:
        lowest = over.totals[over.winners[0]]
        names = [players[seat] for seat in over.winners]
        sections.append(
            Section(
                _("Game over."),
                (
                    _winners_line(names, lowest),
                    *_totals_lines(players, over.totals, over.winners),
                ),
            )
        )
    elif rounds:
        intro.append(_("In round {round}.").format(round=rounds[-1].started.round))
    return Document(_("Game log."), tuple(sections), card_legend(), tuple(intro))
