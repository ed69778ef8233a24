"""The JSON of the game: moves, melds and events (the protocol and the saves use these), and a
whole game for a save file.

Every reader checks what it is given and raises :class:`~fivecrowns.core.errors.SaveFileError`
(a damaged save) or ``ValueError`` (a bad move or event) with a sentence naming the problem;
the file on disk is :mod:`fivecrowns.storage.saves`' job.
"""

from __future__ import annotations

import random
import typing
from collections import Counter
from dataclasses import fields
from typing import Any

from fivecrowns.core.cards import (
    Card,
    Rank,
    new_deck,
    parse_card,
)
from fivecrowns.core.errors import FiveCrownsError, SaveFileError
from fivecrowns.core.game import ROUNDS, Game, GameOptions, Phase, check_table
from fivecrowns.core.melds.solver import (
    Meld,
    MeldKind,
)
from fivecrowns.core.moves import (
    EVENT_TYPES,
    Discard,
    DrawFromStock,
    Event,
    GoOut,
    LayDown,
    Move,
    PlayerResult,
    RoundStarted,
    TakeDiscard,
)
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "DAMAGED",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "event_from_json",
    "event_to_json",
    "game_from_json",
    "game_to_json",
    "meld_from_json",
    "meld_to_json",
    "move_from_json",
    "move_to_json",
]


def move_to_json(move: Move) -> dict[str, Any]:
    """``{"move": "discard", "card": "7h"}`` and the like."""
    data: dict[str, Any] = {"move": move.kind}
    if isinstance(move, Discard):
        data["card"] = move.card.token
    elif isinstance(move, GoOut):
        data["discard"] = move.discard.token
    elif isinstance(move, LayDown):
        melds = move.melds
        data["melds"] = None if melds is None else [[c.token for c in meld] for meld in melds]
    return data


def move_from_json(data: Any) -> Move:
    """The inverse of :func:`move_to_json`; raises ``ValueError`` or ``KeyError`` on bad data."""
    if not isinstance(data, dict):
        raise ValueError("a move is a JSON object")
    kind = data["move"]
    if kind == DrawFromStock.kind:
        return DrawFromStock()
    if kind == TakeDiscard.kind:
        return TakeDiscard()
    if kind == Discard.kind:
        return Discard(parse_card(data["card"]))
    if kind == GoOut.kind:
        return GoOut(parse_card(data["discard"]))
    if kind == LayDown.kind:
        melds = data["melds"]
        if melds is None:
            return LayDown()
        return LayDown(tuple(tuple(parse_card(token) for token in meld) for meld in melds))
    raise ValueError(f"unknown move {kind!r}")


def meld_to_json(meld: Meld) -> dict[str, Any]:
    return {"kind": meld.kind.name.lower(), "cards": [card.token for card in meld.cards]}


def meld_from_json(data: Any) -> Meld:
    if not isinstance(data, dict):
        raise ValueError("a meld is a JSON object")
    return Meld(MeldKind[str(data["kind"]).upper()], tuple(parse_card(t) for t in data["cards"]))


def _encode(value: Any) -> Any:
    if type(value) in _PLAIN:  # why first: most of an event's values (issue 29)
        return value
    if isinstance(value, Card):
        return value.token
    if isinstance(value, Rank):
        return value.token
    if isinstance(value, Meld):
        return meld_to_json(value)
    if isinstance(value, PlayerResult):
        return {name: _encode(getattr(value, name)) for name in _RESULT_FIELDS}
    if isinstance(value, _SEQUENCES):
        return [_encode(item) for item in value]
    return value


# why made once: ``tuple | list`` in isinstance built a new union for every value encoded, and
# ``fields`` a new tuple for every result, in every event the game server sends (issue 29)
_SEQUENCES = (tuple, list)
#: Values that are their own JSON (exactly these types: a subclass, an enum, goes on).
_PLAIN = frozenset((int, str, bool, float, type(None)))
_RESULT_FIELDS = tuple(f.name for f in fields(PlayerResult))


#: Each event class's field names, in order (why: ``dataclasses.fields`` made them afresh for
#: every event the game server sent, a tenth of its wording and encoding, issue 29).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"event": "discarded", "player": 1, "card": "7h"}`` and the like."""
    names = _FIELD_NAMES.get(type(event))
    if names is None:
        names = _FIELD_NAMES[type(event)] = tuple(f.name for f in fields(event))
    data: dict[str, Any] = {"event": event.kind}
    for name in names:
        data[name] = _encode(getattr(event, name))
    return data


