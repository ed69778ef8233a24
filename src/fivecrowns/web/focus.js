// Keeping the screen reader's focus alive. Why: an element leaves the accessibility tree the
// moment it is hidden or removed, and a screen reader may not yet have heard that focus moved
// (under load Orca ran seconds behind the page). Orca 43 in Firefox, finding the element it
// thinks has focus dead, fails on every later focus change: no card, button or dialog was
// said for the rest of the game (F1 and Escape met silence). So what held focus (a panel, a
// card of the hand, the Keys dialog) is first hidden only from the eye ("retiring": out of
// sight, still in the accessibility tree), and leaves the tree a few seconds later, long after
// the screen reader followed the focus.

/** Milliseconds a retiring element stays in the accessibility tree (tests may set 0). */
// why 10 s: after Start, at a load average of 35 on two cores, Firefox told Orca of the new
// focus 4 s late and Orca handled it 2 s later still; with 5 s the Start button was gone
// by then and Orca fell silent for the rest of the round (benchmarks/results/orca.txt)
export const HIDING = { afterMs: 10000 };
const pending = new Map(); // element -> timer
const pruned = new Map(); // retiring element -> its parts hidden from the screen reader at once
// the element that last lost focus, and when (see heldLately)
let lastLeft = { element: null, at: -Infinity };
document.addEventListener(
  "focusout",
  (e) => {
    lastLeft = { element: e.target, at: performance.now() };
  },
  true,
);

/** True when focus is in `element`, or left it less than HIDING.afterMs ago. Why: a screen
 * reader running behind may not yet have followed focus out of it (after Start, Orca in
 * Firefox still held the Start button while the page had focused the hand). */
function heldLately(element) {
  if (element.contains(document.activeElement)) return true;
  return !!lastLeft.element && element.contains(lastLeft.element) && performance.now() - lastLeft.at < HIDING.afterMs;
}

/** True when `node` is in a part that is retiring (out of sight, soon out of the tree). */
export function inRetiring(node) {
  for (const element of pending.keys()) if (element.contains(node)) return true;
  return false;
}

// why everything but the way to the element that held focus leaves the screen reader at once
// (aria-hidden): a screen reader in browse mode moves by itself (Orca's "c", next combo box,
// wrapped to the retiring lobby's Seats box), and an object it went to that then leaves the
// tree killed its focus: Orca 43 in Firefox said no focus change again (benchmarks/results/
// orca.txt, web6). Only the element it may still hold as its focus stays for HIDING.afterMs.
function prune(element, kept) {
  if (!kept || kept === element || !element.contains(kept)) return;
  const parts = [];
  // why its labels stay: its name comes from them (a hidden label names nothing in Chromium)
  const labels = [...(kept.labels ?? [])];
  for (let on = kept; on !== element; on = on.parentElement) {
    for (const sibling of on.parentElement.children) {
      if (sibling === on || sibling.hasAttribute("aria-hidden") || labels.includes(sibling)) continue;
      sibling.setAttribute("aria-hidden", "true");
      parts.push(sibling);
    }
  }
  pruned.set(element, parts);
}

function unprune(element) {
  for (const part of pruned.get(element) ?? []) part.removeAttribute("aria-hidden");
  pruned.delete(element);
}
const untabbed = new Map(); // element -> {parts: [[part, its own tabindex or null]], watch}
// what Tab can reach (a retiring part's are taken out of the Tab order)
const TABBABLE = "a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]";

// why out of the Tab order at once: Tab went on through the form out of sight after Connect;
// why not `inert`: an inert part leaves the accessibility tree at once (Chromium and Firefox
// hide inert content from it), which retiring exists to avoid
function outOfTabOrder(element) {
  if (untabbed.has(element)) return;
  const entry = { parts: [], watch: null };
  const take = (part) => {
    if (!part.matches(TABBABLE) || entry.parts.some(([known]) => known === part)) return;
    entry.parts.push([part, part.getAttribute("tabindex")]);
    part.setAttribute("tabindex", "-1");
  };
  take(element);
  element.querySelectorAll(TABBABLE).forEach(take);
  // parts drawn while it retires (the lobby's table list) are no stops either
  entry.watch = new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        take(node);
        node.querySelectorAll(TABBABLE).forEach(take);
      }
    }
  });
  entry.watch.observe(element, { childList: true, subtree: true });
  untabbed.set(element, entry);
}

function backInTabOrder(element) {
  const entry = untabbed.get(element);
  if (!entry) return;
  untabbed.delete(element);
  entry.watch.disconnect();
  for (const [part, tabindex] of entry.parts) {
    if (tabindex === null) part.removeAttribute("tabindex");
    else part.setAttribute("tabindex", tabindex);
  }
}

// why the caret goes with the sight, while focus has just moved: a caret (the document's
// selection, left in the name field after Connect) in a part that leaves the tree is moved on
// by Chromium to the next thing shown (Blink moves carets out of display:none content,
// github.com/w3c/editing/issues/68), with text-caret-moved there, and Orca 43 takes any
// caret move for the player's (its web script's onCaretMoved): it left the Seats box for the
// "New table" heading and said nothing on Up; no selection, no move
function dropCaret(element) {
  const selection = getSelection();
  if (!selection || !selection.rangeCount) return;
  const { anchorNode, focusNode } = selection;
  if ((anchorNode && element.contains(anchorNode)) || (focusNode && element.contains(focusNode))) {
    selection.removeAllRanges();
  }
}

/** Shows `element` now (and cancels a hiding still to come). */
export function show(element) {
  clearTimeout(pending.get(element));
  pending.delete(element);
  unprune(element);
  backInTabOrder(element);
  element.classList.remove("retiring");
  element.hidden = false;
}

/** True while `element` is out of sight but not yet out of the accessibility tree. */
export function retiring(element) {
  return pending.has(element);
}

/**
 * Hides `element` from the eye now and from the accessibility tree after HIDING.afterMs, then
 * calls `done` (by default: sets `hidden`). With no delay, or `now`, all at once.
 */
export function retire(element, done = (e) => { e.hidden = true; }, now = false) {
  clearTimeout(pending.get(element));
  pending.delete(element);
  dropCaret(element);
  unprune(element);
  if (now || HIDING.afterMs <= 0) {
    backInTabOrder(element);
    element.classList.remove("retiring");
    done(element);
    return;
  }
  element.classList.add("retiring");
  outOfTabOrder(element);
  const active = document.activeElement;
  prune(element, element.contains(active) ? active : heldLately(element) ? lastLeft.element : null);
  const leave = () => {
    // why not while it holds focus (the page put it there, or a click before it retired):
    // focus would fall to the page, and the screen reader with it; it goes once focus left
    if (element.contains(document.activeElement)) {
      pending.set(element, setTimeout(leave, HIDING.afterMs));
      return;
    }
    pending.delete(element);
    unprune(element);
    backInTabOrder(element);
    element.classList.remove("retiring");
    done(element);
  };
  pending.set(element, setTimeout(leave, HIDING.afterMs));
}

/**
 * Focuses `target` (when given), then hides `element`: at once if focus was elsewhere, else
 * after the screen reader had time to follow the focus (see retire).
 */
export function focusAndHide(target, element) {
  const held = heldLately(element);
  if (target) target.focus();
  if (!held && retiring(element)) return; // already leaving: its time runs on
  retire(element, undefined, !held);
}
