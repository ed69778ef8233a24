"""Play over a connection: the protocol (``protocol``), the game server (``server``) and the
clients' links to a table (``client``: in-process or WebSocket)."""

from __future__ import annotations

__all__: list[str] = []
