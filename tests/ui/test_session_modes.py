"""Where the session's game is (ui/session/modes.py): a seat at a network table
(``fivecrowns join --keys``) against a real server, watching one (a spectator who comes
mid-game), and local play, whose quit says when the game could not be saved (issue 16 item
5: never "Saved. Goodbye." when nothing was saved).

Between rounds the server deals at once, so the client tells the new round right after
the last one's result, with no "press Enter to deal" pause; another human player's turn
is said once; Y tells the last computer player's moves as the server words them (never
its cards); help and the after-game tips fit a network seat; Shift+S says where past
games are kept.
"""

from __future__ import annotations

import errno
import re
import time
from pathlib import Path

import pytest

from fivecrowns.core.cards import parse_card, spoken_name
from fivecrowns.core.game import Phase
from fivecrowns.output import Output, RecordingBackend
from fivecrowns.storage import autosave as storage
from fivecrowns.ui.session import (
    ROUND_BEFORE_WATCHING,
    WATCHING_NO_HAND,
    Seat,
    Session,
)
from fivecrowns.ui.settings import Settings
from fivecrowns.words import answers
from join_support import (
    Player,
    play_to_round_2,
    start_with_an_easy_computer,
)
from server_support import FAST, RecordingLink, ServerProcess, no_leaks, solver_turn
from ui_support import table

DRAWS = (Phase.DRAW, Phase.LAST_DRAW)


def _seated_with_a_computer(server: ServerProcess, name: str = "Ann") -> tuple[Player, Session]:
    """``name`` at a new table of two seats with an easy computer player, the game started."""
    player = Player(server.url, name)
    return player, start_with_an_easy_computer(player)


def _my_turn(game: Session) -> bool:
    client = game.client
    return not client.is_over and client.current_player == game.at_keyboard


def _until_round(player: Player, game: Session, number: int, timeout: float = 120) -> None:
    """Play (D, Home, Enter: draw, discard the first card) until it is the player's turn to
    draw in round ``number``; never presses Enter between rounds."""
    deadline = time.monotonic() + timeout
    for _ in range(100_000):
        assert time.monotonic() < deadline, f"round {number} did not come:\n{player.said()[-2000:]}"
        player.play.news()
        client = game.client
        if client.round == number and _my_turn(game) and client.phase in DRAWS:
            return
        if client.round < number and _my_turn(game):
            player.keys("d", "home", "c-m")
        else:
            player.link.wait_for(lambda: False, 0.01)


def test_the_next_round_is_told_at_once_after_the_result_with_no_pause(
    server: ServerProcess,
) -> None:
    ann, game = _seated_with_a_computer(server)
    try:
        mark = ann.mark()
        _until_round(ann, game, 2)
        said = ann.backend.spoken[mark:]
        assert not any("deal it" in line for line in said), said
        assert game.next_round is None
        over = [i for i, line in enumerate(said) if line.startswith("Round 1 over.")]
        started = [i for i, line in enumerate(said) if line.startswith("Round 2 of 11.")]
        assert len(over) == 1 and len(started) == 1, said
        # the result, then the new round, then its moves, in order; each once
        assert over[0] < started[0]
        assert "Your hand" in said[started[0]] or "Your hand" in said[started[0] + 1]
        # your turn is said once (the computer may have gone out first: your last turn)
        yours = ("Your turn", "This is your last turn")
        assert sum(line.startswith(yours) for line in said[started[0] :]) == 1, said
        # N and the screen tell the round being played
        ann.keys("n")
        status = answers.turn_words(game.client.phase, None)
        assert ann.backend.spoken[-1] == status
        assert game.table().status == status
        ann.keys("d")
        assert ann.backend.spoken[-1].startswith("You drew the ")
    finally:
        ann.close()


