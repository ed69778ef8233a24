"""A finished WebSocket's aiohttp objects freed at once, by reference counting, not left for the
cycle collector (issue 28, the log-in flood).

aiohttp 3.14.5 (the newest release on PyPI; none breaks these) leaves each closed server
WebSocket in two reference cycles:

- the connection's ``RequestHandler`` keeps the ``WebSocketResponse``'s heartbeat reset
  (``_data_received_cb``, added by aiohttp's pull request 12030 and never cleared), the
  response keeps its ``Request``, and the request keeps the ``RequestHandler``;
- a connection reset while the server wrote (a client gone at once) is kept as the response's
  ``exception()``, whose traceback holds the frame of ``close``, which holds the response
  (pull request 10556 cleared such exceptions on aiohttp's data queues, not this one).

So every closed connection (about 50 objects) waited for the collector, and the server's
:class:`~fivecrowns.net.server.collector.QuietCollector` froze them before they became
garbage: a log-in flood's thousands of closed connections doubled the frozen objects, and the
full collection that then came due (87 to 98 ms of CPU) held every table's moves
(benchmarks/results/login_flood.txt). :func:`let_go_of_websockets`, a middleware, breaks both
cycles when a connection's handler has ended.
"""

from __future__ import annotations

from aiohttp import web
from aiohttp.typedefs import Handler

__all__ = ["let_go", "let_go_of_websockets"]

CHAIN_AT_MOST = 20  # exceptions in a chain (cause, context) whose tracebacks are let go


def let_go(request: web.Request, response: web.StreamResponse) -> None:
    """Break the cycles aiohttp left around ``request``'s finished WebSocket (see above)."""
    if not isinstance(response, web.WebSocketResponse):
        return
    protocol = request.protocol
    # why a private name: aiohttp offers no way to clear it; getattr, so that an aiohttp
    # without it (an older or a fixed one) is left alone
    if protocol is not None and getattr(protocol, "_data_received_cb", None) is not None:
        protocol._data_received_cb = None
    error: BaseException | None = response.exception()
    for _link in range(CHAIN_AT_MOST):
        if error is None:
            break
        # why the traceback only: the exception stays for whoever asks; its frames go
        error.__traceback__ = None
        error = error.__cause__ or error.__context__


@web.middleware
async def let_go_of_websockets(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A middleware: each WebSocket's cycles broken when its handler returns."""
    response = await handler(request)
    let_go(request, response)
    return response
