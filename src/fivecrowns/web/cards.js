// Card names, as the game says them (fivecrowns.core.cards: Card.spoken, spoken_name and
// wild_clause), in the page's language: the same sentences as the game's catalog.
// A test compares every card and wild rank with the Python names.
import { _, fill, pgettext } from "./i18n.js";

export const SUITS = {
  st: { word: "stars", letter: "S", glyph: "\u2605" },
  h: { word: "hearts", letter: "H", glyph: "\u2665" },
  c: { word: "clubs", letter: "C", glyph: "\u2663" },
  sp: { word: "spades", letter: "P", glyph: "\u2660" },
  d: { word: "diamonds", letter: "D", glyph: "\u2666" },
};
const RANK_VALUES = { J: 11, Q: 12, K: 13 };

/** A suit's name in the page's language ("hearts", "copas"). */
export function suitWord(suit) {
  switch (suit) {
    case "st":
      return pgettext("suit", "stars");
    case "h":
      return pgettext("suit", "hearts");
    case "c":
      return pgettext("suit", "clubs");
    case "sp":
      return pgettext("suit", "spades");
    default:
      return pgettext("suit", "diamonds");
  }
}

// One whole name per rank: in Spanish the article and the plural depend on the rank.
function cardName(rank) {
  switch (rank) {
    case "3": return _("3 of {suit}");
    case "4": return _("4 of {suit}");
    case "5": return _("5 of {suit}");
    case "6": return _("6 of {suit}");
    case "7": return _("7 of {suit}");
    case "8": return _("8 of {suit}");
    case "9": return _("9 of {suit}");
    case "10": return _("10 of {suit}");
    case "J": return _("Jack of {suit}");
    case "Q": return _("Queen of {suit}");
    default: return _("King of {suit}");
  }
}

/** "Kings are wild" ("los reyes son salvajes"), for a sentence that goes on. */
export function wildClause(rank) {
  switch (rank) {
    case "3": return _("3s are wild");
    case "4": return _("4s are wild");
    case "5": return _("5s are wild");
    case "6": return _("6s are wild");
    case "7": return _("7s are wild");
    case "8": return _("8s are wild");
    case "9": return _("9s are wild");
    case "10": return _("10s are wild");
    case "J": return _("Jacks are wild");
    case "Q": return _("Queens are wild");
    default: return _("Kings are wild");
  }
}

/** {rank, suit} of a token such as "7h", "10st", "Qsp"; rank and suit are null for "jk". */
export function parseToken(token) {
  if (token === "jk") return { rank: null, suit: null };
  const match = /^(10|[3-9JQK])(st|sp|h|c|d)$/.exec(token);
  if (!match) throw new Error(`not a card: ${token}`);
  return { rank: match[1], suit: match[2] };
}

export function rankValue(rank) {
  return RANK_VALUES[rank] ?? Number(rank);
}

/** The wild rank's token in round 1..11: "3" to "10", "J", "Q", "K". */
export function wildRankToken(round) {
  const value = round + 2;
  return { 11: "J", 12: "Q", 13: "K" }[value] ?? String(value);
}

/** "7 of hearts", "Queen of stars", "joker" (Card.spoken). */
export function spoken(token) {
  const { rank, suit } = parseToken(token);
  if (rank === null) return pgettext("card", "joker");
  return fill(cardName(rank), { suit: suitWord(suit) });
}

/** spoken_name: "wild 5 of clubs" when 5s are wild (wild is a rank token or null). */
export function spokenName(token, wild) {
  const { rank } = parseToken(token);
  // TRANSLATORS: a card of the round's wild rank, as in "wild 5 of clubs".
  if (wild !== null && rank === wild) return fill(_("wild {card}"), { card: spoken(token) });
  return spoken(token);
}

/** Sort keys: by rank then suit (the game's order), or by suit then rank; jokers last. */
const SUIT_ORDER = ["st", "h", "c", "sp", "d"];
export function sortKey(token, order) {
  const { rank, suit } = parseToken(token);
  if (rank === null) return [99, 99];
  const r = rankValue(rank);
  const s = SUIT_ORDER.indexOf(suit);
  return order === "suit" ? [s, r] : [r, s];
}
