"""The review of a round (ai/review.py, words/review.py): the choices the hard player would
have made otherwise, with the points the solver expects each cost, from the seat's own views."""

from __future__ import annotations

import random

from ai_support import table as deal
from ai_support import whole_game
from fivecrowns import i18n
from fivecrowns.ai import load_bot
from fivecrowns.ai.review import Miss, review_round
from fivecrowns.core.cards import Rank, parse_card, parse_cards
from fivecrowns.core.game import Game
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, RoundScored
from fivecrowns.core.views import player_view
from fivecrowns.table.info import review
from fivecrowns.words.review import review_words


def test_throwing_the_wild_instead_of_going_out_is_named_with_the_points_kept() -> None:
    game = deal(["3h 7st 8st", "4h 9c Kd"], turned_up="5d", stock_top="Kc")
    game.apply(0, DrawFromStock())  # the King of clubs: out with 7, 8 and the wild 3 of stars
    game.apply(0, Discard(parse_card("3h")))  # threw the wild instead: 7 + 8 + 13 kept
    misses = review_round(game, 0, 1)
    assert misses == [
        Miss(1, "go_out", 28, Rank.THREE, parse_card("3h"), parse_card("Kc")),
    ]
    assert review_words(1, misses) == (
        "About 28 points at stake in round 1, in 1 choice the strongest computer player would "
        "have made otherwise. Turn 1: you threw the wild 3 of hearts and kept 28 points; you "
        "could have gone out throwing the King of clubs."
    )
    with i18n.speaking("es"):
        assert review_words(1, misses) == (
            "Unos 28 puntos en juego en la ronda 1, en 1 decisión que el jugador automático más "
            "fuerte habría tomado de otro modo. Turno 1: descartaste el 3 de copas salvaje y te "
            "quedaron 28 puntos; podías salir descartando el rey de tréboles."
        )


def test_a_last_turn_that_lays_nothing_down_is_named_with_what_the_best_melds_save() -> None:
    game = deal(["6h 6c 6d", "7st 8st 9st"], turned_up="5d", stock_top="Kc Qd")
    game.apply(0, DrawFromStock())
    game.apply(0, GoOut(parse_card("Kc")))
    game.apply(1, DrawFromStock())  # the Queen of diamonds
    game.apply(1, LayDown(()))  # nothing laid down: 7 + 8 + 9 of stars left
    game.apply(1, Discard(parse_card("Qd")))
    scored = next(e for e in game.events if isinstance(e, RoundScored))
    assert scored.scores == (0, 24)
    assert review(game, 1) == (
        "About 24 points at stake in round 1, in 1 choice the strongest computer player would "
        "have made otherwise. Last turn: your best melds, throwing the Queen of diamonds, would "
        "have left 24 points fewer."
    )
    assert review(game, 0) == (
        "Round 1: the strongest computer player would have made your choices, or ones within a "
        "point of them."
    )


def test_the_review_depends_only_on_what_the_seat_saw() -> None:
    """Two deals that differ only in cards seat 0 never saw (the other hand, the stock below
    what it drew) give the same review, and it names none of those cards."""
    reviews = []
    for other, stock in (("Kh Kd 4c", "Jd Qh Qd 10c"), ("Qh Qd 4c", "Jd Kh Kd 10c")):
        game = deal(["5h 9st Kc", other], turned_up="6d", stock_top=stock)
        game.apply(0, DrawFromStock())  # the Jack of diamonds
        game.apply(0, Discard(parse_card("5h")))  # the King is worth most and fits nothing
        game.apply(1, DrawFromStock())
        game.apply(1, Discard(parse_card("4c")))
        misses = review_round(game, 0, 1)
        assert misses is not None
        reviews.append(misses)
        text = review_words(1, misses, full=True)
        for card in parse_cards("Kh Kd Qh Qd 10c"):
            assert card.rank is not None and card.suit is not None
            assert f"{card.rank.word} of {card.suit.word}" not in text, text
    assert reviews[0] == reviews[1]
    threw, drew = reviews[0]
    assert (threw.turn, threw.kind, threw.played, threw.better) == (
        1,
        "discard",
        parse_card("5h"),
        parse_card("Kc"),
    )
    # the turned-up 6 of diamonds was public, so the review may say it was worth taking
    assert (drew.turn, drew.kind, drew.played, drew.better) == (1, "drew", None, parse_card("6d"))
    assert threw.stake >= drew.stake >= 1


def test_the_hard_players_own_rounds_have_nothing_to_review_and_easys_do() -> None:
    game, _ = whole_game(["hard", "easy"], seed=5)
    easy_misses = 0
    for number in range(1, 12):
        assert review_round(game, 0, number) == [], number
        misses = review_round(game, 1, number)
        assert misses is not None
        assert [m.stake for m in misses] == sorted((m.stake for m in misses), reverse=True)
        assert all(round(m.stake) >= 1 for m in misses)
        easy_misses += len(misses)
    assert easy_misses > 0


def test_five_dearest_unless_full_and_a_game_without_a_seed_is_not_reviewed() -> None:
    misses = [
        Miss(turn, "discard", 12 - turn, Rank.FIVE, parse_card("5c"), parse_card("Kst"))
        for turn in range(1, 8)
    ]
    short = review_words(4, misses)
    assert short.startswith("About 56 points at stake in round 4, in 7 choices ")
    assert short.count("Turn ") == 5 and "Turn 6" not in short
    assert short.endswith(
        "Turn 5: you threw the wild 5 of clubs; keeping it and throwing the King of stars would "
        "have left about 7 points fewer. 2 more choices at full verbosity."
    )
    full = review_words(4, misses, full=True)
    assert full.count("Turn ") == 7 and "more choices" not in full
    game = Game(["Ann", "Ben"], rng=random.Random(3))
    bot = load_bot("medium")
    for _ in range(500):  # bounded: medium goes out within a few turns
        if game.round > 1:
            break
        seat = game.current_player
        game.apply(seat, bot.decide(player_view(game, seat)).move)
    assert game.round == 2
    assert review_round(game, 0, 1) is None
    assert review(game, 0) == "This game cannot be reviewed: it cannot be replayed."
    assert review(Game(["Ann", "Ben"], seed=3), 0) == "No round has ended yet."