def _decode(kind: Any, value: Any) -> Any:
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, _UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = [arg for arg in args if arg is not type(None)]
        return _decode(inner, value)
    if origin is tuple:
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {value!r}")
        return tuple(_decode(args[0], item) for item in value)
    if kind is Card:
        return parse_card(value)
    if kind is Rank:
        return Rank(next(rank for rank in Rank if rank.token == value))
    if kind is Meld:
        return meld_from_json(value)
    if kind is PlayerResult:
        hints = _type_hints(PlayerResult)
        return PlayerResult(**{name: _decode(hints[name], value[name]) for name in hints})
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"{value!r} is not a {kind}")


_UnionType = type(int | None)


_TYPE_HINTS: dict[type, dict[str, Any]] = {}


def _type_hints(cls: type) -> dict[str, Any]:
    # why cached: with string annotations get_type_hints compiles every field's annotation
    # on each call (55 us an event), and local play reads every event back from its JSON
    hints = _TYPE_HINTS.get(cls)
    if hints is None:
        hints = _TYPE_HINTS[cls] = typing.get_type_hints(cls)
    return hints


def event_from_json(data: Any) -> Event:
    """The inverse of :func:`event_to_json`; raises ``ValueError``/``KeyError`` on bad data."""
    if not isinstance(data, dict):
        raise ValueError("an event is a JSON object")
    cls = EVENT_TYPES[data["event"]]
    hints = _type_hints(cls)
    values = {f.name: _decode(hints[f.name], data[f.name]) for f in fields(cls)}
    event: Event = cls(**values)
    return event


# --- save and resume -------------------------------------------------------------

SAVE_FORMAT = "fivecrowns-save"
SAVE_VERSION = 1


def game_to_json(game: Game) -> dict[str, Any]:
    """The whole state of ``game`` (with its random generator) as a JSON object."""
    version, internal, gauss = game.rng.getstate()
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "players": list(game.players),
        "options": {
            "decks": game.options.decks,
            "forbid_return_discard": game.options.forbid_return_discard,
        },
        "seed": game.seed,
        "first_dealer": game.first_dealer,
        "rng": [version, list(internal), gauss],
        "deck_orders": [[card.token for card in order] for order in game.deck_orders],
        "round": game.round,
        "dealer": game.dealer,
        "round_scores": [list(scores) for scores in game.round_scores],
        "totals": list(game.totals),
        "decks_in_play": game.decks_in_play,
        "phase": game.phase.value,
        "current_player": game.current_player,
        "hands": [[card.token for card in hand] for hand in game.hands],
        "stock": [card.token for card in game.stock],
        "discard_pile": [card.token for card in game.discard_pile],
        "went_out": game.went_out,
        "last_turns": list(game.last_turns),
        "laid_down": [[meld_to_json(meld) for meld in melds] for melds in game.laid_down],
        "taken_discard": None if game.taken_discard is None else game.taken_discard.token,
        "round_start_event": game.round_start_event,
        "events": [event_to_json(event) for event in game.events],
        "moves": [[player, move_to_json(move)] for player, move in game.moves],
    }


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(
            _("{key} is {value}, not a whole number from {low} to {high}").format(
                key=key, value=repr(value), low=low, high=high
            )
        )
    return value


_NOT_CARDS = {
    "a deck order": N_("a deck order is not a list of cards"),
    "a hand": N_("a hand is not a list of cards"),
    "the stock": N_("the stock is not a list of cards"),
    "the discard pile": N_("the discard pile is not a list of cards"),
}


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
        raise ValueError(_(_NOT_CARDS[what]))
    return [parse_card(token) for token in value]


# TRANSLATORS: {reason} says what is wrong, e.g. "the stock is not a list of cards".
DAMAGED = N_("This saved game is damaged: {reason}.")


