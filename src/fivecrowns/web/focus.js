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

/** Shows `element` now (and cancels a hiding still to come). */
export function show(element) {
  clearTimeout(pending.get(element));
  pending.delete(element);
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
  if (now || HIDING.afterMs <= 0) {
    element.classList.remove("retiring");
    done(element);
    return;
  }
  element.classList.add("retiring");
  pending.set(
    element,
    setTimeout(() => {
      pending.delete(element);
      element.classList.remove("retiring");
      done(element);
    }, HIDING.afterMs),
  );
}

/**
 * Focuses `target` (when given), then hides `element`: at once if focus was elsewhere, else
 * after the screen reader had time to follow the focus (see retire).
 */
export function focusAndHide(target, element) {
  const held = element.contains(document.activeElement);
  if (target) target.focus();
  if (!held && retiring(element)) return; // already leaving: its time runs on
  retire(element, undefined, !held);
}
