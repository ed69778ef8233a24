"""Solitaire with keys and speech, without a terminal: keys go through prompt_toolkit's own
parser into the real bindings, and a recording output backend hears what is said."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from fivecrowns.core.cards import parse_card
from fivecrowns.core.solitaire.player import BestStrategy
from fivecrowns.core.solitaire.rules import Phase, Solitaire
from fivecrowns.storage.saves import read_solitaire, save_solitaire
from fivecrowns.ui.solitaire import SOLITAIRE_ACTIONS
from solitaire_support import _small_game, all_closed_but, board, junk, missing


def test_the_start_announces_the_closed_hands_the_turned_card_and_the_focused_hand() -> None:
    with board(_small_game()) as table:
        said = table.said()
        assert said[0].startswith("Five Crowns Solitaire. Eleven hands")
        assert "Hand of 3 closed at the deal: a book of 4s." in said
        assert "Turned: 3 of spades. 3 cards left." in said
        assert said[-1] == "Hand of 5, 5s wild, left over 13 points, 1 card from closing."


def test_up_and_down_move_between_open_hands_only() -> None:
    with board(_small_game()) as table:
        mark = table.mark()
        table.press("down")
        assert table.said(mark) == ["Hand of 8, 8s wild, left over 13 points, 1 card from closing."]
        table.press("down", "down")
        said = table.said(mark)
        assert said[1].startswith("Hand of 12, Queens wild, left over")
        assert said[2].startswith("This is the last open hand.")
        table.press("up", "up", "up")
        assert table.said()[-1].startswith("This is the first open hand.")


def test_enter_puts_the_card_then_enter_discards_the_focused_card_and_the_hand_closes() -> None:
    with board(_small_game()) as table:
        table.press("down")  # the hand of 8 wants the 3 of spades
        mark = table.mark()
        table.press("enter")
        assert table.game.phase is Phase.DISCARD and table.game.target == 8
        assert table.said(mark)[0] == "3 of spades into the hand of 8. Choose the discard."
        table.press("end")  # the King of stars sorts last
        assert table.said()[-1] == "King of stars, 9 of 9"
        mark = table.mark()
        table.press("enter")
        said = table.said(mark)
        assert said[0] == "Discarded the King of stars."
        assert said[1] == "Hand of 8 closed: a book of 3s and a book of 6s."
        assert said[2] == "Turned: King of diamonds. 2 cards left."
        assert table.game.hand(8).is_closed
        assert said[-1].startswith("Hand of 12,")  # the focus moved on to an open hand
        assert "went_out" in table.backend.sounds


def test_a_whole_game_is_won_with_keys() -> None:
    with board(_small_game()) as table:
        table.press("down", "enter", "end", "enter")  # hand of 8 closes
        table.press("enter", "right", "right", "right", "right", "enter")  # King: pass it on
        assert table.game.phase is Phase.PUT and table.game.discards[-1] == parse_card("Kd")
        table.press("up", "enter")  # the hand of 5 takes its 3
        table.discard(junk(5))
        table.press("enter")  # the hand of 12 takes its 4
        table.discard(junk(12))
        assert table.game.phase is Phase.WON
        assert "You won! Every hand is closed, with 0 cards left in the stock." in table.said()
        mark = table.mark()
        table.press("enter")
        assert table.said(mark) == [
            "The game is over. Press N for a new deal, S for the score, Q or Ctrl+C to leave."
        ]
        table.press("q")
        assert table.session.wants_exit()


def test_a_game_is_lost_when_the_stock_runs_out() -> None:
    game = Solitaire.from_hands(all_closed_but(6), [parse_card("Kd")])
    with board(game) as table:
        table.press("enter", "enter")  # the focus starts on the card put in: it is passed on
        assert table.game.discards == [parse_card("Kd")]
        assert table.game.phase is Phase.LOST
        lost = [line for line in table.said() if line.startswith("The stock ran out.")]
        assert lost and "Lost, with hands 6 open." in lost[0]
        assert "game_over" in table.backend.sounds


def test_refusals_say_why_with_the_invalid_sound_and_change_nothing() -> None:
    with board(_small_game()) as table:
        before = table.game.to_json()
        table.press("z")
        assert table.said()[-1] == "Z does nothing here. Press F1 or question mark for help."
        table.press("enter")
        table.press("up")
        assert table.said()[-1].startswith("Discard a card from the hand of 5 first")
        assert table.backend.sounds.count("invalid") == 2
        assert before != table.game.to_json()  # the put happened, nothing else
        assert table.game.phase is Phase.DISCARD


def test_h_says_the_cards_shift_h_hints_and_p_the_turned_card() -> None:
    with board(_small_game()) as table:
        table.press("h")
        assert table.said()[-1].startswith("Hand of 5, 5s wild: ")
        assert "Left over: King of stars, 13 points." in table.said()[-1]
        table.press("H")
        assert table.said()[-1] == (
            "Put the 3 of spades into the hand of 5 and discard the King of stars: it closes."
        )
        assert BestStrategy().plan(table.game.view()).hand == 5
        table.press("p")
        assert table.said()[-1] == "Turned: 3 of spades, 3 cards left in the stock. Discards: 0."
        table.press("s")
        assert table.said()[-1].startswith("8 of 11 hands closed. Open: 5, 8 and 12.")


def test_history_keys_read_earlier_messages_again_in_line_mode() -> None:
    with board(_small_game(), line_mode=True) as table:
        console = table.presentation.app.output  # line mode draws nothing on the terminal
        assert console is not None
        table.press("p", "s")
        piles, status = table.said()[-2:]
        assert piles.startswith("Turned: 3 of spades") and status.startswith("8 of 11")
        lines: list[str] = []
        table.session.add_listener(lines.append)
        table.press(",")
        count = len(table.session.messages())
        assert lines == [f"{piles} {count - 1} of {count}."]  # the message before the last one
        table.press(".")
        assert lines == [f"{piles} {count - 1} of {count}.", f"{status} {count} of {count}."]


def test_help_lists_every_key_from_the_table_and_escape_opens_the_menu() -> None:
    with board(_small_game()) as table:
        table.press("f1")
        assert table.said()[-1].startswith("Help: the keys.")
        items = table.session.list_state
        assert items is not None
        labels = [label for label, _ in items.items]
        for action in SOLITAIRE_ACTIONS:
            if action.group not in ("menu", "confirm"):
                assert any(action.label in label for label in labels), action.name
        table.press("escape")
        assert table.said()[-1] == "Help closed."
        table.press("escape")
        assert table.said()[-1].startswith("Actions.")
        assert "Put the 3 of spades into the hand of 5: Enter or Space" in table.said()[-1]
        table.press("enter")  # choose the first item: the put
        assert table.game.phase is Phase.DISCARD


def test_the_game_is_saved_after_each_move_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "solitaire.json"
    with board(Solitaire.deal(seed=5), save=path) as table:
        table.press("down", "enter", "home", "enter", "enter")
        assert table.game.phase is Phase.DISCARD
        assert read_solitaire(path).to_json() == table.game.to_json()
        target = table.game.target
        table.press("q")
        assert table.said()[-1].startswith("Quit? The game stays saved for --resume.")
        table.press("y")
        assert table.session.wants_exit() and table.said()[-1] == "Saved. Goodbye."
        saved = table.game.to_json()
    resumed = read_solitaire(path)
    assert resumed.to_json() == saved
    with board(resumed, resumed=True) as table:
        assert table.said()[0].startswith("Resumed solitaire.")
        assert f"Discard a card from the hand of {target}." in table.said()
        table.press("home", "enter")
        assert table.game.phase is not Phase.DISCARD


def test_the_full_screen_shows_every_hand_and_puts_the_cursor_on_the_focus() -> None:
    with board(_small_game()) as table:
        fragments = table.session.render()
        text = "".join(fragment[1] for fragment in fragments)
        assert "Turned: 3sp (3 of spades)." in text
        for number in range(3, 14):
            assert f"{number:>2} (" in text and "wild)" in text
        assert text.count("closed") >= 8
        cursor = [i for i, f in enumerate(fragments) if f[0] == "[SetCursorPosition]"]
        assert len(cursor) == 1
        assert fragments[cursor[0] + 1][1] == sorted(table.game.hand(5).cards)[0].token


def test_the_command_refuses_resume_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    from fivecrowns.cli import main

    assert main(["solitaire", "--resume", "--seed", "3"]) == 2
    assert capsys.readouterr().err.strip() == "Give --resume or --seed, not both."


def test_junk_helper_is_the_hand_of_8s_last_card() -> None:
    assert sorted([*all_closed_but(8)[8], missing(8)])[-1] == junk(8)


def test_docs_solitaire_lists_every_key_as_the_table_has_it() -> None:
    from fivecrowns.ui.keymap import Keymap, capitalized

    doc = (Path(__file__).parents[2] / "docs" / "solitaire.md").read_text(encoding="utf-8")
    keymap = Keymap(SOLITAIRE_ACTIONS)
    for action in SOLITAIRE_ACTIONS:
        if action.group in ("menu", "confirm"):
            continue
        keys = capitalized(keymap.display_keys(action.name, shown=True)).replace("|", "\\|")
        assert f"| {keys} | {action.label} | {action.help} |" in doc, action.name


def test_the_command_without_a_terminal_is_a_sentence_and_keeps_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fivecrowns.cli import main

    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    save = tmp_path / "solitaire.json"
    save_solitaire(Solitaire.deal(5), save)
    before = save.read_bytes()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["solitaire"]) == 1  # no terminal: a run-time failure
    err = capsys.readouterr().err
    assert err.startswith("fivecrowns solitaire reads single key presses, so it needs a terminal")
    assert "Traceback" not in err
    assert save.read_bytes() == before  # the game kept for --resume was not dealt over


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (["--json"], "--json: only with --auto."),
        (["--games", "5", "--strategy", "greedy"], "--games and --strategy: only with --auto."),
    ],
)
def test_auto_options_without_auto_are_refused(
    args: list[str], sentence: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from fivecrowns.cli import main

    assert main(["solitaire", *args]) == 2
    assert capsys.readouterr().err.strip() == sentence


def test_focused_card_undo_and_a_new_deal_at_the_end() -> None:
    """Issue 10: F says the card (as in the main game), U takes back one move, N deals anew."""
    with board(_small_game()) as table:
        table.press("right", "f")
        assert re.fullmatch(r".+, 2 of \d+", table.said()[-1]), table.said()[-1]
        table.press("u")
        assert table.said()[-1] == "Nothing to undo: undo takes back your last move, once."
        before = table.game.to_json()
        table.press("down", "enter")  # put the turned card into the hand of 8
        assert table.game.to_json() != before
        table.press("u")
        assert table.said()[-1].startswith("Move taken back. ")
        assert table.game.to_json() == before
        table.press("u")
        assert table.said()[-1].startswith("Nothing to undo")
        table.press("n")
        assert table.said()[-1].startswith("A new deal comes after this game.")
        table.press("enter", "end", "enter")  # undo kept the focus on the hand of 8
        table.press("enter", "right", "right", "right", "right", "enter")
        table.press("up", "enter")
        table.discard(junk(5))
        table.press("enter")
        table.discard(junk(12))
        assert table.game.phase is Phase.WON
        mark = table.mark()
        table.press("n")
        assert table.said(mark)[0].startswith("Five Crowns Solitaire. Eleven hands")
        assert table.game.phase is Phase.PUT


def test_a_game_finished_again_after_a_kill_is_recorded_once(tmp_path: Path) -> None:
    import copy

    from fivecrowns.storage import history as game_history

    path = tmp_path / "solitaire.json"
    game = Solitaire.from_hands(all_closed_but(6), [parse_card("Kd")])
    game.game_id = "deal-1"
    with board(game, save=path) as table:
        table.press("enter")  # the King goes into the hand of 6; saved before the discard
        # what the save held when a kill came after the record, before the save was deleted
        # (this made-up deal is not two whole decks, so it is copied rather than loaded)
        before_the_end = copy.deepcopy(table.game)
        table.press("enter")  # passed on: the stock is empty, the game is lost and recorded
        assert table.game.phase is Phase.LOST and not path.exists()
    with board(before_the_end, save=path, resumed=True) as table:
        table.press("enter")
        assert table.game.phase is Phase.LOST
    assert [(game.get("id"), game["won"]) for game in game_history.read_history()] == [
        ("deal-1", False)
    ]


def test_a_saved_game_name_that_is_not_short_text_is_refused(tmp_path: Path) -> None:
    from fivecrowns.core.errors import SaveFileError
    from fivecrowns.storage.saves import load_solitaire

    path = tmp_path / "solitaire.json"
    game = Solitaire.deal(seed=5)
    game.game_id = "abc"
    save_solitaire(game, path)
    assert load_solitaire(path).game_id == "abc"
    for bad in ("x" * 65, 7, ""):
        data = game.to_json()
        data["id"] = bad
        path.write_text(json.dumps(data))
        with pytest.raises(SaveFileError):
            load_solitaire(path)


def test_solitaire_that_could_not_be_saved_says_so(tmp_path, monkeypatch) -> None:
    from fivecrowns.core.solitaire.rules import Solitaire

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with board(Solitaire.deal(seed=5), save=blocker / "data" / "solitaire.json") as b:
        b.press("q")
        assert b.said()[-1].startswith("Quit? This game is not saved: Could not save the game")
        b.press("y")
        assert b.said()[-1].endswith("This game cannot be resumed. Goodbye.")
