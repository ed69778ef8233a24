"""How long the round result is when spoken: characters, for 3 and 7 players, each verbosity.

Run: .venv/bin/python benchmarks/summary_lengths.py > benchmarks/results/summary_lengths.txt
Not part of the tests. Issue 10 measured 538 characters for 3 players and 1,283 for 7,
at brief verbosity too, with the numbers last. A game is played through the command
layer (seed 8, medium computer players, the human's turns chosen by the solver) until
round 1 is scored; the spoken round result is measured.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from fivecrowns.ui.session import Seat
from ui_support import play_turn, table

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def main() -> None:
    print("players verbosity characters text")
    for players in (3, 7):
        for verbosity in ("brief", "normal", "full"):
            seats = [Seat("You")] + [Seat(name, "medium") for name in NAMES[: players - 1]]
            with table(seats, seed=8, verbosity=verbosity) as t:
                while not any(text.startswith("Round 1 over.") for text in t.spoken()):
                    play_turn(t)
                said = next(text for text in t.spoken() if text.startswith("Round 1 over."))
            print(players, verbosity, len(said), said)


if __name__ == "__main__":
    main()
