"""Friends in the web page (issue 28, item 4), with a real `fivecrowns serve` and Debian's
Chromium, driven by keyboard: the lobby's Friends section (a heading, a list with where each
friend is, a button for every action, a message field; part of the page, not a dialog) for a
page logged in to an account, hidden for a guest. A friend at a terminal client
(`fivecrowns join`, its own process) asks, is accepted, writes and is written to; the news is
announced once through the page's log; the inbox kept while the page was away is told once;
blocking, unblocking and removing work from the buttons; bad input gets a sentence; axe finds
nothing; the section speaks Spanish."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from join_support import TypedClient
from server_support import ServerProcess
from web_account_support import PASSWORD, account_form, logged_in
from web_support import WebPlayer, axe_violations, page_url

pytestmark = [pytest.mark.real]


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "server", "--bot-delay", "0", "--rate", "1000").start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors


def _terminal(url: str, name: str, how: str) -> TypedClient:
    client = TypedClient(url, name, how)
    client.type(PASSWORD)
    client.until(lambda line: line.startswith(f"Logged in as {name}."))
    return client


def _logged(page: Any, text: str, count: int = 1) -> None:
    """``text`` is in the page's log, said ``count`` times (waits for the first)."""
    page.wait_for_function(
        "text => (window.__announcements || []).some(a => a.text === text)",
        arg=text,
        timeout=15_000,
    )
    said = page.evaluate("() => window.__announcements.map(a => a.text)")
    assert said.count(text) == count, (text, said[-10:])


def _said(page: Any, text: str) -> None:
    page.wait_for_function(
        "text => (window.__announcements || []).some(a => a.text === text)",
        arg=text,
        timeout=15_000,
    )


def _rows(page: Any) -> list[str]:
    rows: list[str] = page.locator("#friends-list > li").evaluate_all(
        "items => items.map(li => li.firstChild.textContent)"
    )
    return rows


def _wait_rows(page: Any, rows: list[str]) -> None:
    page.wait_for_function(
        "rows => JSON.stringify([...document.querySelectorAll('#friends-list > li')]"
        ".map(li => li.firstChild.textContent)) === JSON.stringify(rows)",
        arg=rows,
        timeout=15_000,
    )


def _press(page: Any, name: str) -> None:
    """Focus the button with this accessible name, then Enter, as a keyboard user does."""
    page.get_by_role("button", name=name, exact=True).focus()
    page.keyboard.press("Enter")


def _focused(page: Any) -> str:
    label: str = page.evaluate(
        "() => document.activeElement.getAttribute('aria-label') || document.activeElement.id"
    )
    return label


