"""The rule the Orca test holds the page to (tests/support/sr_checks.py, issue 25): a sentence
cut off by the player's own key counts as heard once Orca began it; one cut by the page itself
(its own focus move, a hand dealt) must be given again and heard whole. No screen reader here:
the check itself, on a made-up hearing."""

from __future__ import annotations

from typing import Any

from orca_support import Utterance
from sr_checks import Key, check_hearing, turn_at_deal

ORIGIN = 1_000_000.0  # the page's clock origin, epoch seconds
WENT_OUT = "You went out with a book of 10s, discarding the 9 of diamonds."


class Heard:
    """What a desk hands check_hearing: the synthesiser's utterances, no focus failures."""

    def __init__(self, utterances: list[Utterance]) -> None:
        self.utterances = utterances

    def heard(self) -> list[Utterance]:
        return self.utterances

    def focus_failures(self) -> list[str]:
        return []


def record(left: bool) -> dict[str, Any]:
    entry = {"region": "log", "text": WENT_OUT, "at": 1000.0, "left": left}
    return {"origin": ORIGIN * 1000, "said": [entry]}


def begun_and_cut() -> Heard:
    # begun 0.2 s after its release, never ended (cut off), then the hand's focus words
    return Heard(
        [Utterance(ORIGIN + 1.2, WENT_OUT, False), Utterance(ORIGIN + 2.0, "Your hand", True)]
    )


def test_a_sentence_cut_by_a_key_once_begun_counts_as_heard() -> None:
    keys = [Key("Right", ORIGIN + 1.9)]
    result = check_hearing(begun_and_cut(), record(left=True), keys)  # type: ignore[arg-type]
    assert result.unspoken == []


def test_a_sentence_cut_by_the_page_itself_is_unspoken_unless_heard_whole_later() -> None:
    # left to the history by the page's record, but no key came while it was said: the page
    # cut it (a focus move at a new round) and had to give it again
    result = check_hearing(begun_and_cut(), record(left=True), [])  # type: ignore[arg-type]
    assert result.unspoken == [f"[log] {WENT_OUT}"]
    again = begun_and_cut()
    again.utterances.append(Utterance(ORIGIN + 4.0, WENT_OUT, True))
    result = check_hearing(again, record(left=False), [])  # type: ignore[arg-type]
    assert result.unspoken == []


def test_a_key_cut_counts_from_the_first_release_orca_began() -> None:
    """chromium CI: "You went out ..." begun at its first release, given again, then cut by
    End: begun and cut by a key, so heard (the rule), though its last release was later."""
    said = {"region": "log", "text": WENT_OUT, "at": 1000.0, "last": 1500.0, "left": True}
    keys = [Key("End", ORIGIN + 1.9)]
    heard = begun_and_cut()
    result = check_hearing(heard, {"origin": ORIGIN * 1000, "said": [said]}, keys)  # type: ignore[arg-type]
    assert result.unspoken == []
    # and no key while it was said: unspoken
    result = check_hearing(heard, {"origin": ORIGIN * 1000, "said": [said]}, [])  # type: ignore[arg-type]
    assert result.unspoken == [f"[log] {WENT_OUT}"]


def test_a_key_the_page_never_got_is_found_and_a_key_not_waited_for_is_not_silent() -> None:
    """web6: on the Start button Orca took C as its own (next combo box) and spoke, so no
    silence showed it; the page's own record of its keys does. And a key followed by the next
    within a second was not waited for: not judged silent."""
    heard = Heard(
        [Utterance(ORIGIN + 1.4, "Wrapping to top.", True), Utterance(ORIGIN + 5.0, "7.", True)]
    )
    keys = [
        Key("Return", ORIGIN + 0.8, page=False),  # the next key 0.3 s later: not waited for
        Key("c", ORIGIN + 1.1, page=True),  # spoken to, but by Orca: never reached the page
        Key("Right", ORIGIN + 4.8, page=True),  # reached the page (its record below)
    ]
    said = {"region": "log", "text": WENT_OUT, "at": 0.0}
    handled = [{"key": "ArrowRight", "at": 4810.0, "done": 4812.0}]
    result = check_hearing(
        heard,  # type: ignore[arg-type]
        {"origin": ORIGIN * 1000, "said": [said], "keys": handled},
        keys,
    )
    assert (result.silent, result.unwaited, result.unreached) == ([], ["Return at 0"], ["c at 1"])


def test_the_deal_check_finds_long_news_before_your_turn_and_a_turn_never_said() -> None:
    """Issue 25 (main 69fa48b, both browsers): the round and the hand card by card (19 words)
    came before "Your turn. Top discard: ...", 16 to 18 s after the deal; the check finds it,
    and passes the deal that says your turn first."""
    old_deal = (
        "Round 1 of 11. 3s are wild. 3 cards each."
        " Your hand: 10 of hearts, Jack of spades and joker."
    )
    turn = "Your turn. Top discard: 7 of clubs."
    said = [
        {"region": "log", "text": old_deal, "at": 1000.0, "born": 1000.0},
        {"region": "log", "text": turn, "at": 6000.0, "born": 1010.0},
    ]
    start = {"origin": ORIGIN * 1000, "said": said, "youStart": True}
    heard = [
        Utterance(ORIGIN + 1.5, "region Your hand", True),  # Orca's focus words: not news
        Utterance(ORIGIN + 3.0, old_deal, True),
        Utterance(ORIGIN + 17.0, turn, True),
    ]
    found = turn_at_deal(start, heard)
    assert found is not None and found.before == [old_deal]
    assert found.seconds is not None and round(found.seconds) == 16
    new_deal = "Round 1. Your turn. Top discard: 7 of clubs. 3s are wild. 3 cards each."
    said = [{"region": "log", "text": new_deal, "at": 1000.0, "born": 1000.0}]
    heard = [
        Utterance(ORIGIN + 1.5, "region Your hand", True),
        Utterance(ORIGIN + 3.0, new_deal, True),
    ]
    found = turn_at_deal({**start, "said": said}, heard)
    assert found is not None and found.before == [] and found.seconds is not None
    assert round(found.seconds) == 2
    # your turn dropped unsaid before your first move: none; another player's round: no check
    moved = [{"region": "log", "text": old_deal, "at": 1000.0, "born": 1000.0}]
    moved.append({"region": "log", "text": "You drew the Jack of clubs.", "at": 4000.0})
    heard = [Utterance(ORIGIN + 3.0, old_deal, True), Utterance(ORIGIN + 9.0, turn, True)]
    found = turn_at_deal({**start, "said": moved}, heard)
    assert found is not None and found.seconds is None
    assert turn_at_deal({**start, "youStart": False}, heard) is None
