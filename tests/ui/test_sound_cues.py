"""The cues of issue 30 in the terminal: each event's cue in a seeded game, the table events'
cues, and F2's "Hear the sounds" list that plays each cue with what it means."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivecrowns.net.client.link import TABLE_CUES, table_cue
from fivecrowns.output.sounds import SOUND_NAMES, SOUNDS
from fivecrowns.ui.session import Seat
from ui_support import never_go_out, table

THREE = [Seat("You"), Seat("Ann", "medium"), Seat("Ben", "medium")]


def test_a_seeded_round_plays_your_cues_and_the_others_cues_apart() -> None:
    with table(THREE, seed=8, first_dealer=2) as t:
        for _ in range(60):
            if t.game.round > 1:
                break
            never_go_out(t)
        played = set(t.backend.sounds)
    mine = {"draw_stock", "discard", "your_turn", "your_last_turn"}
    table_wide = {"went_out", "round_over", "shuffle"}
    assert mine | table_wide <= played, played
    assert played & {"other_draw_stock", "other_take_discard", "other_meld"}
    assert "last_turn" not in played or "your_last_turn" in played
    # another player's moves never use your own cues: they sound apart
    assert played <= set(SOUND_NAMES)


def test_a_refused_key_plays_the_invalid_cue() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=1) as t:
        assert t.game.current_player == 0
        t.press("d")
        mark = len(t.backend.sounds)
        t.press("d")  # a second draw: refused, with its sentence
        assert t.backend.sounds[mark:] == ["invalid"]


def test_each_table_event_has_its_cue() -> None:
    assert table_cue({"kind": "chat", "text": "Ann says: hi"}) == "chat"
    assert table_cue({"kind": "seat_taken"}) == "player_joined"
    assert table_cue({"kind": "seat_left"}) == "player_left"
    assert table_cue({"kind": "dropped"}) == "player_dropped"
    assert table_cue({"kind": "hand_back"}) == "player_back"
    assert table_cue({"kind": "game_started"}) is None
    assert set(TABLE_CUES.values()) <= set(SOUND_NAMES)


def test_f2_hear_the_sounds_plays_each_cue_with_its_meaning_and_stays_open() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=0) as t:
        t.press("\x1bOQ")  # F2
        assert t.spoken()[-1].startswith("Settings. 8 items. Language: ")
        t.press("down", "down")
        assert t.spoken()[-1] == "Hear the sounds, 3 of 8"
        t.press("enter")
        count = len(SOUND_NAMES)
        assert t.spoken()[-1] == (
            f"Sounds. {count} items. draw stock: You drew a card from the stock."
        )
        heard = []
        for index, name in enumerate(SOUND_NAMES):
            mark = len(t.backend.sounds)
            t.press("enter")  # plays it; the list stays open on it
            assert t.backend.sounds[mark:] == [name]
            heard.append(name)
            meaning = SOUNDS[name].meaning
            assert t.spoken()[-1].endswith(meaning)
            assert t.session.list_state is not None
            assert t.session.list_state.selected == index
            t.press("down")
        assert heard == list(SOUND_NAMES)
        t.press("escape")
        assert t.spoken()[-1] == "Settings closed."


def test_the_sound_pack_item_says_why_when_sounds_are_off() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=0) as t:
        t.press("\x1bOQ", "down", "down", "down", "enter")  # F2, the sound pack
        assert t.spoken()[-1] == "Sounds are off, so no pack can be chosen now."
        t.press("\x1bOQ", "end", "enter")  # the alerts' volume
        assert t.spoken()[-1] == "No sound can play here, so there is nothing to change."


def test_the_help_list_ends_with_every_sound_and_choosing_one_plays_it() -> None:
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=0) as t:
        keys = len(t.session.help_lines())
        t.press("f1")
        state = t.session.list_state
        assert state is not None and len(state.items) == keys + 1 + len(SOUND_NAMES)
        assert state.items[keys][0] == "Sounds, each with what it means; Enter plays one:"
        t.press("end")
        assert t.spoken()[-1].startswith("player back: A player whose connection dropped is back")
        mark = len(t.backend.sounds)
        t.press("enter")
        assert t.backend.sounds[mark:] == ["player_back"]
        assert t.session.list_state is state and state.selected == keys + len(SOUND_NAMES)
        t.press("home", "enter")  # a key's line: choosing it closes the help, as before
        assert t.spoken()[-1] == "Help closed."


def test_f2_mutes_all_and_steps_each_kind_s_volume_and_keeps_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecrowns.output.audio import SoundPlayer
    from fivecrowns.storage.settings import load_settings

    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path))
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=0) as t:
        player = SoundPlayer(None)
        t.session.output.sounds = player  # type: ignore[attr-defined]
        t.press("\x1bOQ", "down", "down", "down", "down")
        assert t.spoken()[-1] == "Sounds: on, 5 of 8"
        t.press("enter")
        assert t.spoken()[-1] == "Sounds muted. Saved for the next games too."
        assert player.muted and load_settings()[0].sound_muted
        t.press("\x1bOQ", "down", "down", "down", "down", "down")
        assert t.spoken()[-1] == "Volume of your moves: 100 percent, 6 of 8"
        t.press("enter")
        assert t.spoken()[-1] == ("Volume of your moves: 75 percent. Saved for the next games too.")
        t.press("\x1bOQ", "end", *["enter", "\x1bOQ", "end"] * 4, "enter")  # alerts: 5 steps
        assert t.spoken()[-1] == "Volume of alerts: 100 percent. Saved for the next games too."
        settings = load_settings()[0]
        assert (settings.sound_volume_own, settings.sound_volume_alerts) == (0.75, 1.0)
        assert player.volumes == {"own": 0.75, "others": 1.0, "alerts": 1.0}


def test_f2_lists_the_players_packs_chooses_one_and_says_a_bad_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecrowns.output.audio import SoundPlayer
    from fivecrowns.output.earcons import render_earcon
    from fivecrowns.storage.settings import load_settings

    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path / "data"))
    for name, file in (("broken", "gone.wav"), ("soft", "bell.wav")):
        folder = tmp_path / "data" / "sounds" / name
        folder.mkdir(parents=True)
        (folder / "pack.json").write_text(json.dumps({"cues": {"your_turn": file}}))
    (tmp_path / "data" / "sounds" / "soft" / "bell.wav").write_bytes(render_earcon("chat"))
    with table([Seat("You"), Seat("Ann", "easy")], seed=3, first_dealer=0) as t:
        player = SoundPlayer(None)
        t.session.output.sounds = player  # type: ignore[attr-defined]
        t.press("\x1bOQ", "down", "down", "down")
        assert t.spoken()[-1] == "Sound pack: default, 4 of 8"
        t.press("enter")
        assert t.spoken()[-1] == "Sound pack. 3 items. default"
        t.press("down", "enter")
        assert t.spoken()[-1] == (
            "The sound pack broken cannot be used: the file gone.wav for the cue your_turn is "
            "missing. The default sounds play instead."
        )
        assert player.pack == "default" and load_settings()[0].sound_pack == "default"
        t.press("\x1bOQ", "down", "down", "down", "enter", "end")
        assert t.spoken()[-1] == "soft, 3 of 3"
        t.press("enter")
        assert t.spoken()[-1] == "Sound pack: soft. Saved for the next games too."
        assert player.pack == "soft" and load_settings()[0].sound_pack == "soft"
        t.press("\x1bOQ", "down", "down", "down")
        assert t.spoken()[-1] == "Sound pack: soft, 4 of 8"
