"""The earcons: the default pack in the top-level sounds/ is what the generator makes, and
each plays on miniaudio's NULL backend (a real device that needs no sound card)."""

from __future__ import annotations

import io
import subprocess
import sys
import time
import wave
from pathlib import Path

import pytest

from fivecrowns.output.audio import SAMPLE_RATE, Mixer, SoundPlayer, decode_wav
from fivecrowns.output.earcons import render_all, render_earcon
from fivecrowns.output.sounds import SOUND_NAMES, SOUNDS, sounds_dir

ROOT = Path(__file__).resolve().parents[2]
MADE = render_all()


def test_every_sound_file_is_what_the_generator_makes() -> None:
    # the checkout's top-level sounds/ is the one source (the wheel's build copies it in)
    assert Path(str(sounds_dir())) == ROOT / "sounds" / "default"
    assert not list((ROOT / "src" / "fivecrowns").glob("sounds/**/*.wav"))  # nothing kept twice
    made = MADE
    assert sorted(made) == sorted(SOUND_NAMES)
    for name, data in made.items():
        assert (sounds_dir() / f"{name}.wav").read_bytes() == data, name
    files = [p.name for p in sounds_dir().iterdir() if p.name.endswith(".wav")]
    assert sorted(files) == sorted(f"{name}.wav" for name in SOUND_NAMES)


def test_the_generator_is_deterministic_and_its_check_mode_agrees() -> None:
    assert render_earcon("shuffle") == render_earcon("shuffle")
    result = subprocess.run(
        [sys.executable, str(ROOT / "sounds" / "make_sounds.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", SOUND_NAMES)
def test_earcons_are_short_clear_and_distinct(name: str) -> None:
    with wave.open(io.BytesIO(MADE[name])) as file:
        assert (file.getnchannels(), file.getsampwidth(), file.getframerate()) == (1, 2, 22050)
        seconds = file.getnframes() / file.getframerate()
    samples = decode_wav(MADE[name])
    assert 0.1 <= seconds <= 1.2
    peak = max(abs(sample) for sample in samples)
    # another player's moves are softer than the rest; nothing is loud
    low = 0.35 if name.startswith("other_") else 0.5
    assert low * 32767 < peak < 0.7 * 32767
    others = [MADE[other] for other in SOUND_NAMES if other != name]
    assert MADE[name] not in others


def test_every_sound_has_a_spoken_meaning() -> None:
    for sound in SOUNDS.values():
        assert sound.meaning.endswith(".") and len(sound.meaning.split()) >= 3


@pytest.fixture
def null_mixer() -> object:
    mixer = Mixer("null")
    yield mixer
    mixer.close()


@pytest.mark.real
def test_every_earcon_plays_to_the_end_on_the_null_backend(null_mixer: Mixer) -> None:
    assert null_mixer.backend_name == "Null"
    player = SoundPlayer(null_mixer, volume=1.0)
    assert player.problems == []
    for name in SOUND_NAMES:
        started = time.perf_counter()
        playback = player.play(name)
        assert playback is not None
        returned = time.perf_counter() - started
        assert returned < 0.05, "play() must not block"
        assert playback.wait(timeout=5), name
        assert not playback.stopped
        assert playback.position == len(playback.samples)
        # The device pulls samples in real time, so a sound lasts about its length.
        assert time.perf_counter() - started >= 0.5 * playback.seconds


@pytest.mark.real
def test_sounds_mix_stop_mute_and_volume(null_mixer: Mixer) -> None:
    player = SoundPlayer(null_mixer, volume=0.5)
    long = player.play("game_over")
    short = player.play("discard")
    assert long is not None and short is not None
    assert null_mixer.playing("sound")
    assert short.wait(timeout=5) and not short.stopped
    player.stop()
    assert long.wait(timeout=1) and long.stopped
    loud = decode_wav(MADE["game_over"])
    assert max(long.samples) == pytest.approx(max(loud) * 0.5, abs=1)
    player.muted = True
    assert player.play("discard") is None
    player.muted = False
    player.volume = 0.0
    assert player.play("discard") is None


def test_a_missing_sound_file_is_made_in_memory(tmp_path: Path) -> None:
    player = SoundPlayer(None, directory=tmp_path)
    assert len(player.problems) == len(SOUND_NAMES)
    assert player.play("your_turn") is None  # no device: silent, no error


def test_sample_rate_matches_the_generator() -> None:
    assert SAMPLE_RATE == 22050


def test_missing_sound_files_are_made_in_memory_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivecrowns.install import reinstall_command
    from fivecrowns.output import create_output
    from fivecrowns.output.sounds import sound_files_status

    monkeypatch.setenv("FIVECROWNS_SOUNDS_DIR", str(tmp_path))
    monkeypatch.setenv("FIVECROWNS_AUDIO", "null")
    (tmp_path / "discard.wav").write_bytes(MADE["discard"])
    count = len(SOUND_NAMES)
    assert sound_files_status().startswith(f"Sounds: 1 of {count} sound files found in {tmp_path};")
    output, reason = create_output("none", sounds=True)
    with output:
        assert (
            f"{count - 1} sound files were missing and were made in memory; "
            f"install the game again with: {reinstall_command()}."
        ) in reason


@pytest.mark.parametrize("page", ["docs/accessibility.md", "docs/es/accessibility.md"])
def test_the_docs_list_every_sound_and_how_to_make_a_pack(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    section = text.split("\n## Sounds\n" if "/es/" not in page else "\n## Sonidos\n")[1]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    listed = [row.split("`")[1] for row in rows]
    assert listed == list(SOUND_NAMES)
    if page == "docs/accessibility.md":
        for row, sound in zip(rows, SOUNDS.values(), strict=True):
            assert row.rstrip(" |").endswith(sound.meaning), row
    assert "pack.json" in text and "--sounds" in text and '"sound_pack"' in text
