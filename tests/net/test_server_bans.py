"""A table's ban lasts over a restart of the server (issue 28 item 4): the creator removes and
bans a guest before the start, the server process stops and starts again on its data folder,
and the banned player, back with their token, still may not sit at that table; another may."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server_support import FAST, Client, ServerProcess


async def _answer(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    before = len(client.frames)
    await client.send(message)

    def new(m: dict[str, Any]) -> bool:
        return len(client.frames) > before and m["type"] in ("error", "seated", "answer")

    return await client.until(new)


def test_a_ban_lasts_over_a_restart_of_the_server(tmp_path: Path) -> None:
    data = tmp_path / "server"
    server = ServerProcess(data, *FAST).start()
    kept: dict[str, Any] = {}

    async def before() -> None:
        ann = await Client("Ann").connect(server.url)
        dee = await Client("Dee").connect(server.url)
        await ann.send({"type": "create_table", "seats": 4})
        await ann.until(lambda m: m["type"] == "seated")
        seated = await _answer(dee, {"type": "join", "table": ann.table})
        assert seated["type"] == "seated", seated
        removed = await _answer(ann, {"type": "kick", "seat": dee.seat, "ban": True})
        assert removed["type"] == "answer" and removed["what"] == "kick", removed
        await dee.until(lambda m: m["type"] == "left")  # told, after an error "removed"
        again = await _answer(dee, {"type": "join", "table": ann.table})
        assert again["code"] == "not_welcome", again
        kept.update(table=ann.table, ann=ann.token, dee=dee.token)
        for client in (ann, dee):
            await client.close()

    async def after(url: str) -> None:
        ann, dee = Client("Ann"), Client("Dee")
        ann.token, dee.token = kept["ann"], kept["dee"]
        await ann.connect(url)  # Ann's seat at her table is hers again
        await ann.until(lambda m: m["type"] == "seated" and m["table"] == kept["table"])
        await dee.connect(url)
        refused = await _answer(dee, {"type": "join", "table": kept["table"]})
        assert refused["code"] == "not_welcome", refused
        assert refused["text"] == "You cannot sit at this table; pick another."
        cy = await Client("Cy").connect(url)
        seated = await _answer(cy, {"type": "join", "table": kept["table"]})
        assert seated["type"] == "seated", seated
        for client in (ann, dee, cy):
            await client.close()

    try:
        asyncio.run(before())
        errors = server.stop()
        assert "Traceback" not in errors, errors
        server = ServerProcess(data, *FAST).start()
        asyncio.run(after(server.url))
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors
