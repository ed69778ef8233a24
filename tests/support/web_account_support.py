"""The web page's account forms driven by keyboard, for the browser tests of accounts."""

from __future__ import annotations

from typing import Any

PASSWORD = "correct horse battery"


def account_form(page: Any, name: str, password: str, button: str) -> None:
    """Fill the account form and press ``button`` (its id) with the keyboard, as a
    screen-reader user would: Tab from field to field, Enter on the button."""
    page.locator("#account-name").focus()
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "password"
    page.keyboard.type(password)
    page.locator(f"#{button}").focus()
    page.keyboard.press("Enter")


def logged_in(page: Any, name: str) -> None:
    page.wait_for_selector("#account-panel:not([hidden])", timeout=15_000)
    assert page.locator("#account-status").inner_text() == f"Logged in as {name}."
    assert page.locator("#account-form").is_hidden()
