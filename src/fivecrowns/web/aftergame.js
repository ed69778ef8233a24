// After the game, as the terminal's session (fivecrowns.ui.session.news): the table's
// creator starts a new game with the same players (the New game button, or N as in the
// terminal); everyone else is told that the creator can.
import { _, N_, fill } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const A = {
  // TRANSLATORS: {button} is the label of the New game button
  creator: N_("The game is over. Press {button} for a new game with the same players, or Leave the table."),
  guest: N_("The game is over. The player who made the table can start a new game."),
  button: N_("New game (N)"),
};

export function afterGameWords(app) {
  return app.creator ? fill(_(A.creator), { button: _(A.button) }) : _(A.guest);
}

/** The panel under the round line: shown once the game is over, its button for the creator. */
export function renderAfterGame(app, view) {
  const over = Boolean(view && view.game_over);
  $("after-game").hidden = !over;
  if (!over) return;
  $("after-game-text").textContent = afterGameWords(app);
  $("new-game-button").hidden = !app.creator;
}

/** N after the game, for the creator: a new game (as the terminal); else null. */
export function newGameKey(app) {
  if (!app.creator || !app.snapshot || !app.snapshot.view || !app.snapshot.view.game_over) return false;
  app.send({ type: "new_game" });
  return true;
}

export function bindAfterGame(app) {
  $("new-game-button").addEventListener("click", () => app.send({ type: "new_game" }));
}
