"""How a terminal reaches a table: the client interface (``link``), its transports
(``inprocess`` for local play, ``websocket`` for a game server), the terminal session at a
network table (``terminal``), and the line-by-line client of ``fivecrowns join`` (``line``)."""

from __future__ import annotations

__all__: list[str] = []
