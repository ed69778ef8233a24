"""A :class:`~fivecrowns.net.server.app.Server` driven in this process, without sockets: its
connections stand on a socket that is never written to, and a test reads each connection's
queued frames itself (the set-up tests/net/test_server_history.py, test_server_memory.py and
test_server_replaced.py shared, each with a copy of its own)."""

from __future__ import annotations

import json
from typing import Any

from fivecrowns.net.server.app import Server
from fivecrowns.net.server.connection import Connection

__all__ = ["QuietSocket", "connect", "frames", "plain_move", "play_a_game_of_two", "send"]


class QuietSocket:
    """Stands in for the WebSocket of a connection that is never written to; counts its
    closes."""

    closed = 0

    async def close(self, **_: Any) -> None:
        self.closed += 1


def connect(server: Server, socket: QuietSocket | None = None) -> Connection:
    """A new connection to ``server`` on ``socket`` (a new one if not given)."""
    return Connection(socket or QuietSocket(), server.limits)  # type: ignore[arg-type]


def frames(conn: Connection) -> list[dict[str, Any]]:
    """Every frame queued on ``conn`` now, taken off its queue, decoded."""
    taken = []
    for _ in range(len(conn.queue)):
        raw = conn.take()
        if raw is not None:
            taken.append(json.loads(raw))
    return taken


def send(server: Server, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
    """``message`` handled whole; the frames it queued on ``conn``, none of them an error."""
    server.receive(conn, json.dumps(message))
    queued = frames(conn)
    assert not [frame for frame in queued if frame["type"] == "error"], queued
    return queued


def plain_move(legal: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Go out if it can, else draw from the stock, else the first legal discard."""
    for wanted in ("go_out", "draw_stock", "discard"):
        for move in legal:
            if move["move"] == wanted:
                args = {k: v for k, v in move.items() if k != "move"}
                return wanted, {"card": args["discard"]} if "discard" in args else args
    return legal[0]["move"], {}


def play_a_game_of_two(server: Server) -> tuple[Connection, Connection]:
    """Ann and Ben, on connections of their own, play a whole game of two at ``server``
    (its limits must let them move at once: no bot delay, no rate limit); their
    connections, still seated at the finished table."""
    ann, ben = connect(server), connect(server)
    send(server, ann, {"type": "hello", "v": 1, "name": "Ann"})
    send(server, ben, {"type": "hello", "v": 1, "name": "Ben"})
    seated = send(server, ann, {"type": "create_table", "seats": 2})
    send(server, ben, {"type": "join", "table": seated[0]["table"]})
    send(server, ann, {"type": "start"})
    room = next(iter(server.rooms.values()))
    last: dict[Connection, dict[str, Any]] = {}
    for _step in range(5000):  # bounded: a game of two has a few hundred moves
        if room.table.is_over:
            break
        for conn in (ann, ben):
            for frame in frames(conn):
                assert frame["type"] != "error", frame
                if frame["type"] == "snapshot":
                    last[conn] = frame
        mover = next(conn for conn in (ann, ben) if last.get(conn, {}).get("legal"))
        snapshot = last.pop(mover)
        action, args = plain_move(snapshot["legal"])
        act = {"type": "act", "action": action, "args": args, "seq": snapshot["seq"]}
        server.receive(mover, json.dumps(act))
    assert room.table.is_over, "the game did not end in 5000 moves"
    return ann, ben
