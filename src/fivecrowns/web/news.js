// The table's news as the terminal's session words it (fivecrowns.ui.session.news and
// fivecrowns.words.announce): "Ben's last turn." for another player's last turn, and "Your
// turn. Top discard: …" at yours; and the seat's own record of game events behind L ("what
// happened since your last turn"), kept for the browser tab so a reload keeps it.
import { _, N_, fill, joinList, ngettext } from "./i18n.js";
import { spokenName, wildClause } from "./cards.js";

const W = {
  theirLastTurn: N_("{name}'s last turn."),
  yourTurnTop: N_("Your turn. Top discard: {card}."),
  yourTurnEmpty: N_("Your turn. The discard pile is empty."),
  // the terminal says "This is your last turn." and then the top discard; one sentence here
  yourLastTurnTop: N_("This is your last turn. Top discard: {card}."),
  yourLastTurnEmpty: N_("This is your last turn. The discard pile is empty."),
};

/** A seated player's round start, most important first: the round, whose turn (yours: "Your
 * turn.", and then no sentence of its own for it), the top discard, the wild rank, the count.
 * Why not the hand card by card (the server's sentence, the terminal's): before "Your turn"
 * it held that news up to 20 s after the deal (Orca, issue 25); the hand's list holds the
 * cards, and focus is on it. Null when the event lacks what it needs (the server's then). */
export function dealWords(app, data, wild) {
  const { round, first_player: first, turned_up: top, hand_size: count, wild_rank: rank } = data;
  if (app.seat === null || typeof round !== "number" || typeof first !== "number") return null;
  if (typeof top !== "string" || typeof count !== "number" || typeof rank !== "string") return null;
  const clause = wildClause(rank);
  const values = {
    round,
    card: spokenName(top, wild),
    wild: clause.charAt(0).toUpperCase() + clause.slice(1),
    count,
  };
  if (first === app.seat) {
    // TRANSLATORS: {wild} is a whole clause such as "3s are wild", its first letter capital
    const yours = ngettext(
      "Round {round}. Your turn. Top discard: {card}. {wild}. {count} card each.",
      "Round {round}. Your turn. Top discard: {card}. {wild}. {count} cards each.",
      count,
    );
    return fill(yours, values);
  }
  const seats = app.snapshot ? app.snapshot.seats : [];
  const name = seats[first] && seats[first].name;
  if (!name) return null;
  // TRANSLATORS: {wild} is a whole clause such as "3s are wild", its first letter capital
  const theirs = ngettext(
    "Round {round}. {name} starts. Top discard: {card}. {wild}. {count} card each.",
    "Round {round}. {name} starts. Top discard: {card}. {wild}. {count} cards each.",
    count,
  );
  return fill(theirs, { ...values, name });
}

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
