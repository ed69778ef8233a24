"""Whole games through the command layer, with keys only, against computer players; the
session's keys as a whole (ui/session/core.py): help, the review keys, capital letters, the
keys after the game.

No terminal: prompt_toolkit pipe input and a dummy output; what the player
hears comes from the output layer's RecordingBackend (STYLE practice 12).
"""

from __future__ import annotations

import re

import pytest

from fivecrowns.ai import load_bot
from fivecrowns.core.cards import spoken_name
from fivecrowns.core.game import Game, Phase
from fivecrowns.core.melds.solver import going_out_discards
from fivecrowns.core.views import player_view
from fivecrowns.output.sounds import SOUND_NAMES
from fivecrowns.storage import history as game_history
from fivecrowns.storage.autosave import autosave_path, read_autosave
from fivecrowns.storage.history import read_history
from fivecrowns.ui.session import Seat
from ui_support import Table, play_turn, table

INFO_KEYS = ["h", "H", "w", "p", "s", "m", "c", "l", "n", "y", "r", ",", ".", "<", ">", "S"]


def check_info_keys_change_nothing(t: Table) -> None:
    before = t.state()
    for key in INFO_KEYS:
        mark = len(t.spoken())
        t.press(key)
        said = t.said_since(mark)
        assert said, f"{key!r} said nothing"
        assert t.state() == before, f"{key!r} changed the game"


def check_illegal_keys(t: Table) -> None:
    """Wrong keys for the phase: a sentence, the invalid sound, no change."""
    phase = t.game.phase
    wrong = ["enter", "g"] if phase in (Phase.DRAW, Phase.LAST_DRAW) else ["d", "t"]
    before = t.state()
    for key in [*wrong, "z", "#"]:
        sounds = list(t.backend.sounds)
        mark = len(t.spoken())
        t.press(key)
        said = t.said_since(mark)
        assert len(said) == 1 and said[0].endswith("."), (key, said)
        assert t.backend.sounds == [*sounds, "invalid"], key
        assert t.state() == before, key


def play_whole_game(t: Table, checks_every: int = 7) -> int:
    turns = 0
    while not t.game.is_over:
        if t.session.next_round is not None:
            t.press("enter")  # the round's result was said: deal the next round
            continue
        assert t.game.current_player == t.session.at_keyboard
        if turns % checks_every == 0:
            check_info_keys_change_nothing(t)
            check_illegal_keys(t)
        play_turn(t)
        turns += 1
        assert turns < 2000, "the game does not end"
    return turns


@pytest.mark.slow
def test_whole_game_full_screen_against_medium_players(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    seats = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]
    with table(seats, seed=11, data_dir=tmp_path) as t:
        play_whole_game(t)
        spoken = " | ".join(t.spoken())
        screen = t.session.table()
    # Round starts with the wild rank and the hand, for all eleven rounds.
    for number, wild in [(1, "3s"), (5, "7s"), (9, "Jacks"), (11, "Kings")]:
        assert f"Round {number} of 11. {wild} are wild." in spoken
    assert len(re.findall(r"Your hand: ", spoken)) >= 11
    # Others' moves, naming the card when it came from the discard pile.
    assert re.search(r"(Ann|Ben) drew from the stock and discarded the ", spoken)
    assert re.search(r"(Ann|Ben) took the [^|]+ and discarded the ", spoken)
    assert "Your turn." in spoken
    assert re.search(r"(Ann|Ben|You) went out with ", spoken)
    assert "This is your last turn." in spoken
    assert re.search(r"Round 11 over\..*Totals: ", spoken)
    assert re.search(r"Game over\. .* Final totals: ", spoken)
    for sound in ("your_turn", "draw_stock", "discard", "went_out", "round_over", "game_over"):
        assert sound in t.backend.sounds
    # The finished game is in the history; the autosave is gone.
    history = read_history()
    assert history[-1]["players"] == ["You", "Ann", "Ben"]
    assert history[-1]["totals"] == list(t.game.totals)
    assert not autosave_path().exists()
    assert screen.status.startswith("Game over. ")  # the result stays on the screen


