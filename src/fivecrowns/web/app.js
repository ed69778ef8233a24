// One file (~1,000 lines): the lobby and the table share one socket, one state and one set of live regions.
// The web client: the lobby and the table over the game server's WebSocket protocol
// (docs/protocol.md). Every sentence it announces comes from the server (event frames'
// text, error text, answers to information keys), worded in the language the page's hello
// names, except the few worded here for the page itself (the hand listbox, message
// history), which follow the terminal's words, in the page's language (i18n.js).
import { parseToken, sortKey, spokenName, wildRankToken } from "./cards.js";
import { Speaker } from "./speech.js";
import { SoundsDialog } from "./sounds.js";
import { News, PACE } from "./channel.js";
import { Listening } from "./listening.js";
import { HIDING, focusAndHide, inRetiring, retire, retiring, show } from "./focus.js";
import { dealRefused, emptyWords, keepTabStop, moveFocusForHand, waitForDeal } from "./emptyhand.js";
import { KeptDialog } from "./dialog.js";
import { KEYS } from "./keys.js";
import { _, N_, chosenLanguage, fill, joinList, language, load, ngettext, remember } from "./i18n.js";
import { translatePage } from "./page.js";
import { drawCard, drawTable, keepNewestInSight, levelWord, setAttribute } from "./table.js";
import { RECONNECT, forgetSeat, keepSeat, keptSeat } from "./seats.js";
import { Chat } from "./chat.js";
import { LeaveDialog } from "./leave.js";
import { afterGameWords, bindAfterGame, newGameKey, renderAfterGame } from "./aftergame.js";
import { drawWatchers, watchersWords } from "./watchers.js";
import { joinParts, turnPart } from "./turns.js";
import { GAME_KINDS, dealInListOrder, dealWords, forget, keep, restore, topAfter, turnWords } from "./news.js";
import { bindSeats, fillLevels, renderWaiting, waitingNews } from "./waiting.js";
import { bindRatings, ratedChoice, showRatings } from "./ratings.js";
import { bindFriends, showFriends } from "./friends.js";
import { AccountForms } from "./account.js";

const $ = (id) => document.getElementById(id);

// Sentences of the page itself: whole sentences with named placeholders, marked with N_ for
// the catalog and translated where they are used (the page can change its language).
/** Milliseconds between Start's focus move and the start sent (see do("start")); why 0.3 s:
 * Orca followed the focus 0.1 s after Return when nothing else changed (Firefox, web6). */
export const START = { afterFocusMs: 300 };
/** The hand's first focus this soon after a deal came with the deal: its help follows the
 * deal's news (why 3 s: the snapshot that gives the hand focus follows the deal's event at
 * once; a later focus is the player's own). */
const DEAL_HELP_MS = 3000;

const T = {
  connecting: N_("Connecting as {name}."),
  connected: N_("Connected as {name}."),
  offline: N_("Offline: connecting again."),
  back: N_("Connected again."),
  gaveUp: N_("Could not reach the server. Reload the page to try again."),
  replaced: N_("This seat is now open in another window or tab. Reload this page to play here."),
  seated: N_("You sit in seat {seat} at table {table}."),
  seatedCode: N_("You sit in seat {seat} at table {table}; the invite code is {code}."),
  watching: N_("You are watching table {table}."),
  left: N_("You left the table."),
  // TRANSLATORS: {connect} is the label of the Connect button
  noName: N_("Type your name first, then press {connect}."),
  tableHeading: N_("Table {table}"),
  cardOption: N_("{card}, {place} of {count}"),
  noHand: N_("Your hand is empty."),
  sortedRank: N_("Sorted by rank."),
  sortedSuit: N_("Sorted by suit."),
  noNews: N_("Nothing has happened since your last turn."),
  // why two of their own: a page opened in a game under way (a closed tab's seat taken back,
  // or watching) has heard nothing from before it came, so "since your last turn" is untrue
  noNewsHere: N_("Nothing has happened since this page came to the table."),
  // TRANSLATORS: {moves} is one or more whole sentences, each a move
  newsHere: N_("Since this page came to the table: {moves}"),
  historyPlace: N_("{text} {place} of {count}."),
  noMessages: N_("No messages yet."),
  firstMessage: N_("First message: {text}"),
  lastMessage: N_("Last message: {text}"),
  tableWaiting: N_("Table {id}: {players}, waiting to start."),
  tablePlaying: N_("Table {id}: {players}, round {round}."),
  joinTable: N_("Join table {id}"),
  watchTable: N_("Watch table {id}"),
  join: N_("Join"),
  watch: N_("Watch"),
  seatLabel: N_("Seat {number}"),
  personJoins: N_("a person who joins"),
  computerLevel: N_("computer, {level}"),
  emptySeat: N_("empty seat"),
  notSeated: N_("You are not playing at this table."),
  firstCard: N_("First card: {card}"),
  lastCard: N_("Last card: {card}"),
  noResult: N_("No round has ended yet."),
  seatNumber: N_("seat {seat}"),
  roundResult: N_("Round {round} scores: {scores}. Totals: {totals}."),
  scoreItem: N_("{name} {points}"),
  gameWon: N_("Game over. {who} won with {points} points."),
  gameShared: N_("Game over. {who} share the win with {points} points."),
  keysColumn: N_("Keys"),
  whatColumn: N_("What it does"),
};
/** A template of T translated, then filled. */
const say = (template, values = {}) => fill(_(template), values);
const LEVELS = ["easy", "medium", "hard", "simple"];
// the events of your own move: their news answers your key (event, `first`)
const OWN_MOVES = new Set(["drew_from_stock", "took_discard", "laid_down", "discarded", "went_out"]);
const ASKED = new Set([
  "hand", "hint", "round", "piles", "scores", "round_detail", "melds", "counts", "whose_turn",
  "why", "review",
]);

