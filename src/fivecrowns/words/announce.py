"""Words for what happened: the game's events turned into short sentences.

The core announces typed events; this module is the one place that words them
(STYLE practice 9), in the current language (:mod:`fivecrowns.i18n`; a server words
them per viewer inside ``with i18n.speaking(code):``). Every function is pure: it
gets the events as the listener may see them, the seat names and the listener's seat,
and a verbosity (``brief``, ``normal`` or ``full``), and returns sentences. The most
important word comes first ("Ann went out", "Round 3", "Your turn").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fivecrowns.core.cards import Card, Rank, card_the, spoken_name, wild_sentence
from fivecrowns.core.melds.solver import Meld
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
    WentOut,
)
from fivecrowns.i18n import N_, current_language, join_list, ngettext, pgettext
from fivecrowns.i18n import gettext as _
from fivecrowns.words.cues import EVENT_CUES, event_cue
from fivecrowns.words.lists import name_numbers, seats_lowest_first

__all__ = [
    "Announcement",
    "card_list",
    "describe_events",
    "game_result",
    "lone_turn_sentence",
    "melds_words",
    "round_detail",
    "round_result",
    "round_start",
    "turn_summary",
    "went_out",
]


@dataclass(frozen=True)
class Announcement:
    """One sentence to speak and the sound that goes with it (if any)."""

    text: str
    sound: str | None = None
    move: bool = False  # a player's turn (draw, lay down, discard), kept for the last-moves key


def card_list(cards: Sequence[Card], wild: Rank | None) -> str:
    """Cards in a list; a card of the wild rank is "wild 5 of clubs" (no inner comma).

    >>> from fivecrowns.core.cards import parse_cards
    >>> card_list(parse_cards("5c 7h jk"), Rank.FIVE)
    'wild 5 of clubs, 7 of hearts and joker'
    """
    # why spoken_name: with no wild rank it names a joker plainly (a joker's rank is None).
    return join_list([spoken_name(card, wild) for card in cards])


def melds_words(melds: Sequence[Meld], wild: Rank) -> str:
    """ "a run of 3 to 5 of stars and a set of 7s" (the melds in the current language)."""
    global _last_melds
    language = current_language()
    last = _last_melds
    if last is not None and last[0] is melds and last[1] is wild and last[2] == language:
        return last[3]
    said = join_list([meld.describe(wild) for meld in melds])
    if isinstance(melds, tuple):  # why only a tuple: a list could change and keep its identity
        _last_melds = (melds, wild, language, said)
    return said


#: The melds worded last: (melds, wild rank, language, words). why: the game server words a
#: going out or a lay-down for its player and then for everyone else, the same melds in the
#: same language, and wording melds was a good part of its wording (issue 29); a melds tuple
#: and its melds never change, and the language is part of the key.
_last_melds: tuple[tuple[Meld, ...], Rank, str, str] | None = None


#: Who dealt and who plays first, at full verbosity.
DEALT = N_("{dealer} dealt. {first} starts.")
DEALT_YOU_START = N_("{dealer} dealt. You start.")
DEALT_BY_YOU = N_("You dealt. {first} starts.")


def round_start(
    event: RoundStarted, names: Sequence[str], you: int | None, hand: Sequence[Card], verbosity: str
) -> str:
    """Round, wild rank, your hand in brief, the top discard."""
    wild = event.wild_rank
    top = spoken_name(event.turned_up, wild)
    if verbosity == "brief":
        # TRANSLATORS: brief; {wild} is a rank in the plural without article: "5s", "Kings".
        head = _("Round {round}, {wild} wild.").format(round=event.round, wild=wild.plural)
    else:
        # TRANSLATORS: {wild_sentence} is a whole sentence: "5s are wild." ("Los 5 son salvajes.")
        head = ngettext(
            "Round {round} of 11. {wild_sentence} {count} card each.",
            "Round {round} of 11. {wild_sentence} {count} cards each.",
            event.hand_size,
        ).format(round=event.round, wild_sentence=wild_sentence(wild), count=event.hand_size)
    parts = [head]
    if hand:
        parts.append(_("Your hand: {cards}.").format(cards=card_list(hand, wild)))
    if event.first_player != you or verbosity == "brief":
        # else "Your turn. Top discard: ..." says it
        parts.append(_("Top discard: {card}.").format(card=top))
    if verbosity == "full":
        if event.first_player == you:
            parts.append(_(DEALT_YOU_START).format(dealer=names[event.dealer]))
        elif event.dealer == you:
            parts.append(_(DEALT_BY_YOU).format(first=names[event.first_player]))
        else:
            first = names[event.first_player]
            parts.append(_(DEALT).format(dealer=names[event.dealer], first=first))
    return " ".join(parts)


# One whole sentence for each shape a turn takes, for "you" and for another player: a
# language conjugates the verbs and joins them in its own way ("Tomaste … y descartaste …").
# A shape is (how the player drew, what they laid down, whether they discarded):
#   draw: "card" you drew a card you see, "stock" from the stock (normal and full verbosity),
#         "brief" drew (brief verbosity), "took" took the top discard, "" not in these events;
#   laid: "melds" laid down melds (the last turn), "nothing" laid down nothing (not said
#         at brief verbosity), "" not in these events.
# The placeholders: {name} the player, {card} the card drawn or taken, {melds} the melds laid
# down, {discard} the card discarded.
_YOUR_TURN: dict[tuple[str, str, bool], str] = {
    # TRANSLATORS: your turn; {card} is the card you drew, with its article ("the 7 of hearts")
    ("card", "", False): N_("You drew {card}."),
    ("card", "", True): N_("You drew {card} and discarded {discard}."),
    ("card", "melds", False): N_("You drew {card} and laid down {melds}."),
    ("card", "melds", True): N_("You drew {card}, laid down {melds} and discarded {discard}."),
    ("card", "nothing", False): N_("You drew {card} and laid down nothing."),
    ("card", "nothing", True): N_("You drew {card}, laid down nothing and discarded {discard}."),
    ("stock", "", False): N_("You drew from the stock."),
    ("stock", "", True): N_("You drew from the stock and discarded {discard}."),
    ("stock", "melds", False): N_("You drew from the stock and laid down {melds}."),
    ("stock", "melds", True): N_(
        "You drew from the stock, laid down {melds} and discarded {discard}."
    ),
    ("stock", "nothing", False): N_("You drew from the stock and laid down nothing."),
    ("stock", "nothing", True): N_(
        "You drew from the stock, laid down nothing and discarded {discard}."
    ),
    # TRANSLATORS: brief verbosity: you drew from the stock
    ("brief", "", False): N_("You drew."),
    ("brief", "", True): N_("You drew and discarded {discard}."),
    ("brief", "melds", False): N_("You drew and laid down {melds}."),
    ("brief", "melds", True): N_("You drew, laid down {melds} and discarded {discard}."),
    # TRANSLATORS: {card} is the card you took from the discard pile, with its article
    ("took", "", False): N_("You took {card}."),
    ("took", "", True): N_("You took {card} and discarded {discard}."),
    ("took", "melds", False): N_("You took {card} and laid down {melds}."),
    ("took", "melds", True): N_("You took {card}, laid down {melds} and discarded {discard}."),
    ("took", "nothing", False): N_("You took {card} and laid down nothing."),
    ("took", "nothing", True): N_("You took {card}, laid down nothing and discarded {discard}."),
    ("", "melds", False): N_("You laid down {melds}."),
    ("", "melds", True): N_("You laid down {melds} and discarded {discard}."),
    ("", "nothing", False): N_("You laid down nothing."),
    ("", "nothing", True): N_("You laid down nothing and discarded {discard}."),
    ("", "", True): N_("You discarded {discard}."),
}
_THEIR_TURN: dict[tuple[str, str, bool], str] = {
    ("stock", "", False): N_("{name} drew from the stock."),
    ("stock", "", True): N_("{name} drew from the stock and discarded {discard}."),
    ("stock", "melds", False): N_("{name} drew from the stock and laid down {melds}."),
    ("stock", "melds", True): N_(
        "{name} drew from the stock, laid down {melds} and discarded {discard}."
    ),
    ("stock", "nothing", False): N_("{name} drew from the stock and laid down nothing."),
    ("stock", "nothing", True): N_(
        "{name} drew from the stock, laid down nothing and discarded {discard}."
    ),
    # TRANSLATORS: brief verbosity: {name} drew from the stock
    ("brief", "", False): N_("{name} drew."),
    ("brief", "", True): N_("{name} drew and discarded {discard}."),
    ("brief", "melds", False): N_("{name} drew and laid down {melds}."),
    ("brief", "melds", True): N_("{name} drew, laid down {melds} and discarded {discard}."),
    # TRANSLATORS: {card} is the card {name} took from the discard pile, with its article
    ("took", "", False): N_("{name} took {card}."),
    ("took", "", True): N_("{name} took {card} and discarded {discard}."),
    ("took", "melds", False): N_("{name} took {card} and laid down {melds}."),
    ("took", "melds", True): N_("{name} took {card}, laid down {melds} and discarded {discard}."),
    ("took", "nothing", False): N_("{name} took {card} and laid down nothing."),
    ("took", "nothing", True): N_("{name} took {card}, laid down nothing and discarded {discard}."),
    ("", "melds", False): N_("{name} laid down {melds}."),
    ("", "melds", True): N_("{name} laid down {melds} and discarded {discard}."),
    ("", "nothing", False): N_("{name} laid down nothing."),
    ("", "nothing", True): N_("{name} laid down nothing and discarded {discard}."),
    ("", "", True): N_("{name} discarded {discard}."),
}


def turn_summary(
    events: Sequence[Event], names: Sequence[str], you: int | None, wild: Rank, verbosity: str
) -> str:
    """One sentence for one player's turn: "Ann took the 8 of clubs and discarded ..."."""
    first = next((event for event in events if isinstance(event, _TURN_EVENTS)), None)
    if first is None:
        return ""
    mine = first.player == you
    draw = laid = card = melds = discard = ""
    for event in events:
        if isinstance(event, DrewFromStock):
            if event.card is not None and mine:
                draw, card = "card", card_the(event.card, wild)
            else:
                draw = "brief" if verbosity == "brief" else "stock"
        elif isinstance(event, TookDiscard):
            draw, card = "took", card_the(event.card, wild)
        elif isinstance(event, LaidDown):
            if event.melds:
                laid, melds = "melds", melds_words(event.melds, wild)
            elif verbosity != "brief":
                laid = "nothing"
        elif isinstance(event, Discarded):
            discard = card_the(event.card, wild)
    template = (_YOUR_TURN if mine else _THEIR_TURN).get((draw, laid, bool(discard)))
    if template is None:  # nothing to say: a brief lay-down of nothing
        return ""
    return _(template).format(name=names[first.player], card=card, melds=melds, discard=discard)


