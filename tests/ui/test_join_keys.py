"""The terminal session of local play at a network table: ``fivecrowns join --keys``.

A real server process on loopback; two players, each a :class:`Session` over its
own :class:`WebSocketLink`, play a whole game against a computer player with the
same keys as local play. One connection is cut mid-game and comes back by itself.
Checked: both hear the game to its end with the same totals; each link received
every event exactly once and in order (nothing missed or said twice); and no
frame or sentence a player received carries another seat's stock draw or hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from fivecrowns.core.cards import parse_card, spoken_name
from fivecrowns.core.errors import IllegalMoveError
from fivecrowns.core.game import Phase
from fivecrowns.core.moves import Discard
from fivecrowns.net.client.link import LinkError
from fivecrowns.net.client.websocket import WebSocketLink
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.table.info import review
from fivecrowns.ui.session import AFTER_GAME_GUEST, Seat, Session
from fivecrowns.ui.settings import Settings
from server_support import RecordingLink, ServerProcess, no_leaks, replayed, solver_turn

Recording = RecordingLink


def _session(link: WebSocketLink, seat: int) -> tuple[Session, RecordingBackend]:
    shot = link.snapshot(seat)
    seats = [
        Seat(info["name"], info["level"] if info["kind"] == "bot" else None)
        for info in shot["seats"]
    ]
    backend = RecordingBackend()
    session = Session(
        None, seats, Output(backend), Settings(delay=0.0), remote=(link, seat), autosave=False
    )
    session.start()
    return session, backend


def _cut(link: WebSocketLink) -> None:
    """Drop the connection as a network would (the link takes it up again by itself)."""
    ws = link.connection.ws
    assert link._loop is not None and ws is not None
    asyncio.run_coroutine_threadsafe(ws.close(), link._loop).result(5)


def test_two_players_with_the_keys_of_local_play_finish_a_game_and_nothing_leaks(
    server: ServerProcess,
) -> None:
    ann, ben = Recording(server.url, "Ann"), Recording(server.url, "Ben")
    ann.connect([{"type": "create_table", "seats": 3, "bots": ["easy"], "private": False}])
    assert ann.wait_for(lambda: ann.table is not None) and ann.seat == 0
    ben.connect([{"type": "join", "table": ann.table}])
    assert ben.wait_for(lambda: ben.seat is not None)
    ann.send({"type": "start"})
    for link in (ann, ben):
        assert link.wait_for(
            lambda link=link: bool(link.last_snapshot and link.last_snapshot["view"])
        )
    ben_seat = ben.seat
    assert ben_seat is not None
    sessions = {0: _session(ann, 0), ben_seat: _session(ben, ben_seat)}
    links: dict[int, Recording] = {0: ann, ben_seat: ben}
    cut = False
    deadline = time.monotonic() + 240
    steps = 0
    while not all(s.client.is_over for s, _ in sessions.values()):
        assert time.monotonic() < deadline, "the game did not end in time"
        steps += 1
        assert steps < 20_000
        for seat, (session, _) in sessions.items():
            # why suppress: while the cut link is offline its news raises at once (join
            # --keys' controller suppresses it the same way); the link reconnects by itself
            with contextlib.suppress(LinkError):
                session.receive_news()
            client = session.client
            if client.is_over:
                continue
            if client.current_player == seat:
                solver_turn(session)
        if not cut and sessions[0][0].client.round == 3:
            _cut(ann)  # mid-game: Ann's connection drops and comes back by itself
            cut = True
        time.sleep(0.002)
    assert cut
    (ann_session, ann_heard), (ben_session, ben_heard) = sessions[0], sessions[ben_seat]
    assert ann_session.client.totals == ben_session.client.totals
    assert any("You drew the" in line for line in ann_heard.spoken)
    assert any(line.startswith("Game over") or "won" in line for line in ann_heard.spoken)
    for seat, link in links.items():
        seqs = [int(frame["seq"]) for frame in link.frames]
        # from the first event after sitting down (the snapshot covered those before), every
        # event once, in order, across the cut connection
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seat
        first_shot = next(m for m in link.received if m.get("type") == "snapshot")
        assert seqs[0] <= int(first_shot["seq"]) + 1
        _no_leaks(seat, link)
    # the same stock draw: the drawer saw the card, the other player did not
    by_seq = {int(f["seq"]): f for f in ben.frames}
    drawn = [f for f in ann.frames if f["kind"] == "drew_from_stock" and f["data"]["player"] == 0]
    assert drawn and all(f["data"]["card"] for f in drawn)
    assert all(by_seq[int(f["seq"])]["data"]["card"] is None for f in drawn)
    ann_cards = {spoken_name(parse_card(f["data"]["card"])) for f in drawn}
    assert not any(
        f"Ann drew the {card}" in line for card in ann_cards for line in ben_heard.spoken
    )
    # after the game only the table's creator is offered a new game (the server would refuse
    # anyone else): Ben's menu has no such item, and his N tells the result and who may deal
    _menu_after_the_game_offers_a_new_game_only_to_the_creator(ann_session, ben_session, ben)
    keys = ben_session.keymap.display_keys
    assert ben_heard.spoken[-1] == AFTER_GAME_GUEST.format(scores=keys("scores"), quit=keys("quit"))
    # the review key asks the server, which words it as local play's table does
    assert server.data is not None and ann.table is not None
    truth = replayed(server.data, ann.table).game
    assert truth is not None
    for seat, (session, heard) in sessions.items():
        session.press("R")
        assert heard.spoken[-1] == review(truth, seat), seat
    for link in (ann, ben):
        link.close()


def _menu_labels(session: Session) -> list[str]:
    session.press("escape")
    assert session.list_state is not None and session.list_state.kind == "menu"
    labels = [label for label, _ in session.list_state.items]
    session.press("escape")
    assert session.list_state is None
    return labels


def _menu_after_the_game_offers_a_new_game_only_to_the_creator(
    creator: Session, guest: Session, guest_link: WebSocketLink
) -> None:
    assert any(label.startswith("New game, same players") for label in _menu_labels(creator))
    labels = _menu_labels(guest)
    assert not any(label.startswith("New game") for label in labels), labels
    assert any(label.startswith("Whose turn") for label in labels), labels
    asked: list[str] = []
    guest_link.new_game = lambda: asked.append("new_game")  # type: ignore[method-assign]
    guest.press("n")
    assert asked == []  # the guest's N never asks the server for a new game


def _no_leaks(seat: int, link: Recording) -> None:
    no_leaks(seat, link.received)


def test_a_refused_move_is_the_servers_sentence_and_quitting_leaves_the_seat(
    server: ServerProcess,
) -> None:
    ann = Recording(server.url, "Ann")
    ann.connect([{"type": "create_table", "seats": 2, "bots": ["easy"], "private": False}])
    assert ann.wait_for(lambda: ann.seat == 0)
    ann.send({"type": "start"})
    assert ann.wait_for(lambda: bool(ann.last_snapshot and ann.last_snapshot["view"]))
    session, heard = _session(ann, 0)
    for _ in range(500):  # until it is Ann's turn to draw (the computer may move first)
        session.receive_news()
        if session.client.current_player == 0 and session.client.phase is Phase.DRAW:
            break
        time.sleep(0.01)
    client = session.client
    before = (client.seq, client.hand, ann.last_seq())
    card = client.hand[0]
    with pytest.raises(IllegalMoveError, match="draw"):  # the server's own sentence
        client.act(Discard(card))
    # why a question: the server answers in order, so whatever the refused move caused
    # would have come before this answer
    ann.ask("round")
    session.receive_news()
    assert (client.seq, client.hand, ann.last_seq()) == before
    session.press("q")
    assert "a computer player takes your seat" in heard.spoken[-1]
    session.press("y")
    # why no goodbye here: join --keys goes back to the lobby, which says where you are
    assert heard.spoken[-1].startswith("Quit? You leave the table")
    assert session.wants_exit() and ann.seat is None and ann.table is None
    ann.close()


def test_chat_with_the_slash_key_reaches_everyone_at_the_table(server: ServerProcess) -> None:
    ann, ben = Recording(server.url, "Ann"), Recording(server.url, "Ben")
    ann.connect([{"type": "create_table", "seats": 3, "bots": ["easy"], "private": False}])
    assert ann.wait_for(lambda: ann.table is not None)
    ben.connect([{"type": "join", "table": ann.table}])
    assert ben.wait_for(lambda: ben.seat is not None)
    ann.send({"type": "start"})
    for link in (ann, ben):
        assert link.wait_for(
            lambda link=link: bool(link.last_snapshot and link.last_snapshot["view"])
        )
    assert ben.seat is not None
    (ann_session, ann_heard), (ben_session, ben_heard) = _session(ann, 0), _session(ben, ben.seat)
    ann_session.press("/")
    assert ann_heard.spoken[-1].startswith("Say to the table")
    assert ann_session.table().overlay is not None  # the full screen shows the line typed
    for key in "Hello Ben!x":
        ann_session.press(key)
    ann_session.press("c-h")  # Backspace takes the x back
    ann_session.press("c-m")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "Ann says: Hello Ben!" not in ben_heard.spoken:
        ben_session.receive_news()
        ann_session.receive_news()
        time.sleep(0.02)
    assert "Ann says: Hello Ben!" in ben_heard.spoken
    assert ann_session.chat_line is None and ann_session.table().overlay is None
    for link in (ann, ben):
        link.close()