@pytest.mark.slow
def test_whole_game_line_mode_prints_every_message_once(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    seats = [Seat("Ann", "easy"), Seat("You"), Seat("Cy", "hard")]
    with table(seats, seed=4, line_mode=True, verbosity="brief") as t:
        play_whole_game(t, checks_every=15)
        printed = t.lines.getvalue().splitlines()
        spoken = t.spoken()
    # Every announcement is one printed line, in order (reviews print but are not re-spoken).
    assert [line for line in printed if line in spoken] == [s for s in spoken if s in printed]
    assert all(s in printed for s in spoken)
    assert "Round 1, 3s wild." in " ".join(printed)
    assert any(line.startswith("Game over.") for line in printed)


def test_autosave_after_every_move_and_quit_keeps_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=3, data_dir=tmp_path) as t:
        for _ in range(6):
            play_turn(t)
            saved = read_autosave()
            assert saved["game"]["moves"] == [
                [player, move] for player, move in read_autosave()["moves"]
            ]
            assert len(saved["moves"]) == len(t.game.moves)
        mark = len(t.spoken())
        t.press("q")
        assert "Quit?" in t.said_since(mark)[0]
        t.press("n")
        assert not t.session.wants_exit()
        t.press("q", "y")
        assert t.session.wants_exit()
    assert autosave_path().exists()


def test_menu_lists_actions_possible_now_and_runs_them() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8, first_dealer=1) as t:
        assert t.game.phase is Phase.DRAW and t.game.current_player == 0
        mark = len(t.spoken())
        t.press("escape")
        opened = t.said_since(mark)[0]
        assert opened.startswith("Actions.") and "Draw from the stock: D" in opened
        items = [item for item, _ in t.session.list_state.items]  # type: ignore[union-attr]
        assert items[1].startswith("Take the ")
        assert not any(item.startswith("Discard") for item in items)
        t.press("down")
        assert t.spoken()[-1].startswith("Take the ") and t.spoken()[-1].endswith(
            f"2 of {len(items)}"
        )
        t.press("up", "enter")  # Draw from the stock
        assert t.game.phase is Phase.DISCARD
        assert t.spoken()[-1].startswith("You drew the ")
        t.press("escape")
        items = [item for item, _ in t.session.list_state.items]  # type: ignore[union-attr]
        assert items[0].startswith("Discard the ") and not items[0].startswith("Draw")
        t.press("escape")
        assert t.spoken()[-1] == "Menu closed."


def test_help_comes_from_the_keymap_table() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8) as t:
        t.press("?")
        state = t.session.list_state
        assert state is not None
        assert state.items[0][0] == "Your turn:"
        assert ("D: Draw from the stock. Take the top card of the stock.", None) in state.items
        # the keys' last line, before the sounds and their heading (issue 30)
        t.press("end", *["up"] * (len(SOUND_NAMES) + 1))
        assert t.spoken()[-1].startswith("Caps Lock: ")
        t.press("up")
        assert "Ready" in t.spoken()[-1]
        t.press("escape")
        assert t.session.list_state is None
        t.press("f1")
        assert t.session.list_state is not None


def test_arrows_speak_card_and_place() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=21, first_dealer=1) as t:
        hand = t.session.hand()
        t.press("home")
        assert t.spoken()[-1].endswith(f", 1 of {len(hand)}")
        t.press("right")
        assert t.spoken()[-1].startswith(spoken_name(hand[1], t.game.wild_rank))
        assert t.spoken()[-1].endswith(f"2 of {len(hand)}")
        t.press("end")
        assert t.spoken()[-1].startswith(spoken_name(hand[-1], t.game.wild_rank))
        assert t.spoken()[-1].endswith(f", {len(hand)} of {len(hand)}")
        t.press("right")
        assert t.spoken()[-1].startswith(f"Last card: {spoken_name(hand[-1], t.game.wild_rank)}")
        assert t.spoken()[-1].endswith(f", {len(hand)} of {len(hand)}")
        t.press("home", "left")
        assert t.spoken()[-1].startswith(f"First card: {spoken_name(hand[0], t.game.wild_rank)}")
        assert t.spoken()[-1].endswith(f", 1 of {len(hand)}")
        t.press("3")
        assert t.spoken()[-1].endswith(f"3 of {len(hand)}")
        t.press("9")
        assert t.spoken()[-1] == f"You have only {len(hand)} cards."
        assert t.backend.sounds[-1] == "invalid"


