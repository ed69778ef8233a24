"""The sentences of the information keys (words/answers.py): one home for the terminal and
the server's answers, whole sentences for you and for another player, in each language.
"""

from __future__ import annotations

from fivecrowns import i18n
from fivecrowns.core.game import Phase
from fivecrowns.words import answers


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


def test_turn_words_are_whole_sentences_for_you_and_another() -> None:
    for phase in Phase:
        assert answers.turn_words(phase, None).startswith("Your ")
        assert answers.turn_words(phase, "Ana").startswith("Ana's ")
    assert answers.turn_words(Phase.LAST_LAY_DOWN, "Ana") == (
        "Ana's last turn: lay down their melds, then discard."
    )
    with i18n.speaking("es"):
        assert answers.turn_words(Phase.LAST_LAY_DOWN, "Ana") == (
            "Último turno de Ana: baja sus combinaciones y luego descarta."
        )
        assert answers.turn_words(Phase.DRAW, None) == "Tu turno: toma un naipe."


def test_points_hints_use_the_number() -> None:
    from ai_support import table
    from fivecrowns.core.moves import DrawFromStock
    from fivecrowns.core.views import player_view
    from fivecrowns.words.hint import hint_sentence

    game = table(["4h 5h 9c", "4d 9d Kd"], turned_up="Qd", stock_top="Ksp")
    game.apply(0, DrawFromStock())
    assert game.phase is Phase.DISCARD
    with i18n.speaking("es"):
        text = hint_sentence(player_view(game, 0), None)
    assert text.startswith("Descarta ") and "puntos" in text, text