export class App {
  constructor() {
    this.ws = null;
    this.token = sessionStorage.getItem("fivecrowns-token");
    this.name = sessionStorage.getItem("fivecrowns-name") || "";
    if (!this.token) {
      // why: a closed tab or a new one takes back the seat this browser holds at this server
      const kept = keptSeat();
      if (kept) {
        this.token = kept.token;
        this.name = kept.name;
      }
    }
    this.seq = 0;
    this.seat = null;
    this.table = null;
    this.creator = false;
    this.snapshot = null;
    this.focus = 0;
    this.sortOrder = "rank"; // as the terminal: by rank first, O switches to suit and back
    this.messages = []; // every announced sentence, for comma and period
    this.place = -1; // where comma and period are in this.messages (-1: newest)
    this.events = []; // {seq, kind, text, player}
    this.cameMidGame = false; // came to a game under way with no record of it (lastMoves)
    this.attempts = 0;
    this.droppedAt = 0; // when the connection dropped (performance.now()), while reconnecting
    this.retry = null; // the pending reconnection's timer, if any
    this.speaker = new Speaker();
    this.ready = false;
    this.over = false;
    this.resultShown = false; // the Results area shows a round end this page heard
    this.replaced = false; // another tab took this seat: no reconnecting
    this.landOnWaiting = false; // the first snapshot moves focus to the waiting line (landing)
    this.helpGiven = null; // the hand's help as given to the channel, until the next key
    this.dealtAt = -Infinity; // when the last deal's event came
    this.startAsked = false; // Start sent, no answer yet (focus waits on the empty hand: waitForDeal)
    this.keyStart = null; // the key being handled, and when the page began on it
    // why reachable: the tests without a screen reader set these to 0 (no pacing, no pause)
    this.timing = { pace: PACE, hiding: HIDING, start: START };
  }

  async start() {
    // the server holds the computers while this seated page's news is behind (issue 25)
    this.listening = new Listening(
      // why seatedHere, not only this.seat: after a dropped socket the old seat is still
      // known until the server seats the page again, and a message before that is refused
      () => this.seatedHere && this.seat !== null && this.ws?.readyState === WebSocket.OPEN,
      (message) => this.send(message),
    );
    this.news = new News({
      log: $("log"),
      answer: $("answer"),
      speaker: this.speaker,
      remember: (text) => this.remember(text),
      amend: (old, text) => this.amend(old, text),
      onBehind: (behind) => this.listening.set(behind),
    });
    await load(chosenLanguage());
    translatePage();
    this.bindPage();
    await this.speaker.pack.fetchManifest();
    keepNewestInSight($("log"));
    if (this.name) $("name").value = this.name;
    // why first: a log-in kept in this browser says hello as the account, not the seat token
    if (this.account.active()) this.name = this.account.name;
    this.account.show(false);
    if ((this.token && this.name) || this.account.active()) this.connect();
    this.ready = true;
    window.__readyAt = performance.now(); // why: the benchmark's load-to-ready figure
    document.documentElement.dataset.ready = "true";
    window.fivecrowns = this;
  }

  // --- announcements ----------------------------------------------------------------

  // why these three names: other parts of the page call them; all go through channel.js's one
  // ordered channel (see there why nothing is assertive)
  /** Table news (others' moves, your turn, the table's changes): in order, never lost unless
   * it stops being true first (channel.js: `options.key`, `options.table`). */
  log(text, options = {}) {
    this.news.announce(text, options);
  }

  /** Kept for callers of the old urgent line: the same ordered channel as log. */
  alert(text) {
    this.news.announce(text);
  }

  /** The reply to the player's key (an information key, a refusal): said at once. */
  answer(text, remember = true) {
    this.helpCut();
    this.news.answer(text, remember);
  }

  /** Why: the hand's help cut (by a key, or by another answer in its place) before the screen
   * reader could begin it (its own words for the hand, the page's estimate, come first) was
   * never heard: it is said the next time the hand gets focus (Orca, a key 1.3 s after the
   * deal's focus, or the answer to a key pressed before the deal, web6). */
  helpCut() {
    const help = this.helpGiven;
    this.helpGiven = null;
    if (help && this.news.current === help && performance.now() < this.news.busyUntil) this.handHelpSaid = false;
  }

  remember(text) {
    this.messages.push(text);
    if (this.messages.length > 2000) this.messages.shift();
    this.place = -1;
  }

  /** The newest `old` in the history becomes `text` (another player's turn, joined). */
  amend(old, text) {
    const index = this.messages.lastIndexOf(old);
    if (index >= 0) this.messages[index] = text;
    else this.remember(text);
  }

  // --- connection ----------------------------------------------------------------------

