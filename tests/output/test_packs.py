"""Sound packs (issue 30): the default pack's manifest names every cue, a player's pack in
DATA/sounds is found and chosen (the default fills its gaps), and each kind of bad pack gets
its one sentence and the default pack, never an error and never silence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivecrowns.output.audio import Mixer, SoundPlayer, decode_wav
from fivecrowns.output.earcons import render_earcon
from fivecrowns.output.packs import MAX_FILE_BYTES, load_pack, pack_names, user_packs_dir
from fivecrowns.output.sounds import DEFAULT_PACK, SOUND_NAMES, SOUNDS, sounds_dir

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "data"


def _pack(name: str, cues: object, files: dict[str, bytes]) -> Path:
    folder = user_packs_dir() / name
    folder.mkdir(parents=True)
    text = cues if isinstance(cues, str) else json.dumps({"name": name, "cues": cues})
    (folder / "pack.json").write_text(text)
    for file, body in files.items():
        (folder / file).write_bytes(body)
    return folder


def test_the_default_manifest_names_every_cue_with_its_file_and_meaning() -> None:
    manifest = json.loads((ROOT / "sounds" / "default" / "pack.json").read_text())
    assert list(manifest["cues"]) == list(SOUND_NAMES)
    for name, entry in manifest["cues"].items():
        assert entry["file"] == f"{name}.wav"
        assert entry["meaning"] == SOUNDS[name].meaning and entry["kind"] == SOUNDS[name].kind
        assert (sounds_dir() / entry["file"]).is_file()


def test_a_players_pack_is_found_chosen_and_the_default_fills_its_gaps(data: Path) -> None:
    assert pack_names() == [DEFAULT_PACK]
    bell = render_earcon("game_over")  # any real sound, unlike the default your_turn
    _pack("soft", {"your_turn": {"file": "bell.wav"}, "chat": "sub/blip.wav"}, {})
    (user_packs_dir() / "soft" / "bell.wav").write_bytes(bell)
    (user_packs_dir() / "soft" / "sub").mkdir()
    (user_packs_dir() / "soft" / "sub" / "blip.wav").write_bytes(render_earcon("shuffle"))
    (user_packs_dir() / "not-a-pack").mkdir()  # no pack.json: not listed
    assert pack_names() == [DEFAULT_PACK, "soft"]
    loaded = load_pack("soft")
    assert loaded.problem is None and loaded.name == "soft"
    assert loaded.files["your_turn"] == ("bell.wav", bell)
    assert loaded.origin["chat"] == "soft" and loaded.origin["discard"] == DEFAULT_PACK
    assert loaded.files["discard"][1] == (sounds_dir() / "discard.wav").read_bytes()
    player = SoundPlayer(None, pack="soft")
    assert player.pack == "soft" and player.pack_problem is None and player.problems == []
    assert player._samples["your_turn"] == decode_wav(bell)
    assert player._samples["discard"] == decode_wav(render_earcon("discard"))


BAD = {
    "missing file": (
        {"your_turn": "gone.wav"},
        {},
        "the file gone.wav for the cue your_turn is missing",
    ),
    "not audio": (
        {"your_turn": "text.wav"},
        {"text.wav": b"this is not a sound at all" * 40},
        "the file text.wav for the cue your_turn is not a sound the game can play",
    ),
    "not an audio name": (
        {"your_turn": "bell.txt"},
        {"bell.txt": render_earcon("your_turn")},
        "the file bell.txt for the cue your_turn is not a sound the game can play",
    ),
    "huge file": (
        {"your_turn": "big.wav"},
        {"big.wav": b"\0" * (MAX_FILE_BYTES + 1)},
        "the file big.wav for the cue your_turn is larger than 1000 kilobytes",
    ),
    "path outside": (
        {"your_turn": "../elsewhere.wav"},
        {},
        "the file ../elsewhere.wav for the cue your_turn is outside the pack's folder",
    ),
    "absolute path": (
        {"your_turn": "/etc/hostname"},
        {},
        "the file /etc/hostname for the cue your_turn is outside the pack's folder",
    ),
    "manifest that does not parse": ('{"cues": {"your_turn": ', {}, "its pack.json does not parse"),
    "no cues table": ('{"name": "x"}', {}, 'its pack.json has no "cues" table'),
    "not a cue": ({"fanfare": "a.wav"}, {}, "fanfare in its pack.json is not a cue"),
}


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_pack_gets_one_sentence_and_the_default(data: Path, kind: str) -> None:
    cues, files, reason = BAD[kind]
    folder = _pack("broken", cues, files)
    (folder.parent / "elsewhere.wav").write_bytes(render_earcon("chat"))  # exists, but outside
    loaded = load_pack("broken")
    assert loaded.name == DEFAULT_PACK
    assert loaded.problem is not None and loaded.problem.startswith(
        f"The sound pack broken cannot be used: {reason}"
    )
    assert loaded.problem.endswith(". The default sounds play instead.")
    assert loaded.problem.count(". ") == 1  # one sentence, then what happens
    assert set(loaded.origin.values()) == {DEFAULT_PACK}
    player = SoundPlayer(None, pack="broken")
    assert player.pack_problem == loaded.problem and player.problems == []
    assert player._samples["your_turn"] == decode_wav(render_earcon("your_turn"))


def test_a_pack_that_is_not_there_is_said_with_the_packs_there_are(data: Path) -> None:
    loaded = load_pack("../../etc")
    assert loaded.name == DEFAULT_PACK
    assert loaded.problem == (
        "There is no sound pack named ../../etc. The default sounds play. Packs: default."
    )


@pytest.mark.real
def test_the_chosen_pack_plays_through_the_output_and_a_bad_one_is_said(data: Path) -> None:
    from fivecrowns.output import create_output
    from fivecrowns.storage.settings import OutputSettings

    bell = render_earcon("game_over")
    folder = _pack("soft", {"discard": "bell.wav"}, {"bell.wav": bell})
    settings = OutputSettings(sound_pack="soft")
    output, reason = create_output("none", settings=settings, audio="null")
    with output:
        assert output.sounds is not None and output.sounds.pack == "soft", reason
        playback = output.sounds.play("discard")
        assert playback is not None and len(playback.samples) == len(decode_wav(bell))
    (folder / "bell.wav").write_bytes(b"RIFF nonsense")
    output, reason = create_output("none", settings=settings, audio="null", sound_pack="soft")
    with output:
        assert output.sounds is not None and output.sounds.pack == DEFAULT_PACK
        assert "The sound pack soft cannot be used: the file bell.wav" in reason
        assert output.sounds.play("discard") is not None  # never silence


@pytest.mark.real
def test_each_kind_of_cue_has_its_own_volume() -> None:
    mixer = Mixer("null")
    try:
        player = SoundPlayer(mixer, volume=1.0, volumes={"others": 0.5, "alerts": 0.0})
        own = player.play("discard")
        other = player.play("other_discard")
        assert own is not None and other is not None
        assert max(other.samples) == pytest.approx(
            max(decode_wav(render_earcon("other_discard"))) * 0.5, abs=1
        )
        assert max(own.samples) == max(decode_wav(render_earcon("discard")))
        assert player.play("your_turn") is None  # alerts at 0
        player.muted = True
        assert player.play("discard") is None  # mute-all
    finally:
        mixer.close()
