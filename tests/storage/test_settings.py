"""The settings file (storage/settings.py): one that cannot be read is never overwritten, a
save keeps the sections and keys it did not touch, and two copies saving at once lose nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivecrowns.cli import main
from fivecrowns.storage.paths import settings_path

SETTINGS_BREAKERS = [
    '{"keys": {"draw": ["d", "F5"],}}',  # a trailing comma in hand-written keys
    "\xff\xfe binary",
    "[1, 2]",
    '{"play": {"delay": 1' + "0" * 5000 + "}}",
]


@pytest.mark.parametrize("text", SETTINGS_BREAKERS)
def test_a_settings_file_that_cannot_be_read_is_never_overwritten(text, capsys) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("latin-1"))
    assert main(["speech", "--mute", "--save"]) == 1
    err = capsys.readouterr().err
    assert f"The settings file {path} was not changed, because it cannot be read" in err
    assert "Traceback" not in err
    assert path.read_bytes() == text.encode("latin-1")


def test_a_settings_save_keeps_the_keys_it_did_not_touch(capsys) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"keys": {"draw": ["d", "F5"]}, "output": {"tts_rate": 200}}')
    assert main(["speech", "--mute", "--save"]) == 0
    data = json.loads(path.read_text())
    assert data["keys"] == {"draw": ["d", "F5"]}
    assert data["output"]["tts_rate"] == 200 and data["output"]["sound_muted"] is True


def test_a_settings_save_waits_for_another_and_keeps_its_change(tmp_path: Path) -> None:
    """While one copy holds the settings file (read, change, write), a second copy's
    save waits for it, then keeps both changes (without the lock one was lost)."""
    import time

    from fivecrowns.storage.settings import _settings_lock

    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"keys": {"draw": "d"}, "output": {"tts_rate": 170}}')
    env = {**os.environ, "FIVECROWNS_CONFIG_DIR": str(path.parent)}
    with _settings_lock(path):
        second = subprocess.Popen(
            [sys.executable, "-m", "fivecrowns", "speech", "--mute", "--save"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline and second.poll() is None:
            time.sleep(0.05)
        assert second.poll() is None  # it waits for the lock
        path.write_text('{"keys": {"draw": "d"}, "output": {"tts_rate": 170, "tts_volume": 0.3}}')
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    data = json.loads(path.read_text())
    assert data["keys"] == {"draw": "d"}
    assert data["output"]["tts_rate"] == 170
    assert data["output"]["tts_volume"] == 0.3
    assert data["output"]["sound_muted"] is True
