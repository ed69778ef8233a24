"""The sound pack the server offers the web page (``serve --sounds PACK``): its list, its
files by cue name only, the default for a bad or missing pack with one log line, and the
page's Content-Security-Policy unchanged."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fivecrowns.output.sounds import SOUND_NAMES, sounds_dir
from fivecrowns.words.cues import EVENT_CUES
from server_support import ServerProcess

#: The page's policy as it was before sound packs: nothing inline, nothing from elsewhere.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; media-src 'self'; frame-ancestors 'none'"
)


def _get_all(base: str, paths: list[str]) -> list[tuple[int, str, str, bytes]]:
    async def main() -> list[tuple[int, str, str, bytes]]:
        out = []
        async with aiohttp.ClientSession() as session:
            for path in paths:
                async with session.get(base + path) as response:
                    csp = response.headers.get("Content-Security-Policy", "")
                    out.append((response.status, response.content_type, csp, await response.read()))
        return out

    return asyncio.run(main())


def _serve(data_home: Path, monkeypatch: pytest.MonkeyPatch, *sounds: str) -> ServerProcess:
    monkeypatch.setenv("FIVECROWNS_DATA_DIR", str(data_home))
    return ServerProcess(None, "--rate", "1000", *sounds).start()


def _manifest(base: str, language: str = "en", query: str = "") -> dict[str, Any]:
    status, kind, csp, body = _get_all(base, [f"/sounds/pack/{language}.json{query}"])[0]
    assert (status, kind, csp) == (200, "application/json", CSP)
    result: dict[str, Any] = json.loads(body)
    return result


def _base(server: ServerProcess) -> str:
    return server.url.replace("ws://", "http://").removesuffix("/ws")


def _pack(home: Path, name: str, manifest: str, files: dict[str, bytes]) -> None:
    folder = home / "sounds" / name
    folder.mkdir(parents=True)
    (folder / "pack.json").write_text(manifest)
    for file, body in files.items():
        (folder / file).write_bytes(body)


def test_the_default_pack_is_listed_with_the_event_table_and_served_by_cue_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = _serve(tmp_path, monkeypatch)
    try:
        base = _base(server)
        manifest = _manifest(base)
        assert manifest["pack"] == "default"
        assert [cue["name"] for cue in manifest["cues"]] == list(SOUND_NAMES)
        assert {kind: tuple(cues) for kind, cues in manifest["events"].items()} == EVENT_CUES
        assert manifest["cues"][0]["meaning"] == "You drew a card from the stock."
        spanish = _manifest(base, "es")
        assert spanish["cues"][0]["meaning"] != manifest["cues"][0]["meaning"]
        answers = _get_all(base, [cue["url"] for cue in manifest["cues"]])
        for cue, (status, kind, csp, body) in zip(manifest["cues"], answers, strict=True):
            assert (status, kind, csp) == (200, "audio/wav", CSP), cue
            assert body == (sounds_dir() / f"{cue['name']}.wav").read_bytes()
        # only the list's cues by their names: no file name, no other kind, no path
        bad = [
            "/sounds/nothing.wav",
            "/sounds/pack.json",
            "/sounds/chat.ogg",
            "/sounds/chat",
            "/sounds/..%2Fpack.json",
            "/sounds/pack/fr.json",
        ]
        for path, (status, _kind, csp, _body) in zip(bad, _get_all(base, bad), strict=True):
            assert (status, csp) == (404, CSP), path
    finally:
        errors = server.stop()
    assert "Traceback" not in errors and "sound pack" not in errors, errors


def test_an_operator_s_pack_is_served_with_the_default_filling_its_gaps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chime = (sounds_dir() / "chat.wav").read_bytes()
    _pack(
        tmp_path, "soft", '{"name": "Soft", "cues": {"your_turn": "bell.wav"}}', {"bell.wav": chime}
    )
    server = _serve(tmp_path, monkeypatch, "--sounds", "soft")
    try:
        base = _base(server)
        manifest = _manifest(base)
        assert manifest["pack"] == "soft"
        urls = {cue["name"]: cue["url"] for cue in manifest["cues"]}
        assert urls["your_turn"] == "/sounds/soft/your_turn.wav"  # the cue's name, not bell.wav
        assert urls["discard"] == "/sounds/soft/discard.wav"
        answers = _get_all(
            base,
            ["/sounds/soft/your_turn.wav", "/sounds/your_turn.wav", "/sounds/soft/discard.wav"],
        )
        assert [(status, body) for status, _kind, _csp, body in answers] == [
            (200, chime),
            (200, chime),  # the operator's pack is also the one without a pack's name
            (200, (sounds_dir() / "discard.wav").read_bytes()),
        ]
        assert _get_all(base, ["/sounds/bell.wav"])[0][0] == 404
        assert _get_all(base, ["/sounds/soft/bell.wav"])[0][0] == 404
    finally:
        errors = server.stop()
    assert "Traceback" not in errors and "sound pack" not in errors, errors


@pytest.mark.parametrize(
    ("name", "manifest", "said"),
    [
        ("broken", "{not json", "The sound pack broken cannot be used"),
        (
            "hollow",
            '{"cues": {"chat": "gone.wav"}}',
            "the file gone.wav for the cue chat is missing",
        ),
        ("nope", None, "There is no sound pack named nope"),
    ],
)
def test_a_bad_or_missing_pack_gives_the_default_and_one_log_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, manifest: str | None, said: str
) -> None:
    if manifest is not None:
        _pack(tmp_path, name, manifest, {})
    server = _serve(tmp_path, monkeypatch, "--sounds", name)
    try:
        base = _base(server)
        assert _manifest(base)["pack"] == "default"
        status, _kind, _csp, body = _get_all(base, ["/sounds/chat.wav"])[0]
        assert (status, body) == (200, (sounds_dir() / "chat.wav").read_bytes())
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
    lines = [line for line in errors.splitlines() if "sound pack" in line]
    assert len(lines) == 1 and said in lines[0], errors


def test_every_usable_pack_in_the_data_folder_is_offered_and_a_bad_one_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chime = (sounds_dir() / "chat.wav").read_bytes()
    _pack(tmp_path, "soft", '{"cues": {"your_turn": "bell.wav"}}', {"bell.wav": chime})
    _pack(tmp_path, "broken", "{not json", {})
    server = _serve(tmp_path, monkeypatch)
    try:
        base = _base(server)
        manifest = _manifest(base)
        assert (manifest["pack"], manifest["packs"]) == ("default", ["default", "soft"])
        soft = _manifest(base, "en", "?pack=soft")
        assert (soft["pack"], soft["packs"]) == ("soft", ["default", "soft"])
        paths = [
            "/sounds/soft/your_turn.wav",
            "/sounds/default/your_turn.wav",
            "/sounds/your_turn.wav",
            "/sounds/broken/chat.wav",
            "/sounds/pack/en.json?pack=broken",
            "/sounds/pack/en.json?pack=..",
            "/sounds/..%2Fsoft/chat.wav",
        ]
        answers = [(status, body) for status, _kind, _csp, body in _get_all(base, paths)]
        default = (sounds_dir() / "your_turn.wav").read_bytes()
        assert answers[:3] == [(200, chime), (200, default), (200, default)]
        assert [status for status, _body in answers[3:]] == [404, 404, 404, 404]
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
    lines = [line for line in errors.splitlines() if "sound pack" in line]
    assert len(lines) == 1 and "The sound pack broken cannot be used" in lines[0], errors
