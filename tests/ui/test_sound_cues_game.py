"""Every cue in the default pack's manifest is played for its event in a seeded game, in the
terminal, through miniaudio's NULL backend (issue 30).

A real server process dealing from a seed. Ann plays with ``join --keys`` (her keys chosen by
the solver, as a player would press them); Ben and Cal are plain protocol clients. Ann hears
Cal sit down and leave, Ben's turn, Ben's chat, Ben draw and discard, Ben's connection drop
and come back, Ben leave for a computer player, and the whole game to its end; a key the game
refuses plays its cue.
Each cue is counted only when the sound player really started it on the NULL device.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fivecrowns.output.audio import Mixer, Playback, SoundPlayer
from fivecrowns.output.core import Output
from join_support import Player
from server_support import FAST, Client, ServerProcess, solver_turn

pytestmark = [pytest.mark.real, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "sounds" / "default" / "pack.json").read_text())


class HeardPlayer(SoundPlayer):
    """The real sound player on the NULL device, keeping each cue it started."""

    def __init__(self, mixer: Mixer) -> None:
        super().__init__(mixer, volume=1.0)
        self.heard: list[str] = []

    def play(self, name: str) -> Playback | None:
        playback = super().play(name)
        if playback is not None:
            self.heard.append(name)
        return playback


@pytest.fixture(name="seeded")
def seeded_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "server", *FAST, "--grace", "30", "--seed", "11").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors


def test_every_cue_in_the_manifest_is_played_for_its_event(seeded: ServerProcess) -> None:
    loop = asyncio.new_event_loop()
    mixer = Mixer("null")
    sounds = HeardPlayer(mixer)

    async def make_table() -> Client:
        ben = Client("Ben")
        await ben.connect(seeded.url)
        await ben.send({"type": "create_table", "seats": 3})
        await ben.until(lambda m: m["type"] == "snapshot")
        return ben

    ben = loop.run_until_complete(make_table())
    cal = Client("Cal")
    ann = Player(seeded.url, "Ann", first=[{"type": "join", "table": ben.table}])
    output = ann.play.output
    assert isinstance(output, Output)
    output.sounds = sounds
    try:
        ann.wait(r"You sit in seat 2 at table")

        async def cal_comes_and_goes() -> None:
            await cal.connect(seeded.url)
            await cal.send({"type": "join", "table": ben.table})
            await cal.until(lambda m: m["type"] == "seated")

        loop.run_until_complete(cal_comes_and_goes())
        ann.wait(r"Cal sat down in seat 3\.")
        loop.run_until_complete(cal.send({"type": "leave"}))
        ann.wait(r"Cal left the table\.")
        loop.run_until_complete(ben.send({"type": "add_bot", "level": "easy"}))
        loop.run_until_complete(ben.send({"type": "start"}))
        ann.wait(r"New game: ")
        game = ann.play.game
        assert game is not None

        deadline = time.monotonic() + 120
        while game.client.current_player != 0:  # play on until it is Ben's turn
            assert time.monotonic() < deadline, "Ben's turn never came"
            ann.play.news()
            if game.client.current_player == game.at_keyboard:
                solver_turn(game)
            ann.link.wait_for(lambda: False, 0.02)
        ann.wait(r"Ben's turn\.")
        mark = ann.mark()
        ann.keys("d")  # not Ann's turn: refused, with its sentence and cue
        ann.wait(r"Ben", after=mark)

        loop.run_until_complete(ben.send({"type": "chat", "text": "good luck"}))
        ann.wait(r"Ben says: good luck")

        async def ben_moves(wanted: str) -> None:
            await ben.until(lambda m: ben.my_turn())  # Ben's first turn: no older legal moves
            assert ben.snapshot is not None
            await ben.act(next(m for m in ben.snapshot["legal"] if m["move"] == wanted))

        # why Ben plays this turn himself: a computer's draw and discard reach Ann together
        # (one turn, one cue: "other_draw_stock"); only a person's discard, heard on its own,
        # plays "other_discard", and a test must not hang on how frames happen to batch
        loop.run_until_complete(ben_moves("draw_stock"))
        ann.wait(r"Ben drew from the stock\.")
        loop.run_until_complete(ben_moves("discard"))
        ann.wait(r"Ben discarded ")
        loop.run_until_complete(ben.close())  # a crash: no leave
        ann.wait(r"Ben's connection dropped: ")

        async def back_and_leave() -> None:
            await ben.connect(seeded.url)  # the same token: Ben's seat
            await ben.until(lambda m: m["type"] == "snapshot")

        loop.run_until_complete(back_and_leave())
        ann.wait(r"Ben is back and plays again\.")
        loop.run_until_complete(ben.send({"type": "leave"}))
        ann.wait(r"Ben left the table; a computer player plays in their place\.")

        deadline = time.monotonic() + 240
        for _ in range(100_000):
            if game.client.is_over:
                break
            assert time.monotonic() < deadline, "the game did not end in time"
            ann.play.news()
            if game.client.current_player == game.at_keyboard and not game.client.is_over:
                solver_turn(game)
            ann.link.wait_for(lambda: False, 0.01)
        ann.wait(r"Game over\. ")
    finally:
        ann.close()
        loop.run_until_complete(ben.close())
        loop.run_until_complete(cal.close())
        loop.close()
        mixer.close()
    heard = set(sounds.heard)
    missing = [cue for cue in MANIFEST["cues"] if cue not in heard]
    assert missing == [], f"never played: {missing}; played: {sorted(heard)}"
