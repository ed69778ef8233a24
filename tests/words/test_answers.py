"""The sentences of the information keys (words/answers.py): one home for the terminal and
the server's answers, whole sentences for you and for another player, in each language.
"""

from __future__ import annotations


def test_scores_and_counts_never_glue_a_number_to_a_name() -> None:
    """Item 16: "Computer 2 0, Computer 3 0", "Computer 2 3 (computer, medium)" and a capital
    "You" inside a sentence ("... Ben 3, You 3")."""
    from fivecrowns.words import answers

    names = ["Ben", "Bot 2", "You"]
    said = answers.scores_words(["Ben", "Bot 2", "you"], [5, 0, 1], [[5, 0, 1]])
    assert said == (
        "Scores, after 1 round: Bot 2, 0 points; you, 1 point; Ben, 5 points. "
        "Last round: Bot 2, 0 points; you, 1 point; Ben, 5 points."
    )
    counts = answers.counts_words(names, [3, 1, 3], 100, 0, [None, "medium", None])
    assert counts == (
        "Cards: Ben, 3 cards, went out; Bot 2 (computer, medium), 1 card; you, 3 cards. Stock 100."
    )
