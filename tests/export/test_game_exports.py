"""Exports of a real seeded game: golden files, widths, BRF pages, back-translation, scores.

Golden files live in tests/support/golden/export/. When the game, the solver or the
computer player changes on purpose, regenerate them and review the diff:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/export/test_game_exports.py
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from export_support import (
    BRF_ALLOWED,
    brf_pages,
    hide_liblouis,
    hide_louis_module,
    require_liblouis,
    words,
)
from fivecrowns.ai.simple import SimplePlayer
from fivecrowns.cli import main
from fivecrowns.commands.export import SEED_NAMES, build_document, play_seeded_game
from fivecrowns.core.cards import JOKER, format_cards
from fivecrowns.core.codec import move_to_json
from fivecrowns.core.game import Game
from fivecrowns.core.melds.solver import best_arrangement, best_with_discard
from fivecrowns.core.moves import DrawFromStock, DrewFromStock, Event, LaidDown
from fivecrowns.core.views import player_view, public_view
from fivecrowns.export import Document, ExportError, export_text, render
from fivecrowns.export.braille import Translator
from fivecrowns.export.content import (
    hand_document,
    log_document,
    melds_document,
    scores_document,
)
from fivecrowns.export.files import write_game_exports
from fivecrowns.storage.saves import save_game

GOLDEN = Path(__file__).parents[1] / "support" / "golden" / "export"
SEED, PLAYERS = 7, 3
WHATS = ("hand", "melds", "scores", "log")
# (format, width, grade, file suffix)
FORMATS = (
    ("text", 40, 1, ".txt"),
    ("text", 20, 1, ".w20.txt"),
    ("brf", 40, 1, ".brf"),
    ("brf", 40, 2, ".g2.brf"),
    ("unicode", 40, 1, ".unicode.txt"),
)


@pytest.fixture(scope="module")
def game() -> Game:
    return play_seeded_game(SEED, PLAYERS)


def _golden_path(what: str, suffix: str) -> Path:
    return GOLDEN / f"seed{SEED}-{PLAYERS}p-{what}{suffix}"


def _check_golden(path: Path, data: bytes) -> None:
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    assert path.exists(), f"{path.name} is missing: run UPDATE_GOLDEN=1 pytest {__file__}"
    assert data == path.read_bytes(), (
        f"{path.name} differs from the export. If the game, solver or computer player "
        f"changed on purpose, regenerate: UPDATE_GOLDEN=1 pytest {__file__}"
    )


def _all_exports(game: Game) -> Iterator[tuple[str, str, int, int, str, str]]:
    for what in WHATS:
        document = build_document(game, what)
        for fmt, width, grade, suffix in FORMATS:
            yield what, fmt, width, grade, suffix, render(document, fmt, width, grade)


def test_golden_files_in_every_format(game: Game) -> None:
    require_liblouis()
    for what, _fmt, _width, _grade, suffix, out in _all_exports(game):
        _check_golden(_golden_path(what, suffix), out.encode("utf-8"))


@pytest.mark.real
def test_golden_braille_through_the_lou_translate_fallback(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the louis module (a pipx install on a system without python3-louis)."""
    require_liblouis()
    hide_louis_module(monkeypatch)
    for what in ("hand", "scores"):
        document = build_document(game, what)
        for fmt, width, grade, suffix in FORMATS:
            if fmt != "text":
                out = render(document, fmt, width, grade)
                _check_golden(_golden_path(what, suffix), out.encode("utf-8"))


def test_every_line_within_width_and_brf_pages(game: Game) -> None:
    require_liblouis()
    for what, fmt, width, _grade, _suffix, out in _all_exports(game):
        if fmt == "brf":
            assert set(out) <= BRF_ALLOWED, what
            for page in brf_pages(out):
                assert len(page) <= 25, what
                assert all(len(line) <= 40 for line in page), what
        else:
            lines = out.splitlines()
            assert lines, what
            assert all(len(line) <= width for line in lines), (what, fmt)
            if fmt == "text":
                assert out.isascii()
            else:
                assert all("\u2800" <= c <= "\u28ff" for line in lines for c in line)


def test_brf_back_translates_to_the_text_form(game: Game) -> None:
    require_liblouis()
    for what in WHATS:
        document = build_document(game, what)
        expected = words(export_text(document, 40, columns=False))
        for grade in (1, 2):
            translator = Translator(grade, "brf")
            pages = brf_pages(render(document, "brf", 40, grade))
            body = [line for page in pages for line in page[1:]]
            back = " ".join(translator.back_translate(line) for line in body)
            assert words(back) == expected, (what, grade)
            numbers = [translator.back_translate(page[0].strip()) for page in pages]
            assert numbers == [str(n) for n in range(1, len(pages) + 1)]


