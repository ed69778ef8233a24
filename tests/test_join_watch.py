"""A spectator who comes mid-game (playtest items 10 and 18): it first hears where the game
stands (the round, the wild rank, whose turn, the top discard, the scores), not "New game";
B tells the last round played before it came; the hand keys say it has no hand, and the
screen shows no empty hand."""

from __future__ import annotations

from pathlib import Path

from fivecrowns.ui.session import ROUND_BEFORE_WATCHING, WATCHING_NO_HAND
from join_support import Player, play_to_round_2
from server_support import FAST, RecordingLink, ServerProcess, no_leaks


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
