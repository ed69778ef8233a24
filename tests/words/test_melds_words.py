"""melds_words keeps the last melds it worded (the game server words a going out or a
lay-down twice, for its player and for everyone else; issue 29): the words are never those of
another language, wild rank or melds, nor of a list changed since."""

from __future__ import annotations

from fivecrowns import i18n
from fivecrowns.core.cards import Rank, parse_cards
from fivecrowns.core.melds.solver import Meld, check_meld
from fivecrowns.words.announce import melds_words


def _fresh(melds: list[Meld] | tuple[Meld, ...], wild: Rank) -> str:
    return i18n.join_list([meld.describe(wild) for meld in melds])


def test_the_words_follow_the_language_the_wild_rank_and_the_melds() -> None:
    run = check_meld(parse_cards("5sp jk 7sp"), Rank.THREE)
    book = check_meld(parse_cards("8h 8c 8d"), Rank.THREE)
    melds = (run, book)
    said: dict[tuple[str, Rank], str] = {}
    # the same tuple each time, right after another language's or wild rank's words for it
    for language, wild in [("en", Rank.THREE), ("es", Rank.THREE), ("es", Rank.FIVE)] * 2:
        with i18n.speaking(language):
            words = melds_words(melds, wild)
        with i18n.speaking(language):
            assert words == _fresh(melds, wild), (language, wild)
        said[language, wild] = words
    with i18n.speaking("en"):
        assert melds_words((book,), Rank.THREE) == _fresh((book,), Rank.THREE)
    assert said["en", Rank.THREE] != said["es", Rank.THREE]
    assert said["es", Rank.THREE] != said["es", Rank.FIVE]  # the 5 is wild: said differently


def test_a_list_changed_in_place_is_worded_again() -> None:
    run = check_meld(parse_cards("5sp 6sp 7sp"), Rank.THREE)
    book = check_meld(parse_cards("8h 8c 8d"), Rank.THREE)
    melds = [run]
    first = melds_words(melds, Rank.THREE)
    melds.append(book)
    assert melds_words(melds, Rank.THREE) == _fresh([run, book], Rank.THREE) != first