def test_go_out_not_yet_says_how_close() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=5, first_dealer=1) as t:
        while True:
            if t.session.next_round is not None:
                t.press("enter")  # the round's result was said: deal the next round
            t.press("d")
            hand = t.session.hand()
            if not going_out_discards(hand, t.game.wild_rank):
                break
            play_turn(t)
        before = t.state()
        t.press("g")
        said = t.spoken()[-1]
        assert re.fullmatch(r"Not yet: left over would be .+, \d+ points\.", said), said
        assert t.state() == before


def test_hot_seat_privacy_screen_hides_the_hand() -> None:
    seats = [Seat("Ann"), Seat("Ben"), Seat("Cy", "medium")]
    with table(seats, seed=2, first_dealer=2) as t:
        assert t.spoken()[-1] == "Pass to Ann. Press Enter when ready."
        assert t.session.table().hand == ()
        before = t.state()
        t.press("h")
        assert t.spoken()[-1] == (
            "The hand is hidden. Press Enter when ready, F1 or question mark for help, "
            "Q or Ctrl+C to quit."
        )
        assert t.state() == before
        mark = len(t.spoken())
        t.press("enter")
        said = t.said_since(mark)
        assert said[0].startswith("Ann. Round 1 of 11. 3s are wild, and jokers. Your hand: ")
        assert said[-1].startswith("Your turn.")
        assert t.session.table().hand
        play_turn(t)
        play_turn(t)
        assert "Pass to Ben. Press Enter when ready." in t.spoken()
        assert t.session.table().hand == ()
        t.press("enter")
        assert t.session.at_keyboard == 1
        assert t.game.current_player == 1


def test_export_key_writes_files_and_says_where(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8, first_dealer=1) as t:
        before = t.state()
        t.press("e")
        said = t.spoken()[-1]
        assert t.state() == before
    folder = tmp_path / "exports"
    assert said.startswith(f"Exported the score sheet and your hand to {folder}: ")
    names = sorted(path.name for path in folder.iterdir())
    assert any(name.endswith("-scores.txt") for name in names)
    assert any(name.endswith("-hand-you.txt") for name in names)


def test_a_bug_in_an_action_is_a_sentence_not_a_crash(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8) as t:

        def broken(key: str) -> None:
            raise ZeroDivisionError("division by zero")

        monkeypatch.setattr(t.session, "_do_piles", broken)
        t.press("p")
        assert t.spoken()[-1] == (
            "Sorry, piles failed: ZeroDivisionError. "
            f"The game is saved; the details are in {tmp_path / 'errors.log'}."
        )
        assert t.backend.sounds[-1] == "invalid"
        assert "ZeroDivisionError" in (tmp_path / "errors.log").read_text()
        t.press("w")
        assert t.spoken()[-1].startswith("Round 1 of 11.")


def test_verbosity_key_cycles_and_changes_the_words() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8, first_dealer=1) as t:
        t.press("v")
        assert t.spoken()[-1] == "Verbosity full."
        t.press("d")
        play_turn(t)
        play_turn(t)  # Enter deals the next round: round 1 is over after one turn here
        assert re.search(
            r"Your turn\. Top discard: .+\. Your hand now leaves \d+ points\.", t.spoken()[-1]
        )
        t.press("v")
        assert t.spoken()[-1] == "Verbosity brief."
        t.press("d")
        play_turn(t)
        assert t.spoken()[-1] == "Your turn."
        t.press("v")
        assert t.spoken()[-1] == "Verbosity normal."


