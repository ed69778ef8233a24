"""Installed as a Python user installs it: the wheel, in a fresh environment outside the repository.

Builds the wheel, installs it (with the pinned dependencies) into a new virtual
environment in a temporary folder, and runs the installed ``fivecrowns`` from
there: --version, speech --list, solve, export --format brf (through the louis
module and through the lou_translate fallback) and a short line-mode game in
tmux. The environment is made without --system-site-packages, so Debian's
louis and speechd are reached only through fivecrowns.system_modules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from fivecrowns.output.sounds import SOUND_NAMES
from output_support import require
from tmux_support import terminal

pytestmark = [pytest.mark.real, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "support" / "golden" / "export"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> str:
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _source_copy(destination: Path) -> Path:
    """The project's files copied to ``destination``, to build from there.

    why: setuptools writes build/ and the egg-info inside the tree it builds, so the 3.12 and
    3.13 suites that CI runs side by side broke each other's wheel building in the checkout.
    """
    shutil.copytree(
        ROOT,
        destination,
        ignore=shutil.ignore_patterns(
            ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "*.so"
        ),
    )
    return destination


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """(the fresh environment's bin folder, the environment variables to run it with)."""
    require(shutil.which("tmux") is not None, "tmux is not installed")
    work = tmp_path_factory.mktemp("install")
    assert not work.resolve().is_relative_to(ROOT)  # outside the repository
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(work / "home"),
        "LANG": "C.UTF-8",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_CONSTRAINT": str(ROOT / "constraints.txt"),  # the tested set, as CI installs it
        "FIVECROWNS_DATA_DIR": str(work / "data"),
        "FIVECROWNS_CONFIG_DIR": str(work / "config"),
        "FIVECROWNS_AUDIO": "null",
        # why: a speech-dispatcher that is not there answers at once instead of autospawning.
        "SPEECHD_ADDRESS": "unix_socket:" + str(work / "no-speechd"),
    }
    for name in ("PIP_CACHE_DIR", "XDG_CACHE_HOME"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.setdefault("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
    dist = work / "dist"
    source = _source_copy(work / "source")
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(source)], work, env)
    (wheel,) = dist.glob("fivecrowns-*.whl")
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], work, env)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", str(wheel)], work, env)
    yield venv / "bin", env


def test_the_wheel_carries_the_sounds_the_web_client_and_the_license(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    source = _source_copy(tmp_path / "source")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(source)],
        capture_output=True,
        check=True,
        timeout=300,
    )
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # the default pack, copied in by the build from the top-level sounds/ (the one source)
    sounds = sorted(n.removeprefix("fivecrowns/sounds/") for n in names if "/sounds/" in n)
    source = sorted(f"default/{p.name}" for p in (ROOT / "sounds" / "default").iterdir())
    assert sounds == source and "default/pack.json" in sounds
    assert len([n for n in sounds if n.endswith(".wav")]) == len(SOUND_NAMES)
    # the web client the server serves at / (no build step: the files as they are)
    web = sorted(
        n.removeprefix("fivecrowns/web/") for n in names if n.startswith("fivecrowns/web/")
    )
    shipped = sorted(p.name for p in (ROOT / "src" / "fivecrowns" / "web").iterdir())
    assert web == shipped and "index.html" in web and "app.js" in web
    assert f"fivecrowns-{VERSION}.dist-info/licenses/LICENSE" in names
    # the solver's compiled search, built for this Python, and its types
    assert any(n.startswith("fivecrowns/core/melds/_melds_c.") and n.endswith(".so") for n in names)
    assert "fivecrowns/core/melds/_melds_c.pyi" in names


