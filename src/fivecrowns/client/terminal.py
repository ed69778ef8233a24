"""``fivecrowns join --keys``: the terminal session of ``fivecrowns play`` at a network table.

The lobby is done with options (create a table with computer players, or join
one by its number or invite code; the creator's ``--start`` starts it once every
seat is taken); while the table waits, what happens there is printed line by
line. Once the game starts, the seat is played with the same session, keys,
speech, braille and sounds as local play, full screen or (``--line``) line
mode, over the WebSocket transport (:class:`~fivecrowns.client.websocket.WebSocketLink`).
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from fivecrowns.client.websocket import GAME_EVENTS, WebSocketLink
from fivecrowns.errors import FiveCrownsError

__all__ = ["run_keys"]

SEATED = "You sit in seat {seat} at table {table}."
SEATED_CODE = "You sit in seat {seat} at table {table}; the invite code is {code}."
WAITING = "Waiting for the game to start. Press Control+C to leave."
NOT_SEATED = "You have no seat: {reason}"
NO_START = "The game did not start within {minutes} minutes; leaving."
#: How long a seated player waits for the creator to start.
START_WAIT = 3600.0
#: Seconds between two checks for news a lost wake-up might have left untold.
TICK = 2.0


def _say(text: str) -> None:
    print(text, flush=True)


def _first_messages(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.create:
        levels = [level.strip() for level in (args.bots or "").split(",") if level.strip()]
        return [
            {"type": "create_table", "seats": args.create, "bots": levels, "private": args.private}
        ]
    if args.table:  # a table number; tried as an invite code if no table has it
        return [{"type": "join", "table": args.table}]
    return []


def _wait_for_seat(link: WebSocketLink, code: str | None) -> int:
    link.wait_for(lambda: link.seat is not None or link.has_errors())
    errors = link.take_errors()
    if link.seat is None and code and errors and errors[0]["code"] == "no_table":
        link.send({"type": "join", "code": code})
        link.wait_for(lambda: link.seat is not None or link.has_errors())
        errors = link.take_errors()
    if link.seat is None:
        reason = errors[0]["text"] if errors else "give --create SEATS or --table NUMBER."
        raise FiveCrownsError(NOT_SEATED.format(reason=reason))
    if link.code:
        _say(SEATED_CODE.format(seat=link.seat + 1, table=link.table, code=link.code))
    else:
        _say(SEATED.format(seat=link.seat + 1, table=link.table))
    return link.seat


def _news_after(link: WebSocketLink, seq: int) -> bool:
    return link.last_seq() > seq or link.has_errors()


def _wait_for_start(link: WebSocketLink, start: bool) -> None:
    """Print the table's news until the game starts (the creator starts it with ``start``)."""
    _say(WAITING)
    told = 0  # the seq of the last event printed
    asked = False
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:  # why bounded: a table nobody starts is left
        link.wait_for(functools.partial(_news_after, link, told), 1.0)
        for frame in link.events_since(link.seat or 0, told):
            told = int(frame["seq"])
            if frame["text"] and frame["kind"] not in GAME_EVENTS:
                _say(frame["text"])  # why not game events: the session tells those at the start
        for error in link.take_errors():
            _say(str(error["text"]))
        shot = link.last_snapshot
        if shot is not None and shot.get("view") is not None:
            return
        full = shot is not None and all(seat["kind"] != "empty" for seat in shot["seats"])
        if start and link.creator and full and not asked:
            link.send({"type": "start"})
            asked = True
    raise FiveCrownsError(NO_START.format(minutes=int(START_WAIT // 60)))


def _tick(poke: Callable[[], None], link: WebSocketLink) -> None:
    for _ in range(int(START_WAIT * 24 / TICK)):  # why bounded: a day of play at most
        time.sleep(TICK)
        if link.on_news is None:
            return
        poke()


def run_keys(args: argparse.Namespace, url: str, name: str) -> int:
    from fivecrowns.ui.app import Presentation
    from fivecrowns.ui.launch import _open_output, speech_note
    from fivecrowns.ui.session import Seat, Session
    from fivecrowns.ui.settings import load_settings

    if not sys.stdin.isatty():
        _say("fivecrowns join --keys reads single key presses, so it needs a terminal.")
        return 1
    link = WebSocketLink(url, name)
    try:
        link.connect(_first_messages(args))
        seat = _wait_for_seat(link, None if args.create else args.table)
        _wait_for_start(link, args.start)
        shot = link.snapshot(seat)
        seats = [
            Seat(info["name"], info["level"] if info["kind"] == "bot" else None)
            for info in shot["seats"]
        ]
        settings = load_settings()
        if args.verbosity:
            settings.verbosity = args.verbosity
        output, reason = _open_output(args)
        try:
            session = Session(None, seats, output, settings, remote=(link, seat))
            session.speech_report = reason
            presentation = Presentation(session, line_mode=args.line)

            def tell() -> None:
                for text in link.take_notices():
                    session.say(text)
                for error in link.take_errors():
                    session.refuse(str(error["text"]))
                session.receive_news()

            link.on_news = lambda: presentation.call_soon(tell)
            # why also every few seconds: a wake-up lost anywhere must not leave the seat
            # waiting for news that already came (checking costs nothing when none did)
            ticker = threading.Thread(
                target=_tick, args=(lambda: presentation.call_soon(tell), link), daemon=True
            )
            ticker.start()
            session.start()
            note = speech_note(reason, output.backend.name, session.keymap.display_keys("speech"))
            if note:
                session.say(note)
            presentation.run()
        finally:
            link.on_news = None
            output.close()
    except FiveCrownsError as error:
        _say(str(error))
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        link.close()
    return 0
