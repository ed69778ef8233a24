// Card names, as the game says them (fivecrowns.cards: Card.spoken and spoken_name).
// A test compares every card and wild rank with the Python names.

export const SUITS = {
  st: { word: "stars", letter: "S", glyph: "\u2605" },
  h: { word: "hearts", letter: "H", glyph: "\u2665" },
  c: { word: "clubs", letter: "C", glyph: "\u2663" },
  sp: { word: "spades", letter: "P", glyph: "\u2660" },
  d: { word: "diamonds", letter: "D", glyph: "\u2666" },
};
const FACES = { J: "Jack", Q: "Queen", K: "King" };
const RANK_VALUES = { J: 11, Q: 12, K: 13 };

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
  if (rank === null) return "joker";
  return `${FACES[rank] ?? rank} of ${SUITS[suit].word}`;
}

/** spoken_name: "wild 5 of clubs" when 5s are wild (wild is a rank token or null). */
export function spokenName(token, wild) {
  const { rank } = parseToken(token);
  if (wild !== null && rank === wild) return `wild ${spoken(token)}`;
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
