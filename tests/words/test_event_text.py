"""A game event's sentence for a table's frame (words/table.py event_text) is what local play
says for it (describe_events), for every event of whole games, every viewer and language; the
server words the turn events straight from lone_turn_sentence (issue 29), and this keeps them
one."""

from __future__ import annotations

import pytest

from fivecrowns import i18n
from fivecrowns.ai.loader import load_level
from fivecrowns.core.cards import Rank
from fivecrowns.core.game import Game
from fivecrowns.core.moves import LastTurnStarted, RoundStarted, TurnStarted, redact
from fivecrowns.core.views import player_view
from fivecrowns.words.announce import describe_events
from fivecrowns.words.table import event_text

NAMES = ["Ann", "Ben", "Cat", "Dan"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_event_reads_as_local_play_says_it(language: str) -> None:
    bots = [load_level(level, seed=5 + seat) for seat, level in enumerate(["easy", "medium"] * 2)]
    game = Game(NAMES, seed=41)
    for _ in range(5000):  # bounded: a game of four has a few hundred moves
        if game.is_over:
            break
        seat = game.current_player
        game.apply(seat, bots[seat].decide(player_view(game, seat)).move)
    assert game.is_over
    wild = Rank.THREE
    compared = 0
    with i18n.speaking(language):
        for event in game.events:
            if isinstance(event, RoundStarted):
                wild = event.wild_rank
            if isinstance(event, TurnStarted | LastTurnStarted | RoundStarted):
                continue  # worded by event_text itself (or with the hand dealt)
            for viewer in (None, 0, 1, 2, 3):
                seen = redact(event, viewer)
                said = describe_events([seen], NAMES, viewer, wild, "normal")
                expected = " ".join(announcement.text for announcement in said)
                assert event_text(seen, NAMES, viewer, wild, ()) == expected, (event, viewer)
                compared += 1
    assert compared > 1000
