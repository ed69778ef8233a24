// The table as sighted players and browse mode read it: the round, the players (cards,
// scores, whose turn, who went out), the piles, the melds and the score sheet, drawn from
// every snapshot (the server sends one to everyone at the table after each change, so the
// table is never behind what was heard). Everything is changed in place, node by node, and
// only where it differs: a focused element and a screen reader's browse position survive,
// and nothing unchanged is announced again.
import { parseToken, spokenName, suitWord, SUITS, wildClause, wildRankToken } from "./cards.js";
import { _, N_, fill, language, ngettext, pgettext } from "./i18n.js";
import { seatWords } from "./waiting.js";

const $ = (id) => document.getElementById(id);

const T = {
  // TRANSLATORS: {wild} is a whole clause such as "3s are wild", its first letter capital
  roundLine: N_("Round {round} of 11. {wild}, and jokers."),
  emptySeat: N_("empty seat"),
  turnMark: N_("Playing now"),
  outMark: N_("Went out"),
  // TRANSLATORS: written on a card of the round's wild rank
  wildWord: N_("wild"),
  jokerWord: N_("Joker"),
  noMelds: N_("None yet."),
  you: N_("{name} (you)"),
  youMelds: N_("You"),
  seatPerson: N_("{number}. {name}"),
  roundColumn: N_("Round"),
  totalRow: N_("Total"),
};
const say = (template, values = {}) => fill(_(template), values);

/** A computer level in the page's language (the level names are protocol words); the same
 * catalog entries as the Python side's fivecrowns.ai.loader.level_name. */
export function levelWord(level) {
  switch (level) {
    case "easy": return pgettext("computer level", "easy");
    case "medium": return pgettext("computer level", "medium");
    case "hard": return pgettext("computer level", "hard");
    case "expert": return pgettext("computer level", "expert");
    case "simple": return pgettext("computer level", "simple");
    default: return level;
  }
}

/** Sets a node's text only when it differs (why: an unchanged text node keeps a screen
 * reader's browse position and is not heard again). */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** Sets (or with null removes) an attribute only when it differs. */
