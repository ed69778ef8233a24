"""The announcements in Spanish (issue 14): a whole seeded game of computer players told
in Spanish with no English word left, each turn and each result a whole sentence, numbers
and lists of melds. The card and meld words themselves are in tests/core/test_spanish.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from fivecrowns import i18n
from fivecrowns.ai.loader import load_level
from fivecrowns.core.cards import (
    Card,
    Rank,
    parse_card,
    parse_cards,
)
from fivecrowns.core.game import Game
from fivecrowns.core.melds.solver import (
    check_meld,
)
from fivecrowns.core.moves import (
    Discarded,
    DrewFromStock,
    Event,
    GameOver,
    LaidDown,
    PlayerResult,
    RoundScored,
    RoundStarted,
    TookDiscard,
    WentOut,
    redact,
)
from fivecrowns.core.views import player_view
from fivecrowns.words.announce import describe_events, game_result, round_detail, turn_summary
from fivecrowns.words.table import event_text
from i18n_support import english_words


@pytest.fixture
def spanish() -> Iterator[None]:
    with i18n.speaking("es"):
        yield


def _play_spanish_game(
    seed: int, levels: Sequence[str]
) -> tuple[Game, list[str], list[list[Card]]]:
    """A seeded game of computer players, played in Spanish; the explanations and each
    round's hands as dealt (by round, then seat)."""
    bots = [load_level(level, seed=seed + seat) for seat, level in enumerate(levels)]
    game = Game(NAMES[: len(levels)], seed=seed)
    explanations: list[str] = []
    dealt = [[list(game.hand(seat)) for seat in range(len(levels))]]
    with i18n.speaking("es"):
        while not game.is_over:
            seat = game.current_player
            decision = bots[seat].decide(player_view(game, seat))
            explanations.append(decision.explanation)
            events = game.apply(seat, decision.move)
            if any(isinstance(event, RoundStarted) for event in events):
                dealt.append([list(game.hand(s)) for s in range(len(levels))])
    return game, explanations, dealt


def _rounds(events: Sequence[Event]) -> list[list[Event]]:
    rounds: list[list[Event]] = []
    for event in events:
        if isinstance(event, RoundStarted) or not rounds:
            rounds.append([])
        rounds[-1].append(event)
    return rounds


def _spanish_transcript(game: Game, dealt: list[list[Card]], viewer: int | None) -> list[str]:
    said: list[str] = []
    with i18n.speaking("es"):
        for number, events in enumerate(_rounds(game.events)):
            start = events[0]
            assert isinstance(start, RoundStarted)
            hand = dealt[number][viewer] if viewer is not None else []
            seen = [redact(event, viewer) for event in events]
            for verbosity in ("brief", "normal", "full"):
                for announcement in describe_events(
                    seen, game.players, viewer, start.wild_rank, verbosity, hand_at_start=hand
                ):
                    said.append(announcement.text)
            for event in seen:
                text = event_text(event, game.players, viewer, start.wild_rank, hand)
                said.append(text)
    return said


NAMES = ["Ana", "Beto", "Carmen", "Dani"]


@pytest.mark.parametrize(
    ("seed", "levels"),
    [(14, ("easy", "medium", "hard")), (3, ("expert", "hard", "medium", "easy"))],
)
def test_a_whole_seeded_game_in_spanish_has_no_english_word(
    seed: int, levels: tuple[str, ...]
) -> None:
    game, explanations, dealt = _play_spanish_game(seed, levels)
    assert game.round == 11 and game.is_over
    kinds = {type(event).__name__ for event in game.events}
    # the game met every kind of event the announcements word, reshuffles aside
    assert {"DrewFromStock", "TookDiscard", "Discarded", "WentOut", "LaidDown"} <= kinds
    texts = list(explanations)
    for viewer in [*range(len(levels)), None]:
        texts += _spanish_transcript(game, dealt, viewer)
    leaks = {text: english_words(text) for text in texts if english_words(text)}
    assert leaks == {}
    # the check can fail: the same game's English words are found
    english = describe_events(game.events, game.players, 0, Rank.THREE, "full")
    assert english_words(" ".join(announcement.text for announcement in english))
    joined = "\n".join(texts)
    # the Spanish words of the game are there, with their agreement
    for word in ("Ronda 1 de 11.", "Los 3 son salvajes.", "Los reyes son salvajes.", "Fin de la"):
        assert word in joined, word
    assert "Fin de la partida." in joined
    assert any(text.startswith(("Tomé", "Descarté", "Salí", "Bajé")) for text in explanations)


