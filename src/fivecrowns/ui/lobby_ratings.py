"""The ratings keys of the ``join --keys`` lobby (issue 28): your record, a player's record,
the leaderboard and your rated games a page at a time, and one game round by round. The
server words the answers (numbers first); they come back as the link's notices, which the
lobby says as they arrive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["GAME_PROMPT", "PLAYER_PROMPT", "TYPE_GAME", "TYPE_PLAYER", "PlayerTyping", "RatingKeys"]

TYPE_PLAYER = N_("A player's record: type their name, then Enter, or Escape to cancel.")
PLAYER_PROMPT = N_("A player's record: {text}")
PLAYER_LONGEST = 24  # a name's longest (the protocol's)
TYPE_GAME = N_("One game: type its number from the list of games, then Enter, or Escape.")
GAME_PROMPT = N_("One game: {text}")
GAME_LONGEST = 48  # a game number's longest (the protocol's)


@dataclass
class PlayerTyping:
    """A line being typed, as the lobby's own (a prompt, the text, what Enter does)."""

    prompt: str
    text: str
    longest: int
    done: Callable[[str], None]


class RatingKeys:
    """A mixin of :class:`fivecrowns.ui.lobby.Lobby`: the ``_do_`` methods of its ratings keys.

    why a mixin in its own module: the lobby's keys are methods of the lobby, and the ratings
    keys stay apart from its other keys (other work changes the lobby at the same time)."""

    leaderboard_page = 0  # the page the leaderboard key asked for last (0: none yet)
    games_page = 0  # the page of your games asked for last (0: none yet)

    def _lobby(self) -> Any:
        lobby: Any = self
        lobby._in_lobby()
        return lobby

    def _do_my_record(self, key: str) -> None:
        self._lobby().link.send({"type": "record"})

    def _do_player_record(self, key: str) -> None:
        lobby = self._lobby()

        def ask(name: str) -> None:
            lobby.link.send({"type": "record", "player": name})

        lobby.list_state = None
        lobby.typing = PlayerTyping(PLAYER_PROMPT, "", PLAYER_LONGEST, ask)
        lobby.answer(_(TYPE_PLAYER))

    def _do_leaderboard(self, key: str) -> None:
        lobby = self._lobby()
        pages = int(lobby.link.leaderboard_pages)
        # why around: after the last page the key starts again with the best
        last = self.leaderboard_page
        self.leaderboard_page = last + 1 if 0 < last < pages else 1
        lobby.link.send({"type": "leaderboard", "page": self.leaderboard_page})

    def _do_my_games(self, key: str) -> None:
        lobby = self._lobby()
        pages = int(lobby.link.games_pages)
        last = self.games_page
        self.games_page = last + 1 if 0 < last < pages else 1
        lobby.link.send({"type": "games", "page": self.games_page})

    def _do_read_game(self, key: str) -> None:
        lobby = self._lobby()

        def ask(number: str) -> None:
            lobby.link.send({"type": "game", "id": number})

        lobby.list_state = None
        lobby.typing = PlayerTyping(GAME_PROMPT, "", GAME_LONGEST, ask)
        lobby.answer(_(TYPE_GAME))
