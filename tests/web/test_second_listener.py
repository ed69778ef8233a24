"""What the second listener heard wrong through Orca (issue 25, /tmp/listener2: ch1, ff1, ff2),
each fixed: the news 38 s behind two computer players (another player's turn is now one
sentence, as the terminal says it, and "Bot 2's turn." is not said when Bot 2's move follows
it); your own move's news behind a sentence given again; a sentence cut by the page's own focus
move never given again; chat dropped on leaving; focus on the empty hand after Create; Escape
met with silence.

Real Chromium against a real ``fivecrowns serve`` on 127.0.0.1 (no pause before computer
moves); the channel at its real pace where the queue is the point."""

from __future__ import annotations

import re
from typing import Any

import pytest

from server_support import ServerProcess
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real]

# the channel's real pace (the tests' pages have none: everything at once, nothing to join)
PACED = """() => { const t = window.fivecrowns.timing;
  Object.assign(t.pace, {lead: 0.45, perWord: 0.26, minimum: 0.6, slackMs: 2000,
                         repeatWindowMs: 700, afterKeyMs: 900}); }"""
LOG = "() => (window.__announcements || []).filter(a => a.region === 'log').map(a => a.text)"
QUIET = "() => window.fivecrowns.news.queue.length === 0"


def test_a_computers_whole_turn_is_one_sentence_and_its_turn_is_not_said_before_it(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        page.evaluate(PACED)
        ann.create_table(3, ["medium", "medium"], keyboard=True)
        ann.start(keyboard=True)
        for _ in range(3):  # three turns of mine, each followed by both computers'
            ann.wait_turn(60)
            ann.play_one(go_out=False)  # draw
            ann.wait_turn(10)
            ann.play_one(go_out=False)  # discard: the computers play at once
            page.wait_for_function(QUIET, timeout=60_000)
        said: list[str] = page.evaluate(LOG)
        theirs = [text for text in said if re.match(r"Bot \d ", text)]
        assert theirs, said
        # no "Bot 2's turn." said: its move follows in the queue and says whose turn it was
        assert [text for text in said if re.fullmatch(r"Bot \d's turn\.", text)] == [], said
        # a turn's discard is said in the one sentence with its draw, as the terminal says it
        alone = [t for t in theirs if "discarded" in t and not re.search(r" (drew|took) ", t)]
        assert alone == [], theirs
        joined = [t for t in theirs if re.search(r" (drew|took) .*(,| and) .*discarded", t)]
        assert joined, theirs
        # the history (comma, period) has the whole turn too
        history: list[str] = page.evaluate("() => window.fivecrowns.messages")
        assert joined[0] in history
        assert ann.errors == []
    finally:
        page.close()


FOCUSED = "() => document.activeElement ? document.activeElement.id : null"


def test_create_lands_on_start_and_a_guest_on_the_waiting_line(
    browser: Any, server: ServerProcess
) -> None:
    """ch1: after Create, focus was on the empty hand ("Your hand, 0 cards"), Start behind it."""
    ann_page, ben_page = browser.new_page(), browser.new_page()
    try:
        ann = WebPlayer(ann_page, page_url(server.url))
        ann.connect("Ann")
        table = ann.create_table(3, ["medium", ""], keyboard=True)
        ann_page.wait_for_selector("#start-button:not([hidden])", timeout=10_000)
        assert ann_page.evaluate(FOCUSED) == "start-button"
        ben = WebPlayer(ben_page, page_url(server.url))
        ben.connect("Ben")
        ben_page.get_by_role("button", name=f"Join table {table}").click()
        ben_page.wait_for_function(
            "() => document.activeElement && document.activeElement.id === 'waiting-text'",
            timeout=10_000,
        )
        line = ben_page.locator("#waiting-text").inner_text()
        assert "Ben" in line and "Ann" in line, line  # who sits where: spoken, not empty
        # Ben leaves (a guest's page hid Start) and makes a table of his own: Start is shown
        # as focus lands on it, never a hidden button (focus would fall to the page's body)
        assert ben_page.locator("#start-button").evaluate("b => b.hidden")
        ben_page.locator("[data-action=leave]").focus()
        ben_page.keyboard.press("Enter")
        ben_page.locator("#leave-yes").focus()
        ben_page.keyboard.press("Enter")
        ben_page.wait_for_selector("#lobby:not([hidden])", timeout=10_000)
        ben.create_table(2, ["medium"], keyboard=True)
        assert ben_page.evaluate(FOCUSED) == "start-button"
        assert ben_page.locator("#start-button").evaluate("b => !b.hidden")
        assert ann.errors == [] and ben.errors == []
    finally:
        ann_page.close()
        ben_page.close()


def test_escape_at_the_table_opens_the_keys_list_and_closing_it_opens_nothing(
    browser: Any, server: ServerProcess
) -> None:
    """ch1: Escape on the hand met silence. The terminal's Escape opens its action menu."""
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.create_and_start("Ann", 2, ["medium"], keyboard=True)
        ann.wait_turn()
        page.locator("#hand").focus()
        page.keyboard.press("Escape")
        assert page.locator("#help").evaluate("d => d.open")
        assert page.evaluate(FOCUSED) == "help-close"
        page.keyboard.press("Escape")  # the dialog's own Escape closes it, and opens nothing
        page.wait_for_timeout(300)
        assert not page.locator("#help").evaluate("d => d.open")
        rows = page.locator("#help-keys").inner_text()
        assert "Escape" in rows and "Keys list" in rows
        assert ann.errors == []
    finally:
        page.close()


# A channel of its own outside the page, 1 s a sentence: time for a key or a focus move inside
# a sentence; every release stamped with its time.
CHANNEL = """async () => {
  const { News, PACE } = await import('/web/channel.js');
  Object.assign(PACE, {lead: 1, perWord: 0, minimum: 1, slackMs: 2000, repeatWindowMs: 700,
                       afterKeyMs: 200});
  const log = document.createElement('div'), answer = document.createElement('div');
  document.body.append(log, answer);
  window.__news = new News({log, answer, speaker: {queue() {}, interrupt() {}},
                            remember: () => {}});
  window.__announcements = [];
}"""
ORDER = """() => window.__announcements.flatMap(a => a.last === undefined
  ? [[a.at, a.text]] : [[a.at, a.text], [a.last, a.text]]).sort((x, y) => x[0] - y[0])
  .map(([, text]) => text)"""


def test_your_own_move_is_said_before_a_sentence_given_again_and_others_news(
    browser: Any, server: ServerProcess
) -> None:
    """ch1: D was answered 16 s late, behind a sentence a key had cut (given again) and the
    computers' moves still waiting."""
    page = browser.new_page()
    try:
        page.goto(page_url(server.url))
        page.evaluate(CHANNEL)
        page.evaluate(
            """() => { window.__news.announce('Bot 2 took the 4 of clubs.');
                       window.__news.announce('Bot 3 drew from the stock.');
                       window.__news.keyPressed();  // D: cuts the first, given again later
                       window.__news.replyComing();
                       window.__news.announce('You drew the 7 of hearts.', {first: true}); }"""
        )
        page.wait_for_function("() => window.__news.queue.length === 0", timeout=10_000)
        page.wait_for_timeout(200)
        # D cut the first before it could be begun: it is given again after your own move,
        # with the news behind it joined on (channel.js joinHeld); its record holds the
        # joined line, the text given its last time
        given_again = "Bot 2 took the 4 of clubs. Bot 3 drew from the stock."
        assert page.evaluate(ORDER) == [given_again, "You drew the 7 of hearts.", given_again]
    finally:
        page.close()


def test_a_sentence_cut_by_the_pages_own_focus_move_is_given_again(
    browser: Any, server: ServerProcess
) -> None:
    """CI (Chromium) and ch1: "You went out with ..." was cut by the page's own focus move to
    the new hand and never given again: a sentence cut by the page is, every time."""
    page = browser.new_page()
    try:
        page.goto(page_url(server.url))
        page.evaluate(CHANNEL)
        went_out = "You went out with a book of 10s, discarding the 9 of diamonds."
        page.evaluate(
            """(text) => { window.__news.announce(text);
                           window.__news.keyPressed();  // a key: given again, once
                         }""",
            went_out,
        )
        page.wait_for_function(
            "() => window.__announcements.some(a => a.last !== undefined)", timeout=5_000
        )
        again = page.evaluate("() => window.__announcements[0].last")
        page.wait_for_timeout(1_200)  # past the lead: the screen reader is saying it
        # given again; the page now deals the new hand and moves focus itself
        page.evaluate(
            """() => { const card = document.createElement('div');
                       card.setAttribute('aria-label', '9 of spades, 1 of 4');
                       window.__news.focusMoved(card, true); }"""
        )
        page.wait_for_function(f"() => window.__announcements[0].last > {again}", timeout=5_000)
        assert page.evaluate("() => window.__announcements.length") == 1
    finally:
        page.close()


def test_a_sentence_given_in_the_same_moment_as_the_pages_focus_move_is_not_given_again(
    browser: Any, server: ServerProcess
) -> None:
    """Orca (Chromium): "You went out ..." given as the hand emptied was said after the focus's
    words, not cut; given again too, it was there twice (and a key then cut the second)."""
    page = browser.new_page()
    try:
        page.goto(page_url(server.url))
        page.evaluate(CHANNEL)
        page.evaluate(
            """() => { window.__news.announce('You went out with a book of 10s.');
                       const box = document.createElement('div');
                       box.setAttribute('aria-label', 'Your hand, 0 cards');
                       window.__news.focusMoved(box, true); }"""
        )
        page.wait_for_timeout(3500)
        assert page.evaluate("() => window.__announcements.map(a => a.last)") == [None]
    finally:
        page.close()


def test_chat_said_to_you_is_still_said_after_you_left_the_table(
    browser: Any, server: ServerProcess
) -> None:
    """ch1: leaving dropped the old table's queued moves (right) and the chat said to you."""
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(server.url))
        ann.connect("Ann")
        page.evaluate(PACED)
        ann.create_table(3, ["medium", "medium"], keyboard=True)
        ann.start()
        page.wait_for_function("() => window.fivecrowns.messages.includes('The game starts.')")
        # a line said to you while the table's news still waits (as the server sends it)
        page.evaluate(
            """() => { const app = window.fivecrowns;
              app.event({seq: app.seq + 1000, kind: 'chat', text: 'Ben says: good luck.',
                         data: {name: 'Ben', text: 'good luck.'}}); }"""
        )
        page.locator("[data-action=leave]").click()
        page.locator("#leave-yes").click()
        page.wait_for_function(  # why ||: nothing may have been said yet (the deal's news waits)
            "() => (window.__announcements || []).some(a => a.text === 'Ben says: good luck.')",
            timeout=10_000,
        )
        said = page.evaluate("() => window.__announcements.map(a => a.text)")
        assert said.index("You left the table.") < said.index("Ben says: good luck.")
        assert ann.errors == []
    finally:
        page.close()