_TURN_EVENTS = (DrewFromStock, TookDiscard, LaidDown, Discarded)


def lone_turn_sentence(
    event: DrewFromStock | TookDiscard | Discarded | LaidDown,
    names: Sequence[str],
    you: int | None,
    wild: Rank,
) -> str:
    """``turn_summary([event], names, you, wild, "normal")``: one turn event said alone.

    why made directly for a draw, a take and a discard: the game server words every event
    alone, about three a move, and the general summary's search of its list was a good part
    of that (issue 29); tests/words/test_event_text.py checks it says what local play says."""
    mine = event.player == you
    name = names[event.player]
    if isinstance(event, Discarded):
        key, card, discard = ("", "", True), "", card_the(event.card, wild)
    elif isinstance(event, TookDiscard):
        key, card, discard = ("took", "", False), card_the(event.card, wild), ""
    elif isinstance(event, DrewFromStock):
        if event.card is not None and mine:
            key, card, discard = ("card", "", False), card_the(event.card, wild), ""
        else:
            key, card, discard = ("stock", "", False), "", ""
    else:
        return turn_summary([event], names, you, wild, "normal")
    template = (_YOUR_TURN if mine else _THEIR_TURN)[key]
    return _(template).format(name=name, card=card, melds="", discard=discard)