def test_the_sdist_installs_without_a_c_compiler_and_solves_in_pure_python(
    tmp_path: Path,
) -> None:
    """setup.py's extension is optional: a compiler that fails leaves the pure-Python search."""
    dist = tmp_path / "dist"
    source = _source_copy(tmp_path / "source")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path / "home"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_CONSTRAINT": str(ROOT / "constraints.txt"),
        "CC": "false",  # every compile fails at once, as where no C compiler is installed
    }
    for name in ("PIP_CACHE_DIR", "XDG_CACHE_HOME"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.setdefault("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
    _run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(dist), str(source)],
        tmp_path,
        env,
    )
    (sdist,) = dist.glob("fivecrowns-*.tar.gz")
    with tarfile.open(sdist) as archive:
        shipped = archive.getnames()
    assert any(n.endswith("src/fivecrowns/core/melds/_melds_c.c") for n in shipped)
    # the sound packs' one source and its generator, not a copy inside the package
    assert any(n.endswith("/sounds/default/pack.json") for n in shipped)
    assert any(n.endswith("/sounds/make_sounds.py") for n in shipped)
    assert not [n for n in shipped if "/src/fivecrowns/sounds/" in n]
    assert not [n for n in shipped if n.endswith(".so")]
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    # why --no-deps: the solver needs only the standard library, and this keeps the test short
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-v", "--no-deps", str(sdist)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    said = result.stdout + result.stderr
    assert result.returncode == 0, said
    assert (
        'building extension "fivecrowns.core.melds._melds_c" failed' in said
    )  # tried, and went on
    code = (
        "from fivecrowns.core.melds import solver as melds; "
        "from fivecrowns.core.cards import parse_cards, Rank; "
        "print(melds._C is None, melds.least_leftover_with_discard("
        "parse_cards('3h 6c 7st 7st 7h 7h 7c 7c 7sp 7sp 7d 7d 10c Ksp'), Rank.THREE))"
    )
    assert _run([str(venv / "bin" / "python"), "-c", code], tmp_path, env) == "True 10\n"
    # installed from the sdist, the package has the default pack the build copied in
    where = (
        "from fivecrowns.output.sounds import sounds_dir; d = sounds_dir(); "
        "print((d / 'pack.json').is_file(), 'site-packages' in str(d))"
    )
    assert _run([str(venv / "bin" / "python"), "-c", where], tmp_path, env) == "True True\n"


def test_version_speech_list_and_solve(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, env = installed
    fivecrowns = str(bin_dir / "fivecrowns")
    assert _run([fivecrowns, "--version"], tmp_path, env) == f"fivecrowns {VERSION}\n"
    listed = _run([fivecrowns, "speech", "--list"], tmp_path, env)
    package_sounds = bin_dir.parent / "lib"
    sounds_line = next(line for line in listed.splitlines() if line.startswith("Sounds:"))
    count = len(SOUND_NAMES)
    assert sounds_line.startswith(f"Sounds: {count} of {count} sound files found in ")
    assert sounds_line.split(" found in ", 1)[1].startswith(str(package_sounds))
    assert "Braille export: available. liblouis " in listed
    # The sound player loads every file from the package: nothing made again in memory.
    code = (
        "from fivecrowns.output.audio import SoundPlayer; p = SoundPlayer(None); "
        "from fivecrowns.output.sounds import sounds_dir; "
        "print(len(p._samples), p.problems, (sounds_dir() / 'pack.json').is_file())"
    )
    said = _run([str(bin_dir / "python"), "-c", code], tmp_path, env)
    assert said == f"{count} [] True\n"
    solved = _run(
        [fivecrowns, "solve", "--round", "3", "7h", "8h", "9h", "jk", "Qd"], tmp_path, env
    )
    assert "A run of 7, 8, 9, 10 of hearts using a joker for the 10" in solved
    assert solved.endswith("Leftover points: 12.\n")


def test_braille_export_through_the_module_and_the_lou_translate_fallback(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, env = installed
    golden = (GOLDEN / "seed7-3p-scores.brf").read_bytes()
    arguments = ["export", "--seed", "7", "--players", "3", "--format", "brf"]
    out = tmp_path / "scores.brf"
    _run([str(bin_dir / "fivecrowns"), *arguments, "--out", str(out)], tmp_path, env)
    assert out.read_bytes() == golden
    # Without the louis module (a system without python3-louis): lou_translate, same braille.
    hidden = (
        "import sys; sys.modules['louis'] = None; from fivecrowns.cli import main; "
        f"raise SystemExit(main({[*arguments, '--out', str(tmp_path / 'fallback.brf')]!r}))"
    )
    _run([str(bin_dir / "python"), "-c", hidden], tmp_path, env)
    assert (tmp_path / "fallback.brf").read_bytes() == golden
    status = (
        "import sys; sys.modules['louis'] = None; "
        "from fivecrowns.export import liblouis_status; print(liblouis_status())"
    )
    said = _run([str(bin_dir / "python"), "-c", status], tmp_path, env)
    assert "through the lou_translate program" in said


def test_a_short_line_mode_game_in_tmux(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, _ = installed
    options = ("--line", "--seed", "7", "--delay", "0")
    with terminal(tmp_path, *options, command_path=str(bin_dir / "fivecrowns")) as t:
        t.wait_said(r"This is your last turn\.")
        assert "Traceback" not in t.screen()
        t.keys("Right", "w")
        t.wait_said(r"Round 1 of 11\. 3s are wild, and jokers\.")
        t.keys("d")
        t.wait_said(r"You drew the ")
        t.keys("Enter")
        t.wait_said(r"Round 1 over\..*Totals: ")
        t.keys("q", "y")
        t.wait_said(r"Saved\. Goodbye\.")
        t.wait_exit()
        said = t.said()
        assert "[sound] discard" in said or "[sound] round_over" in said
        assert "Traceback" not in t.screen()
