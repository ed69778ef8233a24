"""Accounts in the web page (issue 28, item 1), by keyboard alone, against a real
``fivecrowns serve`` in Debian's Chromium: sign-up, log-out, log-in, deleting one's account,
refusals written under their field and said, focus that lands somewhere spoken, and the
refresh token kept as the seat token is (the access token in memory only)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_support import FAST, ServerProcess
from web_account_support import PASSWORD, account_form, logged_in
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real]

NO_MATCH = "That name and password do not match an account here."
NAME_TAKEN = "That name is taken; choose another."


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server keeping its accounts in SQLite (a tables folder of its own)."""
    process = ServerProcess(tmp_path / "server", *FAST).start()
    yield process
    errors = process.stop()
    assert "Traceback" not in errors, errors
    assert PASSWORD not in errors


@pytest.fixture(name="context")
def context_fixture(browser: Any) -> Iterator[Any]:
    """One browser profile: its pages share localStorage."""
    context = browser.new_context()
    yield context
    context.close()


def focused(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement.id"))


def kept(page: Any) -> dict[str, Any]:
    """What the page keeps in localStorage for accounts (keyed by server)."""
    script = "() => localStorage.getItem('fivecrowns-accounts') || '{}'"
    return dict(json.loads(page.evaluate(script)))


def refusal(page: Any, field: str) -> str:
    """The sentence written under ``field``, once it is there; checks it is tied to the field
    (aria-describedby, aria-invalid), has the focus and was the last sentence said."""
    error = page.locator(f"#{field}-error")
    error.wait_for(state="visible", timeout=15_000)
    text = str(error.inner_text())
    assert f"{field}-error" in str(page.locator(f"#{field}").get_attribute("aria-describedby"))
    assert page.locator(f"#{field}").get_attribute("aria-invalid") == "true"
    assert focused(page) == field
    # why any region: the page has no assertive one (web/channel.js: an assertive message made
    # Orca throw away the polite ones waiting); the refusal is the last sentence it gave
    said = page.evaluate("() => (window.__announcements || []).map(a => a.text)")
    assert said and said[-1] == text, said[-3:]
    return text


def test_sign_up_log_out_log_in_and_delete_by_keyboard(context: Any, server: ServerProcess) -> None:
    page = context.new_page()
    web = WebPlayer(page, page_url(server.url))
    host = page.evaluate("() => location.host")
    # nothing typed: said under the field, before anything is sent
    page.locator("#log-in-button").focus()
    page.keyboard.press("Enter")
    assert refusal(page, "account-name") == "Every account needs a name; type one."
    # a short password at sign-up: under the password field, the name kept
    account_form(page, "Ann Lee", "short", "sign-up-button")
    assert refusal(page, "password").startswith("A password needs at least 8 characters")
    assert page.locator("#account-name-error").is_hidden()
    # sign up: the lobby, focus on its heading, "Logged in as" said
    page.locator("#password").fill("")
    page.locator("#password").focus()
    page.keyboard.type(PASSWORD)
    page.locator("#sign-up-button").focus()
    page.keyboard.press("Enter")
    logged_in(page, "Ann Lee")
    assert focused(page) == "lobby-heading"
    said = page.evaluate("() => window.__announcements.map(a => a.text)")
    assert "Logged in as Ann Lee." in said
    assert page.locator("#password").input_value() == ""  # the password is not kept
    account = [json.loads(f) for f in web.frames if json.loads(f)["type"] == "account"][-1]
    assert kept(page) == {host: {"name": "Ann Lee", "refresh": account["refresh"]}}
    storage = page.evaluate("() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
    assert account["access"] not in storage and PASSWORD not in storage  # in memory only
    # log out by keyboard: the account form again, focus on its heading, the sentence said
    page.locator("#log-out-button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#account-form:not([hidden])", timeout=15_000)
    assert focused(page) == "account-heading"
    assert page.evaluate("() => window.__announcements.at(-1).text") == "You are logged out."
    assert kept(page) == {} and page.locator("#lobby-body").is_hidden()
    assert page.locator("#hello-form").is_visible()
    # a wrong password and an unknown account: the same sentence, under the password
    account_form(page, "Ann Lee", "not the password", "log-in-button")
    assert refusal(page, "password") == NO_MATCH
    page.locator("#account-name").fill("")
    page.locator("#password").fill("")
    account_form(page, "Nobody Here", "not the password", "log-in-button")
    assert refusal(page, "password") == NO_MATCH
    # log in again, the name typed in another case: the account's own name
    page.locator("#account-name").fill("")
    page.locator("#password").fill("")
    account_form(page, "ann lee", PASSWORD, "log-in-button")
    logged_in(page, "Ann Lee")
    # delete: a wrong password is said under the delete form's field; nothing is deleted
    page.locator("#delete-password").focus()
    page.keyboard.type("not the password")
    page.keyboard.press("Enter")
    assert refusal(page, "delete-password").startswith("That is not this account's password")
    page.locator("#delete-password").fill("")
    page.locator("#delete-password").focus()
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("#account-form:not([hidden])", timeout=15_000)
    assert page.evaluate("() => window.__announcements.at(-1).text").startswith(
        "Your account is deleted"
    )
    assert focused(page) == "account-heading" and kept(page) == {}
    # the account is gone: its log-in is refused with the one sentence
    page.locator("#account-name").fill("")
    page.locator("#password").fill("")
    account_form(page, "Ann Lee", PASSWORD, "log-in-button")
    assert refusal(page, "password") == NO_MATCH
    for frame in web.frames:
        assert PASSWORD not in frame
    assert web.errors == []


def test_names_alike_and_passwords_too_long_are_said_under_their_field(
    context: Any, server: ServerProcess
) -> None:
    """Issue 28's bad input, through the page: a name taken in another case, with look-alike
    letters (Cyrillic, Greek, full-width, a digit for a letter), and a password longer than
    256 bytes for a known account and for none (the same sentence)."""
    first = context.new_page()
    WebPlayer(first, page_url(server.url))
    account_form(first, "Olga", PASSWORD, "sign-up-button")
    logged_in(first, "Olga")
    elsewhere = context.browser.new_context()  # another browser: nothing kept
    page = elsewhere.new_page()
    web = WebPlayer(page, page_url(server.url))
    # why few: each try counts against the name's five a minute
    for alike in ("OLGA", "Оlga", "0lga", "Ｏｌｇａ"):  # Cyrillic O, a zero, full-width
        page.locator("#account-name").fill("")
        page.locator("#password").fill("")
        account_form(page, alike, "another password", "sign-up-button")
        assert refusal(page, "account-name") == NAME_TAKEN, alike
    page.locator("#account-name").fill("")
    page.locator("#password").fill("")
    account_form(page, "Ηelen", PASSWORD, "sign-up-button")  # a Greek capital eta
    logged_in(page, "Ηelen")
    page.locator("#log-out-button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#account-form:not([hidden])", timeout=15_000)
    said = []
    for name in ("Helen", "Nobody"):  # the Latin name logs in to the same account: none other
        page.locator("#account-name").fill("")
        page.locator("#password").fill("")
        account_form(page, name, "é" * 200, "log-in-button")
        said.append(refusal(page, "password"))
    assert said[0] == said[1] and "at most 256 bytes" in said[0]
    assert web.errors == []
    elsewhere.close()


def test_a_reloaded_page_stays_logged_in_and_a_copied_refresh_token_logs_out(
    context: Any, server: ServerProcess
) -> None:
    page = context.new_page()
    web = WebPlayer(page, page_url(server.url))
    host = page.evaluate("() => location.host")
    account_form(page, "Ann", PASSWORD, "sign-up-button")
    logged_in(page, "Ann")
    first = kept(page)[host]["refresh"]
    page.reload()
    page.wait_for_selector("html[data-ready=true]", timeout=10_000)
    logged_in(page, "Ann")  # no password asked: the kept refresh token was traded
    second = kept(page)[host]["refresh"]
    assert second != first
    welcomes = [json.loads(f) for f in web.frames if json.loads(f)["type"] == "welcome"]
    assert [w["name"] for w in welcomes] == ["Ann", "Ann"]
    # another tab of the same browser is logged in too
    tab = context.new_page()
    other = WebPlayer(tab, page_url(server.url))
    logged_in(tab, "Ann")
    # the first refresh token, copied and used again: everywhere logged out, the page told
    elsewhere = context.browser.new_context()
    thief = elsewhere.new_page()
    WebPlayer(thief, page_url(server.url))
    thief.evaluate(
        """([host, token]) => {
            localStorage.setItem('fivecrowns-accounts',
              JSON.stringify({[host]: {name: 'Ann', refresh: token}}));
        }""",
        [host, first],
    )
    thief.reload()
    thief.wait_for_selector("#account-form:not([hidden])", timeout=15_000)
    tab.wait_for_selector("#account-form:not([hidden])", timeout=15_000)
    told = tab.evaluate("() => window.__announcements.at(-1).text")
    assert "logged out everywhere" in told
    assert focused(tab) == "account-heading" and kept(tab) == {}
    assert other.errors == [] and web.errors == []
    elsewhere.close()


def test_a_logged_in_seat_survives_server_restarts_without_the_refresh_token(
    context: Any, tmp_path: Path
) -> None:
    """After a drop the page says hello with the access token in memory (then, once that has
    expired, with its seat token): back in the seat, still logged in, the refresh token kept
    in the browser neither used nor changed."""
    extra = ("--bot-delay", "0", "--rate", "1000", "--grace", "600")
    server = ServerProcess(tmp_path / "server", *extra).start()
    port = int(server.url.rsplit(":", 1)[1].split("/")[0])
    page = context.new_page()
    try:
        web = WebPlayer(page, page_url(server.url))
        sent: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(p))))
        host = page.evaluate("() => location.host")
        account_form(page, "Ann", PASSWORD, "sign-up-button")
        logged_in(page, "Ann")
        web.create_table(2, ["easy"])
        web.start()
        web.wait_turn()
        refresh = kept(page)[host]["refresh"]
        for expired in (False, True):
            if expired:  # as if 15 minutes had passed: the seat token says hello instead
                page.evaluate("() => { window.fivecrowns.account.accessUntil = 0; }")
            assert "Traceback" not in server.stop()
            page.wait_for_function("() => window.fivecrowns.attempts >= 1", timeout=20_000)
            server = ServerProcess(tmp_path / "server", *extra, port=port).start()
            page.wait_for_function("() => window.fivecrowns.attempts === 0", timeout=30_000)
            state = web.wait_turn()
            assert state["legal"] and page.evaluate("() => window.fivecrowns.seat") == 0
            assert page.evaluate("() => window.fivecrowns.account.name") == "Ann"
            assert kept(page)[host]["refresh"] == refresh
        accounts = [f for f in web.frames if json.loads(f)["type"] == "account"]
        assert len(accounts) == 1  # the sign-up's; no refresh was asked after it
        hellos = [m for m in sent if m["type"] in ("hello", "refresh", "log_in", "sign_up")]
        assert [m["type"] for m in hellos] == ["sign_up", "hello", "hello"]
        assert "access" in hellos[1] and "token" not in hellos[1] and hellos[1]["last_seq"] > 0
        assert "token" in hellos[2] and "access" not in hellos[2] and hellos[2]["last_seq"] > 0
        assert web.errors == []
    finally:
        page.close()
        assert "Traceback" not in server.stop()