def test_another_human_players_turn_is_said_once_and_queued(server: ServerProcess) -> None:
    ann = Player(server.url, "Ann")
    ben = Player(server.url, "Ben")
    try:
        ann.link.send({"type": "create_table", "seats": 3, "bots": ["easy"], "private": False})
        ann.wait(r"You sit in seat 1 at table")
        assert ann.link.table is not None
        ben.link.send({"type": "join", "table": ann.link.table})
        ben.wait(r"You sit in seat \d at table")
        ann.keys("s")
        ann.wait(r"New game: ")
        ben.wait(r"New game: ")
        assert ben.link.seat is not None
        players = {0: ann, ben.link.seat: ben}
        games = {seat: player.play.game for seat, player in players.items()}
        names = {0: "Ann", ben.link.seat: "Ben"}
        turns = 0
        deadline = time.monotonic() + 60
        while turns < 6:  # three turns each: draw, discard the first card
            assert time.monotonic() < deadline, ann.said()[-2000:]
            for seat, player in players.items():
                player.play.news()
                game = games[seat]
                assert game is not None
                if _my_turn(game) and game.client.phase in (Phase.DRAW, Phase.LAST_DRAW):
                    # the other player takes their news between this turn's start and its
                    # moves, as a waiting player would (else, under load, the start and the
                    # moves came in one batch every time and the turn was rightly not said)
                    (other,) = (p for s, p in players.items() if s != seat)
                    began = player.link.last_seq()  # the turn's start (or its round's deal)
                    assert other.link.wait_for(lambda o=other, b=began: o.link.last_seq() >= b, 10)
                    other.play.news()
                    player.keys("d", "home", "c-m")
                    turns += 1
            ann.link.wait_for(lambda: False, 0.01)
        for seat, player in players.items():
            player.play.news()
            (other_seat,) = set(players) - {seat}
            other = names[other_seat]
            said = [c for c in player.backend.calls if c.kind == "speak"]
            told = [c for c in said if c.text == f"{other}'s turn."]
            started = [
                f
                for f in player.link.frames
                if f["kind"] == "turn_started" and f["data"]["player"] == other_seat
            ]
            # at most once for each of their turns (not when their moves came with it: they
            # are told), queued: never cutting off what was being said
            assert 1 <= len(told) <= len(started), [c.text for c in said]
            assert not any(c.interrupt for c in told)
            # the computer player's turns are not announced: its moves are told right after
            game = games[seat]
            assert game is not None
            computer = next(s.name for s in game.seats if not s.human)
            unsaid = (f"{computer}'s turn.", f"{names[seat]}'s turn.")
            assert not any(c.text in unsaid for c in said)
    finally:
        ann.close()
        ben.close()


_CARD_NAME = re.compile(
    r"\b(joker|(?:\d+|Jack|Queen|King) of (?:clubs|diamonds|hearts|spades|stars))"
)


def test_why_tells_the_last_computer_players_moves_from_the_server_and_never_its_cards(
    server: ServerProcess,
) -> None:
    ann, game = _seated_with_a_computer(server)
    try:
        computer = next(seat.name for seat in game.seats if not seat.human)
        said_any = 0
        deadline = time.monotonic() + 120
        for _ in range(100_000):
            assert time.monotonic() < deadline, ann.said()[-2000:]
            ann.play.news()
            if game.client.is_over or said_any >= 3:
                break
            if not (_my_turn(game) and game.client.phase in (Phase.DRAW, Phase.LAST_DRAW)):
                ann.link.wait_for(lambda: False, 0.01)
                continue
            ann.keys("y")
            answer = ann.backend.spoken[-1]
            moved = [f for f in ann.link.frames if f["data"].get("player") == 1]
            if not any(f["kind"] in ("discarded", "went_out") for f in moved):
                assert answer == "No computer player has moved yet."
            else:
                said_any += 1
                assert answer.startswith(f"{computer}: Drew from the stock.") or answer.startswith(
                    f"{computer}: Took "
                ), answer
                assert "reasons stay private" in answer
                # the cards it names are those everyone saw: taken or discarded in the open
                public = {
                    spoken_name(parse_card(f["data"]["card"]))
                    for f in moved
                    if f["kind"] in ("took_discard", "discarded") and f["data"].get("card")
                } | {
                    spoken_name(parse_card(f["data"]["discard"]))
                    for f in moved
                    if f["kind"] == "went_out"
                }
                for name in _CARD_NAME.findall(answer):
                    assert any(name in card for card in public), (name, answer, public)
            ann.keys("d", "home", "c-m")
        assert said_any >= 3
    finally:
        ann.close()


def _remote_over_inprocess() -> tuple[Session, RecordingBackend]:
    """Ann's seat reached through a table link, as at a network table (no local game here):
    the in-process transport stands in for the server, with an easy computer player."""
    from fivecrowns.ai import load_bot
    from fivecrowns.core.game import Game
    from fivecrowns.net.client.inprocess import InProcessLink

    game = Game(["Ann", "Ben"], seed=4, first_dealer=1)
    link = InProcessLink(game, [("Ann", None), ("Ben", "easy")], {1: load_bot("easy", 1)})
    backend = RecordingBackend()
    seats = [Seat("Ann"), Seat("Ben", "easy")]
    session = Session(
        None, seats, Output(backend), Settings(delay=0.0), remote=(link, 0), autosave=False
    )
    session.start()
    return session, backend


def _help(session: Session) -> list[str]:
    session.press("f1")
    assert session.list_state is not None
    lines = [label for label, _ in session.list_state.items]
    session.press("escape")
    return lines


def test_help_and_the_tips_fit_a_network_seat() -> None:
    session, backend = _remote_over_inprocess()
    lines = _help(session)
    quit_help = (
        "Quit. Leave the table, back to the lobby; during the game a computer player takes "
        "your seat."
    )
    assert any(line.endswith(quit_help) for line in lines), lines
    assert not any("--resume" in line or "privacy screen" in line for line in lines), lines
    assert not any(line.startswith("Enter: Ready.") for line in lines), lines
    # past games: kept by the server, not this computer's history
    session.press("S")
    assert backend.spoken[-1] == (
        "At a network table, past games are kept by the server and cannot be heard here."
    )
    # to the end of the game, with the keys: no pause between rounds at a network table
    for _ in range(5000):
        if session.client.is_over:
            break
        assert session.next_round is None
        if session.bot_due():
            session.step_bot()
        elif session.client.current_player == 0:
            solver_turn(session)
    assert session.client.is_over
    # not the table's creator: N cannot start a new game, so it is not offered
    after = (
        "Press S for scores, Q or Ctrl+C to leave. The player who made the table can start "
        "a new game."
    )
    assert backend.spoken[-1] == after
    assert "Press N for a new game" not in "\n".join(backend.spoken)
    session.press("H")
    assert backend.spoken[-1] == f"The game is over. {after}"


