"""Local play goes through the in-process transport: a Table, seat clients, no Game in the session.

What these tests show: every move of ``fivecrowns play`` (the human's keys and the
computer players' turns) is an input of the local :class:`Table`; each human seat's
state is rebuilt from what its link sends (JSON-shaped snapshots and events), so a
link that passes everything through ``json`` plays the same game; a hot-seat seat's
client never receives another seat's stock draw; a move the table refuses is said
and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from fivecrowns.ai.loader import load_bot
from fivecrowns.core.errors import IllegalMoveError
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.moves import Discard, DrawFromStock, DrewFromStock, GoOut, Move, TakeDiscard
from fivecrowns.core.views import player_view
from fivecrowns.net.client.inprocess import InProcessLink
from fivecrowns.net.client.link import LinkError, SeatClient
from fivecrowns.ui.session import Seat
from ui_support import table


class JsonLink:
    """The in-process link, with every answer passed through JSON text as a network would."""

    def __init__(self, inner: InProcessLink) -> None:
        self.inner = inner
        self.calls = 0

    def snapshot(self, seat: int) -> dict[str, Any]:
        self.calls += 1
        result: dict[str, Any] = json.loads(json.dumps(self.inner.snapshot(seat)))
        return result

    def events_since(self, seat: int, last_seq: int) -> list[dict[str, Any]]:
        self.calls += 1
        result: list[dict[str, Any]] = json.loads(
            json.dumps(self.inner.events_since(seat, last_seq))
        )
        return result

    def act(self, seat: int, move: Move, seq: int) -> None:
        self.inner.act(seat, move, seq)


def test_every_move_of_a_local_game_is_an_input_of_its_table() -> None:
    seats = [Seat("Ann"), Seat("Ben", "easy"), Seat("Cy", "easy")]
    with table(seats, seed=11, first_dealer=2) as t:
        session = t.session
        assert session.game is session.link.table.game  # the table owns the one game
        for _ in range(30):
            if session.client.current_player != 0 or session.client.is_over:
                break
            t.press("d")
            t.press("enter")
        played = [i for i in session.link.table.inputs if i["op"] == "move"]
        assert len(played) == len(t.game.moves) > 6  # Ann's and the computers' moves
        assert {i["seat"] for i in played} == {0, 1, 2}
        # the session's view of the game is the seat's snapshot, and agrees with the table
        mine, real = session.client.view, player_view(t.game, 0)
        for name in (
            "hand", "hand_counts", "top_discard", "stock_count", "discard_count", "totals",
            "round_scores", "laid_down", "phase", "current_player", "events", "pile_history",
        ):  # fmt: skip
            assert getattr(mine, name) == getattr(real, name), name
        assert session.client.seq == session.link.table.seq


def test_a_seat_client_fed_only_json_follows_the_game_like_the_table() -> None:
    game = Game(["Ann", "Ben"], seed=5, first_dealer=1)
    link = JsonLink(InProcessLink(game, [("Ann", None), ("Ben", None)]))
    ann, ben = SeatClient(link, 0), SeatClient(link, 1)
    real = link.inner.game
    for _ in range(400):  # draw; then go out if the seat's legal moves allow it, else discard
        client = ann if real.current_player == 0 else ben
        if client.phase in (Phase.DRAW, Phase.LAST_DRAW):
            client.act(DrawFromStock())
        else:
            going_out = [move for move in client.legal if isinstance(move, GoOut)]
            client.act(going_out[0] if going_out else client.legal[0])
        ann.sync()
        ben.sync()
        for who, mine in ((0, ann), (1, ben)):
            assert sorted(mine.hand) == sorted(real.hand(who))
            assert mine.current_player == real.current_player
            assert mine.phase is real.phase
            assert mine.top_discard == real.top_discard
            assert mine.totals == tuple(real.totals)
            assert mine.view.stock_count == len(real.stock)
        if real.round > 1:
            break
    assert real.round == 2 and link.calls > 0
    assert [type(e) for e in ann.events] == [type(e) for e in real.events]


def test_a_hot_seat_client_never_receives_the_other_seats_stock_draws() -> None:
    seats = [Seat("Ann"), Seat("Ben"), Seat("Cy", "easy")]
    with table(seats, seed=3, first_dealer=2) as t:
        session = t.session
        for _ in range(12):
            if session.privacy_for is not None:
                t.press("enter")
            current = session.client.current_player
            if session.client.is_over or current == 2:
                break
            t.press("d", "enter")
        ann, ben = session.clients[0], session.clients[1]
        ann_draws = [e for e in ann.events if isinstance(e, DrewFromStock) and e.player == 0]
        assert ann_draws and all(e.card is not None for e in ann_draws)
        for seen_by, other in ((ben, 0), (ann, 1)):
            theirs = [e for e in seen_by.events if isinstance(e, DrewFromStock)]
            assert all(e.card is None for e in theirs if e.player == other)
        assert any(isinstance(e, DrewFromStock) and e.player == 0 for e in ben.events)


def test_a_move_the_table_refuses_is_said_and_changes_nothing() -> None:
    game = Game(["Ann", "Ben"], seed=2, first_dealer=1)
    link = InProcessLink(game, [("Ann", None), ("Ben", "easy")])
    ann = SeatClient(link, 0)
    before = (ann.seq, list(link.table.inputs), ann.hand)
    with pytest.raises(IllegalMoveError, match="draw"):
        ann.act(Discard(ann.hand[0]))
    with pytest.raises(LinkError, match="no seat"):
        link.act(1, TakeDiscard(), ann.seq)  # Ben's seat is a computer's: no human sits there
    assert (ann.seq, list(link.table.inputs), ann.hand) == before


def test_why_after_a_resume_explains_a_game_whose_first_dealer_the_seed_drew() -> None:
    """The why-key of a resumed game replays it from its seed: a game dealt with the first
    dealer drawn from the seed (as every new game is) is dealt again the same way, so the
    computer player's own reasons are told, not only its moves."""
    seats: list[tuple[str, str | None]] = [("Ann", "hard"), ("Ben", "hard")]
    game = Game(["Ann", "Ben"], seed=5)  # no first dealer given: the seed draws it
    link = InProcessLink(game, seats, {seat: load_bot("hard", seed=seat) for seat in (0, 1)})
    said: list[tuple[int, str | None]] = []
    for _step in range(12):
        said.append((len(game.moves), link.step_bot()))
    last_seat = game.moves[-1][0]
    first = len(game.moves) - 1
    while first > 0 and game.moves[first - 1][0] == last_seat:
        first -= 1
    expected = [text for index, text in said if index >= first]
    assert expected and all(expected)
    # a resumed game: a new link on the same game, which remembers no explanation
    again = InProcessLink(game, seats, {seat: load_bot("hard", seed=seat) for seat in (0, 1)})
    answer = again.explain_last_bot_turn()
    assert answer == f"{game.players[last_seat]}: " + " ".join(str(text) for text in expected)
