// The table's news as the terminal's session words it (fivecrowns.ui.session.news and
// fivecrowns.words.announce): "Ben's last turn." for another player's last turn, and "Your
// turn. Top discard: …" at yours; and the seat's own record of game events behind L ("what
// happened since your last turn"), kept for the browser tab so a reload keeps it.
import { _, N_, fill, joinList } from "./i18n.js";
import { spokenName } from "./cards.js";

const W = {
  theirLastTurn: N_("{name}'s last turn."),
  yourTurnTop: N_("Your turn. Top discard: {card}."),
  yourTurnEmpty: N_("Your turn. The discard pile is empty."),
  // the terminal says "This is your last turn." and then the top discard; one sentence here
  yourLastTurnTop: N_("This is your last turn. Top discard: {card}."),
  yourLastTurnEmpty: N_("This is your last turn. The discard pile is empty."),
};

/** The game's own events: what L tells (table news such as joins and chat is not a move). */
export const GAME_KINDS = new Set([
  "round_started", "turn_started", "drew_from_stock", "took_discard", "discarded", "went_out",
  "last_turn_started", "laid_down", "stock_reshuffled", "round_scored", "game_over",
]);
const STORED = "fivecrowns-news";
const KEPT = 300;

/** The top discard after an event: null for an empty pile, undefined when not told (the card
 * under one taken is not in the event; the snapshot then says it). */
export function topAfter(kind, data, top) {
  switch (kind) {
    case "round_started": return data.turned_up ?? undefined;
    case "discarded": return data.card ?? undefined;
    case "went_out": return data.discard ?? undefined;
    case "took_discard":
    case "stock_reshuffled":
    case "new_game":
      return undefined;
    default: return top;
  }
}

/** The sentence for a turn's start, or null to keep the server's. */
export function turnWords(app, kind, data, top, wild) {
  const player = data ? data.player : undefined;
  if (typeof player !== "number") return null;
  if (player === app.seat && (kind === "turn_started" || kind === "last_turn_started")) {
    const view = app.snapshot && app.snapshot.view;
    const card = top === undefined ? (view ? view.top_discard : undefined) : top;
    if (card === undefined) return null;
    const last = kind === "last_turn_started";
    if (card === null) return _(last ? W.yourLastTurnEmpty : W.yourTurnEmpty);
    return fill(_(last ? W.yourLastTurnTop : W.yourTurnTop), { card: spokenName(card, wild) });
  }
  if (player !== app.seat && kind === "last_turn_started") {
    const seats = app.snapshot ? app.snapshot.seats : [];
    const name = seats[player] && seats[player].name;
    if (name) return fill(_(W.theirLastTurn), { name });
  }
  return null;
}

/** This tab's record of the game events at ``table`` in ``seat`` (empty for another table). */
export function restore(table, seat) {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORED) || "null");
    if (stored && stored.table === table && stored.seat === seat && Array.isArray(stored.events)) {
      return stored.events;
    }
  } catch {
    // why quiet: without storage L still tells what this page heard
  }
  return [];
}

export function keep(table, seat, events) {
  try {
    sessionStorage.setItem(STORED, JSON.stringify({ table, seat, events: events.slice(-KEPT) }));
  } catch {
    // why quiet: as in restore
  }
}

export function forget() {
  try {
    sessionStorage.removeItem(STORED);
  } catch {
    // why quiet: as in restore
  }
}

/** The round's start with your hand said in the order your hand list shows it (the server
 * says it as dealt); the text as it came when the dealt list is not in it. */
export function dealInListOrder(text, dealt, listed, wild) {
  const said = joinList(dealt.map((token) => spokenName(token, wild)));
  const shown = joinList(listed.map((token) => spokenName(token, wild)));
  return said && text.includes(said) ? text.replace(said, () => shown) : text;
}