def game_from_json(data: Any) -> Game:
    """Rebuild a game saved by :func:`game_to_json`.

    Raises :class:`SaveFileError` naming the problem.
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(_("This is not a Five Crowns saved game."))
    version = data.get("version")
    if version != SAVE_VERSION:
        raise SaveFileError(
            _(
                "This saved game has format version {version}; this program reads version {ours}."
            ).format(version=repr(version), ours=SAVE_VERSION)
        )
    try:
        return _game_from_json(data)
    except SaveFileError:
        raise
    except FiveCrownsError as error:
        # why: the table check ("A game needs 2 to 7 players") is a sentence of its own.
        reason = str(error).rstrip(".")
        reason = reason[:1].lower() + reason[1:]
        raise SaveFileError(_(DAMAGED).format(reason=reason)) from error
    except (
        KeyError, ValueError, TypeError, IndexError, AttributeError, StopIteration, OverflowError
    ) as error:  # fmt: skip
        if isinstance(error, KeyError):
            detail = _("{key} is missing").format(key=repr(error.args[0]))
        else:
            detail = str(error) or _("a value is not what the game wrote")
        raise SaveFileError(_(DAMAGED).format(reason=detail)) from error


def _game_from_json(data: dict[str, Any]) -> Game:
    game = Game.__new__(Game)
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise ValueError(_("players is not a list of names"))
    options = data["options"]
    game.options = GameOptions(
        decks=_int(options, "decks", 1, 100),
        forbid_return_discard=bool(options["forbid_return_discard"]),
    )
    check_table(len(players), game.options)
    count = len(players)
    game.players = tuple(players)
    seed = data["seed"]
    if seed is not None and not isinstance(seed, int):
        raise ValueError(_("seed is not a whole number"))
    game.seed = seed
    game.first_dealer = _int(data, "first_dealer", 0, count - 1)
    rng_version, internal, gauss = data["rng"]
    game.rng = random.Random()
    game.rng.setstate((rng_version, tuple(internal), gauss))
    game.deck_orders = [_cards(order, "a deck order") for order in data["deck_orders"]]
    game.round = _int(data, "round", 1, ROUNDS)
    game.dealer = _int(data, "dealer", 0, count - 1)
    game.round_scores = [tuple(int(score) for score in scores) for scores in data["round_scores"]]
    game.totals = [int(total) for total in data["totals"]]
    game.decks_in_play = _int(data, "decks_in_play", game.options.decks, 1000)
    game.phase = Phase(data["phase"])
    game.current_player = _int(data, "current_player", 0, count - 1)
    game.hands = [_cards(hand, "a hand") for hand in data["hands"]]
    game.stock = _cards(data["stock"], "the stock")
    game.discard_pile = _cards(data["discard_pile"], "the discard pile")
    went_out = data["went_out"]
    game.went_out = None if went_out is None else _int(data, "went_out", 0, count - 1)
    game.last_turns = [int(seat) for seat in data["last_turns"]]
    game.laid_down = [tuple(meld_from_json(m) for m in melds) for melds in data["laid_down"]]
    taken = data["taken_discard"]
    game.taken_discard = None if taken is None else parse_card(taken)
    game.events = [event_from_json(event) for event in data["events"]]
    game.round_start_event = _int(data, "round_start_event", 0, max(len(game.events) - 1, 0))
    game.moves = [(int(player), move_from_json(move)) for player, move in data["moves"]]
    _check_consistent(game)
    return game


def _check_consistent(game: Game) -> None:
    """Refuse a state the rules cannot reach (catches edited or mixed-up files)."""
    count = len(game.players)
    if len(game.hands) != count or len(game.laid_down) != count or len(game.totals) != count:
        raise ValueError(_("the number of hands, melds or totals is not the number of players"))
    if len(game.round_scores) != game.round - (0 if game.is_over else 1):
        raise ValueError(_("the round scores do not match the round"))
    if any(len(scores) != count for scores in game.round_scores):
        raise ValueError(_("a round's scores do not match the number of players"))
    sums = [sum(column) for column in zip(*game.round_scores, strict=True)] or [0] * count
    if sums != game.totals:
        raise ValueError(_("the totals are not the sums of the round scores"))
    if game.all_cards() != Counter(new_deck(game.decks_in_play)):
        raise ValueError(
            ngettext(
                "the cards in play are not {count} full deck",
                "the cards in play are not {count} full decks",
                game.decks_in_play,
            ).format(count=game.decks_in_play)
        )
    if not game.events or not isinstance(game.events[game.round_start_event], RoundStarted):
        raise ValueError(_("the event log does not show where the round started"))
    if any(not 0 <= seat < count for seat in game.last_turns):
        raise ValueError(_("a last turn belongs to no player"))
    if game.phase is not Phase.GAME_OVER and _hand_counts(game) != _expected_counts(game):
        raise ValueError(
            ngettext(
                "the hands do not hold the {count} card each of this round",
                "the hands do not hold the {count} cards each of this round",
                game.hand_size,
            ).format(count=game.hand_size)
        )
    if game.went_out is not None and game.hands[game.went_out]:
        raise ValueError(_("the player who went out still holds cards"))


def _hand_counts(game: Game) -> list[int]:
    """Cards each seat holds, counting what they laid down this round."""
    return [
        len(hand) + sum(len(meld.cards) for meld in melds)
        for hand, melds in zip(game.hands, game.laid_down, strict=True)
    ]


def _expected_counts(game: Game) -> list[int]:
    """What :func:`_hand_counts` must be in this phase (melds laid down count as held)."""
    expected = [game.hand_size] * len(game.players)
    if game.phase in (Phase.DISCARD, Phase.LAST_LAY_DOWN, Phase.LAST_DISCARD):
        expected[game.current_player] += 1  # drawn, not yet discarded
    return expected