#: The result of a round, result first; the melds and leftovers follow only at full verbosity.
ROUND_OVER = N_("Round {round} over. {name} went out. {scores}. Totals: {totals}.")
ROUND_OVER_YOU = N_("Round {round} over. You went out. {scores}. Totals: {totals}.")
#: When the one who went out was the only other player.
ROUND_OVER_ALONE = N_("Round {round} over. {name} went out. Totals: {totals}.")
ROUND_OVER_ALONE_YOU = N_("Round {round} over. You went out. Totals: {totals}.")


def _listener_names(names: Sequence[str], you: int | None) -> list[str]:
    # TRANSLATORS: you, in a list of names and points: "Ann 12, you 30".
    return [
        pgettext("in a list of scores", "you") if seat == you else n for seat, n in enumerate(names)
    ]


def round_result(event: RoundScored, names: Sequence[str], you: int | None) -> str:
    """ "Round 8 over. Ben went out. You 18, Ann 48. Totals: Ann 63, Ben 111, you 126." """
    listed = _listener_names(names, you)
    others = [seat for seat in seats_lowest_first(event.scores) if seat != event.went_out]
    totals = name_numbers(listed, event.totals, seats_lowest_first(event.totals))
    name = names[event.went_out]
    mine = event.went_out == you
    if not others:
        template = ROUND_OVER_ALONE_YOU if mine else ROUND_OVER_ALONE
        return _(template).format(round=event.round, name=name, totals=totals)
    if others[0] == you and you is not None:
        listed = list(listed)
        # TRANSLATORS: you, first in a list of names and points that begins a sentence:
        # "You 18, Ann 48."
        listed[you] = pgettext("in a list of scores", "You")
    scores = name_numbers(listed, event.scores, others)
    template = ROUND_OVER_YOU if mine else ROUND_OVER
    return _(template).format(round=event.round, name=name, scores=scores, totals=totals)


