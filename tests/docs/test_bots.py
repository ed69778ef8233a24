"""docs/bots.md: its example bot plugs into ``fivecrowns simulate --ai`` and plays."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from fivecrowns.core.game import Game

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def example_code() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Example", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, "docs/bots.md has no python example under ### Example"
    return match.group(1)


def test_the_example_bot_from_the_docs_plays_whole_games_through_simulate(tmp_path: Path) -> None:
    (tmp_path / "wild_collector.py").write_text(example_code(), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    spec = "wild_collector:WildCollector"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "fivecrowns",
            "simulate",
            "--ai",
            f"{spec},medium,medium",
            "--games",
            "2",
            "--seed",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 2
    assert [seat["ai"] for seat in report["seats"]] == [spec, "medium", "medium"]
    assert sum(seat["wins"] for seat in report["seats"]) == 2
    assert all(seat["mean_score"] >= 0 for seat in report["seats"])
    # The plug-in really played: over two whole games a seat scores something.
    assert report["seats"][0]["mean_score"] > 0


def test_the_docs_command_line_matches_the_example_module_name() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "--ai wild_collector:WildCollector" in text
    assert "class WildCollector(Bot):" in example_code()


def test_the_front_end_snippet_in_the_docs_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Using bots from a front end", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    namespace: dict[str, object] = {}
    exec(compile(match.group(1), "docs/bots.md", "exec"), namespace)
    game = namespace["game"]
    assert isinstance(game, Game)
    assert namespace["seat"] == 1 and len(game.moves) == 1  # the hard bot drew
    explanation = namespace["explanation"]
    assert isinstance(explanation, str) and explanation.startswith(("Drew", "Took"))