export function setAttribute(element, name, value) {
  if (value === null) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** ``parent``'s children made exactly ``count`` long: kept ones stay, new ones come from
 * ``make()``, extra ones go (why: rows are updated in place, never rebuilt). */
function keepChildren(parent, count, make) {
  while (parent.childElementCount > count) parent.lastElementChild.remove();
  while (parent.childElementCount < count) parent.append(make());
  return [...parent.children];
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/** A card's face in ``element`` (aria-hidden by the caller: its name is said elsewhere);
 * redrawn only when the card or the wild rank changed. */
export function drawCard(element, token, wild) {
  const drawn = `${token || ""}/${wild || ""}/${language()}`;
  if (element.dataset.drawn === drawn) return;
  element.dataset.drawn = drawn;
  element.replaceChildren();
  element.className = "card";
  if (token) element.dataset.token = token;
  else delete element.dataset.token;
  if (!token) {
    element.classList.add("empty");
    return;
  }
  const { rank, suit } = parseToken(token);
  if (rank === null) {
    element.classList.add("joker");
    element.append(span("rank", _(T.jokerWord)), span("suit", _(T.wildWord)));
    return;
  }
  element.classList.add(`suit-${suit}`);
  element.append(span("rank", rank), span("glyph", SUITS[suit].glyph), span("suit", suitWord(suit)));
  if (rank === wild) {
    element.classList.add("wild");
    element.append(span("wild-word", _(T.wildWord)));
  }
}

/** The table's parts for ``snap`` (a snapshot), seen from ``seat`` (null: watching). */
export function drawTable(snap, seat) {
  const view = snap.view;
  drawWatching(seat === null);
  drawPlayers(snap, view, seat);
  if (!view) {
    setText($("round-line"), "");
    return;
  }
  const wild = wildRankToken(view.round);
  const clause = wildClause(view.wild_rank);
  setText(
    $("round-line"),
    say(T.roundLine, { round: view.round, wild: clause.charAt(0).toUpperCase() + clause.slice(1) }),
  );
  drawPiles(view, wild);
  drawMelds(view, wild, seat);
  drawScores(view, seat);
}

/** A spectator has no hand and no move buttons; the questions (W, P, S…) and Leave stay. */
function drawWatching(watching) {
  const area = $("hand-area");
  if (area.classList.contains("watching") === watching && area.dataset.drawn) return;
  area.dataset.drawn = "true";
  area.classList.toggle("watching", watching);
  for (const element of area.querySelectorAll(
    "#hand-heading, #hand, #hand-help, .moves:not(.info), [data-action=hand], [data-action=hint]",
  )) {
    element.hidden = watching;
  }
  $("watch-heading").hidden = !watching;
  area.setAttribute("aria-labelledby", watching ? "watch-heading" : "hand-heading");
}

function drawPlayers(snap, view, seat) {
  const rows = keepChildren($("players"), snap.seats.length, () => {
    const item = document.createElement("li");
    item.append(span("line", ""));
    return item;
  });
  snap.seats.forEach((place, index) => {
    const item = rows[index];
    const line = item.firstElementChild;
    const name = place.name || _(T.emptySeat);
    const current = Boolean(view && !view.game_over && view.current_player === index);
    const out = Boolean(view && view.went_out === index);
    // why seatWords: left, dropped and computer players are said beside the name, as the
    // terminal says them
    const who = seatWords(place, index === seat ? say(T.you, { name }) : name);
    if (!view) {
      setText(line, say(T.seatPerson, { number: index + 1, name: who }));
    } else {
      const rounds = view.round_scores.length;
      const cards = view.hand_counts[index];
      const template = rounds
        ? ngettext(
            "{name}: {count} card. Last round {last}, total {total}.",
            "{name}: {count} cards. Last round {last}, total {total}.",
            cards,
          )
        : ngettext("{name}: {count} card. Total {total}.", "{name}: {count} cards. Total {total}.", cards);
      setText(
        line,
        fill(template, {
          name: who,
          count: cards,
          last: rounds ? view.round_scores[rounds - 1][index] : 0,
          total: view.totals[index],
        }),
      );
    }
    item.classList.toggle("current", current);
    setAttribute(item, "aria-current", current ? "true" : null);
    const wanted = [current ? _(T.turnMark) : null, out ? _(T.outMark) : null].filter(Boolean);
    const shown = [...item.querySelectorAll(".mark")].map((mark) => mark.textContent);
    if (JSON.stringify(wanted) !== JSON.stringify(shown)) {
      // why a space before each: the row's text reads "…total 3. Playing now", not "3.Playing"
      item.replaceChildren(
        line,
        ...wanted.flatMap((text) => {
          const mark = document.createElement("strong");
          mark.className = "mark";
          mark.textContent = text;
          return [" ", mark];
        }),
      );
    }
  });
}

function drawPiles(view, wild) {
  const stock = ngettext("Stock: {count} card.", "Stock: {count} cards.", view.stock_count);
  setText($("stock-text"), fill(stock, { count: view.stock_count }));
  const top = view.top_discard;
  const pile = ngettext(
    "Discard pile: {count} card, the {card}.",
    "Discard pile: {count} cards, the top is the {card}.",
    view.discard_count,
  );
  setText(
    $("discard-text"),
    top ? fill(pile, { count: view.discard_count, card: spokenName(top, wild) }) : _("Discard pile: empty."),
  );
  drawCard($("discard-card"), top, wild);
}

function drawMelds(view, wild, seat) {
  const box = $("melds");
  const groups = view.laid_down
    .map((melds, player) => ({ melds, player }))
    .filter((group) => group.melds.length);
  if (!groups.length) {
    const none = box.firstElementChild;
    if (!(none && none.tagName === "P" && box.childElementCount === 1)) {
      const line = document.createElement("p");
      box.replaceChildren(line);
    }
    setText(box.firstElementChild, _(T.noMelds));
    return;
  }
  if (box.firstElementChild && box.firstElementChild.tagName === "P") box.replaceChildren();
  const shown = keepChildren(box, groups.length, () => {
    const group = document.createElement("div");
    group.className = "meld-group";
    group.append(document.createElement("p"));
    return group;
  });
  groups.forEach(({ melds, player }, index) => {
    const group = shown[index];
    group.dataset.player = String(player);
    setText(group.firstElementChild, player === seat ? _(T.youMelds) : view.players[player]);
    while (group.childElementCount > melds.length + 1) group.lastElementChild.remove();
    while (group.childElementCount < melds.length + 1) {
      const list = document.createElement("ul");
      list.className = "meld";
      group.append(list);
    }
    melds.forEach((meld, m) => drawMeld(group.children[m + 1], meld, wild));
  });
}

function drawMeld(list, meld, wild) {
  const count = meld.cards.length;
  const label =
    meld.kind === "book"
      ? ngettext("book of {count} card", "book of {count} cards", count)
      : ngettext("run of {count} card", "run of {count} cards", count);
  setAttribute(list, "aria-label", fill(label, { count }));
  const items = keepChildren(list, count, () => {
    const item = document.createElement("li");
    const card = document.createElement("span");
    card.setAttribute("aria-hidden", "true");
    item.append(card, span("visually-hidden", ""));
    return item;
  });
  meld.cards.forEach((token, index) => {
    const [card, name] = items[index].children;
    items[index].dataset.token = token;
    drawCard(card, token, wild);
    setText(name, spokenName(token, wild));
  });
}

function cell(tag, text, scope) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (scope) element.scope = scope;
  return element;
}

/** One table row's cells made ``texts`` in place (the first a row header). */
function drawRow(row, texts, headerScope) {
  const cells = keepChildren(row, texts.length, () => document.createElement("td"));
  texts.forEach((text, index) => {
    let element = cells[index];
    const tag = index === 0 || headerScope === "col" ? "TH" : "TD";
    if (element.tagName !== tag) {
      const fresh = cell(tag.toLowerCase(), "", null);
      element.replaceWith(fresh);
      element = fresh;
    }
    if (tag === "TH") element.scope = index === 0 && headerScope !== "col" ? "row" : "col";
    setText(element, text);
  });
}

function drawScores(view, seat) {
  const table = $("score-sheet");
  const [head] = keepChildren(table.tHead, 1, () => document.createElement("tr"));
  drawRow(head, [_(T.roundColumn), ...view.players.map((name, i) => (i === seat ? say(T.you, { name }) : name))], "col");
  const rows = keepChildren(table.tBodies[0], view.round_scores.length, () => document.createElement("tr"));
  view.round_scores.forEach((scores, r) => drawRow(rows[r], [String(r + 1), ...scores.map(String)], "row"));
  const [total] = keepChildren(table.tFoot, 1, () => document.createElement("tr"));
  drawRow(total, [_(T.totalRow), ...view.totals.map(String)], "row");
}

/** The log's newest line stays in sight when the log's size changes (a phone turned, a zoom,
 * the messages moved beside the table or below it), unless the player scrolled back in it. */
export function keepNewestInSight(log) {
  let atEnd = true;
  log.addEventListener("scroll", () => {
    atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  });
  new ResizeObserver(() => {
    if (atEnd) log.scrollTop = log.scrollHeight;
  }).observe(log);
}
