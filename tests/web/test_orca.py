"""A real screen reader plays a round: Orca reading the page in Chromium and in Firefox ESR.

Each browser gets its own desk: Xvfb, D-Bus, AT-SPI, Speech Dispatcher (whose voice writes what
it is given), game server, browser and Orca (tests/support/orca_support.py). Keys go in through
the X server as a player's would, and what the page meant to say is compared with what Orca
spoke: every sentence in order and once, no key met with silence, no focus change lost, and
every key of the page's reached the page (none taken by Orca as its own command); keys come
gated (each when its effect on speech is sure), except a few right after Start and a few while
the computer plays, at a player's steady rhythm whatever is being said (sr_checks.AFTER_START,
STEADY_BURST: the computer's move still heard); at the deal of a round the player starts,
"Your turn" said before any longer news (sr_checks.turn_at_deal); the
Keys dialog (F1) and the Leave question (both kept dialogs, web/dialog.js) said, and the page
heard after each closed.

Why both browsers in one test, side by side: a round takes about 3 minutes of mostly waiting
(computer moves, speech), and CI runs pytest on one worker; together they take the time of one.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from orca_support import OrcaDesk, require_orca
from sr_checks import TURN_AFTER_WORDS, Key, check_hearing, page_record, play_a_round, turn_at_deal
from web_support import SEED

pytestmark = [pytest.mark.real, pytest.mark.slow, pytest.mark.orca]

BROWSERS = ("chromium", "firefox")
LEAVE_QUESTION = "A computer player takes your seat for the rest of the game"
SERVER = ("--bot-delay", "1.5", "--rate", "200", "--seed", SEED, "--grace", "600")


def hear_a_round(which: str, folder: Path) -> list[str]:
    """One browser's round under Orca; what went wrong (nothing: an empty list)."""
    folder.mkdir()
    desk = OrcaDesk(folder, which, SERVER)
    keys: list[Key] = []
    try:
        desk.start()
        play_a_round(desk, keys, steady_start=True, steady_burst=True)
        record = page_record(desk)
        desk.wait_said()  # the last sentence reaches its end
    finally:
        errors = desk.stop()
    result = check_hearing(desk, record, keys)
    heard = [u.text for u in result.heard]
    # why asserted: the seed's round 1 is the player's to start; "Your turn" must come first
    deal = turn_at_deal(record, result.heard)
    turn = [
        "the round's start was not the player's (the seed changed?)" if deal is None else "",
        "" if deal is None or deal.seconds is not None else "Your turn never said after the deal",
        f"news longer than {TURN_AFTER_WORDS} words before Your turn: {deal.before}"
        if deal is not None and deal.before
        else "",
    ]
    wrong = [
        "a traceback in the server" if "Traceback" in errors else "",
        "the page announced nothing" if not result.meant else "",
        "sentences unspoken" if result.unspoken else "",
        "sentences heard twice" if result.twice else "",
        "keys met by silence" if result.silent else "",
        "focus changes Orca lost" if result.lost_focus else "",
        "keys the page never got" if result.unreached else "",
        "" if any(text.startswith("Keys dialog") for text in heard) else "F1 not said",
        "" if any(text.startswith("Left and Right move") for text in heard) else "no hand help",
        "" if any(LEAVE_QUESTION in text for text in heard) else "the Leave question not said",
        *turn,
    ]
    wrong = [item for item in wrong if item]
    return [f"{which}: {', '.join(wrong)} (logs in {folder})\n{result.describe()}"] if wrong else []


# why 10 minutes (pytest's default here is 5): a round under Orca takes 3 to 5 minutes on a
# loaded machine, most of it waiting for speech and for the computer player
@pytest.mark.timeout(600)
def test_orca_hears_every_sentence_in_order_once_and_every_key(tmp_path: Path) -> None:
    for which in BROWSERS:
        require_orca(which)
    with ThreadPoolExecutor(len(BROWSERS)) as pool:
        runs = [pool.submit(hear_a_round, which, tmp_path / which) for which in BROWSERS]
        failures = [failure for run in runs for failure in run.result()]
    assert failures == [], "\n\n".join(failures)
