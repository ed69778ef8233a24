"""The cue table both clients play from (fivecrowns.words.cues): it names every cue of the
default pack once, and the terminal's announcements choose their cues from it."""

from __future__ import annotations

import json
from pathlib import Path

from ai_support import whole_game
from fivecrowns.core.codec import event_to_json
from fivecrowns.core.moves import RoundStarted
from fivecrowns.output.sounds import SOUND_NAMES
from fivecrowns.words.announce import describe_events
from fivecrowns.words.cues import EVENT_CUES, REFUSED, TABLE_KINDS, event_cue

MANIFEST = Path(__file__).resolve().parents[2] / "sounds" / "default" / "pack.json"


def test_the_table_names_every_cue_of_the_pack_and_nothing_else() -> None:
    named = {cue for cues in EVENT_CUES.values() for cue in cues if cue} | {REFUSED}
    assert named == set(SOUND_NAMES)
    assert set(json.loads(MANIFEST.read_text())["cues"]) == set(SOUND_NAMES)
    assert set(EVENT_CUES) >= TABLE_KINDS


def test_each_event_s_terminal_cue_is_the_table_s_for_its_player_and_for_the_others() -> None:
    game, _log = whole_game(["simple", "simple", "simple"], seed=11)
    names = ["Ann", "Ben", "Cy"]
    heard: set[str] = set()
    wild = None
    for event in game.events:
        if isinstance(event, RoundStarted):
            wild = event.wild_rank
        assert wild is not None
        if event.kind == "turn_started":
            continue  # why: the session plays its cue with "Your turn." (tests/ui)
        data = event_to_json(event)
        player = data.get("player")
        for you in {player if isinstance(player, int) else 0, 1, 2}:
            told = describe_events([event], names, you, wild, "normal")
            cues = [said.sound for said in told if said.sound]
            wanted = event_cue(event.kind, data, you)
            assert cues == ([wanted] if wanted else []), (event, you)
            heard.update(cues)
    game_cues = {
        cue for kind, cues in EVENT_CUES.items() if kind not in TABLE_KINDS for cue in cues
    }
    # every game cue but a person's turn (the session's, not the announcements') was heard
    assert heard == {cue for cue in game_cues if cue} - {"your_turn", "other_turn"}