  connect() {
    // why: never two live sockets; two hellos with one token make the server replace the
    // first (its "replaced" would stop reconnecting), and two catch-ups repeat events
    clearTimeout(this.retry);
    this.retry = null;
    const old = this.ws;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    if (old && old.readyState !== WebSocket.CLOSED) old.close(); // its close event is ignored
    $("connection").textContent = say(T.connecting, { name: this.name });
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      if (this.account.greet(this.seq)) return; // a log-in, a sign-up, or hello as the account
      const hello = { type: "hello", v: 1, name: this.name, language: language() };
      if (this.token) {
        hello.token = this.token;
        // why only after a drop: a reloaded page starts from the snapshot, not the whole log
        if (this.seq > 0) hello.last_seq = this.seq;
      }
      this.send(hello);
    });
    ws.addEventListener("message", (message) => {
      if (this.ws !== ws) return; // why: a replaced socket's frames are not this page's news
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      this.receive(data);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.seatedHere = false; // the next socket is seated afresh (welcome, then seated)
      this.listening.dropped();
      if (this.leaving) return;
      // why no reconnect: the other tab holding this token would be replaced in turn, forever
      if (this.replaced) {
        $("connection").textContent = _(T.replaced);
        return;
      }
      // why as the terminal (RECONNECT): the server keeps a dropped seat for its grace and
      // longer; why one spoken line: a line per try buried the game under the same news
      this.attempts += 1;
      if (this.attempts === 1) this.droppedAt = performance.now();
      const elapsed = (performance.now() - this.droppedAt) / 1000;
      if (!RECONNECT.keepTrying(this.attempts, elapsed)) {
        $("connection").textContent = _(T.gaveUp);
        this.alert(_(T.gaveUp));
        return;
      }
      $("connection").textContent = _(T.offline);
      if (this.attempts === 1) {
        const minutes = RECONNECT.minutes();
        const line = ngettext(
          "The connection dropped; trying again for up to {count} minute.",
          "The connection dropped; trying again for up to {count} minutes.",
          minutes,
        );
        this.log(fill(line, { count: minutes }));
      }
      this.retry = setTimeout(() => this.connect(), RECONNECT.pause(this.attempts) * 1000);
    });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  receive(data) {
    if (showRatings(this, data) || showFriends(this, data)) return;
    if (this.account.receive(data)) return;
    switch (data.type) {
      case "welcome":
        this.token = data.token;
        sessionStorage.setItem("fivecrowns-token", data.token);
        sessionStorage.setItem("fivecrowns-name", data.name);
        $("connection").textContent = say(T.connected, { name: data.name });
        if (this.attempts > 0) this.log(_(T.back));
        this.attempts = 0; // why here, not on open: a socket that opens and drops is no way back
        // why focus first: focus on a hidden button falls to the page, where nothing is said
        show($("lobby-body"));
        focusAndHide($("lobby-heading"), $("hello-form"));
        this.account.show(true);
        this.account.welcomed(data);
        break;
      case "tables":
        this.showTables(data.tables);
        break;
      case "seated":
        this.seated(data);
        break;
      case "left":
        forgetSeat();
        this.toLobby();
        // why an answer: it replies to the player's own Leave, so it is said at once, not
        // behind the table's news (which toLobby dropped from the queue)
        this.answer(_(T.left));
        this.send({ type: "list_tables" });
        break;
      case "snapshot":
        this.snapshot = data;
        this.seq = Math.max(this.seq, data.seq);
        if (this.cameMidGame === null) this.cameMidGame = Boolean(data.view && data.view.round);
        this.render();
        break;
      case "event":
        this.event(data);
        break;
      case "answer":
        this.answer(data.text);
        break;
      case "error":
        // why silent: the page sent "listening" by itself (listening.js), not the player, and
        // a refusal of it (a seat just left, too often, a watcher) changes nothing they need
        // to hear
        if (data.code.startsWith("listening_")) return;
        if (data.code === "replaced") {
          this.replaced = true;
          $("connection").textContent = _(T.replaced);
          this.alert(_(T.replaced));
          return;
        }
        if (data.code === "table_gone") forgetSeat();
        // Start refused (the server's first answer to it): focus waited for a deal that does not come
        if (this.startAsked) dealRefused();
        this.startAsked = false;
        if (data.code === "table_gone" || (data.code === "too_many_spectators" && this.table)) {
          // why: the server put us in the lobby (the watched table closed while we were away);
          // the frozen table must not stay on screen
          this.toLobby();
        }
        if (data.code === "bad_token") {
          this.token = null;
          sessionStorage.removeItem("fivecrowns-token");
          forgetSeat();
          this.send({ type: "hello", v: 1, name: this.name, language: language() });
        }
        // a stopping server is table news; everything else answers what the player did
        if (data.code === "server_stopping") this.log(data.text);
        else this.answer(data.text);
        // why no earcon: a stopping server is news, not a refusal (none of the earcons fits,
        // and the terminal says it as a notice too); the sentence says it all
        if (data.code !== "server_stopping") this.speaker.sound(this.speaker.pack.refused(), { error: data.code });
        break;
      default:
        break;
    }
  }

  /** Forget the socket without reconnecting: its close is no drop (a refused log-in, a
   * log-out). */
  dropSocket() {
    const ws = this.ws;
    this.ws = null;
    clearTimeout(this.retry);
    this.retry = null;
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close();
  }

  /** Logged out (or the account deleted): the page is as before any hello. */
  loggedOut() {
    this.dropSocket();
    this.token = null;
    sessionStorage.removeItem("fivecrowns-token");
    sessionStorage.removeItem("fivecrowns-name");
    forgetSeat();
    this.toLobby();
    $("lobby-body").hidden = true;
    show($("hello-form")); // a form still retiring comes back whole, in the Tab order again
    $("connection").textContent = _("Not connected.");
  }

  toLobby() {
    this.listening.forget(); // why first: the news dropped below holds no table now
    this.seatedHere = false;
    // why: the table's news still queued is no longer news here (it stays in the history)
    if (this.table !== null) this.news.dropTable(this.table);
    this.seat = null;
    this.table = null;
    this.snapshot = null;
    this.seq = 0;
    show($("lobby"));
    focusAndHide($("lobby-heading"), $("table")); // before the table (and its focus) is hidden
    this.leaveDialog.dismiss(); // after: its focus has gone to the lobby
    this.chat.clear();
    // why: L, the last turn's line and the results belong to the table left
    this.events = [];
    this.cameMidGame = false;
    this.top = undefined;
    this.dealtWild = undefined;
    this.fullTold = false;
    forget();
    $("answer").replaceChildren();
    $("after-game").hidden = true;
    this.resultShown = false;
    $("result").textContent = _(T.noResult);
  }

  /** After a reload the page saw no round end: the snapshot's scores tell the last one. */
  renderResult(snap, view) {
    const rounds = view.round_scores.length;
    if (this.resultShown || rounds === 0) return;
    const names = snap.seats.map((seat, index) => seat.name || say(T.seatNumber, { seat: index + 1 }));
    const list = (points) =>
      points.map((value, index) => say(T.scoreItem, { name: names[index], points: value })).join(", ");
    const line = document.createElement("p");
    line.textContent = say(T.roundResult, {
      round: rounds,
      scores: list(view.round_scores[rounds - 1]),
      totals: list(view.totals),
    });
    const lines = [line];
    if (view.game_over && view.winners.length) {
      const over = document.createElement("p");
      over.textContent = say(view.winners.length === 1 ? T.gameWon : T.gameShared, {
        who: joinList(view.winners.map((seat) => names[seat])),
        points: view.totals[view.winners[0]],
      });
      lines.push(over);
    }
    $("result").replaceChildren(...lines);
  }

  seated(data) {
    // why: after a dropped connection the server seats us again; saying it twice and taking
    // focus from where the player was would be noise, so only a new seat is told
    const again = this.table === data.table && this.seat === data.seat && this.table !== null;
    if (this.table !== null && this.table !== data.table) this.news.dropTable(this.table);
    this.seat = data.seat;
    this.table = data.table;
    this.creator = data.creator;
    this.seatedHere = data.seat !== null;
    this.listening.seatedAgain(); // a new seat or socket: a page still behind says so again
    if (data.seat === null) forgetSeat();
    else keepSeat(this.token, this.name, data.table);
    show($("table"));
    // why focus before hiding the lobby: in Firefox, Orca loses a focus that falls with its
    // hidden button, and says no card for the rest of the game
    focusAndHide(again ? null : this.landing(data), $("lobby"));
    let text;
    if (data.seat === null) text = say(T.watching, { table: data.table });
    else if (data.code) text = say(T.seatedCode, { seat: data.seat + 1, table: data.table, code: data.code });
    else text = say(T.seated, { seat: data.seat + 1, table: data.table });
    $("table-heading").textContent = say(T.tableHeading, { table: data.table });
    if (data.creator && this.pendingBots) {
      for (const choice of this.pendingBots) this.send({ type: "add_bot", ...choice });
    }
    this.pendingBots = null;
    if (again) return;
    // why: a reloaded page tells L from the events this tab heard at this seat, and never
    // the previous table's
    this.events = restore(data.table, data.seat);
    // whether this page came to a game under way with no record of it: known at the first
    // snapshot (null until then), false with a record kept by this tab
    this.cameMidGame = this.events.length ? false : null;
    this.log(text, { table: data.table });
  }

  /** Where focus lands at a table just sat at: somewhere spoken and useful. Why not the hand
   * before the start: it is empty ("Your hand, 0 cards"), with Start behind it (issue 25).
   * The creator: the Start button (shown to them until the start); another player: the
   * waiting line (who sits where, what happens next), once the first snapshot filled it,
   * the table's heading until then; a game in progress, the hand; a spectator, the heading. */
  landing(data) {
    this.landOnWaiting = false;
    if (data.seat === null) return $("table-heading");
    if (data.started) return $("hand");
    show($("waiting")); // why now: a hidden button cannot take focus
    if (data.creator) {
      // why here too: a guest's earlier table hid it (waiting.js shows it at the snapshot)
      show($("start-button"));
      return $("start-button");
    }
    this.landOnWaiting = true;
    return $("table-heading");
  }

  event(data) {
    if (data.seq <= this.seq && this.events.some((e) => e.seq === data.seq)) return;
    this.seq = Math.max(this.seq, data.seq);
    const facts = data.data || {};
    const player = facts.player;
    if (data.kind === "round_started" && typeof facts.round === "number") this.dealtWild = wildRankToken(facts.round);
    this.top = topAfter(data.kind, facts, this.top);
    // why reworded here: the server says "Ben's turn." for a last turn and a bare "Your
    // turn."; the terminal's session says "Ben's last turn." and names the top discard
    let text = turnWords(this, data.kind, facts, this.top, this.dealtWild ?? this.wild()) ?? data.text;
    if (data.kind === "round_started" && Array.isArray(facts.hand) && this.seat !== null) {
      text = dealInListOrder(text, facts.hand, this.ordered(facts.hand), this.dealtWild ?? this.wild());
    }
    // why the deal says your turn (dealWords), and the turn's own start then says nothing:
    // "Your turn." came up to 20 s after the deal, behind the round and the hand (issue 25)
    const dealt = data.kind === "round_started" ? dealWords(this, facts, this.dealtWild ?? this.wild()) : null;
    if (dealt) text = dealt;
    const turnTold = this.turnTold && data.kind === "turn_started" && player === this.seat;
    if (data.kind === "round_started") this.turnTold = Boolean(dealt) && facts.first_player === this.seat;
    else if (/^(last_)?turn_started$/.test(data.kind)) this.turnTold = false;
    this.events.push({ seq: data.seq, kind: data.kind, text, player });
    if (this.events.length > 3000) this.events.shift();
    // why only game events: L tells moves, not joins and chat (docs/web.md)
    if (this.table !== null && GAME_KINDS.has(data.kind)) {
      keep(this.table, this.seat, this.events.filter((e) => GAME_KINDS.has(e.kind)));
    }
    if (data.kind === "chat") this.chat.heard(data.text);
    if (data.kind === "round_started" || data.kind === "new_game") {
      // why: "This is your last turn." and refusals belong to the round that ended
      $("answer").replaceChildren();
    }
    if (data.kind === "new_game") {
      this.over = false;
      this.resultShown = false;
      $("result").textContent = _(T.noResult);
      $("after-game").hidden = true;
    }
    const mine = player === this.seat && this.seat !== null;
    // why: once you drew, took or went out, "Your turn. Top discard: ..." still queued is
    // no longer true (Chromium said the joker was on top 34 s after it had been taken)
    if (mine && data.kind !== "turn_started" && data.kind !== "last_turn_started") {
      this.news.withdraw("your-turn");
    }
    // why the log for your turn too: one ordered channel, so your turn follows the moves before
    // it (an assertive region dropped them in Orca); the cue tells yours from another's
    let key = mine && /^(last_)?turn_started$/.test(data.kind) ? "your-turn" : null;
    // why: "Bot 2's turn." is not said when Bot 2's move follows it in the queue (the move
    // says whose turn it was), and the parts of another player's turn still waiting are one
    // sentence (turns.js): the news keeps up with the computers' pace
    if (!mine && data.kind === "turn_started" && typeof player === "number") key = `turn-${player}`;
    // why: "The game starts." still queued at the deal is not said: "Round 1." says it, and
    // your turn comes sooner (issue 25)
    if (data.kind === "game_started") key = "game-starts";
    if (data.kind === "round_started") this.news.withdraw("game-starts");
    const seats = this.snapshot ? this.snapshot.seats : [];
    const name = typeof player === "number" && seats[player] ? seats[player].name : null;
    const part = mine ? null : turnPart(data.kind, player, name, text);
    if (part) this.news.withdraw(`turn-${player}`);
    // why your own move first: it is the answer to your key (channel.js, `first`)
    const first = mine && OWN_MOVES.has(data.kind);
    // why chat is no news of the table only: a line said to you is still said after you left
    // (leaving drops the table's queued moves, channel.js dropTable). Your own moves are
    // dropped with the others': they go out first (above), so only a move made as you left
    // can wait, and its sentence about a table you no longer sit at is kept in the history
    const table = data.kind === "chat" ? null : this.table;
    if (!turnTold) this.log(text, { key, table, part, join: joinParts, first });
    if (data.kind === "round_started") this.dealtAt = performance.now(); // (the hand's help)
    this.cue(data, facts);
    if (data.kind === "game_over") forgetSeat(); // why: nothing is left to take back
    if (data.kind === "new_game" && this.seat !== null) keepSeat(this.token, this.name, this.table);
    if (data.kind === "game_over") {
      this.over = true;
      // why: the server sends no snapshot after the last move; resume brings the final one
      this.send({ type: "resume", last_seq: data.seq });
      if (this.seat !== null) this.log(afterGameWords(this));
    }
    if (data.kind === "round_scored" || data.kind === "game_over") {
      const result = $("result");
      const line = document.createElement("p");
      line.textContent = data.text;
      if (data.kind === "round_scored") result.replaceChildren(line);
      else result.append(line);
      this.resultShown = true;
    }
  }

  /** The event's cue (sounds.js, from the table the terminal plays from too). */
  cue(data, facts) {
    const seats = this.snapshot ? this.snapshot.seats : [];
    const seat = typeof facts.player === "number" ? seats[facts.player] : undefined;
    const human = !!(seat && seat.kind === "human");
    const cue = this.speaker.pack.cueFor(data.kind, facts, this.seat, human);
    if (cue) this.speaker.sound(cue, { kind: data.kind, seq: data.seq, human });
  }

  /** Sounds on or off (the header's check box and the Sounds dialog's Mute all), remembered. */
  setSoundsOn(on) {
    this.speaker.setSounds(on);
    this.speaker.unlock(); // a click or a key: the browser now lets the page start audio
    $("sounds").checked = on;
    $("sounds-mute").checked = !on;
  }

  // --- lobby -----------------------------------------------------------------------------

  showTables(tables) {
    // why: the server sends the list again whenever any table changes; a list rebuilt with
    // the same content would take a button from under a click or a player's focus
    const shown = JSON.stringify([language(), tables]);
    if (shown === this.tablesShown) return;
    this.tablesShown = shown;
    const list = $("tables");
    const active = document.activeElement;
    const focused = list.contains(active) ? active.getAttribute("aria-label") : null;
    list.replaceChildren();
    $("no-tables").hidden = tables.length > 0;
    for (const info of tables) {
      const item = document.createElement("li");
      const names = info.seats.map((s) => s.name || _(T.emptySeat)).join(", ");
      const line = info.started ? T.tablePlaying : T.tableWaiting;
      const text = document.createElement("span");
      text.textContent = say(line, { id: info.id, players: names, round: info.round });
      item.append(text);
      const open = info.seats.some((s) => s.kind === "empty") && !info.started;
      const join = () => this.send({ type: "join", table: info.id });
      const watch = () => this.send({ type: "watch", table: info.id });
      if (open) item.append(this.button(say(T.joinTable, { id: info.id }), _(T.join), join));
      item.append(this.button(say(T.watchTable, { id: info.id }), _(T.watch), watch));
      list.append(item);
    }
    if (focused === null) return;
    // why: the player stays on the button they were on (it is the same table's), or goes to
    // the lobby's heading when that table left the list, never to the page itself
    const again = [...list.querySelectorAll("button")].find(
      (button) => button.getAttribute("aria-label") === focused,
    );
    if (again) again.focus();
    else this.focusView();
  }

  button(label, text, action) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    if (label !== text) button.setAttribute("aria-label", label);
    button.addEventListener("click", action);
    return button;
  }

  seatChoices() {
    const seats = Number($("seats").value);
    const box = $("seat-choices");
    const legend = box.querySelector("legend");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(legend);
    for (let seat = 2; seat <= seats; seat += 1) {
      const id = `seat-${seat}`;
      const label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = say(T.seatLabel, { number: seat });
      const select = document.createElement("select");
      select.id = id;
      const person = document.createElement("option");
      person.value = "";
      person.textContent = _(T.personJoins);
      select.append(person);
      for (const level of LEVELS) {
        const option = document.createElement("option");
        option.value = level;
        option.textContent = say(T.computerLevel, { level: levelWord(level) });
        select.append(option);
      }
      select.value = old[seat - 2] ?? "medium";
      const row = document.createElement("div");
      row.className = "seat-choice";
      row.append(label, select);
      box.append(row);
    }
  }

  // --- the table -----------------------------------------------------------------------

  view() {
    return this.snapshot ? this.snapshot.view : null;
  }

  wild() {
    const view = this.view();
    return view ? wildRankToken(view.round) : null;
  }

  /** The hand in the order shown: by rank, or by suit after O (as the terminal). */
  hand() {
    const view = this.view();
    return this.ordered(view && view.hand ? view.hand : []);
  }

  /** Cards in the hand list's order: by rank, or by suit after O. */
  ordered(cards) {
    const hand = [...cards];
    if (this.sortOrder) {
      hand.sort((a, b) => {
        const [a1, a2] = sortKey(a, this.sortOrder);
        const [b1, b2] = sortKey(b, this.sortOrder);
        return a1 - b1 || a2 - b2;
      });
    }
    return hand;
  }

  render() {
    const snap = this.snapshot;
    const view = snap.view;
    const waiting = !snap.started;
    if (snap.started) this.startAsked = false;
    // why: Start hides its own button; focus goes to the hand before, never to the page
    if (waiting) show($("waiting"));
    else if (!$("waiting").hidden) {
      const held = $("waiting").contains(document.activeElement);
      focusAndHide(held ? $(this.seat === null ? "table-heading" : "hand") : null, $("waiting"));
    }
    if (waiting) renderWaiting(this, snap);
    if (this.landOnWaiting) {
      this.landOnWaiting = false;
      // why only from the heading: a key since then moved the player on (see landing)
      if (waiting && document.activeElement === $("table-heading")) $("waiting-text").focus();
    }
    // why every snapshot: a hint still queued is withdrawn once it is no longer true
    for (const { text, key } of waitingNews(this, snap)) {
      if (text) this.log(text, { key, table: this.table });
      else this.news.withdraw(key);
    }
    drawTable(snap, this.seat);
    drawWatchers(snap);
    renderAfterGame(this, view);
    if (view) this.renderResult(snap, view);
    this.renderHand();
    if (view) {
      const legal = new Set(snap.legal.map((m) => m.move));
      for (const [action, move] of [["draw", "draw_stock"], ["take", "take_discard"], ["discard", "discard"], ["go_out", "go_out"]]) {
        const button = document.querySelector(`[data-action="${action}"]`);
        button.classList.toggle("legal", legal.has(move));
      }
    }
    this.rescueFocus();
  }

  /** After a view change: the hand when seated, else the view's heading. */
  focusView() {
    this.viewTarget().focus();
  }

  viewTarget() {
    // why the state, not what is shown: the old view stays a moment after focus left it
    if (this.table === null) return $("lobby-heading");
    return $(this.seat !== null ? "hand" : "table-heading");
  }

  /** Focus that fell to the page (its element was hidden, e.g. Start) goes to focusView's. */
  rescueFocus() {
    const active = document.activeElement;
    if (document.querySelector("dialog[open]:not(.retiring)")) return; // the Keys dialog may be retiring
    if (!active || active === document.body || active.closest("[hidden]")) this.focusView();
  }

  renderHand() {
    const hand = this.hand();
    const box = $("hand");
    const wild = this.wild();
    this.focus = Math.max(0, Math.min(this.focus, hand.length - 1));
    // why first: focus leaves a hand being emptied before its cards go (emptyhand.js)
    const moved = moveFocusForHand(hand.length, this.news.answerUntil(), () => this.renderHand());
    if (moved && !hand.length) this.news.focusMoved(moved, true);
    // focus still on the empty hand's list while the hand has cards: it goes back once the
    // answer being said was said; why no card selected until then: Orca in Chromium follows
    // a list box's selection even without focus, and said the card in the answer's place
    const parked = hand.length > 0 && document.activeElement === $("hand-empty");
    // why in place: the server sends a snapshot after every move at the table; options rebuilt
    // each time would make a screen reader say the focused card again between others' moves
    // why the cards beyond the hand retire, not go at once: the screen reader may still hold
    // one as its focus (focus.js); a card retiring is taken back when the hand grows again
    // one no longer selected: else Orca keeps it as its focus (a list box's selected child)
    for (const option of [...box.children].slice(hand.length)) {
      setAttribute(option, "aria-selected", "false");
      if (!retiring(option)) {
        retire(option, (gone) => {
          gone.remove();
          keepTabStop();
        });
      }
    }
    for (const option of [...box.children].slice(0, hand.length)) show(option);
    while (box.childElementCount < hand.length) {
      const option = document.createElement("div");
      option.id = `card-${box.childElementCount}`;
      option.setAttribute("role", "option");
      const face = document.createElement("span");
      face.setAttribute("aria-hidden", "true");
      option.append(face);
      option.addEventListener("click", () => {
        this.focus = [...box.children].indexOf(option);
        this.renderHand();
        box.focus();
      });
      box.append(option);
    }
    hand.forEach((token, index) => {
      const option = box.children[index];
      setAttribute(option, "aria-selected", index === this.focus && !parked ? "true" : "false");
      // why: a screen reader counts the list's items from its first card's set size (Orca),
      // which the browser counts with the cards still retiring; the label's count is the hand's
      setAttribute(option, "aria-setsize", String(hand.length));
      setAttribute(option, "aria-posinset", String(index + 1));
      setAttribute(
        option,
        "aria-label",
        say(T.cardOption, { card: spokenName(token, wild), place: index + 1, count: hand.length }),
      );
      setAttribute(option, "data-token", token); // why not dataset: a write of the same value is a change too
      drawCard(option.firstElementChild, token, wild);
    });
    const had = box.hasAttribute("aria-activedescendant");
    setAttribute(box, "aria-activedescendant", hand.length && !parked ? `card-${this.focus}` : null);
    // why: a hand dealt again moves the screen reader's focus (to a card) with no key
    // pressed; it says where, and Orca drops news given meanwhile: the news waits for those
    // words (a hand emptied with focus on it gave focus to its empty list above)
    if (had !== (hand.length > 0 && !parked) && document.activeElement === box) {
      this.news.focusMoved(hand.length ? $(`card-${this.focus}`) : box, true);
    }
    const label = ngettext("Your hand, {count} card", "Your hand, {count} cards", hand.length);
    setAttribute(box, "aria-label", fill(label, { count: hand.length }));
    keepTabStop();
  }

  cell(tag, text, scope) {
    const cell = document.createElement(tag);
    cell.textContent = text;
    if (scope) cell.scope = scope;
    return cell;
  }

  // --- actions -----------------------------------------------------------------------------

  legal(move) {
    return this.snapshot ? this.snapshot.legal.filter((m) => m.move === move) : [];
  }

  act(action, args = {}) {
    if (this.seat === null) {
      this.answer(_(T.notSeated));
      return;
    }
    this.send({ type: "act", action, args, seq: this.seq });
    this.news.replyComing();
  }

  do(action) {
    this.speaker.unlock();
    const hand = this.hand();
    const focused = hand[this.focus];
    if (action === "whose_turn" && newGameKey(this)) return; // N after the game, as the terminal
    switch (action) {
      case "draw":
        this.act("draw_stock");
        return;
      case "take":
        this.act("take_discard");
        return;
      case "discard":
        if (!focused) this.answer(_(T.noHand));
        else this.act("discard", { card: focused });
        return;
      case "go_out": {
        const outs = this.legal("go_out").map((m) => m.discard);
        const wild = this.wild();
        let card = focused;
        if (outs.length && !outs.includes(focused)) {
          card = outs.find((c) => parseToken(c).rank !== wild && c !== "jk") ?? outs[0];
        }
        if (!card) this.answer(_(T.noHand));
        else this.act("go_out", { card });
        return;
      }
      case "sort":
        this.sortOrder = this.sortOrder === "rank" ? "suit" : "rank";
        this.focusCard(focused);
        const sorted = this.sortOrder === "rank" ? T.sortedRank : T.sortedSuit;
        this.answer(_(sorted));
        return;
      case "watchers":
        if (this.table === null) this.alert(_(T.notSeated));
        else this.answer(watchersWords(this.snapshot));
        return;
      case "last_moves":
        this.answer(this.lastMoves());
        return;
      case "leave":
        this.leaveDialog.open();
        return;
      case "start":
        // why focus at once, before the deal: see waitForDeal (a key on the Start button was
        // Orca's); why the start sent a moment later: the deal redraws much of the page, and
        // Orca 43 handled that flood of changes first and the focus 0.45 s late, after a key
        // it took as its own (Firefox, web6); focus first, then the deal
        if (this.seat !== null && this.snapshot && !this.snapshot.started && !this.startAsked) {
          waitForDeal();
          this.startAsked = true;
          setTimeout(() => this.send({ type: "start" }), START.afterFocusMs);
        } else this.send({ type: "start" });
        return;
      case "older":
      case "newer":
      case "oldest":
      case "newest":
      case "repeat":
        this.history(action);
        return;
      case "help":
        this.openHelp();
        return;
      case "chat":
        this.chat.open();
        return;
      case "current":
        if (!focused) this.answer(_(T.noHand), false);
        else this.answer($(`card-${this.focus}`).getAttribute("aria-label"), false);
        return;
      case "stop_speech":
        this.speaker.stop();
        return;
      default:
        if (ASKED.has(action)) {
          if (this.table === null) this.answer(_(T.notSeated));
          else this.send({ type: "ask", what: action });
        }
    }
  }

  focusCard(token) {
    const hand = this.hand();
    const index = token ? hand.indexOf(token) : -1;
    this.focus = index >= 0 ? index : 0;
    this.renderHand();
  }

  lastMoves() {
    // why from the end of your own turn: as the terminal's seat log (fivecrowns.ui.seat_log),
    // the news starts again when your discard or going out ends your turn, so during your
    // turn L tells the others' moves since your previous one; a spectator has no turn, so
    // its news starts at the round's deal
    const seated = this.seat !== null && this.seat >= 0;
    let start = -1;
    for (let i = this.events.length - 1; i >= 0; i -= 1) {
      const e = this.events[i];
      const ownTurnEnded = (e.kind === "discarded" || e.kind === "went_out") && e.player === this.seat;
      if (e.kind === "new_game" || (seated && ownTurnEnded)) {
        start = i + 1;
        break;
      }
      if (!seated && e.kind === "round_started") {
        start = i;
        break;
      }
    }
    // the page's record begins after your last turn (or the round's deal) began
    const partial = start < 0 && this.cameMidGame === true;
    start = Math.max(start, 0);
    // why not turn_started: "Ben's turn." is no move (the terminal's L leaves it out too)
    const texts = this.events
      .slice(start)
      .filter((e) => e.text && e.player !== this.seat && GAME_KINDS.has(e.kind))
      .filter((e) => e.kind !== "turn_started")
      .map((e) => e.text);
    if (partial) return texts.length ? say(T.newsHere, { moves: texts.join(" ") }) : _(T.noNewsHere);
    return texts.length ? texts.join(" ") : _(T.noNews);
  }

  history(action) {
    const count = this.messages.length;
    if (!count) {
      this.answer(_(T.noMessages), false);
      return;
    }
    let place = this.place < 0 ? count - 1 : this.place;
    if (action === "older") place = this.place < 0 ? count - 1 : place - 1;
    if (action === "newer") place += 1;
    if (action === "oldest") place = 0;
    if (action === "newest") place = count - 1;
    let prefix = null;
    if (place < 0) {
      place = 0;
      prefix = T.firstMessage;
    } else if (place >= count) {
      place = count - 1;
      prefix = T.lastMessage;
    }
    this.place = place;
    let text = say(T.historyPlace, { text: this.messages[place], place: place + 1, count });
    if (prefix) text = say(prefix, { text });
    this.answer(text, false);
  }

  move(index, edge) {
    const hand = this.hand();
    if (!hand.length) {
      this.answer(emptyWords(), false); // "Your hand is empty.", or before the deal, waiting for it
      return;
    }
    let edgeTemplate = null;
    if (index < 0) {
      index = 0;
      if (edge) edgeTemplate = T.firstCard;
    } else if (index >= hand.length) {
      index = hand.length - 1;
      if (edge) edgeTemplate = T.lastCard;
    }
    // why: the screen reader says a card when the picked one changes; staying put (Home on the
    // first card) would meet silence, so the page says the card itself
    const same = index === this.focus && !edgeTemplate;
    this.focus = index;
    this.renderHand();
    const option = $(`card-${index}`);
    option.scrollIntoView({ block: "nearest", inline: "nearest" });
    const card = option.getAttribute("aria-label");
    if (edgeTemplate) this.answer(say(edgeTemplate, { card }), false);
    else if (same) this.answer(card, false);
    // why: a screen reader reads the card from aria-activedescendant, but the built-in voice
    // (for readers that drop quick updates) hears no live region here, so it says the card itself
    else {
      this.speaker.interrupt(card);
      // why: the screen reader says the card now, of its own; news given before it ends waits
      // behind it, and a steady key (1.3 s) cut it before it began (issue 25): news waits the
      // card's words out, not a fixed 0.9 s after the key
      this.news.readerSays(card);
    }
  }

  // --- keys ----------------------------------------------------------------------------------

  bindPage() {
    $("hello-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.name = $("name").value.trim();
      if (!this.name) {
        // why a sentence: the field is not `required` (see index.html), so nothing else says it
        this.answer(say(T.noName, { connect: _("Connect") }), false);
        $("name").focus();
        return;
      }
      this.token = null;
      this.speaker.unlock();
      this.connect();
    });
    $("create-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const seats = Number($("seats").value);
      // why add_bot by seat: create_table's bots fill the first free seats, and the player
      // chose which seats stay open for people
      this.pendingBots = [...$("seat-choices").querySelectorAll("select")]
        .map((select, index) => ({ level: select.value, seat: index + 1 }))
        .filter((choice) => choice.level);
      this.send({ type: "create_table", seats, bots: [], private: $("private").checked, ...ratedChoice() });
    });
    $("code-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const code = $("code").value.trim();
      if (code) this.send({ type: "join", code });
    });
    $("seats").addEventListener("change", () => this.seatChoices());
    const switcher = $("language");
    switcher.value = language();
    // why in place, before the hello: the hello names the language the server words in
    switcher.addEventListener("change", async () => {
      remember(switcher.value);
      await load(switcher.value);
      translatePage();
      this.account.translate();
      await this.speaker.pack.fetchManifest(); // the cues' sentences in the new language
      this.seatChoices();
      fillLevels();
      this.fillHelp();
    });
    this.seatChoices();
    bindSeats(this);
    this.chat = new Chat(this);
    this.account = new AccountForms(this);
    this.account.translate();
    this.leaveDialog = new LeaveDialog(this);
    bindAfterGame(this);
    bindRatings(this);
    bindFriends(this);
    $("watch-code").addEventListener("click", () => {
      const code = $("code").value.trim();
      if (code) this.send({ type: "watch", code });
      else $("code").focus();
    });
    $("start-button").addEventListener("click", () => this.do("start"));
    for (const button of document.querySelectorAll("[data-action]")) {
      button.addEventListener("click", () => this.do(button.dataset.action));
    }
    $("help-button").addEventListener("click", () => this.openHelp());
    this.help = new KeptDialog($("help"), () => this.viewTarget(), (e) => this.marked(e));
    $("help-close").addEventListener("click", () => this.help.close());
    // why the page says the hand's help itself, once: screen readers say a list box's
    // description rarely (Orca in Chromium and Firefox never did), and a new player needs it
    $("hand").addEventListener("focus", () => {
      if (this.handHelpSaid || this.seat === null) return;
      this.handHelpSaid = true;
      $("hand").removeAttribute("aria-describedby"); // (see below)
      // why after the deal's news when the deal gave the hand focus: as an answer, first, the
      // help (17 words) put the deal, and "Your turn.", 15 s after the deal (Orca, issue 25)
      if (performance.now() - this.dealtAt < DEAL_HELP_MS) {
        this.news.announce($("hand-help").textContent, { table: this.table, remember: false });
        return;
      }
      this.answer($("hand-help").textContent, false);
      this.helpGiven = this.news.current;
      // why no description after: a screen reader says it when the list itself takes focus
      // (Orca did, on going out), which was the help a second time; it stays on screen
      $("hand").removeAttribute("aria-describedby");
    });
    // why: the dialog gives focus back to where it was, which is the page itself after F1
    // pressed with nothing focused; why later: Chromium gives it back after the close event
    $("help").addEventListener("close", () => setTimeout(() => this.rescueFocus(), 0));
    $("voice").addEventListener("change", (e) => {
      this.speaker.setVoice(e.target.checked);
      this.news.setVoiceMode(this.speaker.voice);
    });
    $("sounds").checked = this.speaker.sounds;
    $("sounds").addEventListener("change", (e) => this.setSoundsOn(e.target.checked));
    this.soundsDialog = new SoundsDialog(this, this.speaker.pack);
    $("volume").addEventListener("input", (e) => this.speaker.setVolume(Number(e.target.value) / 100));
    // why capture, and every key: a screen reader stops speaking at any key, wherever it goes
    document.addEventListener(
      "keydown",
      (e) => {
        this.keyStart = { event: e, at: performance.now() }; // why: the benchmark (see marked)
        this.helpCut(); // a key cuts what is being said
        this.news.keyPressed();
      },
      true,
    );
    document.addEventListener("focusin", (e) => {
      // why: focus put from nowhere (no element had it: the screen reader's own move) in a
      // part that is leaving (out of sight) would fall with it (Orca in Firefox, after its own
      // caret move had taken focus from the hand, gave it to the retiring Start button); it
      // goes where the page would put it, and is said there. Why not when it came from an
      // element: the page itself may keep focus in a retiring part (focus.js waits for it)
      const fromNowhere = !e.relatedTarget;
      if (fromNowhere && inRetiring(e.target) && !document.querySelector("dialog[open]:not(.retiring)")) {
        const target = this.viewTarget();
        if (!inRetiring(target)) {
          target.focus();
          return;
        }
      }
      this.news.focusMoved(e.target);
    });
    document.addEventListener("keydown", (e) => this.key(e));
    this.fillHelp();
  }

  key(e) {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (document.querySelector("dialog[open]:not(.retiring)")) return; // a dialog's own keys (Escape closes it)
    const target = e.target;
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === "F1" || e.key === "?") {
      e.preventDefault();
      this.openHelp();
      this.marked(e);
      return;
    }
    if (e.key === "F2") {
      e.preventDefault();
      this.soundsDialog.open();
      this.marked(e);
      return;
    }
    if ($("table").hidden || retiring($("table"))) return; // left, or leaving
    // why the Keys list: the terminal's Escape at the table opens its action menu, "a list of
    // everything you can do now"; the page's list of keys is that (no key meets silence).
    // Not from inside a dialog: its own Escape closed it, and must not open another
    if (e.key === "Escape" && !(target && target.closest && target.closest("dialog"))) {
      e.preventDefault();
      this.openHelp();
      this.marked(e);
      return;
    }
    // why the empty hand's list too: its arrows and Enter say the hand is empty, not nothing
    const inHand = target === $("hand") || target === $("hand-empty");
    const hand = this.hand();
    if (target === $("hand-empty") && hand.length) {
      // why at once: focus waited there for the answer to a key (emptyhand.js), and this key
      // has cut that answer already; on the dealt hand the key is answered as on any hand
      moveFocusForHand(hand.length);
      this.renderHand();
    }
    // why only in the hand: from the page or the log, Space (the scroll key) or Enter must
    // never discard, nor arrows move the selection unheard; letters stay page-wide
    if (inHand) {
      if (e.key === "ArrowLeft" || e.key === "ArrowUp") return this.stop(e, () => this.move(this.focus - 1, true));
      if (e.key === "ArrowRight" || e.key === "ArrowDown") return this.stop(e, () => this.move(this.focus + 1, true));
      if (e.key === "Home") return this.stop(e, () => this.move(0, false));
      if (e.key === "End") return this.stop(e, () => this.move(hand.length - 1, false));
      if (e.key === "Enter" || e.key === " ") return this.stop(e, () => this.do("discard"));
      if (/^[0-9]$/.test(e.key)) {
        return this.stop(e, () => {
          const number = e.key === "0" ? 10 : Number(e.key);
          let index = number - 1;
          if (index === this.focus && index + 10 < hand.length) index += 10;
          if (index >= hand.length) {
            const only = ngettext("You have only {count} card.", "You have only {count} cards.", hand.length);
            this.answer(fill(only, { count: hand.length }), false);
          } else this.move(index, false);
        });
      }
    }
    const action = KEYS.byKey(e.key);
    if (action) this.stop(e, () => this.do(action));
  }

  stop(e, run) {
    e.preventDefault();
    window.__lastKeyAt = e.timeStamp; // the key event's own time, on performance.now()'s clock
    run();
    this.marked(e);
  }

  /** Why: the benchmark's "page's own part" of a key's reply: the key event's time (at), when
   * the page's first handler began (start) and when its reply was written (done). */
  marked(e) {
    const start = this.keyStart && this.keyStart.event === e ? this.keyStart.at : e.timeStamp;
    const times = (window.__keyTimes ??= []);
    const focus = document.activeElement ? document.activeElement.id || document.activeElement.tagName : "";
    times.push({ key: e.key, at: e.timeStamp, start, done: performance.now(), focus });
    if (times.length > 5000) times.shift();
  }

  fillHelp() {
    const box = $("help-keys");
    box.replaceChildren();
    for (const group of KEYS.groups()) {
      const heading = document.createElement("h3");
      heading.textContent = group.title;
      const table = document.createElement("table");
      const head = document.createElement("tr");
      head.append(this.cell("th", _(T.keysColumn), "col"), this.cell("th", _(T.whatColumn), "col"));
      table.append(head);
      for (const [keys, what] of group.rows) {
        const row = document.createElement("tr");
        row.append(this.cell("th", keys, "row"), this.cell("td", what));
        table.append(row);
      }
      box.append(heading, table);
    }
  }

  openHelp() {
    this.help.show($("help-close"));
  }
}

const app = new App();
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => app.start());
} else {
  app.start();
}
