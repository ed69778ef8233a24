// Your hand emptied while it had focus (you went out): focus moves first, then the cards go.
// Why: the cards that left stay in the list a few seconds for a screen reader that still holds
// one as its focus (focus.js: removed at once, Orca in Firefox lost its focus for the rest of
// the game), and a screen reader counts them: the page said "Your hand, 0 cards." and Orca in
// Chromium "List with 4 items." (Chromium ignores aria-setsize="0"). So focus goes to a list
// of its own with no cards, named "Your hand is empty.", before the cards retire: what is said
// agrees, and a list keeps the screen reader in focus mode, where the page's letter keys
// (W, S, L...) still reach the page (on a paragraph or a button Orca turns to browse mode and
// takes letters for itself). Why one disabled option in it, "Your hand is empty.": Orca 43
// says nothing at all for a list box with no child object (its count of items fails on the
// first child; an empty hand was silent), and a list box may hold only options (axe's
// aria-required-children; a paragraph there was one); disabled, it is no card to pick.
// While cards retire the hand is out of the Tab order, so Tab never meets the old count
// either. The next deal gives focus back to the hand.
import { retire, retiring, show } from "./focus.js";
import { _, N_ } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const WORDS = {
  empty: N_("Your hand is empty."),
  waiting: N_("Your hand: waiting for the deal."),
};

/** The empty hand's list says `text` (its name and its one option, read in browse mode). */
function name(empty, text) {
  empty.setAttribute("aria-label", text);
  empty.firstElementChild.textContent = text;
}

/** What the empty hand's list says now (the answer to an arrow on it). */
export function emptyWords() {
  const empty = $("hand-empty");
  return empty.hidden ? _(WORDS.empty) : empty.getAttribute("aria-label");
}

/** Start was pressed: focus goes at once to the empty hand's list, "Your hand: waiting for
 * the deal.", and stays there until the deal gives it to the hand (moveFocusForHand). Why
 * not on the Start button until the deal: on a button Orca is in browse mode, and a key
 * pressed before it followed the page's focus to the dealt hand was its own: Right moved its
 * caret to the Players heading (Firefox then took focus from the hand), "c" went to the
 * lobby's Seats box, and its focus died with the lobby (benchmarks/results/orca.txt, web6).
 * A list box puts Orca in focus mode, where the page's keys reach the page. */
export function waitForDeal() {
  const empty = $("hand-empty");
  name(empty, _(WORDS.waiting));
  show(empty);
  empty.focus();
  return empty;
}

/** Start was refused: focus goes back to the Start button (when it is shown). */
export function dealRefused() {
  const empty = $("hand-empty");
  if (document.activeElement !== empty || $("start-button").hidden) return null;
  $("start-button").focus();
  retire(empty, undefined, true);
  return $("start-button");
}

let back = null; // the timer of a move back to the hand that waits (see below)

/** Before the hand's cards change: focus moved off a hand that is emptied (`count` 0) while
 * it has focus, or back onto it from the empty hand's list when it is dealt again. Returns
 * the element focus moved to, or null. Why the move back waits until `answered` (when the
 * answer to the player's last key will have been said, channel.js) and then calls `again`:
 * a screen reader stops what it says when focus moves, and the answer to an arrow pressed
 * just before the deal ("Your hand is empty.") was never begun (Orca in Firefox). */
export function moveFocusForHand(count, answered = 0, again = () => {}) {
  const box = $("hand");
  const empty = $("hand-empty");
  clearTimeout(back);
  if (!count && document.activeElement === box && box.childElementCount) {
    name(empty, _(WORDS.empty));
    show(empty);
    empty.focus();
    return empty;
  }
  if (empty.hidden) return null;
  const held = document.activeElement === empty;
  if (count && held) {
    const wait = answered - performance.now();
    if (wait > 0) {
      back = setTimeout(again, wait);
      return null;
    }
    box.focus();
    retire(empty); // why retiring, not hidden at once: see focus.js
    return box;
  }
  // it has done its part once focus left it (Tab, leaving the table) or the hand is dealt;
  // why retire: hidden at once only if it holds no focus, else once focus left it
  if (!held && !retiring(empty)) retire(empty);
  return null;
}

/** After the hand is drawn: out of the Tab order while its retiring cards make it count more
 * than it holds (an empty hand), in it otherwise. */
export function keepTabStop() {
  const box = $("hand");
  const cards = [...box.children].filter((card) => !card.classList.contains("retiring"));
  const stale = !cards.length && box.childElementCount > 0;
  const wanted = stale ? "-1" : "0";
  if (box.getAttribute("tabindex") !== wanted) box.setAttribute("tabindex", wanted);
}
