"""Spanish in the core (issue 14): card, rank and suit names, meld descriptions, the
parser's words and its errors, every illegal move's sentence. English is checked by the rest of
the suite, unchanged; the announcements in Spanish are in tests/words/test_announce_spanish.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from fivecrowns import i18n
from fivecrowns.core.cards import (
    ALL_RANKS,
    ALL_SUITS,
    JOKER,
    Card,
    Rank,
    card_a,
    card_from_code,
    card_the,
    new_deck,
    parse_card,
    parse_cards,
    rank_plural,
    rank_plural_the,
    rank_the,
    spoken_name,
    wild_clause,
    wild_sentence,
)
from fivecrowns.core.errors import CardParseError, IllegalMoveError, MeldError
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import (
    best_arrangement,
    best_with_discard,
    check_meld,
    going_out_discards,
)
from fivecrowns.core.moves import (
    Discard,
    DrawFromStock,
    GoOut,
    LayDown,
    TakeDiscard,
)
from gamehelpers import random_move, snapshot
from i18n_support import english_words
from tests.core import test_game_illegal as illegal


@pytest.fixture
def spanish() -> Iterator[None]:
    with i18n.speaking("es"):
        yield


def test_every_card_has_a_spanish_name_without_english(spanish: object) -> None:
    for card in set(new_deck(1)):
        for name in (card.spoken, card_the(card), card_a(card), spoken_name(card, Rank.SEVEN)):
            assert english_words(name) == [], name
            assert name and "{" not in name


@pytest.mark.parametrize(
    ("token", "bare", "the", "a"),
    [
        ("9sp", "9 de espadas", "el 9 de espadas", "un 9 de espadas"),
        ("Jst", "sota de estrellas", "la sota de estrellas", "una sota de estrellas"),
        ("Qh", "dama de copas", "la dama de copas", "una dama de copas"),
        ("Kc", "rey de tréboles", "el rey de tréboles", "un rey de tréboles"),
        ("8d", "8 de diamantes", "el 8 de diamantes", "un 8 de diamantes"),
        ("jk", "comodín", "el comodín", "un comodín"),
    ],
)
def test_card_names_agree_in_gender(
    spanish: object, token: str, bare: str, the: str, a: str
) -> None:
    card = parse_card(token)
    assert (card.spoken, card_the(card), card_a(card)) == (bare, the, a)


def test_rank_words_and_wild_sentences(spanish: object) -> None:
    assert [rank_plural(rank) for rank in (Rank.THREE, Rank.JACK, Rank.QUEEN, Rank.KING)] == [
        "3",
        "sotas",
        "damas",
        "reyes",
    ]
    assert rank_plural_the(Rank.THREE) == "los 3"
    assert rank_plural_the(Rank.JACK) == "las sotas"
    assert rank_the(Rank.SIX) == "el 6"
    assert rank_the(Rank.QUEEN) == "la dama"
    assert wild_clause(Rank.THREE) == "los 3 son salvajes"
    assert wild_clause(Rank.JACK) == "las sotas son salvajes"
    assert wild_sentence(Rank.KING) == "Los reyes son salvajes."
    for rank in ALL_RANKS:
        for text in (rank.word, rank.plural, rank_the(rank), wild_sentence(rank)):
            assert english_words(text) == [], text
    assert [suit.word for suit in ALL_SUITS] == [
        "estrellas",
        "copas",
        "tréboles",
        "espadas",
        "diamantes",
    ]


def test_english_names_are_as_before() -> None:
    assert parse_card("Qst").spoken == "Queen of stars"
    assert card_the(parse_card("8c")) == "the 8 of clubs"
    assert card_a(parse_card("8c")) == "an 8 of clubs"
    assert wild_sentence(Rank.JACK) == "Jacks are wild."
    assert rank_plural(Rank.KING) == "Kings"
    assert spoken_name(parse_card("5c"), Rank.FIVE) == "wild 5 of clubs"


def test_the_language_can_change_between_two_sentences() -> None:
    card = parse_card("Jh")
    with i18n.speaking("es"):
        assert card.spoken == "sota de copas"
    assert card.spoken == "Jack of hearts"


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("7 de copas", "7h"),
        ("Sota de Estrellas", "Jst"),
        ("dama de tréboles", "Qc"),
        ("rey de treboles", "Kc"),
        ("10 de diamantes", "10d"),
        ("3 de espadas", "3sp"),
        ("comodín", "jk"),
        ("comodin", "jk"),
    ],
)
def test_spanish_long_forms_are_read_in_any_language(text: str, token: str) -> None:
    assert parse_card(text).token == token
    with i18n.speaking("es"):
        assert parse_card(text).token == token


def test_a_list_keeps_spanish_long_forms_together() -> None:
    assert [card.token for card in parse_cards("7 de copas, sota de estrellas jk 9sp")] == [
        "7h",
        "Jst",
        "jk",
        "9sp",
    ]


@pytest.mark.parametrize("text", ["", "11h", "xyz", "7", "copas", "7s", "7x", "once de copas"])
def test_parse_errors_are_spanish(spanish: object, text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_card(text)
    message = str(caught.value)
    assert message.startswith(f"'{text}' no es un naipe")
    assert english_words(message) == [], message


def test_meld_descriptions_in_spanish(spanish: object) -> None:
    book = check_meld(parse_cards("8c 8h 8sp"), Rank.KING)
    assert book.describe(Rank.KING) == "una familia de 8"
    kings = check_meld(parse_cards("Kc Kh jk"), Rank.THREE)
    assert kings.describe(Rank.THREE) == "una familia de reyes con un comodín"
    run = check_meld(parse_cards("5h jk 7h"), Rank.KING)
    assert run.describe(Rank.KING) == "un palo de 5, 6, 7 de copas con un comodín como el 6"
    faces = check_meld(parse_cards("10st 3c Qst"), Rank.THREE)
    assert faces.describe(Rank.THREE) == (
        "un palo de 10, sota, dama de estrellas con el 3 de tréboles como la sota"
    )
    wilds = check_meld(parse_cards("jk jk 5c"), Rank.FIVE)
    assert wilds.describe(Rank.FIVE) == (
        "una combinación de 3 salvajes: el 5 de tréboles y 2 comodines"
    )


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("3st 4st 5st 9h", 1),
        ("3st 4st 5st 8c 8h 8d 9h", 2),
        ("3st 4st 5st 8c 8h 8d Kc Kd Ksp 9h", 3),
    ],
)
def test_arrangements_with_one_to_three_melds(spanish: object, hand: str, melds: int) -> None:
    arrangement = best_with_discard(parse_cards(hand), Rank.SEVEN)
    assert len(arrangement.melds) == melds
    text = arrangement.describe()
    assert text.startswith("descarte: 9 de copas; ")
    assert text.endswith("no sobra nada, 0 puntos")
    assert english_words(text) == [], text


def test_leftover_points_and_no_melds(spanish: object) -> None:
    arrangement = best_arrangement(parse_cards("3st 9h Kd"), Rank.SEVEN)
    assert arrangement.describe() == (
        "ninguna combinación; sobrantes: 3 de estrellas, 9 de copas y rey de diamantes, 25 puntos"
    )
    one = best_arrangement(parse_cards("7h"), Rank.SEVEN)
    assert one.describe() == "ninguna combinación; sobrantes: 7 de copas salvaje, 20 puntos"


@pytest.mark.parametrize(
    ("cards", "start"),
    [
        ("", "Una combinación necesita al menos 3 naipes; esta tiene 0."),
        ("7h", "Una combinación necesita al menos 3 naipes; esta tiene 1."),
        ("7h 8h", "Una combinación necesita al menos 3 naipes; esta tiene 2."),
        ("7h 7h 8h", "Un palo no puede tener dos 7."),
        ("Jh Jh Qh", "Un palo no puede tener dos sotas."),
        ("7h 8c 9d", "Estos naipes no son ni una familia ni un palo"),
        ("3h 5h 9h", "Un palo necesita valores seguidos: de 3 a 9 hacen falta 7 naipes"),
        ("3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh jk", "Un palo no puede tener más de 11 naipes"),
    ],
)
def test_meld_errors_in_spanish(spanish: object, cards: str, start: str) -> None:
    with pytest.raises(MeldError) as caught:
        check_meld(parse_cards(cards), Rank.KING if "Kh" not in cards else Rank.FOUR)
    message = str(caught.value)
    assert message.startswith(start), message
    assert english_words(message) == [], message


def test_a_joker_is_the_same_card_in_both_languages() -> None:
    with i18n.speaking("es"):
        assert parse_card("comodín") == JOKER == Card(None, None)


# --- illegal moves in Spanish: the cases of tests/core/test_game_illegal.py -------------


class SpanishIllegalMoves(illegal.IllegalMoves):
    """The same state machine; every refusal is worded in Spanish, with no English word,
    and is a translation (it differs from the English sentence for the same move)."""

    def refused(self, player: int, move: Any, sentence: str, *, exact: bool = True) -> None:
        before = snapshot(self.game)
        with i18n.speaking("es"), pytest.raises(IllegalMoveError) as info:
            self.game.apply(player, move)
        message = str(info.value)
        with i18n.speaking("en"), pytest.raises(IllegalMoveError) as english:
            self.game.apply(player, move)
        assert english_words(message) == [], message
        assert message and message != str(english.value)
        SPANISH_REFUSALS.add(message)
        assert snapshot(self.game) == before


SPANISH_REFUSALS: set[str] = set()
SpanishIllegalMoves.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestSpanishIllegalMoves = SpanishIllegalMoves.TestCase


def _game_in_phase(phase: Phase, seed: int = 5) -> Game:
    game = Game(["Ana", "Beto", "Carmen"], seed=seed)
    rng = random.Random(seed)
    while game.phase is not phase:
        game.apply(game.current_player, random_move(game, rng))
    return game


def test_every_illegal_move_sentence_in_spanish(spanish: object) -> None:
    said: list[str] = []

    def refuse(game: Game, player: int, move: Any) -> None:
        with pytest.raises(IllegalMoveError) as info:
            game.apply(player, move)
        said.append(str(info.value))

    draw = _game_in_phase(Phase.DRAW)
    seat = draw.current_player
    card = draw.hand(seat)[0]
    refuse(draw, (seat + 1) % 3, DrawFromStock())
    refuse(draw, seat, Discard(card))
    refuse(draw, seat, GoOut(card))
    refuse(draw, seat, LayDown())
    refuse(draw, seat, "draw")
    refuse(draw, 7, DrawFromStock())
    draw.apply(seat, DrawFromStock())
    refuse(draw, seat, TakeDiscard())
    refuse(draw, seat, LayDown())
    missing = next(c for c in map(card_from_code, range(56)) if c not in draw.hand(seat))
    refuse(draw, seat, Discard(missing))
    refuse(draw, seat, Discard("7h"))
    stuck = [
        c for c in draw.hand(seat) if c not in going_out_discards(draw.hand(seat), draw.wild_rank)
    ]
    refuse(draw, seat, GoOut(stuck[0]))
    last = _game_in_phase(Phase.LAST_DRAW)
    refuse(last, last.current_player, LayDown())
    refuse(last, last.current_player, GoOut(last.hand(last.current_player)[0]))
    last.apply(last.current_player, DrawFromStock())
    player = last.current_player
    refuse(last, player, DrawFromStock())
    refuse(last, player, LayDown(((JOKER, JOKER, JOKER),)))
    refuse(last, player, LayDown((tuple(last.hand(player)),)))
    refuse(last, player, LayDown((tuple(last.hand(player)[:2]),)))
    last.apply(player, LayDown(()))
    refuse(last, player, LayDown(()))
    assert len(set(said)) >= 15
    assert [text for text in said if english_words(text)] == []
    assert "Tienes que tomar un naipe antes de descartar." in said
    assert "Es el turno de " + draw.players[seat] + ", no el tuyo." in said
