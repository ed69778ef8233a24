"""Solitaire reads the main game's settings file (key bindings, verbosity), offers every
move in its action menu, and adds finished games to the past games."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from fivecrowns.cli import main
from fivecrowns.core.cards import parse_card
from fivecrowns.core.solitaire.rules import Phase, Solitaire
from fivecrowns.storage.history import append_history, read_history
from fivecrowns.ui.settings import Settings, load_settings
from solitaire_support import _small_game, all_closed_but, board, junk


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path / "config"))


def write_settings(tmp_path: Path, data: object) -> Settings:
    folder = tmp_path / "config"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(data), encoding="utf-8")
    return load_settings()


def test_the_keys_table_rebinds_solitaire_actions_and_skips_main_game_names(
    tmp_path: Path,
) -> None:
    settings = write_settings(
        tmp_path,
        {"keys": {"next_hand": ["Down", "j"], "hint": "F2", "draw": "F5", "nonsense": "z"}},
    )
    with board(_small_game(), settings=settings) as table:
        said = table.said()
        # The unknown name is a sentence; "draw" belongs to the main game and is left to it.
        assert any(line.startswith("There is no action called 'nonsense'") for line in said)
        assert not any("'draw'" in line for line in said)
        mark = table.mark()
        table.press("j")
        assert table.said(mark) == ["Hand of 8, 8s wild, left over 13 points, 1 card from closing."]
        table.press("h")
        plain = table.said()[-1]
        table.press("H")  # the hint moved to F2: Shift+H is now the plain h (Caps Lock)
        assert table.said()[-1] == plain
        assert not plain.startswith("Put the ")
        before = table.game.to_json()
        table.press("\x1bOQ")  # F2
        assert table.said()[-1].startswith("Put the 3 of spades into the hand of ")
        assert table.game.to_json() == before
        table.press("f1")
        labels = [label for label, _ in table.session.list_state.items]  # type: ignore[union-attr]
        assert "F2: Hint. Where the best strategy would put the card, and why." in labels
        assert any(label.startswith("Down or J: Next hand.") for label in labels)


def test_a_solitaire_only_name_does_not_trouble_the_main_game(tmp_path: Path) -> None:
    settings = write_settings(tmp_path, {"keys": {"next_hand": "j", "draw": "F5"}})
    assert settings.problems == []
    assert settings.keymap.action_for("f5") is not None
    assert settings.keymap.action_for("f5").name == "draw"  # type: ignore[union-attr]


def test_a_clash_only_in_solitaire_is_said_in_solitaire(tmp_path: Path) -> None:
    settings = write_settings(tmp_path, {"keys": {"hint": "k"}})  # K is the stock in solitaire
    assert settings.problems == []  # the main game has no K
    with board(_small_game(), settings=settings) as table:
        assert any(line.startswith("K already does 'stock_cards'") for line in table.said())
        table.press("H")
        assert table.said()[-1].startswith("Put the 3 of spades")


def test_verbosity_from_the_settings_file_and_the_v_key(tmp_path: Path) -> None:
    settings = write_settings(tmp_path, {"play": {"verbosity": "brief"}})
    with board(_small_game(), settings=settings) as table:
        said = table.said()
        assert "Turned: 3 of spades." in said
        assert said[-1] == "Hand of 5, 5s wild, left over 13 points."
        table.press("v")
        assert table.said()[-1] == "Verbosity normal."
        table.press("down")
        assert table.said()[-1] == "Hand of 8, 8s wild, left over 13 points, 1 card from closing."
        table.press("v")
        assert table.said()[-1] == "Verbosity full."
        table.press("up")
        cards = table.said()[-1]
        assert cards.startswith("Hand of 5, 5s wild, left over 13 points, 1 card from closing: ")
        assert cards.count(" of ") >= 4


def test_the_menu_puts_into_any_open_hand_and_discards_any_card() -> None:
    with board(_small_game()) as table:
        table.press("escape")
        labels = [label for label, _ in table.session.list_state.items]  # type: ignore[union-attr]
        puts = [label for label in labels if label.startswith("Put the 3 of spades")]
        assert puts == [
            "Put the 3 of spades into the hand of 5: Enter or Space",
            "Put the 3 of spades into the hand of 8",
            "Put the 3 of spades into the hand of 12",
        ]
        table.press("down", "enter")  # the hand of 8, not the focused hand of 5
        assert table.game.phase is Phase.DISCARD and table.game.target == 8
        hand = sorted(table.game.hand(8).cards)
        table.press("escape")
        labels = [label for label, _ in table.session.list_state.items]  # type: ignore[union-attr]
        discards = [label.split(":")[0] for label in labels if label.startswith("Discard the ")]
        assert len(discards) == len(dict.fromkeys(hand))
        wanted = junk(8)
        index = next(i for i, label in enumerate(labels) if wanted.spoken in label)
        table.press("home", *["down"] * index, "enter")
        assert table.game.discards[-1] == wanted and table.game.hand(8).is_closed


def test_a_won_and_a_lost_game_go_into_the_past_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    append_history(["You", "Ann"], [40, 90])
    save = tmp_path / "solitaire.json"
    with board(_small_game(), save=save) as table:
        table.press("down", "enter", "end", "enter")  # hand of 8 closes
        table.press("enter", "right", "right", "right", "right", "enter")  # King passed on
        table.press("up", "enter")
        table.discard(junk(5))
        table.press("enter")
        table.discard(junk(12))
        assert table.game.phase is Phase.WON
        table.press("enter")  # a key after the end records nothing more
    lost = Solitaire.from_hands(all_closed_but(6), [parse_card("Kd")])
    with board(lost, save=save) as table:
        table.press("enter", "enter")
        assert table.game.phase is Phase.LOST
        points = table.game.points_left()
        table.press("S")
        heard = table.said()[-1]
    records = read_history()
    assert [record.get("game") for record in records] == [None, "solitaire", "solitaire"]
    assert [record.get("won") for record in records[1:]] == [True, False]
    assert records[2]["points_left"] == points > 0
    # Newest first, solitaire told apart from the main game.
    assert heard.split(": ", 1)[1].startswith(f"Solitaire lost, {points} points left.")
    assert "Solitaire won, 0 points left." in heard and "You won with 40." in heard
    assert main(["history"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"Solitaire lost, {points} points left.")
    assert out[1].endswith("Solitaire won, 0 points left.")
    assert out[2].endswith("You won with 40. You 40, Ann 90.")
    assert out[3].startswith("3 finished games in all")


def test_a_finished_game_loaded_again_is_not_recorded_twice(tmp_path: Path) -> None:
    game = Solitaire.from_hands(all_closed_but(6), [parse_card("Kd")])
    with board(game, save=tmp_path / "s.json") as table:
        table.press("enter", "enter")
        assert table.game.phase is Phase.LOST
    finished = copy.deepcopy(table.game)  # (the test deal has more copies than a save allows)
    with board(finished, save=tmp_path / "s.json") as table:
        table.press("enter", "q")
        assert table.session.wants_exit()
    assert len(read_history()) == 1


def test_the_quit_question_is_shown_once_on_the_solitaire_screen() -> None:
    from fivecrowns.ui.solitaire import render_board

    with board(_small_game()) as table:
        table.press("q")
        screen = "".join(text for _, text in render_board(table.session))
        assert screen.count("Quit? The game stays saved") == 1
        table.press("n")
        screen = "".join(text for _, text in render_board(table.session))
        assert "Quit?" not in screen and screen.count("Back to the game.") == 1
