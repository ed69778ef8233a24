"""How a rating, a record and the leaderboard are said, the same in every client.

The server words these sentences in the asking connection's language and sends them with
the numbers (docs/protocol.md), so the terminal clients and the web page say one thing. The
number comes first ("Rating 1,234, 57th of 300. Played 41, won 9."): a listener who stops
after a word or two has heard what they asked for.
"""

from __future__ import annotations

from fivecrowns.i18n import N_, current_language, format_number, ngettext
from fivecrowns.i18n import gettext as _

__all__ = [
    "GUEST_UNRATED",
    "NOT_RATED_YET",
    "NO_GAMES",
    "NO_PAGE",
    "NO_RATINGS",
    "NO_SUCH_GAME",
    "ROUND_POINTS",
    "UNKNOWN_PLAYER",
    "YOU_NOT_RATED_YET",
    "game_line",
    "games_heading",
    "leaderboard_heading",
    "leaderboard_line",
    "ordinal",
    "rating_changed",
    "record_words",
]

MY_RECORD = N_("Rating {rating}, {place} of {count}. Played {played}, won {won}.")
THEIR_RECORD = N_("Rating {rating} for {name}, {place} of {count}. Played {played}, won {won}.")
YOU_NOT_RATED_YET = N_("You have no rating yet. Finish a game at a rated table, and you have one.")
NOT_RATED_YET = N_("{name} has no rating yet: no rated game of theirs has finished.")
GUEST_UNRATED = N_("Guests have no rating; log in to an account to be rated.")
UNKNOWN_PLAYER = N_("There is no account named {name} here.")
NO_RATINGS = N_("Nobody has a rating here yet.")
LEADER_LINE = N_("{place}: {name}, rating {rating}. Played {played}, won {won}.")
UP = N_("Your rating is {rating} now, up {change}; {place} of {count}.")
DOWN = N_("Your rating is {rating} now, down {change}; {place} of {count}.")
SAME = N_("Your rating stays {rating}; {place} of {count}.")
NO_PAGE = N_("There is no page {page}; pages go from 1 to {pages}.")
NO_GAMES = N_("{name} has no rated games yet.")
NO_SUCH_GAME = N_("There is no rated game {id} here. Its number is in the list of games.")
ROUND_POINTS = N_("Round {round}: {scores}.")
# TRANSLATORS: {game} is the history's sentence of one game ("2026-11-27 10:00: Ann won with
# 80. Ann 80, Bo 95."); {id} the number that reads it round by round
GAME_LINE = N_("Game {id}. {game}")


def ordinal(number: int) -> str:
    """A place as the language says it: 1st, 22nd, 57th in English; 1.º, 57.º in Spanish.

    why not a catalogue entry: English picks its ending by the last digits, which a
    translation template cannot; each language the game speaks has its rule here.

    >>> ordinal(1), ordinal(12), ordinal(22), ordinal(57), ordinal(1234)
    ('1st', '12th', '22nd', '57th', '1,234th')
    """
    text = format_number(number)
    if current_language() == "es":
        return f"{text}.º"
    if 10 <= number % 100 <= 20:
        return f"{text}th"
    return text + {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def record_words(
    name: str | None, rating: int, place: int, count: int, played: int, won: int
) -> str:
    """A record, yours (``name`` None) or a named player's, the rating first."""
    numbers = {
        "rating": format_number(rating),
        "place": ordinal(place),
        "count": format_number(count),
        "played": format_number(played),
        "won": format_number(won),
    }
    if name is None:
        return _(MY_RECORD).format(**numbers)
    return _(THEIR_RECORD).format(name=name, **numbers)


def leaderboard_heading(page: int, pages: int, count: int) -> str:
    return ngettext(
        "Leaderboard, page {page} of {pages}: {count} rated player.",
        "Leaderboard, page {page} of {pages}: {count} rated players.",
        count,
    ).format(page=format_number(page), pages=format_number(pages), count=format_number(count))


def leaderboard_line(place: int, name: str, rating: int, played: int, won: int) -> str:
    return _(LEADER_LINE).format(
        place=ordinal(place),
        name=name,
        rating=format_number(rating),
        played=format_number(played),
        won=format_number(won),
    )


def games_heading(name: str, page: int, pages: int, count: int) -> str:
    return ngettext(
        "Rated games of {name}, page {page} of {pages}: {count} game, the newest first.",
        "Rated games of {name}, page {page} of {pages}: {count} games, the newest first.",
        count,
    ).format(
        name=name, page=format_number(page), pages=format_number(pages), count=format_number(count)
    )


def game_line(number: str, said: str) -> str:
    """One game of a list: its number (to read it round by round) and the history's sentence."""
    return _(GAME_LINE).format(id=number, game=said)


def rating_changed(old: int, new: int, place: int, count: int) -> str:
    """What a rated player hears when their game is over, the new rating first."""
    numbers = {"rating": format_number(new), "place": ordinal(place), "count": format_number(count)}
    if new > old:
        return _(UP).format(change=format_number(new - old), **numbers)
    if new < old:
        return _(DOWN).format(change=format_number(old - new), **numbers)
    return _(SAME).format(**numbers)
