"""The web page plays the server's sound pack as the terminal plays it: the same cue list,
each cue for its event (from the one table, fivecrowns.words.cues), a volume per kind and
mute all in the Sounds dialog (F2), remembered; what the page asked to play is read from its
record (``speaker.pack.asked``) and what started from ``speaker.pack.played``, never by timing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.output.sounds import SOUND_NAMES, sounds_dir
from fivecrowns.words.cues import event_cue
from server_support import ServerProcess
from web_support import WebPlayer, axe_violations, page_url

PACK = "window.fivecrowns.speaker.pack"


@pytest.fixture(name="context")
def context_fixture(browser: Any) -> Iterator[Any]:
    """A browser context of its own: its localStorage is this test's."""
    context = browser.new_context()
    yield context
    context.close()


def asked(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate(f"() => {PACK}.asked")
    return result


def step(player: WebPlayer, take: bool) -> bool:
    """One move by keyboard at this seat's turn: go out, else take the discard (``take``) or
    draw, else discard the server's first card."""
    state = player.my_turn()
    if state is None:
        return False
    if "go_out" in state["legal"]:
        return player.play_one()
    if take and "take_discard" in state["legal"]:
        before = state["seq"]
        player.page.keyboard.press("t")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and player.state()["seq"] == before:
            player.page.wait_for_timeout(10)
        return True
    return player.play_one(go_out=False)


def wait_cue(page: Any, cue: str) -> None:
    page.wait_for_function(f"() => {PACK}.asked.some((a) => a.cue === '{cue}')", timeout=20_000)


def test_every_cue_of_the_pack_is_played_for_its_event_in_a_seeded_game(
    browser: Any, context: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    ben_page = context.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        # the page's cue list is the terminal's: the pack's, every cue of it
        names = page.evaluate(f"() => {PACK}.manifest.cues.map((c) => c.name)")
        assert names == list(SOUND_NAMES)
        ann.connect("Ann")
        table = ann.create_table(3, ["simple", ""])
        # a computer player removed and added again: left and joined
        page.evaluate("() => window.fivecrowns.send({type: 'remove_bot', seat: 1})")
        wait_cue(page, "player_left")
        page.evaluate("() => window.fivecrowns.send({type: 'add_bot', level: 'simple', seat: 1})")
        wait_cue(page, "player_joined")
        ben = WebPlayer(ben_page, page_url(server.url))
        ben.connect("Ben")
        ben_page.evaluate(f"() => window.fivecrowns.send({{type: 'join', table: '{table}'}})")
        ben_page.wait_for_selector("#table:not([hidden])", timeout=10_000)
        ben_page.evaluate("() => window.fivecrowns.send({type: 'chat', text: 'Hello'})")
        wait_cue(page, "chat")
        ann.start()
        dropped = back = refused = False
        rounds_taken: set[int] = set()
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline and not ann.state()["over"]:
            state = ann.state()
            # take the discard once a round: the cue for taking it, yours and Ben's
            take = state["round"] not in rounds_taken
            moved = step(ann, take)
            if moved and take:
                rounds_taken.add(state["round"])
            if ben is not None:
                if ben.my_turn() is not None and not refused:
                    page.keyboard.press("d")  # not Ann's turn: refused
                    wait_cue(page, "invalid")
                    refused = True
                moved = step(ben, take) or moved
                if refused and not dropped:
                    ben_page.close()  # the tab closed: Ben's connection dropped
                    wait_cue(page, "player_dropped")
                    dropped = True
                    ben_page = context.new_page()
                    ben = WebPlayer(ben_page, page_url(server.url))  # the seat taken back
                    wait_cue(page, "player_back")
                    back = True
                elif back and state["round"] >= 3:
                    ben_page.evaluate("() => window.fivecrowns.send({type: 'leave'})")
                    ben_page.wait_for_selector("#lobby:not([hidden])", timeout=10_000)
                    ben = None
            if not moved:
                page.wait_for_timeout(20)
        assert ann.state()["over"]
        wait_cue(page, "game_over")
        record = asked(page)
        # each cue the page asked for an event is the one the terminal's table gives
        frames = {}
        for frame in ann.frames:
            data = json.loads(frame)
            if data.get("type") == "event":
                frames[data["seq"]] = data
        for entry in record:
            if "kind" not in entry:
                continue
            data = frames[entry["seq"]]
            wanted = event_cue(data["kind"], data.get("data") or {}, 0, entry["human"])
            assert entry["cue"] == wanted, entry
        # and no event with a cue went unheard (a person's turn aside: whose seat is a person
        # is the page's to know, and the check above covers the turns it played)
        with_cue = {
            seq
            for seq, data in frames.items()
            if data["kind"] != "turn_started" and event_cue(data["kind"], data.get("data") or {}, 0)
        }
        asked_for = {
            entry["seq"] for entry in record if entry.get("kind", "turn_started") != "turn_started"
        }
        assert with_cue == asked_for
        missing = set(SOUND_NAMES) - {entry["cue"] for entry in record}
        assert missing == set(), missing
        assert ann.errors == []
    finally:
        page.close()
        ben_page.close()


def played(page: Any, cues: list[str]) -> list[list[Any]]:
    """Play each cue through the page's own path; what started, with its volume."""
    result: list[list[Any]] = page.evaluate(
        f"""(cues) => {{ {PACK}.played = [];
          for (const cue of cues) {PACK}.play(cue, {{test: true}});
          return {PACK}.played; }}""",
        cues,
    )
    return result


def test_the_sounds_dialog_by_keyboard_sets_volumes_and_mute_and_they_are_kept(
    context: Any, server: ServerProcess
) -> None:
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("F2")
        dialog = page.locator("#sounds-dialog")
        dialog.wait_for(state="visible", timeout=10_000)
        assert page.evaluate("() => document.activeElement.id") == "sounds-mute"
        assert page.locator("#sounds-pack").inner_text() == "Sound pack: default."
        assert page.locator("#sounds-mute").is_checked()  # off until the player turns them on
        assert axe_violations(page) == []
        page.keyboard.press("Space")  # sounds on (a key: the browser lets audio start)
        assert page.locator("#sounds").is_checked()
        page.wait_for_function(f"() => {PACK}.buffers.size === {len(SOUND_NAMES)}", timeout=10_000)
        assert played(page, ["discard", "other_discard", "your_turn"]) == [
            ["discard", 1],
            ["other_discard", 1],
            ["your_turn", 1],
        ]
        page.keyboard.press("Tab")  # your actions
        assert page.evaluate("() => document.activeElement.id") == "volume-own"
        page.keyboard.press("Home")  # silent
        page.keyboard.press("Tab")  # other players' actions
        for _press in range(5):
            page.keyboard.press("ArrowLeft")
        assert page.locator("#volume-others").get_attribute("aria-valuetext") == "50 percent"
        assert played(page, ["discard", "other_discard", "your_turn"]) == [
            ["other_discard", 0.5],
            ["your_turn", 1],
        ]
        # hear a cue and its sentence, from the list
        page.locator("#cue-your_last_turn").focus()
        page.keyboard.press("Enter")
        assert page.locator("#cue-said").inner_text() == (
            "your last turn: Your last turn: someone went out, and you have one more turn."
        )
        assert page.evaluate(f"() => {PACK}.played.at(-1)") == ["your_last_turn", 1]
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden", timeout=10_000)
        # kept: a new page has the same settings
        page.reload()
        page.wait_for_selector("html[data-ready=true]", timeout=10_000)
        assert page.locator("#sounds").is_checked()
        page.keyboard.press("F2")
        dialog.wait_for(state="visible", timeout=10_000)
        assert page.locator("#volume-own").input_value() == "0"
        assert page.locator("#volume-others").input_value() == "50"
        page.keyboard.press("Space")  # mute all
        assert not page.locator("#sounds").is_checked()
        assert played(page, ["discard", "other_discard", "your_turn"]) == []
        page.locator("#cue-chat").focus()
        page.keyboard.press("Enter")
        assert page.locator("#cue-said").inner_text().startswith("Sounds are muted. chat:")
        assert web.errors == []
    finally:
        page.close()


@pytest.fixture(name="packs_server")
def packs_server_fixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    """A server whose data folder has a second pack, "soft", whose your_turn is the chat cue."""
    folder = tmp_path / "sounds" / "soft"
    folder.mkdir(parents=True)
    (folder / "pack.json").write_text('{"cues": {"your_turn": "bell.wav"}}')
    (folder / "bell.wav").write_bytes((sounds_dir() / "chat.wav").read_bytes())
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path))
    process = ServerProcess(None, "--rate", "200").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors


