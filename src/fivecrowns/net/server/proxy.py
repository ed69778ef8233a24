"""A server behind a reverse proxy (Caddy, nginx) that ends TLS: each client's own address,
from the ``X-Forwarded-For`` header the proxy sets, so the limits per address
(connections, tables) hold for each player and not for the proxy as a whole.

``serve --trusted-proxy ADDRESS`` names the proxy. Only a connection from it is believed,
and it must name exactly one client address: anyone else's header could be forged, and a
proxy that appends to a client's own header would let that client choose its address. The
work is aiohttp-remotes' ``XForwardedStrict``; this module only words its refusal and keeps
its log short.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Sequence
from typing import NoReturn

from aiohttp import web
from aiohttp_remotes import XForwardedStrict

from fivecrowns.i18n import _, speaking
from fivecrowns.net.server.web import accepted_language

__all__ = ["ProxyHeaders", "proxy_address"]

REMOTES_LOG = "aiohttp_remotes"  # where aiohttp-remotes logs a header it refused


def proxy_address(text: str) -> str:
    """``text`` as an address or network (``10.0.0.0/8``); ``ValueError`` if it is neither."""
    return str(ipaddress.ip_network(text.strip(), strict=False))


class ProxyHeaders(XForwardedStrict):
    """``request.remote`` becomes the client's address the trusted proxy names; a request
    that did not come through it (or names no client, or more than one) gets HTTP 400 with a
    sentence."""

    def __init__(self, proxies: Sequence[str]) -> None:
        super().__init__([list(proxies)])  # one hop: the proxy, then the client
        logger = logging.getLogger(REMOTES_LOG)
        if not any(isinstance(known, _OncePer) for known in logger.filters):
            logger.addFilter(_OncePer(10.0))

    async def raise_error(self, request: web.Request) -> NoReturn:
        with speaking(accepted_language(request.headers.get("Accept-Language", ""))):
            text = _(
                "This server takes connections only through its proxy; connect to the "
                "address its operator gave you."
            )
        raise web.HTTPBadRequest(text=text + "\n")


class _OncePer(logging.Filter):
    """One refused header per ``interval`` seconds in the log (why: a misconfigured proxy
    makes every request fail, which the operator must hear of once, not once per player)."""

    def __init__(self, interval: float) -> None:
        super().__init__()
        self.interval = interval
        self._said: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if self._said is not None and now - self._said < self.interval:
            return False
        self._said = now
        return True
