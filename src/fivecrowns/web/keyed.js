// Lists of controls drawn again at every snapshot (the creator's Remove buttons for computer
// players and for people) kept in place. Why: a list rebuilt whole removes the button that has
// focus, and Orca 43 in Firefox, finding its focus dead, said nothing for the rest of the game
// (heard after Enter on "Remove Bot 3 from seat 3"). So an item whose words did not change is
// left alone, a new one is put in its place without moving the others (a node moved is removed
// and added again: its focus dies as well), and an item that goes first gives focus to a
// spoken control, then retires (focus.js) instead of being removed at once.
import { retire, retiring } from "./focus.js";

/**
 * Makes the items of `list` (an element whose children are the items) those of `wanted`, in
 * its order: each `{key, words, build}`, where `words` is what the item says (an item whose
 * key and words are unchanged stays as it is) and `build()` makes the item's element. When the
 * item holding focus goes, focus moves first to the same part (`data-part`) of its new item,
 * or the first button of the next item (else the one before), or to `fallback()`.
 */
export function drawKeyed(list, wanted, fallback) {
  const live = [...list.children].filter((item) => !retiring(item));
  const have = new Map(live.map((item) => [item.dataset.key, item]));
  const made = new Map();
  let before = null; // the item the next one goes after (null: the list's start)
  for (const { key, words, build } of wanted) {
    const old = have.get(key);
    if (old && old.dataset.words === words) {
      have.delete(key);
      before = old;
      continue;
    }
    const item = build();
    item.dataset.key = key;
    item.dataset.words = words;
    list.insertBefore(item, before ? before.nextSibling : list.firstChild);
    made.set(key, item);
    before = item;
  }
  const stays = (item) => !retiring(item) && ![...have.values()].includes(item);
  for (const [key, item] of have) {
    const active = document.activeElement;
    if (item.contains(active)) {
      const part = active.dataset ? active.dataset.part : undefined;
      const again = made.get(key);
      let target = again && part ? again.querySelector(`[data-part="${part}"]`) : null;
      if (!target) {
        const items = [...list.children];
        const at = items.indexOf(item);
        const next = items.slice(at + 1).find(stays) ?? items.slice(0, at).reverse().find(stays);
        target = next ? next.querySelector("button") : null;
      }
      (target ?? fallback()).focus(); // why before it goes: see the top of this file
    }
    retire(item, (gone) => gone.remove());
  }
}