def test_a_player_chooses_a_pack_the_server_offers_and_it_is_kept(
    context: Any, packs_server: ServerProcess
) -> None:
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(packs_server.url))
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("F2")
        page.locator("#sounds-dialog").wait_for(state="visible", timeout=10_000)
        choice = page.locator("#sounds-pack-choice")
        assert choice.evaluate("(s) => [...s.options].map((o) => o.value)") == ["default", "soft"]
        assert choice.input_value() == "default"
        choice.focus()
        page.keyboard.press("ArrowDown")  # a closed list box: the next pack, by keyboard
        page.wait_for_function(f"() => {PACK}.manifest.pack === 'soft'", timeout=10_000)
        assert page.locator("#cue-said").inner_text() == "Sound pack: soft."
        urls = page.evaluate(
            f"() => Object.fromEntries({PACK}.manifest.cues.map((c) => [c.name, c.url]))"
        )
        assert urls["your_turn"] == "/sounds/soft/your_turn.wav"
        assert page.evaluate("() => document.activeElement.id") == "sounds-pack-choice"
        page.keyboard.press("Escape")
        page.reload()
        page.wait_for_selector("html[data-ready=true]", timeout=10_000)
        assert page.evaluate(f"() => {PACK}.manifest.pack") == "soft"  # kept
        # sounds on: the chosen pack's file is what the page decodes and plays
        page.locator("#sounds").check()
        page.wait_for_function(f"() => {PACK}.buffers.size === {len(SOUND_NAMES)}", timeout=10_000)
        durations = page.evaluate(
            f"() => [{PACK}.buffers.get('your_turn').duration, {PACK}.buffers.get('chat').duration]"
        )
        assert durations[0] == durations[1]  # soft's your_turn is the chat sound
        assert web.errors == []
    finally:
        page.close()