def test_the_players_own_turn_is_said_to_them(spanish: object) -> None:
    seven, king, nine = parse_cards("7h Kc 9sp")
    turn = [DrewFromStock(0, seven), Discarded(0, king)]
    assert turn_summary(turn, ["Ana", "Beto"], 0, Rank.SEVEN, "normal") == (
        "Tomaste el 7 de copas salvaje de la pila de extracción y descartaste el rey de tréboles."
    )
    theirs = [redact(event, 1) for event in turn]
    assert turn_summary(theirs, ["Ana", "Beto"], 1, Rank.SEVEN, "normal") == (
        "Ana tomó de la pila de extracción y descartó el rey de tréboles."
    )
    took = [TookDiscard(1, parse_card("Jst")), Discarded(1, nine)]
    assert turn_summary(took, ["Ana", "Beto"], 0, Rank.THREE, "brief") == (
        "Beto tomó la sota de estrellas del descarte y descartó el 9 de espadas."
    )


_BOOK = check_meld(parse_cards("8c 8h 8d"), Rank.THREE)


_LAST_TURN = [
    DrewFromStock(0, parse_card("7h")),
    LaidDown(0, (_BOOK,), ()),
    Discarded(0, parse_card("Kc")),
]


@pytest.mark.parametrize(
    ("language", "viewer", "events", "verbosity", "expected"),
    [
        (
            "en",
            0,
            _LAST_TURN,
            "normal",
            "You drew the 7 of hearts, laid down a book of 8s and discarded the King of clubs.",
        ),
        (
            "es",
            0,
            _LAST_TURN,
            "normal",
            "Tomaste el 7 de copas de la pila de extracción, bajaste "
            "una familia de 8 y descartaste el rey de tréboles.",
        ),
        (
            "en",
            1,
            _LAST_TURN,
            "normal",
            "Ana drew from the stock, laid down a book of 8s and discarded the King of clubs.",
        ),
        (
            "es",
            1,
            _LAST_TURN,
            "normal",
            "Ana tomó de la pila de extracción, bajó una familia de 8 "
            "y descartó el rey de tréboles.",
        ),
        (
            "en",
            1,
            [LaidDown(0, (), ()), Discarded(0, parse_card("Kc"))],
            "full",
            "Ana laid down nothing and discarded the King of clubs.",
        ),
        (
            "es",
            1,
            [LaidDown(0, (), ()), Discarded(0, parse_card("Kc"))],
            "full",
            "Ana no bajó nada y descartó el rey de tréboles.",
        ),
        ("en", 1, [DrewFromStock(0, None), LaidDown(0, (), ())], "brief", "Ana drew."),
        ("es", 1, [DrewFromStock(0, None), LaidDown(0, (), ())], "brief", "Ana tomó un naipe."),
        ("en", 0, [TookDiscard(1, parse_card("Jst"))], "normal", "Beto took the Jack of stars."),
        (
            "es",
            0,
            [TookDiscard(1, parse_card("Jst"))],
            "normal",
            "Beto tomó la sota de estrellas del descarte.",
        ),
        (
            "es",
            1,
            [TookDiscard(1, parse_card("Jst"))],
            "normal",
            "Tomaste la sota de estrellas del descarte.",
        ),
        # nothing to say: a lay-down of nothing at brief verbosity
        ("en", 1, [LaidDown(0, (), ())], "brief", ""),
    ],
)
def test_a_turn_is_one_whole_sentence_in_each_language(
    language: str, viewer: int, events: list[Event], verbosity: str, expected: str
) -> None:
    with i18n.speaking(language):
        said = turn_summary(events, ["Ana", "Beto"], viewer, Rank.THREE, verbosity)
    assert said == expected