def _detail(
    seat: int, event: RoundScored, names: Sequence[str], you: int | None, wild: Rank
) -> str:
    """One player's melds and leftover cards in a round's detail."""
    result = event.results[seat]
    name = names[seat]
    melds = melds_words(result.melds, wild)
    if seat == event.went_out:
        if seat == you:
            if melds:
                return _("You went out with {melds}.").format(melds=melds)
            return _("You went out with nothing laid down.")
        if melds:
            return _("{name} went out with {melds}.").format(name=name, melds=melds)
        return _("{name} went out with nothing laid down.").format(name=name)
    count = event.scores[seat]
    cards = card_list(result.leftover, wild)
    if seat == you:
        if result.melds and cards:
            template = ngettext(
                "You: {count} point, laid down {melds}, left {cards}.",
                "You: {count} points, laid down {melds}, left {cards}.",
                count,
            )
        elif result.melds:
            template = ngettext(
                "You: {count} point, laid down {melds}, left nothing.",
                "You: {count} points, laid down {melds}, left nothing.",
                count,
            )
        elif cards:
            template = ngettext(
                "You: {count} point, left {cards}.", "You: {count} points, left {cards}.", count
            )
        else:
            template = ngettext(
                "You: {count} point, left nothing.", "You: {count} points, left nothing.", count
            )
    elif result.melds and cards:
        template = ngettext(
            "{name}: {count} point, laid down {melds}, left {cards}.",
            "{name}: {count} points, laid down {melds}, left {cards}.",
            count,
        )
    elif result.melds:
        template = ngettext(
            "{name}: {count} point, laid down {melds}, left nothing.",
            "{name}: {count} points, laid down {melds}, left nothing.",
            count,
        )
    elif cards:
        template = ngettext(
            "{name}: {count} point, left {cards}.", "{name}: {count} points, left {cards}.", count
        )
    else:
        template = ngettext(
            "{name}: {count} point, left nothing.", "{name}: {count} points, left nothing.", count
        )
    return template.format(name=name, count=count, melds=melds, cards=cards)


def round_detail(event: RoundScored, names: Sequence[str], you: int | None, wild: Rank) -> str:
    """Each player's melds and leftover cards in a round, the one who went out first."""
    order = [event.went_out] + [s for s in seats_lowest_first(event.scores) if s != event.went_out]
    return " ".join(_detail(seat, event, names, you, wild) for seat in order)


def _round_scored(
    event: RoundScored, names: Sequence[str], you: int | None, wild: Rank, verbosity: str
) -> str:
    text = round_result(event, names, you)
    if verbosity == "full":
        text += " " + round_detail(event, names, you, wild)
    return text


