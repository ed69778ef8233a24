"""Shared helpers for the output tests: the CI rule for real components, and a headless
Speech Dispatcher whose only output module appends what it is asked to say to a file."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fivecrowns.system_modules import import_system_module

MODULE_DIRS = (
    Path("/usr/lib/speech-dispatcher-modules"),
    Path("/usr/lib/x86_64-linux-gnu/speech-dispatcher-modules"),
    Path("/usr/lib/aarch64-linux-gnu/speech-dispatcher-modules"),
    Path("/usr/libexec/speech-dispatcher-modules"),
)
# Each message takes this long to "speak", so that there is something to interrupt.
SPEAK_SECONDS = 0.3


def require(ok: bool, why: str) -> None:
    """Skip a real-component test when the component is missing, but fail under CI=true."""
    if ok:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"must be installed in CI: {why}")
    pytest.skip(why)


def without_speech_dispatcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No real Speech Dispatcher (the socket does not exist, autospawn fails) and a config
    folder of the test's own; returns that folder."""
    config = tmp_path / "config"
    monkeypatch.setenv("SPEECHD_ADDRESS", "unix_socket:" + str(tmp_path / "no-speechd"))
    monkeypatch.setenv("SPEECHD_CMD", "/bin/false")
    monkeypatch.setenv("FIVECROWNS_CONFIG_DIR", str(config))
    return config


def _module_dir() -> Path | None:
    for directory in MODULE_DIRS:
        if (directory / "sd_generic").is_file():
            return directory
    return None


@dataclass
class SpeechDispatcher:
    """A running headless daemon: its socket and the file its module writes."""

    root: Path
    socket: Path
    spoken_file: Path
    home: Path
    started_file: Path

    @property
    def address(self) -> str:
        return f"unix_socket:{self.socket}"

    def spoken(self) -> list[str]:
        try:
            return self.spoken_file.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []

    def wait_for(self, count: int, timeout: float = 10.0) -> list[str]:
        """The spoken lines once there are ``count`` of them, then a little longer for extras."""
        deadline = time.monotonic() + timeout
        while len(self.spoken()) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(2 * SPEAK_SECONDS)
        return self.spoken()

    def wait_started(self, text: str, timeout: float = 10.0) -> None:
        """Until the output module's command for ``text`` is running."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if text in self.started_file.read_text(encoding="utf-8").splitlines():
                    return
            except FileNotFoundError:
                pass
            assert time.monotonic() < deadline, f"{text!r} never began"
            time.sleep(0.005)

    def clear(self) -> None:
        self.spoken_file.unlink(missing_ok=True)
        self.started_file.unlink(missing_ok=True)


def _speechd_importable() -> bool:
    try:
        import_system_module("speechd")
    except (ImportError, OSError):
        return False
    return True


@contextlib.contextmanager
def speech_dispatcher(root: Path, *, languages: bool = False) -> Iterator[SpeechDispatcher]:
    """Start Speech Dispatcher in ``root`` (HOME, config, socket, log); stop it afterwards.

    With ``languages`` the module knows English and Spanish, and each spoken line starts
    with the language it was spoken in ("es Tu turno.").
    """
    program = shutil.which("speech-dispatcher")
    modules = _module_dir()
    require(program is not None, "speech-dispatcher is not installed (Debian speech-dispatcher)")
    require(modules is not None, "Speech Dispatcher's sd_generic module is not installed")
    require(_speechd_importable(), "the speechd module is not found (Debian python3-speechd)")
    assert program is not None and modules is not None
    home = root / "home"
    config = root / "config"
    log = root / "log"
    for directory in (home, config / "modules", log):
        directory.mkdir(parents=True)
    # ALSA's null device: nothing here may try to reach a sound card.
    (home / ".asoundrc").write_text("pcm.!default { type null }\n", encoding="utf-8")
    spoken = root / "spoken.txt"
    started = root / "started.txt"  # the module's command really runs: speaking has begun
    (config / "speechd.conf").write_text(
        f'LogLevel 3\nLogDir "{log}"\n'
        'AddModule "file" "sd_generic" "file.conf"\n'
        'DefaultModule file\nDefaultLanguage "en"\n'
        'AudioOutputMethod "alsa"\n',  # the null device above, never PulseAudio
        encoding="utf-8",
    )
    # sd_generic fills in only the first $DATA, so keep the text in a variable.
    keep, said = ("L=$LANGUAGE; ", "$L $T") if languages else ("", "$T")
    spanish = 'GenericLanguage "es" "es" "utf-8"\nAddVoice "es" "MALE1" "spanish"\n'
    (config / "modules" / "file.conf").write_text(
        f"GenericExecuteSynth \"set -f; T=\\'$DATA\\'; {keep}echo $T >> "
        f'{started}; sleep {SPEAK_SECONDS}; echo {said} >> {spoken}"\n'
        'GenericLanguage "en" "en" "utf-8"\n'
        'AddVoice "en" "MALE1" "default"\n' + (spanish if languages else ""),
        encoding="utf-8",
    )
    socket = root / "speechd.sock"
    env = {**os.environ, "HOME": str(home), "XDG_RUNTIME_DIR": str(root)}
    process = subprocess.Popen(
        [
            program,
            "--run-single",
            "--timeout", "0",
            "--config-dir", str(config),
            "--module-dir", str(modules),
            "--communication-method", "unix_socket",
            "--socket-path", str(socket),
            "--pid-file", str(root / "speechd.pid"),
            "--log-dir", str(log),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # so that stopping it also stops its output module
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 15
        while not socket.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                logs = " ".join(p.read_text(errors="replace")[-500:] for p in log.glob("*.log"))
                pytest.fail(f"Speech Dispatcher did not start: {logs}")
            time.sleep(0.05)
        yield SpeechDispatcher(root, socket, spoken, home, started)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
