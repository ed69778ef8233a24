"""The solitaire board as text and braille: what it says, and `fivecrowns solitaire --export`."""

from __future__ import annotations

from pathlib import Path

import pytest

from export_support import BRF_ALLOWED, brf_pages, require_liblouis
from fivecrowns.cli import main
from fivecrowns.core.cards import parse_card
from fivecrowns.core.solitaire.rules import DiscardCard, PutCard, Solitaire
from fivecrowns.export import render
from fivecrowns.export.solitaire import board_document
from fivecrowns.storage.saves import save_solitaire
from solitaire_support import all_closed_but, junk, missing


def _text(game: Solitaire, width: int = 80) -> str:
    return render(board_document(game.view()), "text", width)


def test_the_board_shows_every_hand_the_turned_card_and_the_stock() -> None:
    game = Solitaire.from_hands(all_closed_but(5, 9), [missing(9), parse_card("Kd")])
    text = _text(game)
    assert "Turned card: 4sp. Put it into an open hand." in text
    assert "Closed: 9 of 11 hands." in text
    for number in range(3, 14):
        state = "open" if number in (5, 9) else "closed"
        assert f"Hand of {number}, " in text and f"wild, {state}." in text
    assert "Hand of 9, 9s wild, open." in text
    assert junk(9) == parse_card("Kst") and "Leftover: Kst, 13 points." in text
    assert (
        "Hand of 4, 4s wild, closed.\nCards: 3h 3c 3sp 3d.\nBook of 3s: 3h 3c 3sp 3d\n" in text
    )  # a closed hand lists its melds
    assert "1 card face down. Turned so far: 1 of 28." in text
    assert "Still in the stock, in no order: Kd." in text


def test_the_board_after_a_put_and_at_the_end() -> None:
    game = Solitaire.from_hands(all_closed_but(6), [missing(6)])
    game.apply(PutCard(6))
    assert "Discard a card from the hand of 6." in _text(game)
    assert "It holds the turned card: one card must be discarded." in _text(game)
    game.apply(DiscardCard(junk(6)))
    text = _text(game)
    assert "Won: every hand is closed." in text and "Points left: 0." in text
    assert "Discards." in text and "Kst." in text


def test_the_board_of_a_lost_game_says_so() -> None:
    game = Solitaire.from_hands(all_closed_but(6), [parse_card("Kd")])
    game.apply(PutCard(6))
    game.apply(DiscardCard(parse_card("Kd")))
    assert "Lost: the stock ran out." in _text(game)


def test_the_board_text_is_plain_ascii_within_the_width() -> None:
    text = _text(Solitaire.deal(seed=8), width=32)
    assert text.isascii()
    assert all(len(line) <= 32 for line in text.splitlines())


def test_cli_exports_a_saved_game_to_a_file(tmp_path: Path) -> None:
    game = Solitaire.deal(seed=4)
    game.apply(PutCard(13))
    save_solitaire(game, tmp_path / "s.json")
    out = tmp_path / "board.txt"
    assert (
        main(
            ["solitaire", "--export", "text", "--game", str(tmp_path / "s.json"), "--out", str(out)]
        )
        == 0
    )
    assert out.read_text(encoding="utf-8") == _text(game, 40)


def test_cli_export_never_writes_over_its_own_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "s.json"
    save_solitaire(Solitaire.deal(seed=4), saved)
    before = saved.read_bytes()
    argv = ["solitaire", "--export", "text", "--game", str(saved), "--out", str(saved)]
    assert main(argv) == 2
    assert "is the saved game itself" in capsys.readouterr().err
    assert saved.read_bytes() == before


def test_cli_export_refuses_bad_options_with_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solitaire", "--export", "text", "--width", "5"]) == 2
    assert (
        capsys.readouterr().err.strip() == "The width 5 is not allowed: choose 14 to 80 characters."
    )
    assert main(["solitaire", "--export", "text", "--game", "x.json", "--seed", "3"]) == 2
    assert capsys.readouterr().err.strip() == "Give --game SAVE.json or --seed S, not both."


def test_cli_exports_brf_and_unicode_braille(capsys: pytest.CaptureFixture[str]) -> None:
    require_liblouis()
    assert main(["solitaire", "--export", "brf", "--seed", "2"]) == 0
    brf = capsys.readouterr().out
    assert set(brf) <= BRF_ALLOWED
    assert all(len(line) <= 40 for page in brf_pages(brf) for line in page)
    assert main(["solitaire", "--export", "unicode", "--seed", "2"]) == 0
    cells = capsys.readouterr().out
    assert all(0x2800 <= ord(ch) <= 0x28FF or ch in "\n " for ch in cells)
