"""The game server, ``fivecrowns serve``: over WebSocket, one authoritative table per room.

``app`` (the ``Server``: each client message to its part, and the aiohttp app), ``lobby``
(hello, the table list, invite codes), ``pacing`` (computer players, stand-ins, the sweep),
``resend`` (events sent again, charged per event), ``rooms`` (rooms, player records, the
fan-out), ``connection`` (a socket, its queue and writer), ``limits``, ``resources`` (open
files and ``accept()`` errors), ``origins`` (which web pages may connect), ``quiet`` (short
log lines for bad requests and failed saves), ``background`` (password hashing in worker
processes at the lowest CPU priority), ``store`` (SQLite) and ``web`` (the web page's
files). A contract in pyproject.toml keeps that order.
"""

from __future__ import annotations

__all__: list[str] = []
