"""The web client's files, served by the game server itself (docs/web.md).

The page, its style sheet and its JavaScript modules are package data (``fivecrowns/web``),
read with importlib.resources; the sounds are the operator's chosen pack, loaded once at the
start (fivecrowns.output.packs: the default pack fills its gaps), served by cue name only:
no build step and nothing outside the installed package. Only names that exist in
those folders are served; anything else is a plain 404.

The page's own sentences are marked in its JavaScript (``_``, ``ngettext``, ``pgettext``,
``N_``) and extracted into the game's catalog with Babel like the Python ones
(scripts/i18n.py); ``/web/i18n/es.json`` serves their translations from the compiled
catalog, and the page picks its language from the browser's (docs/web.md).
"""

from __future__ import annotations

import io
import json
import logging
import re
from functools import cache
from importlib import resources
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from aiohttp import web

from fivecrowns.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    ngettext,
    normalise_language,
    npgettext,
    pgettext,
    speaking,
)
from fivecrowns.i18n import gettext as _
from fivecrowns.output.packs import LoadedPack

__all__ = [
    "SOUND_PACKS",
    "accepted_language",
    "add_web_routes",
    "offered_packs",
    "page_messages",
    "sound_manifest",
]

log = logging.getLogger(__name__)

_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
    ".wav": "audio/wav",
}
NO_SUCH_FILE = N_("There is no such file here.")
_NAME = re.compile(r"^[a-z0-9_-]{1,40}\.(html|css|js|svg|wav)$")
# why these headers: the page's own files only, nothing inline, and no framing by other sites;
# on every response, 404s and refusals included (a browser may render any of them)
_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; media-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
}
_HEADERS = {**_SECURITY_HEADERS, "Cache-Control": "no-cache"}
# why not aiohttp's own: "Python/3.11 aiohttp/3.14" tells an attacker which bugs to try
SERVER_HEADER = "fivecrowns"


def _load(folder: str, name: str) -> bytes | None:
    if not _NAME.match(name):
        return None
    path = resources.files("fivecrowns").joinpath(folder, name)
    try:
        return path.read_bytes()
    except OSError:
        return None


def _not_found(request: web.Request) -> web.HTTPNotFound:
    """A plain 404 in the language the browser asks for."""
    with speaking(accepted_language(request.headers.get("Accept-Language", ""))):
        return web.HTTPNotFound(text=_(NO_SUCH_FILE) + "\n")


def _response(request: web.Request, folder: str, name: str) -> web.Response:
    body = _load(folder, name)
    if body is None:
        raise _not_found(request)
    suffix = name[name.rindex(".") :]
    return web.Response(body=body, content_type=_TYPES[suffix], headers=_HEADERS)


async def _page(request: web.Request) -> web.Response:
    return _response(request, "web", "index.html")


async def _file(request: web.Request) -> web.Response:
    return _response(request, "web", request.match_info["name"])


#: The sound packs the page may play, the operator's (``serve --sounds PACK``) first: every
#: usable pack in the game data folder's ``sounds`` folder (fivecrowns.output.packs).
SOUND_PACKS = web.AppKey("sound_packs", dict)
_AUDIO_TYPES = {
    ".wav": "audio/wav",
    ".ogg": "audio/ogg",
    ".mp3": "audio/mpeg",
    ".flac": "audio/flac",
}


def _packs(request: web.Request) -> dict[str, LoadedPack]:
    packs: dict[str, LoadedPack] = request.app[SOUND_PACKS]
    return packs


def _cue_url(pack: str, cue: str, file: str) -> str:
    """Where the page fetches a cue: the pack's and the cue's names and the file's kind,
    never the file's own name."""
    return f"/sounds/{quote(pack, safe='')}/{cue}{PurePosixPath(file).suffix.lower()}"


def _cue_response(request: web.Request, pack: LoadedPack | None, name: str) -> web.Response:
    cue, dot, suffix = name.partition(".")
    # why a fixed list: only an offered pack's cues, by the cue's name, never a file name the
    # request makes up (no pack's folder is ever searched)
    found = None if pack is None else pack.files.get(cue)
    if pack is None or found is None or not found[1]:
        raise _not_found(request)
    if PurePosixPath(found[0]).suffix.lower() != f"{dot}{suffix}":
        raise _not_found(request)
    kind = _AUDIO_TYPES[PurePosixPath(found[0]).suffix.lower()]
    return web.Response(body=found[1], content_type=kind, headers=_HEADERS)


async def _sound(request: web.Request) -> web.Response:
    """``/sounds/CUE.wav``: a cue of the operator's pack."""
    operator = next(iter(_packs(request).values()))
    return _cue_response(request, operator, request.match_info["name"])


async def _pack_sound(request: web.Request) -> web.Response:
    """``/sounds/PACK/CUE.wav``: a cue of an offered pack."""
    pack = _packs(request).get(request.match_info["pack"])
    return _cue_response(request, pack, request.match_info["name"])