def _turn_shapes() -> Iterator[list[Event]]:
    """Every turn the announcements word: a draw or not, a lay-down or not, a discard or not."""
    draws: list[Event | None] = [
        None,
        DrewFromStock(0, parse_card("7h")),
        DrewFromStock(0, None),
        TookDiscard(0, parse_card("Qsp")),
    ]
    lays: list[Event | None] = [None, LaidDown(0, (), ()), LaidDown(0, (_BOOK,), ())]
    for draw in draws:
        for lay in lays:
            for discard in (None, Discarded(0, parse_card("Kc"))):
                events = [event for event in (draw, lay, discard) if event is not None]
                if events:
                    yield events


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_turn_shape_has_a_whole_sentence(language: str) -> None:
    said = []
    with i18n.speaking(language):
        for events in _turn_shapes():
            for viewer in (0, 1, None):
                for verbosity in ("brief", "normal", "full"):
                    text = turn_summary(events, ["Ana", "Beto"], viewer, Rank.THREE, verbosity)
                    brief_nothing = verbosity == "brief" and events == [LaidDown(0, (), ())]
                    assert bool(text) != brief_nothing, (events, viewer, verbosity)
                    said.append(text)
    for text in filter(None, said):
        assert text[0].isupper() and text.endswith(".") and "{" not in text, text
        assert "  " not in text and " ." not in text, text
        if language == "es":
            assert english_words(text) == [], text
    # each shape has its own sentence: 27 for "you", 21 for another player (not brief + nothing)
    assert len(set(said) - {""}) == 48


def _scored(scores: tuple[int, ...], leftovers: tuple[str, ...]) -> RoundScored:
    results = tuple(
        PlayerResult((), tuple(parse_cards(cards)), score)
        for cards, score in zip(leftovers, scores, strict=True)
    )
    return RoundScored(3, 0, scores, scores, results)


@pytest.mark.parametrize(
    ("points", "said"),
    [
        (0, "Beto: 0 puntos; no le sobró nada."),
        (1, "Beto: 1 punto; sobrantes: 3 de copas."),
        (2, "Beto: 2 puntos; sobrantes: 3 de copas."),
        (45, "Beto: 45 puntos; sobrantes: 3 de copas."),
    ],
)
def test_points_in_a_round_s_detail_with_0_1_2_and_many(
    spanish: object, points: int, said: str
) -> None:
    # the points are given, not counted from the cards: the sentence's plural is what is tested
    event = _scored((0, points), ("", "" if points == 0 else "3h"))
    detail = round_detail(event, ["Ana", "Beto"], None, Rank.FIVE)
    assert detail == f"Ana salió sin bajar nada. {said}"


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (0, "Fin de la partida. Gana Ana con 0 puntos."),
        (1, "Fin de la partida. Gana Ana con 1 punto."),
        (2, "Fin de la partida. Gana Ana con 2 puntos."),
        (120, "Fin de la partida. Gana Ana con 120 puntos."),
    ],
)
def test_the_winner_s_points_with_0_1_2_and_many(spanish: object, count: int, said: str) -> None:
    text = game_result(GameOver((0,), (count, count + 5)), ["Ana", "Beto"], 1)
    assert text == f"{said} Totales finales: Ana {count}, tú {count + 5}."


def test_a_shared_win_lists_the_winners(spanish: object) -> None:
    text = game_result(GameOver((0, 1, 2), (30, 30, 30)), ["Ana", "Beto", "Carmen"], 1)
    assert text.startswith(
        "Fin de la partida. Empatan en la victoria con 30 puntos: Ana, tú y Carmen."
    )


@pytest.mark.parametrize("count", [1, 2, 3])
def test_lists_of_one_to_three_melds(spanish: object, count: int) -> None:
    melds = [
        check_meld(parse_cards("8c 8h 8sp"), Rank.KING),
        check_meld(parse_cards("3st 4st 5st"), Rank.KING),
        check_meld(parse_cards("Qd Qd jk"), Rank.KING),
    ][:count]
    event = WentOut(0, tuple(melds), parse_card("9h"))
    text = describe_events([event], ["Ana", "Beto"], 1, Rank.KING, "normal")[0].text
    expected = {
        1: "una familia de 8",
        2: "una familia de 8 y un palo de 3, 4, 5 de estrellas",
        3: (
            "una familia de 8, un palo de 3, 4, 5 de estrellas "
            "y una familia de damas con un comodín"
        ),
    }[count]
    assert text == f"Ana salió con {expected} y descartó el 9 de copas."
    mine = describe_events([event], ["Ana", "Beto"], 0, Rank.KING, "normal")[0].text
    assert mine == f"Saliste con {expected} y descartaste el 9 de copas."
