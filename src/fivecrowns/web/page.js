// The words written in index.html, translated in place when the page loads or its language
// changes: [selector, attribute (null: the text), sentence]. A test checks that each English
// sentence here is the page's own, so the two cannot drift apart.
import { _, N_, ngettext, fill } from "./i18n.js";
import { RATINGS_PAGE } from "./ratings.js";
import { FRIENDS_PAGE } from "./friends.js";

export const PAGE = [
  ["title", null, N_("Five Crowns")],
  ["h1", null, N_("Five Crowns")],
  ["#connection", null, N_("Not connected.")],
  [".settings", "aria-label", N_("Sound and voice")],
  ["label:has(#voice)", null, N_("Built-in voice")],
  ["label:has(#sounds)", null, N_("Sounds")],
  ["label:has(#volume)", null, N_("Volume")],
  ["#help-button", null, N_("Keys (F1)")],
  ["#sounds-button", null, N_("Sounds (F2)")],
  ["#lobby-heading", null, N_("Lobby")],
  ["label[for=name]", null, N_("Your name")],
  ["label[for=language]", null, N_("Language")],
  ["#hello-form button", null, N_("Connect")],
  ["#create-form h3", null, N_("New table")],
  ["label[for=seats]", null, N_("Seats")],
  ["#seat-choices legend", null, N_("Who sits in the other seats")],
  ["label:has(#private)", null, N_("Private (joined with an invite code)")],
  ["#create-form button[type=submit]", null, N_("Create the table")],
  ["label[for=code]", null, N_("Invite code")],
  ["#code-form button[type=submit]", null, N_("Join with the code")],
  ["#watch-code", null, N_("Watch with the code")],
  ["#new-game-button", null, N_("New game (N)")],
  ["#tables-heading", null, N_("Open tables")],
  ["#no-tables", null, N_("No open tables yet.")],
  ["#table-heading", null, N_("Table")],
  ["#start-button", null, N_("Start the game")],
  ["#bots-heading", null, N_("Computer players")],
  ["label[for=bot-level]", null, N_("Level")],
  ["#add-bot", null, N_("Add a computer player")],
  ["#players-heading", null, N_("Players")],
  ["#piles-heading", null, N_("Piles")],
  ["#stock-text", null, N_("Stock")],
  ["#discard-text", null, N_("Discard pile")],
  ["#hand-heading", null, N_("Your hand")],
  ["#watch-heading", null, N_("Information")],
  ["#hand-empty", "aria-label", N_("Your hand is empty.")],
  ["#hand-empty [role=option]", null, N_("Your hand is empty.")],
  ["#hand-help", null, N_("Left and Right move; Enter discards; D draws, T takes the discard, G goes out. F1 lists every key.")],
  [".moves:not(.info)", "aria-label", N_("Moves")],
  ["[data-action=draw]", null, N_("Draw (D)")],
  ["[data-action=take]", null, N_("Take discard (T)")],
  ["[data-action=discard]", null, N_("Discard (Enter)")],
  ["[data-action=go_out]", null, N_("Go out (G)")],
  ["[data-action=sort]", null, N_("Sort (O)")],
  [".moves.info", "aria-label", N_("Information")],
  ["[data-action=hand]", null, N_("Hand (H)")],
  ["[data-action=hint]", null, N_("Hint (Shift+H)")],
  ["[data-action=round]", null, N_("Round (W)")],
  ["[data-action=piles]", null, N_("Piles (P)")],
  ["[data-action=scores]", null, N_("Scores (S)")],
  ["[data-action=melds]", null, N_("Melds (M)")],
  ["[data-action=counts]", null, N_("Counts (C)")],
  ["[data-action=last_moves]", null, N_("Last moves (L)")],
  ["[data-action=whose_turn]", null, N_("Whose turn (N)")],
  ["[data-action=why]", null, N_("Why (Y)")],
  ["[data-action=review]", null, N_("Review (Shift+R)")],
  ["[data-action=watchers]", null, N_("Watching (A)")],
  ["[data-action=leave]", null, N_("Leave the table")],
  ["#melds-heading", null, N_("Melds on the table")],
  ["#melds > p", null, N_("None yet.")],
  ["#result-heading", null, N_("Results")],
  ["#result", null, N_("No round has ended yet.")],
  ["#scores-heading", null, N_("Score sheet")],
  ["#score-sheet caption", null, N_("Points by round, and totals")],
  ["#chat-heading", null, N_("Chat")],
  ["#no-chat", null, N_("Nothing said yet.")],
  ["label[for=chat]", null, N_("Say to the table (/)")],
  ["#chat-form button", null, N_("Send")],
  ["#messages-heading", null, N_("Messages")],
  ["#help-heading", null, N_("Keys")],
  ["#help-intro", null, N_("Every key of the game. Escape closes this list and takes you back.")],
  ["#help-close", null, N_("Close (Escape)")],
  ["#sounds-heading", null, N_("Sounds")],
  ["label[for=sounds-pack-choice]", null, N_("Sound pack")],
  ["label[for=sounds-mute]", null, N_("Mute all sounds")],
  [".volumes legend", null, N_("Volume of each kind of sound")],
  ["label[for=volume-own]", null, N_("Your moves")],
  ["label[for=volume-others]", null, N_("Others' moves")],
  ["label[for=volume-alerts]", null, N_("Alerts")],
  ["#cues-heading", null, N_("Hear the sounds")],
  ["#sounds-close", null, N_("Close (Escape)")],
  ["#leave-heading", null, N_("Leave the table")],
  ["#leave-no", null, N_("Stay")],
  ["#leave-yes", null, N_("Leave the table")],
  ...RATINGS_PAGE,
  ...FRIENDS_PAGE,
];

/** Sets an element's own words, keeping its controls (a label around a check box). */
function setText(element, text) {
  if (!element.childElementCount) {
    element.textContent = text;
    return;
  }
  for (const node of element.childNodes) {
    if (node.nodeType === Node.TEXT_NODE && node.nodeValue.trim()) {
      const value = node.nodeValue;
      const before = value.slice(0, value.length - value.trimStart().length);
      const after = value.slice(value.trimEnd().length);
      node.nodeValue = `${before}${text}${after}`;
      return;
    }
  }
}

/** Every word of index.html in the page's language. */
export function translatePage() {
  for (const [selector, attribute, sentence] of PAGE) {
    const element = document.querySelector(selector);
    if (!element) continue;
    if (attribute) element.setAttribute(attribute, _(sentence));
    else setText(element, _(sentence));
  }
  const hand = document.getElementById("hand");
  if (!hand.childElementCount) {
    hand.setAttribute("aria-label", fill(ngettext("Your hand, {count} card", "Your hand, {count} cards", 0), { count: 0 }));
  }
}
