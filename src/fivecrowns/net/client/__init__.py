"""How a terminal reaches a table: the client interface (``link``), its transports
(``inprocess`` for local play, ``websocket`` for a game server), and the connection to a
game server both ``fivecrowns join`` clients share (``connection``, with ``retry``)."""

from __future__ import annotations

__all__: list[str] = []
