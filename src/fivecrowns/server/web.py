"""The web client's files, served by the game server itself (docs/web.md).

The page, its style sheet, its JavaScript modules and the earcons are package
data (``fivecrowns/web`` and ``fivecrowns/sounds``), read with importlib.resources:
no build step and nothing outside the installed package. Only names that exist in
those folders are served; anything else is a plain 404.
"""

from __future__ import annotations

import re
from importlib import resources

from aiohttp import web

__all__ = ["add_web_routes"]

_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
    ".wav": "audio/wav",
}
_NAME = re.compile(r"^[a-z0-9_-]{1,40}\.(html|css|js|svg|wav)$")
# why these headers: the page's own files only, nothing inline, and no framing by other sites
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; media-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def _load(folder: str, name: str) -> bytes | None:
    if not _NAME.match(name):
        return None
    path = resources.files("fivecrowns").joinpath(folder, name)
    try:
        return path.read_bytes()
    except OSError:
        return None


def _response(folder: str, name: str) -> web.Response:
    body = _load(folder, name)
    if body is None:
        raise web.HTTPNotFound(text="There is no such file here.\n")
    suffix = name[name.rindex(".") :]
    return web.Response(body=body, content_type=_TYPES[suffix], headers=_HEADERS)


async def _page(request: web.Request) -> web.Response:
    return _response("web", "index.html")


async def _file(request: web.Request) -> web.Response:
    return _response("web", request.match_info["name"])


async def _sound(request: web.Request) -> web.Response:
    return _response("sounds", request.match_info["name"])


def add_web_routes(app: web.Application) -> None:
    """``/`` the page, ``/web/NAME`` its files, ``/sounds/NAME.wav`` the earcons."""
    app.router.add_get("/", _page)
    app.router.add_get("/web/{name}", _file)
    app.router.add_get("/sounds/{name}", _sound)