def test_the_friends_section_by_keyboard_with_a_friend_at_a_terminal(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context()
    tom: TypedClient | None = None
    try:
        page = context.new_page()
        web = WebPlayer(page, page_url(server.url))
        account_form(page, "Nia", PASSWORD, "sign-up-button")
        logged_in(page, "Nia")
        # the section: a heading of the lobby, no friends yet, not a dialog
        page.wait_for_selector("#friends:not([hidden])", timeout=10_000)
        heading = page.get_by_role("heading", name="Friends", exact=True)
        assert heading.evaluate("h => h.tagName") == "H3"
        assert page.locator("#no-friends").is_visible()
        assert page.locator("#friends").evaluate("s => s.closest('dialog')") is None
        # a name is needed to ask; an unknown one is the server's sentence
        _press(page, "Ask to be friends")
        _said(page, "Type a player's name first.")
        assert _focused(page) == "friend-name"
        page.keyboard.type("Zed")
        page.keyboard.press("Enter")
        _said(page, "No account here is named Zed.")
        # Tom, at a terminal, asks Nia; she hears it once and accepts from the list
        tom = _terminal(server.url, "Tom", "--sign-up")
        tom.type("friend nia")
        tom.until(lambda line: line.startswith("Asked Nia to be your friend"))
        _logged(page, "Tom asks to be your friend.")
        _wait_rows(page, ["Tom asks to be your friend"])
        _press(page, "Accept Tom's friend request")
        _logged(page, "Tom is your friend now.")
        _logged(page, "Tom is in the lobby.")
        tom.until(lambda line: line == "Nia is your friend now.")
        _wait_rows(page, ["Tom, in the lobby"])
        assert not page.locator("#no-friends").is_visible()
        # the list was made again: the focus stayed with Tom's row, on its first button
        assert _focused(page) == "Message Tom"
        # a private message: Message puts the focus in the field, addressed to Tom
        page.keyboard.press("Enter")
        assert _focused(page) == "message-text"
        assert page.locator("#message-to").input_value() == "Tom"
        page.keyboard.press("Enter")
        _said(page, "Type a message first.")
        page.keyboard.type("See you at eight.")
        page.keyboard.press("Enter")
        _said(page, "Sent to Tom.")
        assert page.locator("#message-text").input_value() == ""
        tom.until(lambda line: line == "Nia, privately: See you at eight.")
        tom.type("tell Nia: On my way.")
        _logged(page, "Tom, privately: On my way.")
        # Nia goes; Tom's message waits; a new page logs in and hears it once
        context.close()
        tom.until(lambda line: line == "Nia is offline.")
        tom.type("tell Nia: Where are you?")
        tom.until(lambda line: line.startswith("Nia is not connected"))
        context = browser.new_context()
        page = context.new_page()
        web = WebPlayer(page, page_url(server.url))
        account_form(page, "Nia", PASSWORD, "log-in-button")
        logged_in(page, "Nia")
        _logged(page, "1 private message while you were away:")
        _logged(page, "Tom, privately: Where are you?")
        _wait_rows(page, ["Tom, in the lobby"])
        # Tom goes: his row says so; a message now waits for him
        tom.type("q")
        tom.proc.communicate(timeout=30)
        tom = None
        _logged(page, "Tom is offline.")
        _wait_rows(page, ["Tom, offline"])
        page.locator("#message-text").fill("Later then.")
        _press(page, "Send")
        _said(page, "Tom is not connected; they hear it when they come back.")
        # removing, blocking by name, unblocking: each from its button
        _press(page, "Remove Tom from your friends")
        _logged(page, "Tom is no longer your friend.")
        _wait_rows(page, [])
        assert page.locator("#message-to option").count() == 0
        _press(page, "Send")
        _said(page, "Nobody to write to yet: ask a player to be your friend first.")
        page.locator("#friend-name").fill("tom")
        _press(page, "Block")
        blocked = "Tom is blocked: they cannot message you, ask to be your friend, or sit at "
        blocked += "your table."
        _said(page, blocked)
        _wait_rows(page, ["Tom, blocked by you"])
        assert axe_violations(page) == []
        _press(page, "Unblock Tom")
        _logged(page, "Tom is unblocked.")
        _wait_rows(page, [])
        # a request of her own, taken back
        page.locator("#friend-name").fill("Tom")
        _press(page, "Ask to be friends")
        _logged(page, "Asked Tom to be your friend; you hear when they answer.")
        _wait_rows(page, ["Tom, your request waits for their answer"])
        _press(page, "Take back your friend request to Tom")
        _logged(page, "Your friend request to Tom is taken back.")
        _wait_rows(page, [])
        assert web.errors == []
        # in Spanish (another device): the section's words and the server's
        context.close()
        context = browser.new_context()
        spanish = context.new_page()
        amigos = WebPlayer(spanish, page_url(server.url) + "?lang=es")
        account_form(spanish, "Nia", PASSWORD, "log-in-button")
        spanish.wait_for_selector("#friends:not([hidden])", timeout=15_000)
        assert spanish.locator("#friends-heading").inner_text() == "Amigos"
        assert spanish.locator("label[for=message-to]").inner_text() == "Mensaje privado a"
        spanish.locator("#friend-name").fill("Tom")
        _press(spanish, "Pedir amistad")
        _wait_rows(spanish, ["Tom, tu solicitud espera su respuesta"])
        assert spanish.get_by_role("button", name="Retirar tu solicitud de amistad a Tom").count()
        assert amigos.errors == []
        # a guest has no Friends section
        context.close()
        context = browser.new_context()
        guest = context.new_page()
        WebPlayer(guest, page_url(server.url)).connect("Gus")
        assert guest.locator("#friends").is_hidden()
    finally:
        if tom is not None and tom.proc.poll() is None:
            tom.proc.kill()
        context.close()