def sound_manifest(packs: dict[str, LoadedPack], pack: LoadedPack, language: str) -> bytes:
    """The pack's cues for the web page in ``language`` as JSON: each cue's name, kind, file,
    label and meaning; which cue goes with which event (fivecrowns.words.cues); and the names
    of every pack offered (``packs``, the operator's first)."""
    from fivecrowns.output.sounds import SOUNDS
    from fivecrowns.words.cues import EVENT_CUES, REFUSED, TABLE_KINDS

    with speaking(language):
        cues = [
            {
                "name": sound.name,
                "kind": sound.kind,
                "url": _cue_url(pack.name, sound.name, pack.files[sound.name][0]),
                "label": _(sound.label),
                "meaning": _(sound.meaning),
            }
            for sound in SOUNDS.values()
            if pack.files.get(sound.name, ("", b""))[1]
        ]
    manifest = {
        "pack": pack.name,
        "packs": list(packs),
        "cues": cues,
        "events": {kind: list(cues) for kind, cues in EVENT_CUES.items()},
        "table_kinds": sorted(TABLE_KINDS),
        "refused": REFUSED,
    }
    return json.dumps(manifest, ensure_ascii=False).encode()


async def _manifest(request: web.Request) -> web.Response:
    """``/sounds/pack/LANGUAGE.json``, the operator's pack; ``?pack=NAME`` another offered."""
    language = request.match_info["language"]
    packs = _packs(request)
    name = request.query.get("pack")
    pack = next(iter(packs.values())) if name is None else packs.get(name)
    if language not in LANGUAGES or pack is None:
        raise _not_found(request)
    body = sound_manifest(packs, pack, language)
    return web.Response(body=body, content_type="application/json", headers=_HEADERS)


def offered_packs(name: str | None) -> dict[str, LoadedPack]:
    """The operator's pack ``name`` (missing or bad: the default, with one log line), then
    every other usable pack in the data folder (a bad one: left out, with one log line)."""
    from fivecrowns.output.packs import load_pack, pack_names

    chosen = load_pack(name)
    if chosen.problem:
        log.warning("%s", chosen.problem)
    packs = {chosen.name: chosen}
    for other in pack_names():
        if other in packs or other == name:  # why the name: said once already, above
            continue
        pack = load_pack(other)
        if pack.problem:
            log.warning("%s", pack.problem)
        else:
            packs[other] = pack
    return packs


def accepted_language(header: str) -> str:
    """The first language in an Accept-Language header that the game speaks, else English.

    >>> accepted_language("es-ES,es;q=0.9,en;q=0.8"), accepted_language("fr, es;q=0.5")
    ('es', 'es')
    >>> accepted_language("fr, de"), accepted_language(""), accepted_language("en, es")
    ('en', 'en', 'en')
    """
    ranked: list[tuple[float, int, str]] = []
    # why bounded: a header is the client's; 20 entries are more than any browser sends
    for index, part in enumerate(header.split(",")[:20]):
        code, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        found = normalise_language(code.strip()[:16])
        if found is not None and weight > 0:
            ranked.append((-weight, index, found))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


@cache
def _page_sentences() -> tuple[tuple[Any, ...], ...]:
    """Every sentence marked in the page's JavaScript: (function, context, message(s))."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_javascript

    found: list[tuple[Any, ...]] = []
    folder = resources.files("fivecrowns").joinpath("web")
    for name in sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".js")):
        body = _load("web", name)
        if body is None:
            continue
        for _line, function, message, _comments in extract_javascript(
            io.BytesIO(body), DEFAULT_KEYWORDS, (), {}
        ):
            found.append((function, message))
    return tuple(found)


@cache
def page_messages(language: str) -> bytes:
    """The page's sentences in ``language`` as JSON: ``{"language", "messages"}``, where a
    message is keyed by its English text (``context\u0004text`` with a context) and a plural
    has its two forms (English and Spanish both have two: one, and every other number)."""
    messages: dict[str, Any] = {}
    with speaking(language):
        for function, message in _page_sentences():
            if function in ("_", "gettext", "N_"):
                messages[message] = _(message)
            elif function == "ngettext":
                singular, plural = message[0], message[1]
                messages[singular] = [ngettext(singular, plural, 1), ngettext(singular, plural, 2)]
            elif function == "pgettext":
                context, text = message
                messages[f"{context}\u0004{text}"] = pgettext(context, text)
            elif function == "npgettext":
                context, singular, plural = message
                messages[f"{context}\u0004{singular}"] = [
                    npgettext(context, singular, plural, 1),
                    npgettext(context, singular, plural, 2),
                ]
    return json.dumps({"language": language, "messages": messages}, ensure_ascii=False).encode()


async def _messages(request: web.Request) -> web.Response:
    language = request.match_info["language"]
    if language not in LANGUAGES:
        raise _not_found(request)
    return web.Response(
        body=page_messages(language), content_type="application/json", headers=_HEADERS
    )


async def _every_response(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Server"] = SERVER_HEADER
    response.headers.update(_SECURITY_HEADERS)


def add_web_routes(app: web.Application, sounds: str | None = None) -> None:
    """``/`` the page, ``/web/NAME`` its files, ``/sounds/CUE.wav`` (or the pack's file kind)
    the cues of the sound pack ``sounds`` (default: the default pack), ``/sounds/PACK/CUE.wav``
    those of any pack offered, ``/sounds/pack/LANGUAGE.json`` a pack's list,
    ``/web/i18n/LANGUAGE.json`` the page's sentences in a language; every response of ``app``
    gets the security headers and a ``Server`` header without versions."""
    app[SOUND_PACKS] = offered_packs(sounds)
    app.on_response_prepare.append(_every_response)
    app.router.add_get("/", _page)
    app.router.add_get("/web/i18n/{language}.json", _messages)
    app.router.add_get("/web/{name}", _file)
    app.router.add_get("/sounds/pack/{language}.json", _manifest)
    app.router.add_get("/sounds/{name}", _sound)
    app.router.add_get("/sounds/{pack}/{name}", _pack_sound)
