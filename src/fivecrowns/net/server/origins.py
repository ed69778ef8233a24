"""Which web pages may open a WebSocket to the game server: the ``Origin`` check on ``/ws``.

A browser sends the page's origin with every WebSocket handshake and lets any page open one
to any address, ``ws://127.0.0.1:8765/ws`` included; without this check a page a player
visited could play, chat or flood in their name. The server's own page (same origin) is
always let in, and ``serve --allow-origin`` adds others.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

__all__ = ["ANY_ORIGIN", "origin_allowed"]

ANY_ORIGIN = "*"  # ``--allow-origin '*'``: every page may connect (the old behaviour)
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """Whether a handshake with this ``Origin`` header to this ``Host`` is let in.

    >>> origin_allowed("http://127.0.0.1:8765", "127.0.0.1:8765", ())
    True
    >>> origin_allowed("https://cards.example", "CARDS.example", ())  # behind a TLS proxy
    True
    >>> origin_allowed("http://evil.example", "127.0.0.1:8765", ())
    False
    >>> origin_allowed("http://evil.example", "127.0.0.1:8765", ["http://evil.example/"])
    True
    >>> origin_allowed(None, "127.0.0.1:8765", ())
    True
    """
    # why a handshake without Origin is let in: browsers always send one, so it comes from a
    # program (the terminal client, a bot), which could send any Origin it liked anyway
    if origin is None:
        return True
    if ANY_ORIGIN in allowed:
        return True
    given = _normal(origin)
    if given is None:  # "null" (a sandboxed frame, a file), or nothing like an origin
        return False
    if any(_normal(other) == given for other in allowed):
        return True
    # why the host and not the scheme: behind a TLS proxy the page is https:// while this
    # server hears plain HTTP, with the Host header the browser sent
    return host is not None and given[1] == _host_port(host.strip().lower(), given[0])


def _normal(origin: str) -> tuple[str, str] | None:
    """``(scheme, host:port)`` of an origin, lower case, the scheme's default port written
    out; None if it is not one."""
    try:
        parts = urlsplit(origin.strip().lower())
        parts.port  # noqa: B018  (why: raises ValueError on a port that is no number)
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, _host_port(parts.netloc.rpartition("@")[2], parts.scheme)


def _host_port(netloc: str, scheme: str) -> str:
    """``host:port``, with the scheme's default port when ``netloc`` names none."""
    _host, colon, port = netloc.rpartition(":")
    if colon and port.isdigit() and not netloc.endswith("]"):  # "[::1]" has colons, no port
        return netloc
    return f"{netloc}:{_DEFAULT_PORTS[scheme]}"
