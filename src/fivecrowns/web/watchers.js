// Who is watching the table (issue 25 item 3): the spectators' names from the server's
// snapshot (`watchers`, names only: docs/protocol.md), as a line under the players that
// browse mode reads, and the answer to the A key and the Watching button.
import { _, N_, fill, joinList } from "./i18n.js";

const W = {
  nobody: N_("Nobody is watching."),
  watching: N_("Watching: {names}."),
};

/** The sentence for a snapshot's spectators (an older server sends none: nobody). */
export function watchersWords(snap) {
  const names = snap && Array.isArray(snap.watchers) ? snap.watchers : [];
  return names.length ? fill(_(W.watching), { names: joinList(names) }) : _(W.nobody);
}

export function drawWatchers(snap) {
  const line = document.getElementById("watchers");
  const text = watchersWords(snap);
  // why only on a change: a screen reader in browse mode keeps its place in unchanged text
  if (line.textContent !== text) line.textContent = text;
}
