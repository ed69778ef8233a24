// The seats of a table the way the terminal client says them (fivecrowns.words.seats and
// fivecrowns.ui.lobby): who left, whose connection dropped and who is a computer player,
// beside each seat; and before the start, the creator's controls (computer players added
// or removed, how to start) and the waiting line, which is shown only while a seat is empty.
import { _, N_, fill } from "./i18n.js";
import { levelWord } from "./table.js";
import { renderKick } from "./kick.js";
import { drawKeyed } from "./keyed.js";

const $ = (id) => document.getElementById(id);

export const LEVELS = ["easy", "medium", "hard", "expert", "simple"];

const S = {
  // the terminal's words for a seat (fivecrowns.words.seats), in brackets after the name
  computer: N_("{name} (computer, {level})"),
  // TRANSLATORS: a seat in a list of seats: {name} left the game; a computer plays on for them
  left: N_("{name} (left; a computer player plays in their place)"),
  // TRANSLATORS: a seat in a list of seats: {name}'s connection dropped
  standin: N_("{name} (connection dropped; a computer player plays until they are back)"),
  waitingFor: N_("Waiting for players. Seats: {seats}."),
  seatsFull: N_("Every seat is taken. Seats: {seats}."),
  // TRANSLATORS: {start} is the label of the Start the game button
  creatorTip: N_(
    "You made this table: add computer players with the controls below, and press {start} once every seat is taken.",
  ),
  // TRANSLATORS: {start} is the label of the Start the game button
  creatorFull: N_("Every seat is taken: press {start} to begin."),
  guestFull: N_("Every seat is taken. The player who made the table starts the game."),
  seatItem: N_("{number} {who}"),
  removeBot: N_("Remove {name} from seat {number}"),
  remove: N_("Remove"),
  startLabel: N_("Start the game"),
  emptySeat: N_("empty seat"),
};

/** One seat as the terminal says it: "Ann", "Bot 2 (computer, easy)", "Ann (left; …)". */
export function seatWords(seat, name = seat.name) {
  if (seat.kind === "empty" || !seat.name) return _(S.emptySeat);
  if (seat.left) return fill(_(S.left), { name });
  if (seat.standin) return fill(_(S.standin), { name });
  if (seat.kind === "bot") return fill(_(S.computer), { name, level: levelWord(seat.level) });
  return name;
}

/** Every seat taken (nobody still awaited). */
export function full(seats) {
  return seats.every((seat) => seat.kind !== "empty");
}

/** The sentence the creator hears on sitting down at a new table. */
export function creatorTip() {
  return fill(_(S.creatorTip), { start: _(S.startLabel) });
}

/** The waiting panel before the start: the seats, what to do, and the creator's controls. */
export function renderWaiting(app, snap) {
  const seats = snap.seats;
  const list = seats.map((seat, i) => fill(_(S.seatItem), { number: i + 1, who: seatWords(seat) })).join(", ");
  const done = full(seats);
  $("waiting-text").textContent = fill(_(done ? S.seatsFull : S.waitingFor), { seats: list });
  let told = "";
  if (done) told = app.creator ? fill(_(S.creatorFull), { start: _(S.startLabel) }) : _(S.guestFull);
  else if (app.creator) told = creatorTip();
  $("waiting-told").textContent = told;
  $("start-button").hidden = !app.creator;
  $("bot-controls").hidden = !app.creator;
  renderKick(app, snap);
  if (!app.creator) return;
  const wanted = [];
  seats.forEach((seat, index) => {
    if (seat.kind !== "bot") return;
    const label = fill(_(S.removeBot), { name: seat.name, number: index + 1 });
    const words = `${seatWords(seat)} ${label}`;
    const build = () => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = _(S.remove);
      button.dataset.seat = String(index);
      button.dataset.part = "remove";
      button.setAttribute("aria-label", label);
      button.addEventListener("click", () => app.send({ type: "remove_bot", seat: index }));
      item.append(seatWords(seat), " ", button);
      return item;
    };
    wanted.push({ key: String(index), words, build });
  });
  // why in place, not rebuilt: a rebuilt list removed the focused Remove button (keyed.js);
  // focus goes to the next Remove button, or to Add when the removed one was the last
  drawKeyed($("bot-seats"), wanted, () => $("add-bot"));
}

/** The creator's level list, in the page's language. */
export function fillLevels() {
  const select = $("bot-level");
  const chosen = select.value || "medium";
  select.replaceChildren();
  for (const level of LEVELS) {
    const option = document.createElement("option");
    option.value = level;
    option.textContent = levelWord(level);
    select.append(option);
  }
  select.value = chosen;
}

export function bindSeats(app) {
  fillLevels();
  $("add-bot").addEventListener("click", () => app.send({ type: "add_bot", level: $("bot-level").value }));
}

// the keys of the hints below in the page's news (channel.js): a hint no longer true is
// withdrawn, never said late
const TIP = "waiting-tip";
const FULL = "waiting-full";

/** What the creator is told as the seats change before the start: how to start, once on
 * sitting down, and that every seat is taken, once each time the last one fills. Each is
 * {text, key}; a null text withdraws what the key named: every seat taken is no longer true
 * once a seat empties again, and neither hint once the game started. */
export function waitingNews(app, snap) {
  if (snap.started || !app.creator) return [{ text: null, key: TIP }, { text: null, key: FULL }];
  const said = [];
  const done = full(snap.seats);
  if (app.tipTold !== snap.table) {
    app.tipTold = snap.table;
    // why not at a table made full: "add computer players" would not fit (the next does)
    if (!done) said.push({ text: creatorTip(), key: TIP });
  }
  if (done && !app.fullTold) {
    said.push({ text: null, key: TIP }); // a tip still queued no longer fits either
    said.push({ text: fill(_(S.creatorFull), { start: _(S.startLabel) }), key: FULL });
  }
  if (!done && app.fullTold) said.push({ text: null, key: FULL });
  app.fullTold = done;
  return said;
}