def test_a_spectators_help_says_q_stops_watching(server: ServerProcess) -> None:
    ann, _game = _seated_with_a_computer(server)
    eve = Player(server.url, "Eve")
    try:
        assert ann.link.table is not None
        eve.link.send({"type": "watch", "table": ann.link.table})
        eve.wait(r"New game: |You are watching")
        for _ in range(500):
            eve.play.news()
            if eve.play.game is not None:
                break
            eve.link.wait_for(lambda: False, 0.01)
        watching = eve.play.game
        assert watching is not None and watching.watching
        lines = _help(watching)
        assert any(line.endswith("Quit. Stop watching, back to the lobby.") for line in lines)
        assert not any("--resume" in line or "privacy screen" in line for line in lines)
        eve.keys("S")
        assert eve.backend.spoken[-1].startswith("At a network table, past games are kept")
    finally:
        eve.close()
        ann.close()


# A spectator who comes mid-game (playtest items 10 and 18): it first hears where the game
# stands (the round, the wild rank, whose turn, the top discard, the scores), not "New game";
# B tells the last round played before it came; the hand keys say it has no hand, and the
# screen shows no empty hand.
def test_a_spectator_who_comes_in_round_2_hears_where_the_game_stands(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST, "--grace", "30").start()
    ann: Player | None = None
    sam: Player | None = None
    try:
        ann = Player(server.url, "Ann")
        game = play_to_round_2(ann)
        totals = game.client.totals
        watcher = RecordingLink(server.url, "Sam")
        sam = Player(server.url, "Sam", link=watcher)
        sam.wait(r"Table \S+, round 2")
        sam.keys("w")
        sam.wait(r"You are watching table")
        first = sam.wait(r"You are watching a game in progress: .+").group(0)
        said = sam.said()
        assert "New game" not in said
        assert "Round 2 of 11. 4s are wild" in first, first
        # why "last": the computer player may have gone out while Sam was coming in
        sam.wait(r"'s (last )?turn")
        sam.wait(r"Scores, after 1 round")
        mark = sam.mark()
        sam.keys("b")
        answer = sam.said_since(mark)
        names = [seat.name for seat in game.seats]
        assert answer.startswith("Round 1 ended before you began watching: "), answer
        assert ROUND_BEFORE_WATCHING.split("{")[0] in answer
        for name, total in zip(names, totals, strict=True):
            assert f"{name} {total}" in answer, (answer, totals)
        for key in ("o", "f", "1", "right", "h"):
            mark = sam.mark()
            sam.keys(key)
            assert sam.said_since(mark) == WATCHING_NO_HAND, (key, sam.said_since(mark))
        screen = "".join(text for _style, text in sam.play.render(100, 40))
        assert "Your hand" not in screen and "You's hand" not in screen, screen
        assert "you have no hand" in screen, screen
        no_leaks(None, watcher.received)
    finally:
        for player in (ann, sam):
            if player is not None:
                player.close()
        errors = server.stop()
    assert "Traceback" not in errors, errors


def _unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(blocker / "data"))
    return blocker / "data"


def test_quitting_a_game_that_could_not_be_saved_says_so(tmp_path, monkeypatch) -> None:
    folder = _unwritable(tmp_path, monkeypatch)
    seats = [Seat("You"), Seat("Ann", "easy")]
    with table(seats, 3, data_dir=folder) as t:
        t.press("q")
        question = t.spoken()[-1]
        assert question.startswith("Quit? This game is not saved: the game could not be written")
        assert str(folder) in question and "Quitting loses it." in question
        t.press("y")
        goodbye = t.spoken()[-1]
        assert goodbye.startswith("Not saved: the game could not be written to")
        assert goodbye.endswith("This game cannot be resumed. Goodbye.")
        assert "Saved. Goodbye." not in t.spoken()


def test_a_full_disk_is_told_and_a_later_save_clears_it(tmp_path, monkeypatch) -> None:
    real = storage.write_autosave

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "write_autosave", full)
    seats = [Seat("You"), Seat("Ann", "easy")]
    with table(seats, 3, data_dir=tmp_path / "data") as t:
        t.session.save_now()
        t.press("q")
        assert "(No space left on device)" in t.spoken()[-1]
        t.press("n")
        monkeypatch.setattr(storage, "write_autosave", real)
        t.session.save_now()
        t.press("q", "y")
        assert t.spoken()[-1] == "Saved. Goodbye."
