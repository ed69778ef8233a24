// Ratings and records in the web page (issue 28; docs/protocol.md "Ratings and records"): a
// panel in the lobby to read your record, a player's record and games, and the leaderboard a
// page at a time; a game of a list is read round by round. The server words every sentence
// (numbers first); the page shows them in the panel and says them as an answer.
import { N_ } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The panel's words in index.html, translated with the rest of the page (page.js). */
export const RATINGS_PAGE = [
  ["#ratings-heading", null, N_("Ratings")],
  ["#my-record", null, N_("Your record")],
  ["#leaderboard-button", null, N_("Leaderboard")],
  ["#my-games", null, N_("Your rated games")],
  ["label[for=ratings-player]", null, N_("Player")],
  ["#player-record", null, N_("Their record")],
  ["#player-games", null, N_("Their rated games")],
  ["label:has(#rated)", null, N_("Rated (moves the ratings of players with an account)")],
];

const KINDS = new Set(["record", "rating", "leaderboard", "games", "game"]);
let leaderboardPage = 0; // the page asked for last (0: none yet)
let leaderboardPages = 0;

/** The server's ratings messages: shown in the panel and said; false for any other. */
export function showRatings(app, data) {
  if (!KINDS.has(data.type)) return false;
  const lines = data.type === "record" || data.type === "rating" ? [data.text] : data.lines;
  if (data.type === "leaderboard") leaderboardPages = data.pages;
  const out = $("ratings-out");
  out.replaceChildren();
  lines.forEach((line, index) => {
    const game = data.type === "games" && index > 0 ? data.games[index - 1] : null;
    const item = document.createElement("li");
    if (game) {
      // why a button: a game of the list is read round by round from here, by keyboard too
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = line;
      button.addEventListener("click", () => app.send({ type: "game", id: game.id }));
      item.append(button);
    } else {
      item.textContent = line;
    }
    out.append(item);
  });
  if (data.type === "rating") app.log(data.text); // why also the log: it comes after the game
  app.answer(lines.join(" "));
  return true;
}

function player() {
  return $("ratings-player").value.trim();
}

export function bindRatings(app) {
  $("my-record").addEventListener("click", () => app.send({ type: "record" }));
  $("my-games").addEventListener("click", () => app.send({ type: "games" }));
  $("leaderboard-button").addEventListener("click", () => {
    // why around: pressed again it reads the next page, after the last the first again
    leaderboardPage = leaderboardPage > 0 && leaderboardPage < leaderboardPages ? leaderboardPage + 1 : 1;
    app.send({ type: "leaderboard", page: leaderboardPage });
  });
  $("player-record").addEventListener("click", () => {
    if (player()) app.send({ type: "record", player: player() });
    else $("ratings-player").focus();
  });
  $("player-games").addEventListener("click", () => {
    if (player()) app.send({ type: "games", player: player() });
    else $("ratings-player").focus();
  });
}

/** The create_table field for the form's Rated box: none when ticked (rated is the server's
 * default, and a server older than ratings refuses the field), rated false when not. */
export function ratedChoice() {
  const box = $("rated");
  return box && !box.checked ? { rated: false } : {};
}
