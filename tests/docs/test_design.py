"""docs/design.md stays true to the code: every phase, move and event is documented."""

from __future__ import annotations

from pathlib import Path

from fivecrowns.core import game, moves

DESIGN = (Path(__file__).parents[2] / "docs" / "design.md").read_text(encoding="utf-8")
RULES = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


def test_the_phase_table_lists_every_phase() -> None:
    for phase in game.Phase:
        assert f"| `{phase.name}` |" in DESIGN, phase


def test_every_move_and_event_is_documented() -> None:
    for name in ("DrawFromStock", "TakeDiscard", "Discard", "GoOut", "LayDown"):
        assert f"`{name}(" in DESIGN, name
    for event in moves.Event.__args__:  # type: ignore[attr-defined]
        assert f"| `{event.__name__}` |" in DESIGN, event


def test_the_players_rules_cover_every_section() -> None:
    for heading in ("The cards", "Rounds", "Your turn", "Books and runs", "Going out"):
        assert f"## {heading}" in RULES
    for heading in ("The last turns", "Scoring", "When the stock runs out"):
        assert f"## {heading}" in RULES
    assert "joker: 50" in RULES and "wild rank: 20" in RULES