def game_result(event: GameOver, names: Sequence[str], you: int | None) -> str:
    """The end of the game, the winner first."""
    count = event.totals[event.winners[0]]
    totals = name_numbers(
        _listener_names(names, you), event.totals, seats_lowest_first(event.totals)
    )
    if len(event.winners) == 1 and event.winners[0] == you:
        return ngettext(
            "Game over. You win with {count} point. Final totals: {totals}.",
            "Game over. You win with {count} points. Final totals: {totals}.",
            count,
        ).format(count=count, totals=totals)
    if len(event.winners) == 1:
        return ngettext(
            "Game over. {name} wins with {count} point. Final totals: {totals}.",
            "Game over. {name} wins with {count} points. Final totals: {totals}.",
            count,
        ).format(name=names[event.winners[0]], count=count, totals=totals)
    # TRANSLATORS: you, among the names of those who share the win: "Ann and You".
    you_word = pgettext("among the winners", "You")
    winners = join_list([you_word if seat == you else names[seat] for seat in event.winners])
    return ngettext(
        "Game over. {names} share the win with {count} point. Final totals: {totals}.",
        "Game over. {names} share the win with {count} points. Final totals: {totals}.",
        count,
    ).format(names=winners, count=count, totals=totals)


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
        if isinstance(event, _TURN_EVENTS):
            if turn and turn[0].player != event.player:  # type: ignore[union-attr]
                flush()
            turn.append(event)
            continue
        flush()
        if isinstance(event, WentOut):
            out.append(Announcement(went_out(event, names, you, wild), _cue(event, you)))
        elif isinstance(event, LastTurnStarted):
            if event.player == you:
                out.append(Announcement(_("This is your last turn."), _cue(event, you)))
            elif verbosity != "brief":
                text = _("{name}'s last turn.").format(name=names[event.player])
                out.append(Announcement(text, _cue(event, you)))
        elif isinstance(event, StockReshuffled):
            text = _("The stock ran out: the discard pile was shuffled into a new stock.")
            if event.added_decks:
                text = _("The stock ran out: a new deck was shuffled in.")
            out.append(Announcement(text, _cue(event, you)))
        elif isinstance(event, RoundScored):
            text = _round_scored(event, names, you, wild, verbosity)
            out.append(Announcement(text, _cue(event, you)))
        elif isinstance(event, GameOver):
            out.append(Announcement(game_result(event, names, you), _cue(event, you)))
        elif isinstance(event, RoundStarted):
            wild = event.wild_rank  # the events after this belong to the new round
            text = round_start(event, names, you, hand_at_start, verbosity)
            out.append(Announcement(text, _cue(event, you)))
    flush()
    return out


def _cue(event: Event, you: int | None) -> str | None:
    """The event's cue from the table the web page plays from too (fivecrowns.words.cues)."""
    return event_cue(event.kind, {"player": getattr(event, "player", None)}, you)


def went_out(event: WentOut, names: Sequence[str], you: int | None, wild: Rank) -> str:
    """ "Ann went out with a book of 8s, discarding the King of clubs." """
    melds = melds_words(event.melds, wild)
    card = card_the(event.discard, wild)
    if event.player == you:
        return _("You went out with {melds}, discarding {card}.").format(melds=melds, card=card)
    return _("{name} went out with {melds}, discarding {card}.").format(
        name=names[event.player], melds=melds, card=card
    )


def _others_sound(turn: Sequence[Event]) -> str | None:
    """One earcon for another player's whole turn: melds laid down, else how they drew, else
    their discard (each the "other_" cue, lower and softer than your own).

    why one: the turn is one sentence, and two earcons started together would sound as one
    blur; the discard ends every turn, so where the card came from is what the sound tells,
    unless they laid melds down, which is rarer and matters more.
    """
    if _melded(turn):
        return EVENT_CUES["laid_down"].others
    for event in turn:
        if isinstance(event, TookDiscard | DrewFromStock):
            return EVENT_CUES[event.kind].others
    if any(isinstance(event, Discarded) for event in turn):
        return EVENT_CUES["discarded"].others
    return None


def _melded(turn: Sequence[Event]) -> bool:
    """Whether melds were laid down in ``turn`` (a last turn may lay down none)."""
    return any(isinstance(event, LaidDown) and event.melds for event in turn)


def _own_sound(turn: Sequence[Event]) -> str | None:
    """The cue for your own move: melds laid down (with the discard that ends the last turn,
    one key), else what the move was."""
    last = turn[-1]
    if _melded(turn):
        return EVENT_CUES["laid_down"].yours
    if isinstance(last, Discarded | TookDiscard | DrewFromStock):
        return EVENT_CUES[last.kind].yours
    return None
