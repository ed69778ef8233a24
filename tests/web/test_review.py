"""The review of a round on the web page (Shift+R, or its button): the server's sentence for
that seat, shown in the status region and spoken by the built-in voice, as the terminal says it."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.table.info import review
from server_support import Serve, replayed
from web_support import WebPlayer, page_url, record_speech

pytestmark = [pytest.mark.real]


def test_shift_r_after_a_round_shows_and_speaks_the_servers_review(
    browser: Any, serve: Serve, tmp_path: Path
) -> None:
    data = tmp_path / "server"
    server = serve(data=data)
    page = browser.new_page()
    try:
        record_speech(page)
        web = WebPlayer(page, page_url(server.url))
        web.connect("Ann")
        web.create_table()
        page.locator("#voice").check()
        web.start()
        deadline = time.monotonic() + 60
        while web.state()["round"] < 2 and time.monotonic() < deadline:
            if not web.play_one(go_out=False):  # the server's first card: choices to review
                page.wait_for_timeout(20)
        assert web.state()["round"] == 2, "round 1 ended"
        page.locator("#hand").focus()
        count = page.evaluate("() => window.__announcements.length")
        page.evaluate("() => { window.__spoken = []; }")
        page.keyboard.press("Shift+R")
        # why not the first announcement after the key: news of a computer's move waiting for
        # the pause may be given while the server works out the review; the answer interrupts
        review_said = f"window.__announcements.slice({count}).find(a => /^About /.test(a.text))"
        page.wait_for_function(f"() => Boolean({review_said})", timeout=10_000)
        text = page.evaluate(f"() => {review_said}.text")
        assert page.locator("#answer").text_content().replace("\u00a0", "") == text
        assert ["speak", text] in page.evaluate("() => window.__spoken")
        table = page.evaluate("() => window.fivecrowns.table")
        truth = replayed(data, table).game
        assert truth is not None
        assert text == review(truth, 0)
        assert re.match(r"About \d+ points at stake in round 1, in \d+ choices? ", text), text
        # a sighted player clicks the button: the same sentence in the same region
        count = page.evaluate("() => window.__announcements.length")
        page.get_by_role("button", name="Review (Shift+R)").click()
        page.wait_for_function(f"() => window.__announcements.length > {count}", timeout=10_000)
        assert page.evaluate(f"() => window.__announcements[{count}].text") == text
        assert web.errors == []
    finally:
        page.close()