def test_unicode_back_translates_to_the_text_form(game: Game) -> None:
    require_liblouis()
    translator = Translator(1, "unicode")
    for what in WHATS:
        document = build_document(game, what)
        lines = render(document, "unicode", 32).splitlines()
        back = " ".join(translator.back_translate(line) for line in lines)
        assert words(back) == words(export_text(document, 40, columns=False)), what


# --- the score sheet carries every number ------------------------------------------


def _unwrap(text: str) -> list[str]:
    """Logical lines: continuation lines (two more spaces) joined to the line before."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("  ") and lines and not line.startswith("   "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def parse_score_sheet(text: str, players: tuple[str, ...]) -> dict[str, object]:
    """Round scores, totals and winners read back from a text score sheet (either layout)."""
    lines = _unwrap(text)
    rounds: dict[int, list[int]] = {}
    totals: list[int] | None = None
    columns = any(line.split() == ["Round", *players] for line in lines)
    for line in lines:
        linear = re.fullmatch(r"(Round (\d+)|Totals): (.*)", line)
        if linear:
            pairs = re.findall(r"(\w+) (\d+)", linear.group(3))
            assert [name for name, _ in pairs] == list(players)
            numbers = [int(number) for _, number in pairs]
            if linear.group(2):
                rounds[int(linear.group(2))] = numbers
            else:
                totals = numbers
        cells = line.split()
        row = re.fullmatch(rf"(\d+|Total)( +\d+){{{len(players)}}}", line)
        if columns and row:
            numbers = [int(cell) for cell in cells[1:]]
            if cells[0] == "Total":
                totals = numbers
            else:
                rounds[int(cells[0])] = numbers
    winner = re.search(r"Winners?: (.*), (\d+) points\.", text.replace("\n  ", " "))
    assert winner is not None
    return {
        "rounds": [rounds[number] for number in sorted(rounds)],
        "totals": totals,
        "winners": re.split(r", | and ", winner.group(1)),
        "lowest": int(winner.group(2)),
    }


@pytest.mark.parametrize("players", [3, 7])
@pytest.mark.parametrize("width", [14, 40, 80])
def test_text_score_sheet_carries_every_number(players: int, width: int) -> None:
    game = play_seeded_game(SEED + players, players)
    text = export_text(scores_document(public_view(game)), width)
    parsed = parse_score_sheet(text, game.players)
    assert parsed["rounds"] == [list(scores) for scores in game.round_scores]
    assert len(game.round_scores) == 11
    assert parsed["totals"] == game.totals
    assert parsed["winners"] == [game.players[seat] for seat in game.winners]
    assert parsed["lowest"] == min(game.totals)


def test_wide_table_falls_back_to_one_round_per_line() -> None:
    game = play_seeded_game(SEED, 7)
    lines = export_text(scores_document(public_view(game)), 39).splitlines()
    assert any(line.startswith("Round 1: Ana ") for line in lines)
    assert not any(line.startswith("Round  Ana") for line in lines)
    lines = export_text(scores_document(public_view(game)), 60).splitlines()
    assert any(line.startswith("Round  Ana") for line in lines)


# --- content -------------------------------------------------------------------


def test_hand_mid_round_shows_the_solver_arrangement() -> None:
    game = _game_in_round(4, 1)
    view = player_view(game, 1)
    text = export_text(hand_document(view), 80)
    arrangement = best_arrangement(view.hand, view.wild_rank)
    assert text.startswith(f"Hand of {game.players[1]}, round 4.\n")
    assert "Round 4 of 11. 6s wild. 6 cards dealt." in text
    assert f"Cards: {format_cards(sorted(view.hand))}." in text
    for meld in arrangement.melds:
        assert format_cards(meld.cards) in text
    points = arrangement.leftover_points
    leftover = format_cards(sorted(arrangement.leftover)) or "none"
    assert f"Leftover: {leftover}, {points} points." in text


def test_melds_of_a_chosen_round_and_an_unplayed_one(game: Game) -> None:
    text = export_text(melds_document(game.players, game.events, 3), 80)
    assert text.startswith("Melds, round 3.\n")
    scored = [e for e in game.events if type(e).__name__ == "RoundScored"][2]
    for seat, result in enumerate(scored.results):  # type: ignore[union-attr]
        assert f"{game.players[seat]}, {result.score} points." in text
        for meld in result.melds:
            assert format_cards(meld.cards) in text
    missing = export_text(melds_document(game.players, game.events[:5], 9), 80)
    assert "Round 9 has not been played: rounds 1 to 1 have." in missing


def _hide_differently(events: list[Event]) -> list[Event]:
    """The same public game with different hidden cards: stock draws and unscored leftovers."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, DrewFromStock):
            out.append(DrewFromStock(event.player, JOKER))
        elif isinstance(event, LaidDown):
            out.append(LaidDown(event.player, event.melds, (JOKER, JOKER)))
        else:
            out.append(event)
    return out


