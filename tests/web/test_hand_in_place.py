"""The hand is updated in place: while other players move, nothing in your hand's list changes
for a screen reader, so the focused card is never said again between their moves (issue 25:
"Heard twice: the hand is rebuilt after every snapshot"). The Orca test leaves card texts out
of its "heard twice" count (a card is said again on purpose when you arrow back to it), so this
is checked here, on the page itself: every change to the hand's list and its cards' attributes,
in a real Chromium against a real ``fivecrowns serve`` whose computer player takes its time.
"""

from __future__ import annotations

from typing import Any

import pytest

from server_support import Serve, ServerProcess
from web_support import WebPlayer, page_url

pytestmark = [pytest.mark.real]

# Every change under #hand, but those inside a card's face (aria-hidden: the screen reader
# never sees it), with the focused card's node kept to compare after.
WATCH = """() => {
  const box = document.getElementById('hand');
  window.__focusedCard = document.getElementById(box.getAttribute('aria-activedescendant'));
  window.__seqBefore = window.fivecrowns.seq;
  window.__handChanges = [];
  window.__handObserver = new MutationObserver(records => {
    for (const r of records) {
      if (r.target.closest && r.target.closest('[aria-hidden=true]')) continue;
      window.__handChanges.push([r.type, r.target.id || r.target.nodeName, r.attributeName,
        r.oldValue, r.target.getAttribute ? r.target.getAttribute(r.attributeName) : null]);
    }
  });
  window.__handObserver.observe(box, {subtree: true, childList: true, attributes: true,
                                      attributeOldValue: true, characterData: true});
}"""
SEEN = """() => {
  window.__handObserver.disconnect();
  const box = document.getElementById('hand');
  return {changes: window.__handChanges,
          sameCard: window.__focusedCard !== null
            && document.getElementById(box.getAttribute('aria-activedescendant'))
               === window.__focusedCard,
          events: window.fivecrowns.seq - window.__seqBefore,
          focused: document.activeElement.id};
}"""


@pytest.fixture(name="paced")
def paced_fixture(serve: Serve) -> ServerProcess:
    """A server whose computer player waits 0.6 s before each move, as a player hears it."""
    return serve("--bot-delay", "0.6")


def test_others_moves_change_nothing_in_your_hand(browser: Any, paced: ServerProcess) -> None:
    page = browser.new_page()
    try:
        ann = WebPlayer(page, page_url(paced.url))
        ann.dealt("Ann")
        for _step in range(2):  # your turn: a draw, then a discard (going out never chosen)
            ann.wait_turn()
            assert ann.play_one(go_out=False)
        # the discard's snapshot drawn: your hand as it stays until your next turn
        page.wait_for_function(
            "() => window.fivecrowns.snapshot.seq === window.fivecrowns.seq"
            " && !window.fivecrowns.snapshot.legal.length",
            timeout=10_000,
        )
        page.locator("#hand").focus()
        page.keyboard.press("End")  # a card picked: the one a screen reader holds
        page.evaluate(WATCH)
        ann.wait_turn()  # the computer drew and discarded, each with its snapshot
        seen = page.evaluate(SEEN)
        assert seen["events"] >= 3, seen  # not a check of nothing: the computer moved
        assert seen["focused"] == "hand"
        assert seen["sameCard"], seen
        assert seen["changes"] == [], seen["changes"]
        assert ann.errors == []
    finally:
        page.close()
