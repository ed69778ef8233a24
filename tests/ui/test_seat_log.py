"""The last-moves key of a spectator and of a seat across rounds (playtest item 4): each
round's events are worded with that round's wild rank, and a spectator hears this round
only, not every round since it began watching."""

from __future__ import annotations

from fivecrowns.core.game import Game
from fivecrowns.core.moves import Discarded, RoundScored, RoundStarted
from fivecrowns.ui.seat_log import SeatLog
from gamehelpers import bot_move

NAMES = ["Ann", "Ben"]


def test_moves_noted_before_their_round_start_keep_their_rounds_wild_rank() -> None:
    """A network session may note the new round's first moves before the deal itself (it
    held the deal back); the last-moves key worded them with the old round's wild rank."""
    game = Game(NAMES, seed=4, first_dealer=0)
    ben = SeatLog(1)
    seen = 0
    while game.round < 2:
        wild = game.wild_rank
        game.apply(game.current_player, bot_move(game))
        events = game.events[seen:]
        seen = len(game.events)
        split = next((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), None)
        ben.note(events if split is None else events[:split], wild)
    dealt = [e for e in game.events if isinstance(e, RoundStarted)][-1]
    assert game.current_player == 0  # Ann plays first in round 2
    start = len(game.events)
    while game.current_player == 0:
        game.apply(0, bot_move(game))
    ben.note(game.events[start:], game.wild_rank)  # the round's moves, then its deal
    ben.note([dealt], game.wild_rank)
    told = " ".join(ben.since_last_turn(NAMES, "normal"))
    assert "Ann took the 3 of stars and discarded the wild 4 of stars." in told, told
    assert "wild 3 of stars" not in told


def test_a_spectators_last_moves_tell_this_round_only_with_its_wild_rank() -> None:
    game = Game(NAMES, seed=5, first_dealer=1)
    watcher = SeatLog(-1)
    watcher.note(list(game.events), game.wild_rank)
    seen = len(game.events)
    while game.round < 4 or not any(isinstance(e, Discarded) for e in game.round_events):
        wild = game.wild_rank
        game.apply(game.current_player, bot_move(game))
        watcher.note(game.events[seen:], wild)
        seen = len(game.events)
    told = watcher.since_last_turn(NAMES, "normal")
    assert told[0].startswith("Round 4 of 11. 6s are wild."), told
    text = " ".join(told)
    for number in (1, 2, 3):
        assert f"Round {number} " not in text
    assert len(text) < 600, text  # the playtest heard several thousand characters
    assert not any(isinstance(e, RoundScored) for e in game.round_events)
    watcher.forget_news()  # the spectator asked: the next answer starts after it
    assert watcher.since_last_turn(NAMES, "normal") == []
