"""What the session says and plays: the other players' moves with their sounds (queued,
never cutting off the player), last turns, round results at each verbosity, the start of
a round (ui/session/news.py).

Driven as in test_session.py: prompt_toolkit pipe input, a dummy terminal output, and the
output layer's RecordingBackend to hear (and see the sounds of) what was said.
"""

from __future__ import annotations

import re

from ai_support import table as deal
from fivecrowns.output.base import Call
from fivecrowns.ui.session import Seat
from ui_support import never_go_out, play_turn, table

THREE = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]


def sound_then_speech(calls: list[Call]) -> list[tuple[str, Call]]:
    """Each sound with the speech call that follows it (braille calls skipped)."""
    pairs: list[tuple[str, Call]] = []
    for index, call in enumerate(calls):
        if call.kind != "sound":
            continue
        after = [c for c in calls[index + 1 :] if c.kind in ("speak", "sound")]
        assert after and after[0].kind == "speak", f"{call.text} was played with no words"
        pairs.append((call.text, after[0]))
    return pairs


def test_other_players_moves_have_their_sounds_queued_with_their_words() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            never_go_out(t)
        assert t.game.round == 2, "round 1 should have ended"
        pairs = sound_then_speech(t.backend.calls)
        others = [(sound, call) for sound, call in pairs if call.text.startswith(("Ann ", "Ben "))]
        turn_sounds = {sound for sound, call in others if " discarded the " in call.text}
        # another player's cues, told apart from your own by ear (issue 30)
        assert turn_sounds and turn_sounds <= {
            "other_draw_stock",
            "other_take_discard",
            "other_meld",
        }
        for sound, call in others:
            assert not call.interrupt, call.text  # queued: never cuts off the player
            if sound == "other_take_discard":
                assert " took the " in call.text
            if sound == "other_draw_stock":
                assert " drew " in call.text
            if sound == "other_meld":
                assert " laid down " in call.text
        # A computer player went out (this player never does): its sound and the others'
        # last turn, said and heard.
        went = [call.text for sound, call in others if sound == "went_out"]
        assert went and " went out with " in went[0]
        assert ("your_last_turn", "This is your last turn.") in [(s, c.text) for s, c in pairs]
        assert "round_over" in t.backend.sounds and "shuffle" in t.backend.sounds
        # Nothing said only by sound, and nothing the player asked for was stopped.
        assert not [c for c in t.backend.calls if c.kind == "stop"]


def test_another_players_last_turn_is_said_and_heard() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            play_turn(t)  # goes out when it can
        said = [(s, c.text) for s, c in sound_then_speech(t.backend.calls)]
        last = [text for sound, text in said if sound == "last_turn"]
        assert any(text in ("Ann's last turn.", "Ben's last turn.") for text in last), said


def test_brief_verbosity_keeps_others_last_turn_silent_and_wordless() -> None:
    with table(THREE, seed=8, first_dealer=2, verbosity="brief") as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            play_turn(t)
        said = [(s, c.text) for s, c in sound_then_speech(t.backend.calls)]
        assert not any(text.endswith("'s last turn.") for _, text in said)
        assert not [text for s, text in said if s == "last_turn"]  # no one else's: silent


def test_round_result_comes_first_short_and_waits_for_a_key() -> None:
    seats = [Seat("You")] + [Seat(name, "medium") for name in ("Ann", "Ben", "Cy", "Dee", "Eve")]
    game = deal(
        ["6st 7st 8st", "4h 9c Kd", "5c 9h Jd", "6c 10h Qd", "7c Jh Kc", "8c Qh Ksp"],
        turned_up="5d",
        stock_top="jk",
    )
    with table(seats, seed=0, game=game, verbosity="brief") as t:
        t.press("d", "left", "g")  # the joker on the left goes out with the run
        said = t.spoken()
        result = next(text for text in said if text.startswith("Round 1 over."))
        assert result.startswith("Round 1 over. You went out. ")
        assert re.fullmatch(
            r"Round 1 over\. You went out\. ([A-Z][a-z]+ \d+, )*[A-Z][a-z]+ \d+\. "
            r"Totals: you 0, .+\.",
            result,
        ), result
        assert len(result) < 160, len(result)
        assert said[-1] == "Round 2 next. Press Enter or Space to deal it."
        assert t.game.round == 2
        assert not any(text.startswith("Round 2 of 11") for text in said)
        before = t.state()
        t.press("d")  # a move waits for the deal
        assert t.spoken()[-1] == "Round 2 next. Press Enter or Space to deal it."
        assert t.state() == before
        t.press("b")
        detail = t.spoken()[-1]
        assert detail.startswith(result)
        assert "You went out with a run of " in detail and "left " in detail
        mark = len(t.spoken())
        t.press("enter")
        assert t.said_since(mark)[0].startswith("Round 2, 4s wild.")


def test_round_detail_at_full_verbosity() -> None:
    game = deal(["6st 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="jk")
    with table([Seat("You"), Seat("Ann", "medium")], seed=0, game=game, verbosity="full") as t:
        t.press("d", "left", "g")
        result = next(text for text in t.spoken() if text.startswith("Round 1 over."))
        head = r"Round 1 over\. You went out\. Ann (\d+)\. Totals: you 0, Ann \1\. "
        assert re.match(head, result)
        assert "You went out with a run of " in result
        assert re.search(r"Ann: \d+ points, left ", result)


def test_full_verbosity_round_start_says_you_start_and_the_top_discard_once() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=8, first_dealer=1, verbosity="full") as t:
        said = " ".join(t.spoken())
        assert "Ann dealt. You start." in said
        assert "You starts" not in said
        assert said.count("Top discard: ") == 1
