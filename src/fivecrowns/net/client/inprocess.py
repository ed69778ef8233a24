"""The in-process transport: a local :class:`~fivecrowns.table.Table` and no network.

``fivecrowns play`` drives its table through this link: the human seats at this
keyboard send moves to the table and hear its events exactly as a network
client would (:class:`fivecrowns.net.client.link.SeatClient`), only without a port.
What only a local table does stays here, on the table's side of the link:
pacing its computer players one move at a time, its save file (the same save
format as always, so old saves load), a new game at the same table, and the
why-key's answer for a resumed game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fivecrowns.ai.base import Player
from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.core.game import Game
from fivecrowns.core.moves import Move
from fivecrowns.core.replay import dealt_again
from fivecrowns.net.client.link import LinkError
from fivecrowns.storage.autosave import autosave_payload
from fivecrowns.table.info import answer
from fivecrowns.table.table import Table, TableError, bot_move
from fivecrowns.words.answers import why_words

__all__ = ["InProcessLink"]


def _player_id(seat: int) -> str:
    return f"local-{seat}"


class InProcessLink:
    """One local table: the :class:`~fivecrowns.net.client.link.TableLink` of local play."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[tuple[str, str | None]],
        bots: Mapping[int, Player] | None = None,
    ) -> None:
        self.seat_list = list(seats)
        self.bots: dict[int, Player] = dict(bots or {})
        self.table = Table.adopt(game, self.seat_list, self.bots)

    @property
    def game(self) -> Game:
        """The table's game: for its save file and for tests; clients never read it."""
        game = self.table.game
        assert game is not None  # an adopted table always has its game
        return game

    # --- the TableLink interface ------------------------------------------------

    def snapshot(self, seat: int) -> dict[str, Any]:
        return self.table.snapshot(seat)

    def events_since(self, seat: int, last_seq: int) -> list[dict[str, Any]]:
        return self.table.frames_since(last_seq, seat)

    def act(self, seat: int, move: Move, seq: int) -> None:
        try:
            self.table.act(_player_id(seat), move, seq)
        except TableError as error:
            raise LinkError(error.code, str(error)) from None

    # --- what only a local table does ----------------------------------------------

    def bot_due(self) -> bool:
        return self.table.bot_due() is not None

    def step_bot(self) -> str | None:
        """Play one move of the computer player whose turn it is; returns its explanation."""
        self.table.explanation = None
        self.table.step_bot()
        explanation = self.table.explanation
        return explanation[1] if explanation is not None else None

    def ask(self, seat: int, what: str) -> str:
        """An information key's question, answered by the table as the server answers it."""
        return answer(self.table, seat, what)

    def new_game(self, seed: int) -> None:
        """A new game at the same table: same seats and computer players, a new deal."""
        old = self.game
        game = Game(list(old.players), seed=seed, options=old.options)
        self.table = Table.adopt(game, self.seat_list, self.bots)

    def save_payload(self, at_keyboard: int, verbosity: str, game_id: str) -> dict[str, Any]:
        """The local save file's content (:func:`fivecrowns.storage.autosave.autosave_payload`)."""
        return autosave_payload(self.game, self.seat_list, at_keyboard, verbosity, game_id)

    def explain_last_bot_turn(self) -> str | None:
        """The why-key's answer for a resumed game: the last computer turn, replayed.

        The game is replayed from its seed and moves to just before that turn, and the
        same computer player is asked again; a move it would not make again is told plainly.
        """
        from fivecrowns.ai.explain import plain_move

        game = self.game
        moves = game.moves
        last = next((i for i in range(len(moves) - 1, -1, -1) if moves[i][0] in self.bots), None)
        if last is None:
            return None
        seat = moves[last][0]
        first = last
        while first > 0 and moves[first - 1][0] == seat:
            first -= 1
        turn = [move for _, move in moves[first : last + 1]]
        # why not Game(seed=...): a first dealer drawn from the seed deals another game
        replay = dealt_again(game)
        if replay is not None:
            try:
                for player, move in moves[:first]:
                    replay.apply(player, move)
            except FiveCrownsError:
                replay = None  # a game that does not replay: tell the moves plainly
        sentences = []
        for move in turn:
            sentence = None
            if replay is not None:
                decided, explanation = bot_move(self.bots[seat], seat, replay)
                if decided == move and explanation:
                    sentence = explanation
            if sentence is None:
                top = replay.top_discard if replay is not None else None
                sentence = plain_move(move, top)
            sentences.append(sentence)
            if replay is not None:
                try:
                    replay.apply(seat, move)
                except FiveCrownsError:
                    replay = None
        return why_words(self.seat_list[seat][0], " ".join(sentences), private=False)
