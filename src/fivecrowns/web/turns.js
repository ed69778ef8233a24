// Another player's whole turn as one sentence, as the terminal says it
// (fivecrowns.words.announce.turn_summary): "Bot 2 drew from the stock and discarded the 8 of
// spades." Why: the server sends a computer's draw, lay-down and discard as three events
// 0.8 s apart, and three sentences (four with "Bot 2's turn.") take a voice about 8 s; with
// two computers at the table the news ran 38 s behind the game (Orca, issue 25). Parts still
// waiting in the channel's queue are joined; a part already given is not said again.
import { _, N_, fill, language } from "./i18n.js";

// the server's sentence for each part (fivecrowns.words.announce._THEIR_TURN), read back
// into its values: the joined sentence is a whole template of the catalogue filled with them
// (tests/web/test_turns.py checks both tables against the Python catalogue, both languages)
export const PART = {
  drew_from_stock: [["stock", "", N_("{name} drew from the stock.")]],
  took_discard: [["took", "", N_("{name} took {card}.")]],
  laid_down: [
    ["", "nothing", N_("{name} laid down nothing.")],
    ["", "melds", N_("{name} laid down {melds}.")],
  ],
  discarded: [["", "", N_("{name} discarded {discard}.")]],
};

// (draw, laid, discarded) -> the whole turn's sentence, the terminal's own templates
export const WHOLE = {
  "stock||0": N_("{name} drew from the stock."),
  "stock||1": N_("{name} drew from the stock and discarded {discard}."),
  "stock|melds|0": N_("{name} drew from the stock and laid down {melds}."),
  "stock|melds|1": N_("{name} drew from the stock, laid down {melds} and discarded {discard}."),
  "stock|nothing|0": N_("{name} drew from the stock and laid down nothing."),
  "stock|nothing|1": N_("{name} drew from the stock, laid down nothing and discarded {discard}."),
  "took||0": N_("{name} took {card}."),
  "took||1": N_("{name} took {card} and discarded {discard}."),
  "took|melds|0": N_("{name} took {card} and laid down {melds}."),
  "took|melds|1": N_("{name} took {card}, laid down {melds} and discarded {discard}."),
  "took|nothing|0": N_("{name} took {card} and laid down nothing."),
  "took|nothing|1": N_("{name} took {card}, laid down nothing and discarded {discard}."),
  "|melds|0": N_("{name} laid down {melds}."),
  "|melds|1": N_("{name} laid down {melds} and discarded {discard}."),
  "|nothing|0": N_("{name} laid down nothing."),
  "|nothing|1": N_("{name} laid down nothing and discarded {discard}."),
  "||1": N_("{name} discarded {discard}."),
};
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The values of `text`, the server's sentence for one part of `name`'s turn, or null. */
function readPart(kind, text, name) {
  for (const [draw, laid, template] of PART[kind] ?? []) {
    const names = [];
    const pattern = escape(_(template)).replace(/\\\{(\w+)\\\}/g, (match, key) => {
      if (key === "name") return escape(name);
      names.push(key);
      return "(.+)";
    });
    const found = new RegExp(`^${pattern}$`).exec(text.trim());
    if (!found) continue;
    const values = { draw, laid, discarded: kind === "discarded" };
    names.forEach((key, index) => (values[key] = found[index + 1]));
    return values;
  }
  return null;
}

/** A part of another player's turn: what the channel keeps on its queued sentence so that
 * the next part can join it, or null when the event is no part of a turn (or its sentence
 * is not one the page can read back). */
export function turnPart(kind, player, name, text) {
  if (typeof player !== "number" || !name || !PART[kind]) return null;
  const values = readPart(kind, text, name);
  // why the language kept: parts read in two languages (the page's language changed while
  // one waited) would make one sentence of two languages; such parts are not joined
  return values ? { player, name, language: language(), ...values } : null;
}

/** `earlier` and `later` (turnPart) as one part, with its sentence, or null when they are not
 * one turn in order (another player, a second draw, a move after the discard) or not read in
 * the page's language of now. */
export function joinParts(earlier, later) {
  if (!earlier || !later || earlier.player !== later.player || earlier.discarded) return null;
  if (earlier.language !== later.language || later.language !== language()) return null;
  if (later.draw && (earlier.draw || earlier.laid)) return null;
  if (later.laid && earlier.laid) return null;
  const part = {
    player: earlier.player,
    name: earlier.name,
    language: earlier.language,
    draw: earlier.draw || later.draw,
    card: earlier.card ?? later.card,
    laid: earlier.laid || later.laid,
    melds: earlier.melds ?? later.melds,
    discarded: later.discarded,
    discard: later.discard,
  };
  const template = WHOLE[`${part.draw}|${part.laid}|${part.discarded ? 1 : 0}`];
  if (!template) return null;
  return { part, text: fill(_(template), part) };
}