def test_focused_card_key_and_sort_keep_the_card() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=30, first_dealer=1) as t:
        t.press("d", "end")
        card = t.session.hand()[-1]
        t.press("o")
        assert t.spoken()[-1] == "Sorted by suit."
        assert t.session.hand()[t.session.focus()] == card
        t.press("f")
        assert t.spoken()[-1].startswith(card.spoken)


def test_real_event_loop_paces_computer_players_and_quits(tmp_path, monkeypatch) -> None:
    """The application's own loop reads the pipe; computer turns wait for the delay."""
    import asyncio

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from fivecrowns.ai import load_bot
    from fivecrowns.core.game import Game
    from fivecrowns.output import Output, RecordingBackend
    from fivecrowns.ui.app import Presentation
    from fivecrowns.ui.session import Session
    from fivecrowns.ui.settings import Settings

    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    backend = RecordingBackend()
    seats = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]
    game = Game([s.name for s in seats], seed=8, first_dealer=0)  # Ann and Ben move first
    session = Session(
        game,
        seats,
        Output(backend),
        Settings(delay=0.05),
        bot_loader=lambda level, index: load_bot(level, seed=index),
    )

    async def play() -> None:
        with create_pipe_input() as pipe:
            presentation = Presentation(session, line_mode=True, input=pipe, output=DummyOutput())
            session.start()
            task = asyncio.ensure_future(presentation.run_async())
            for _ in range(200):
                if game.current_player == 0:
                    break
                await asyncio.sleep(0.01)
            assert game.current_player == 0
            mark = len(backend.spoken)
            pipe.send_text("w")
            for _ in range(200):  # until the loop has read the key and the round is said
                if len(backend.spoken) > mark:
                    break
                await asyncio.sleep(0.01)
            assert backend.spoken[mark:], "W was never answered"
            pipe.send_text("q")
            for _ in range(200):  # until the quit question is asked
                if backend.spoken[-1].startswith("Quit?"):
                    break
                await asyncio.sleep(0.01)
            assert backend.spoken[-1].startswith("Quit?")
            pipe.send_text("y")
            await asyncio.wait_for(task, 5)

    asyncio.run(play())
    spoken = backend.spoken
    assert any(s.startswith("Ann ") for s in spoken) and any(s.startswith("Ben ") for s in spoken)
    assert "Round 1 of 11. 3s are wild, and jokers. 3 cards each. You dealt." in spoken
    assert spoken[-1] == "Saved. Goodbye."


