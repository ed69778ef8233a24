"""Your own last turn has its own sound, apart from another player's (issue 26, item 22), and
both are said in words too: a sound is never the only carrier of what happened."""

from __future__ import annotations

import io
import wave

import pytest

from fivecrowns.core.cards import Rank
from fivecrowns.core.moves import LastTurnStarted
from fivecrowns.output.earcons import render_earcon
from fivecrowns.output.sounds import SOUNDS, sounds_dir
from fivecrowns.words.announce import describe_events

NAMES = ["Ann", "Ben", "Cy"]


def _told(player: int, you: int) -> tuple[str | None, str]:
    (said,) = describe_events([LastTurnStarted(player)], NAMES, you, Rank.FIVE, "normal")
    return said.sound, said.text


@pytest.mark.parametrize("you", [0, 2])
def test_your_last_turn_and_anothers_sound_different_and_both_are_said(you: int) -> None:
    mine = _told(you, you)
    theirs = _told(1, you)
    assert mine == ("your_last_turn", "This is your last turn.")
    assert theirs == ("last_turn", "Ben's last turn.")
    assert render_earcon("your_last_turn") != render_earcon("last_turn")
    assert SOUNDS["your_last_turn"].meaning != SOUNDS["last_turn"].meaning


def test_the_own_last_turn_sound_ships_as_a_file() -> None:
    shipped = (sounds_dir() / "your_last_turn.wav").read_bytes()
    assert shipped == render_earcon("your_last_turn")
    with wave.open(io.BytesIO(shipped)) as file:
        assert 0.3 < file.getnframes() / file.getframerate() < 1.2