def test_log_and_melds_never_show_hidden_cards(game: Game) -> None:
    other = _hide_differently(list(game.events))
    assert other != list(game.events)
    assert render(log_document(game.players, other)) == render(
        log_document(game.players, game.events)
    )
    for number in (1, 6, 11):
        assert render(melds_document(game.players, other, number)) == render(
            melds_document(game.players, game.events, number)
        )


def test_log_has_every_round_and_turn(game: Game) -> None:
    text = export_text(log_document(game.players, game.events), 80)
    for number in range(1, 12):
        assert f"\nRound {number}. " in text
    discards = sum(type(event).__name__ in ("Discarded", "WentOut") for event in game.events)
    assert words(text).count("discards") == discards
    assert "Winner: " in text


# --- the command -------------------------------------------------------------------


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, bytes, str]:
    buffer = io.BytesIO()

    class Out:
        def __init__(self) -> None:
            self.buffer = buffer

    real = sys.stdout
    sys.stdout = Out()  # type: ignore[assignment]
    try:
        code = main(["export", *argv])
    finally:
        sys.stdout = real
    return code, buffer.getvalue(), capsys.readouterr().err


def test_command_writes_the_golden_export(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    require_liblouis()
    seed = ["--seed", str(SEED), "--players", str(PLAYERS)]
    code, out, err = _run([*seed, "--what", "log"], capsys)
    assert (code, err) == (0, "")
    assert out == _golden_path("log", ".txt").read_bytes()
    target = tmp_path / "scores.brf"
    code, out, err = _run([*seed, "--format", "brf", "--grade", "2", "--out", str(target)], capsys)
    assert (code, out) == (0, b"")
    assert err == f"Wrote the score sheet as brf to {target}.\n"
    assert target.read_bytes() == _golden_path("scores", ".g2.brf").read_bytes()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "1", "--players", "2", "--width", "9"], "The width 9 is not allowed"),
        (["--seed", "1", "--format", "brf", "--width", "60"], "BRF lines are at most 40 cells"),
        (["--players", "3"], "Give either --game SAVE.json or --seed S --players N."),
        (["--seed", "1", "--players", "8"], "A --seed game has 2 to 7 players, not 8."),
        (["--seed", "1", "--what", "hand", "--player", "Zed"], "There is no player 'Zed'"),
        (["--seed", "1", "--what", "melds", "--round", "12"], "There is no round 12"),
        (["--seed", "1", "--what", "scores", "--round", "2"], "--round goes with --what melds."),
        (["--seed", "1", "--what", "log", "--player", "Ana"], "--player goes with --what hand."),
    ],
)
def test_command_refuses_bad_input_with_a_sentence(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert out == b""
    assert message in err
    assert "Traceback" not in err


def test_command_without_liblouis_says_how_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide_liblouis(monkeypatch, tmp_path)
    for fmt in ("brf", "unicode"):
        code, out, err = _run(["--seed", "1", "--players", "2", "--format", fmt], capsys)
        assert (code, out) == (1, b"")  # run time, not usage
        assert "sudo apt-get install liblouis-bin liblouis-data python3-louis" in err
    code, out, err = _run(["--seed", "1", "--players", "2"], capsys)
    assert code == 0 and out.startswith(b"Score sheet.\n")


def test_document_api_is_generic() -> None:
    """Other content (a solitaire board) exports through the same functions."""
    from fivecrowns.export import Section

    board = Document("Solitaire.", (Section("Hand 1, 3s wild.", ("Cards: 3h 4h 5h.",)),))
    assert export_text(board, 20) == "Solitaire.\n\nHand 1, 3s wild.\nCards: 3h 4h 5h.\n"


def _game_in_round(number: int, seat: int, first_dealer: int | None = None) -> Game:
    """The golden game, stopped when ``seat`` is about to play in round ``number``."""
    game = Game(SEED_NAMES[:PLAYERS], seed=SEED, first_dealer=first_dealer)
    bot = SimplePlayer()
    while not (game.round == number and game.current_player == seat):
        game.apply(game.current_player, bot.choose_move(player_view(game, game.current_player)))
    return game


def test_command_exports_a_saved_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _game_in_round(5, 2)
    save = tmp_path / "autosave.json"
    save_game(game, save)
    code, out, err = _run(["--game", str(save), "--what", "hand", "--player", "cy"], capsys)
    assert (code, err) == (0, "")
    assert out.decode() == export_text(hand_document(player_view(game, 2)))
    for what in ("melds", "scores", "log"):
        code, out, err = _run(["--game", str(save), "--what", what, "--width", "30"], capsys)
        assert (code, err) == (0, "")
        assert out.decode() == export_text(build_document(game, what), 30), what
    code, out, err = _run(["--game", str(save), "--what", "hand", "--player", "2"], capsys)
    assert out.decode() == export_text(hand_document(player_view(game, 1)))


def test_command_refuses_a_bad_save_and_mixed_sources(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text("shopping list", encoding="utf-8")
    code, out, err = _run(["--game", str(bad)], capsys)
    assert (code, out) == (1, b"")  # a bad save is a run-time failure
    assert "is not a Five Crowns saved game" in err
    code, out, err = _run(["--game", str(tmp_path / "none.json")], capsys)
    assert code == 1 and "There is no saved game at" in err
    saved = tmp_path / "saved.json"
    save_game(Game(["Ann", "Ben"], seed=1), saved)
    before = saved.read_bytes()
    code, out, err = _run(
        ["--game", str(saved), "--out", str(tmp_path / "." / "saved.json")], capsys
    )
    assert code == 2 and "is the saved game itself" in err
    assert saved.read_bytes() == before
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    code, out, err = _run(["--game", str(deep)], capsys)
    assert (code, out) == (1, b"") and "nested too deeply" in err
    code, out, err = _run(["--game", str(bad), "--players", "3"], capsys)
    assert code == 2 and "--players goes with --seed" in err
    code, out, err = _run(["--game", str(bad), "--seed", "3"], capsys)
    assert code == 2 and "Give either --game SAVE.json or --seed S --players N." in err


def test_in_game_export_writes_score_sheet_and_hand(tmp_path: Path) -> None:
    require_liblouis()
    game = _game_in_round(6, 0)
    view = player_view(game, 0)
    written = write_game_exports(view, tmp_path / "Five Crowns", stamp="t1")
    names = sorted(path.name for path in written.paths)
    assert names == [
        "fivecrowns-t1-hand-ana.brf",
        "fivecrowns-t1-hand-ana.txt",
        "fivecrowns-t1-scores.brf",
        "fivecrowns-t1-scores.txt",
    ]
    folder = tmp_path / "Five Crowns"
    assert (folder / "fivecrowns-t1-scores.txt").read_text() == export_text(scores_document(view))
    assert (folder / "fivecrowns-t1-hand-ana.brf").read_bytes() == render(
        hand_document(view), "brf"
    ).encode("ascii")
    assert written.message == f"Exported the score sheet and your hand to {folder}: 4 files."


def test_in_game_export_without_liblouis_writes_text_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide_liblouis(monkeypatch, tmp_path)
    written = write_game_exports(player_view(_game_in_round(2, 1), 1), tmp_path, stamp="t2")
    assert sorted(path.suffix for path in written.paths) == [".txt", ".txt"]
    assert written.message.endswith("2 files. No braille files: liblouis is not installed.")
    blocked = tmp_path / "file"
    blocked.write_text("x")
    with pytest.raises(ExportError, match="Could not write exports to"):
        write_game_exports(player_view(_game_in_round(2, 1), 1), blocked / "sub", formats=("text",))


def test_score_sheet_mid_game_names_the_leader() -> None:
    game = _game_in_round(5, 0)
    text = export_text(scores_document(public_view(game)), 80)
    lowest = min(game.totals)
    leaders = [game.players[s] for s, total in enumerate(game.totals) if total == lowest]
    assert text.startswith("Score sheet.\nAfter round 4 of 11.\n")
    word = "Leader" if len(leaders) == 1 else "Leaders"
    assert f"{word}: {' and '.join(leaders)}, {lowest} points." in text
    parsed = parse_score_sheet(text.replace("Leader", "Winner"), game.players)
    assert parsed["rounds"] == [list(scores) for scores in game.round_scores]
    assert parsed["totals"] == game.totals


def test_hand_after_drawing_names_the_best_discard() -> None:
    game = _game_in_round(7, 1)
    game.apply(1, DrawFromStock())
    view = player_view(game, 1)
    arrangement = best_with_discard(view.hand, view.wild_rank)
    assert arrangement.discard is not None
    text = export_text(hand_document(view), 80)
    assert f"Best discard: {arrangement.discard.token}." in text
    assert ("You can go out." in text) == arrangement.all_melded
    assert len(view.hand) == 10


@pytest.mark.parametrize(("seed", "players"), [(2, 2), (5, 5), (11, 7)])
def test_brf_back_translates_for_other_games_and_narrow_lines(seed: int, players: int) -> None:
    require_liblouis()
    game = play_seeded_game(seed, players)
    for what in WHATS:
        document = build_document(game, what)
        expected = words(export_text(document, 40, columns=False))
        for grade in (1, 2):
            translator = Translator(grade, "brf")
            pages = brf_pages(render(document, "brf", 14, grade))
            assert all(len(line) <= 14 for page in pages for line in page)
            body = [line for page in pages for line in page[1:]]
            back = " ".join(translator.back_translate(line) for line in body)
            assert words(back) == expected, (what, grade)


def _front_end_autosave(game: Game, at_keyboard: int) -> dict[str, object]:
    """The front end's autosave layout: seats, seed, first dealer, decks and the moves."""
    return {
        "version": 1,
        "seats": [
            {"name": name, "level": None if i == at_keyboard else "easy"}
            for i, name in enumerate(game.players)
        ],
        "seed": game.seed,
        "first_dealer": game.first_dealer,
        "decks": game.options.decks,
        "moves": [[player, move_to_json(move)] for player, move in game.moves],
        "at_keyboard": at_keyboard,
    }


def test_command_exports_the_front_end_autosave(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = _game_in_round(3, 0, first_dealer=1)  # the front end names the first dealer
    save = tmp_path / "autosave.json"
    save.write_text(json.dumps(_front_end_autosave(game, 2)), encoding="utf-8")
    code, out, err = _run(["--game", str(save), "--what", "hand"], capsys)
    assert (code, err) == (0, "")
    assert out.decode() == export_text(hand_document(player_view(game, 2)))
    code, out, err = _run(["--game", str(save), "--what", "log"], capsys)
    assert out.decode() == export_text(build_document(game, "log"))
    broken = _front_end_autosave(game, 0)
    broken["moves"] = [[1, {"move": "discard", "card": "7h"}]]
    save.write_text(json.dumps(broken), encoding="utf-8")
    code, out, err = _run(["--game", str(save)], capsys)
    assert (code, out) == (1, b"")
    assert "the autosaved game cannot be replayed" in err


def test_hand_of_a_player_who_went_out_before_the_scores() -> None:
    game = Game(SEED_NAMES[:PLAYERS], seed=SEED)
    bot = SimplePlayer()
    while game.went_out is None:
        game.apply(game.current_player, bot.choose_move(player_view(game, game.current_player)))
    out = game.went_out
    view = player_view(game, out)
    text = export_text(hand_document(view), 80)
    assert "Laid down.\n" in text
    for meld in view.laid_down[out]:
        assert format_cards(meld.cards) in text
    assert text.endswith("In hand.\nNo cards left.\n")


def test_docs_samples_are_real_exports() -> None:
    """docs/braille.md quotes the golden game; keep it true when the goldens change."""
    docs = (Path(__file__).parents[2] / "docs" / "braille.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(.*?)```", docs, flags=re.S)
    hand_text = next(b for b in blocks if b.startswith("$ fivecrowns export --seed 7"))
    assert hand_text.split("\n", 1)[1] == _golden_path("hand", ".txt").read_text()
    brf = _golden_path("hand", ".brf").read_bytes().decode().replace("\r\n", "\n")
    brf2 = _golden_path("hand", ".g2.brf").read_bytes().decode().replace("\r\n", "\n")
    uni = _golden_path("hand", ".unicode.txt").read_text(encoding="utf-8")
    quoted = [b for b in blocks if b.lstrip().startswith(("#A", "\u2800", "\u2820"))]
    assert len(quoted) == 3
    for block, golden in zip(quoted, (brf, brf2, uni), strict=True):
        assert golden.startswith(block), block