def test_nothing_happens_before_the_game_starts() -> None:
    """Making the presentation (which primes prompt_toolkit's bindings) moves no one."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from fivecrowns.ai import load_bot
    from fivecrowns.core.game import Game
    from fivecrowns.output import Output, RecordingBackend
    from fivecrowns.ui.app import Presentation
    from fivecrowns.ui.session import Session

    seats = [Seat("You"), Seat("Ann", "medium")]
    game = Game([s.name for s in seats], seed=8, first_dealer=0)  # Ann moves first
    backend = RecordingBackend()
    session = Session(
        game, seats, Output(backend), bot_loader=lambda level, i: load_bot(level), autosave=False
    )
    with create_pipe_input() as pipe:
        Presentation(session, line_mode=True, input=pipe, output=DummyOutput())
    assert game.moves == [] and backend.spoken == []


def test_what_you_ask_for_interrupts_and_others_moves_queue() -> None:
    seats = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]
    with table(seats, seed=8, first_dealer=2) as t:
        t.press("w")
        t.press("d")
        play_turn(t)  # discard: Ann and Ben then move
        calls = [c for c in t.backend.calls if c.kind == "speak"]
        asked = [c for c in calls if c.text.startswith("Round 1 of 11. 3s are wild, and jokers")]
        assert asked and all(c.interrupt for c in asked)
        mine = [c for c in calls if c.text.startswith("You ")]
        assert mine and all(c.interrupt for c in mine)
        others = [c for c in calls if c.text.startswith(("Ann ", "Ben "))]
        assert others and not any(c.interrupt for c in others)


def test_information_keys_say_what_the_screen_shows() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=8, first_dealer=1) as t:
        view = player_view(t.game, 0)
        screen = t.session.table()
        t.press("c")
        assert t.spoken()[-1] == (
            f"Cards: You, 3 cards; Ann (computer, medium), 3 cards. Stock {view.stock_count}."
        )
        t.press("p")
        top = view.top_discard
        assert top is not None and screen.top_discard == top
        assert t.spoken()[-1] == (
            f"Top discard: {top.spoken}. Stock: {view.stock_count} cards. Discard pile: 1 card."
        )
        t.press("n")
        assert t.spoken()[-1] == screen.status == "Your turn: draw a card."
        t.press("s")
        assert t.spoken()[-1] == "Scores, no rounds yet: you, 0 points; Ann, 0 points."
        t.press("m")
        assert t.spoken()[-1] == "No melds laid down this round."


def test_past_games_in_the_game_say_an_unreadable_history_too() -> None:
    from fivecrowns.ui.session import Seat
    from ui_support import table

    path = game_history.history_path()
    path.mkdir(parents=True)  # a folder where the file should be
    with table([Seat("You"), Seat("Ann", "medium")], seed=3) as t:
        before = t.state()
        t.press("S")
        said = t.spoken()[-1]
        assert said.startswith(f"The history file {path} cannot be read")
        assert "No finished games yet" not in said
        assert t.state() == before


def test_review_restarts_from_the_newest_and_says_the_place() -> None:
    seats = [Seat("You"), Seat("Ann", "medium")]
    with table(seats, seed=5) as t:
        t.press("w", "p", "s")
        count = len(t.session.output.history)
        t.press(",")
        assert t.spoken()[-1].endswith(f" {count - 1} of {count}.")
        t.press(",")
        assert t.spoken()[-1].endswith(f" {count - 2} of {count}.")
        t.press("p")  # a new message: the next step back starts from it
        count = len(t.session.output.history)
        t.press(",")
        assert t.spoken()[-1].startswith("Scores")
        assert t.spoken()[-1].endswith(f" {count - 1} of {count}.")


def test_capital_letters_without_their_own_key_act_as_small_letters() -> None:
    with table([Seat("You"), Seat("Ann", "medium")], seed=5) as t:
        t.press("w")
        round_words = t.spoken()[-1]
        t.press("W")  # Caps Lock on
        assert t.spoken()[-1] == round_words
        t.press("G")  # before drawing: the same refusal as g, not "does nothing here"
        assert t.spoken()[-1] == "You must draw before you go out: press D or T."
        t.press("D")
        assert t.spoken()[-1].startswith("You drew the ")
        t.press("H")  # Shift+H keeps its own action: the hint
        assert not t.spoken()[-1].startswith(("Your hand", "4 cards"))
        t.press("f1", "end", *["up"] * (len(SOUND_NAMES) + 1))  # before the sounds
        assert t.spoken()[-1].startswith("Caps Lock: a capital letter with no key of its own")
        assert "Shift+H, Shift+R and Shift+S do their own actions" in t.spoken()[-1]


def test_game_over_keys_say_what_to_do_and_goodbye() -> None:
    game = Game(["You", "Ann"], seed=3)
    bot = load_bot("easy", seed=1)
    while not game.is_over:
        seat = game.current_player
        game.apply(seat, bot.decide(player_view(game, seat)).move)
    with table([Seat("You"), Seat("Ann", "medium")], seed=3, game=game) as t:
        t.press("d")
        assert t.spoken()[-1] == (
            "The game is over. Press N for a new game, S for scores, Q or Ctrl+C to leave."
        )
        t.press("q")
        assert t.spoken()[-1] == "Goodbye."
        assert t.session.wants_exit()
