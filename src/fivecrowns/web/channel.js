// The page's one channel to a screen reader: every sentence the page announces goes through
// here, in order, paced so that a screen reader speaks each one whole, and put back when a key
// cuts it off. Why a queue the page controls (heard with Orca, and true of NVDA and JAWS too):
//   - an assertive region makes Orca throw away the polite messages it has queued, so nothing
//     here is assertive: your turn is news that follows the moves before it;
//   - every key press stops the screen reader's speech and drops its queue, so a sentence
//     still being spoken when a key comes is given again when the keys stop: once if the
//     screen reader had begun it, until it is begun if not (news queued behind it joins it);
//   - news can stop being true while it waits (a seat empties again, the game starts, the
//     player leaves the table): such news is withdrawn from the queue, never said late;
//   - two updates of one region a few milliseconds apart can be read reversed or merged, so
//     the page releases one sentence at a time, after the previous one had time to be said.
// The player's own answers (the reply to a key) go first: the key just silenced everything.
// With the built-in voice on, the page speaks itself and the regions stop speaking (aria-live
// off), so a screen reader does not say everything twice (the Playroom's choice of modes).

// The channel's timing, one object so that tests without a screen reader can set it to 0.
export const PACE = {
  // seconds a voice takes for a sentence: a start-up allowance and a pace per word; why these
  // figures: about 240 words a minute, a screen reader's default pace; a slower voice only
  // waits, a faster one may hear a sentence again after a key cut it near its end; why a lead
  // of 0.45 s: the screen reader starts a sentence late (measured with Orca 43 and Speech
  // Dispatcher, the page's release to speech start: 0.1 to 0.4 s, issue 25), and a sentence
  // given while the one before is still being said cuts it off; 0.9 s, paid per sentence,
  // held the news 38 s behind two computer players
  lead: 0.45,
  perWord: 0.26,
  minimum: 0.6,
  // how long after its expected end a sentence may still be unsaid, for a key to give it
  // again, when the screen reader had words of its own to say just before (a focus change,
  // leaving a dialog: "leaving banner, main content, region Your hand...", seconds of them):
  // a sentence behind them starts late, by an amount the page cannot know; a sentence heard
  // again is better than one lost. Why not after any key: the card an arrow picks is said
  // before the news (afterKeyMs), and the 8 sentences given within 3 s of a key all ended
  // before their expected end (Orca 43, Chromium and Firefox)
  slackMs: 2000,
  // the same when nothing of the screen reader's own came first; why short: a key pressed
  // within the slack after a sentence really ended gives it again, heard twice (a key 1 to
  // 2 s after a sentence's end did, issue 25); why 0.4 s is enough: of 58 sentences with no
  // key before them (Orca 43, Chromium and Firefox, its speech's START and END), the 54 it
  // began on time ended before their expected end (0.34 s before, the median); the 4 late
  // ones began 0.8 to 2.2 s late, behind its own words or a late sentence before them
  // (benchmarks/results/orca.txt)
  shortSlackMs: 400,
  // the screen reader's own words ended (as the page expects) this long before a sentence's
  // release: it gets the long slack; why 3 s: a sentence late behind them makes the next one
  // late too, by about 0.35 s less each (the pace's margin), and the latest end heard was
  // 1.7 s after the expected one
  ownWordsMs: 3000,
  // the same sentence again within this many milliseconds is said once (as PlayPalace)
  repeatWindowMs: 700,
  // news waits this long after the last key, so the key's own reply is heard first
  afterKeyMs: 900,
  // a key this soon after a sentence's release cut it before the screen reader began it:
  // nothing of it was heard, so it is given again however often that happens (a sentence
  // begun and cut is given again once). Why 0.6 s: the screen reader's start, release to
  // speech, was 0.3 s (median) to 0.76 s (p95 with its own words first) (Orca 43, both
  // browsers); a steady key 1.3 s after the one before cut the news 0.4 s after its release,
  // behind Orca's words for the picked card, twice, and it was left unsaid (issue 25, web6)
  beginMs: 600,
  // while news waits behind such keys, the plain news queued after it goes out with it, as
  // one line of whole sentences, up to this many words: a player browsing the hand meets one
  // line when the keys stop, not a minute of them (why no more: a longer line needs a longer
  // quiet moment to be heard whole)
  joinWords: 40,
};
const KEEP = 60; // lines kept in the log's region (the history keeps every sentence)
// empty slots kept after the newest line (see release): each is in the page this many lines
// (at least 5 s of speech) before it is filled
const AHEAD = 3;

/** An empty slot for the log's next line. Why focusable (tabindex -1, out of the Tab order):
 * an empty plain div is no object in the accessibility tree (Firefox and Chromium leave it
 * out), so its line was added to the log itself, one parent for every line, and Orca in
 * Firefox, running behind, skipped a line; a focusable element is always an object. */
function slot() {
  const place = document.createElement("div");
  place.tabIndex = -1;
  return place;
}

export function speakingTime(text) {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(PACE.minimum, PACE.lead + PACE.perWord * words) * 1000;
}

export class News {
  /**
   * @param {object} parts
   * @param {HTMLElement} parts.log    the table's messages: a role=log region, kept as history
   * @param {HTMLElement} parts.answer the reply to the player's key: a role=status region
   * @param {object} parts.speaker     the built-in voice (speech.js), used when it is on
   * @param {(text: string) => void} parts.remember  the page's message history (comma, period)
   * @param {(old: string, text: string) => void} [parts.amend]  its newest `old` becomes `text`
   * @param {(behind: boolean) => void} [parts.onBehind]  news starts (true) or stops (false)
   *   waiting in the queue: edges only (listening.js tells the server)
   */
  constructor({ log, answer, speaker, remember, amend = () => {}, onBehind = () => {} }) {
    this.regions = { log, answer };
    for (let count = 0; count < AHEAD; count += 1) log.append(slot()); // see release
    this.speaker = speaker;
    this.remember = remember;
    this.amend = amend;
    this.onBehind = onBehind;
    this.behind = false; // news waits in the queue (told to onBehind at each change)
    this.queue = []; // {text, region, key, table} waiting to be released, oldest first
    this.current = null; // {text, region, at, until, item, again, stale}: released, maybe unsaid
    this.lastKeyAt = -Infinity;
    this.busyUntil = 0; // when the screen reader may have said where focus went
    // when the screen reader's own words (where focus went) may have ended
    this.ownWordsUntil = -Infinity;
    this.recent = new Map(); // text -> when it was last queued, for the repeat window
    this.timer = null;
    this.toggle = false;
    this.voiceMode = false;
  }

  /** Table news: others' moves, your turn, the table's changes. Queued, in order, never lost
   * unless it stops being true first. `options.key` names what the sentence is about (a hint
   * such as "press Start"): a newer sentence with the same key takes the queued one's place,
   * and withdraw(key) drops it; `options.table` names the table it is news of (dropTable);
   * `options.part` with `options.join(earlier, later)` -> {text, part} | null lets it join the
   * sentence waiting last in the queue, whose part is `earlier`. */
  announce(text, options = {}) {
    if (!text) return;
    const now = performance.now();
    const last = this.recent.get(text);
    this.recent.set(text, now);
    if (last !== undefined && now - last < PACE.repeatWindowMs) return;
    if (this.recent.size > 200) this.recent.delete(this.recent.keys().next().value);
    const { key = null, table = null, part = null, join = null, first = false } = options;
    const { remember = true } = options; // false: help, not news; the history does not keep it
    if (key !== null) this.withdraw(key);
    // why: a sentence that follows one still waiting can join it (another player's draw and
    // discard as one turn, turns.js): fewer sentences, so the news keeps up with the game
    const tail = this.queue[this.queue.length - 1];
    // (not one already given: its record holds the text given)
    const joinable = tail && tail.part && !tail.again && !tail.entry;
    const joined = part && join && joinable ? join(tail.part, part) : null;
    if (joined && tail.table === table) {
      this.amend(tail.text, joined.text); // the history holds the whole turn too
      tail.text = joined.text;
      tail.part = joined.part;
    } else {
      if (remember) this.remember(text);
      const item = { text, region: "log", key, table, part, born: now, first };
      // why first: the news of your own move is the answer to your key (D answered 16 s late
      // behind a sentence given again and others' moves); in order among themselves
      const place = first ? this.queue.findIndex((queued) => !queued.first) : -1;
      if (place < 0) this.queue.push(item);
      else this.queue.splice(place, 0, item);
    }
    this.pump();
  }

  /** What `key` named is no longer true: its queued sentence is not said (it stays in the
   * history), nor given again if a key cuts it off. */
  withdraw(key) {
    this.drop((item) => item.key === key);
  }

  /** The player left `table`: its news still queued is not said (it stays in the history). */
  dropTable(table) {
    this.drop((item) => item.table === table);
  }

  /** The reply to the player's own key: said now, before the news that waits. */
  answer(text, remember = true) {
    if (!text) return;
    if (remember) this.remember(text);
    this.putBack();
    this.release({ text, region: "answer" });
    this.schedule(Math.max(PACE.afterKeyMs, this.current.until - performance.now()));
  }

  /** A key reached the page: the screen reader has just stopped speaking. */
  keyPressed() {
    this.lastKeyAt = performance.now();
    this.putBack();
    // why: the key stopped the screen reader, so a sentence it cut (left to the history, or
    // given again later) is no longer being said, and holds back nothing; before, the news of
    // your own discard waited for the end of a sentence Enter had cut, and Enter met silence
    // (Orca, Chromium, keys a player's steady 1.3 s apart; benchmarks/results/orca.txt, web6)
    if (this.current) this.current.until = Math.min(this.current.until, this.lastKeyAt);
    this.schedule(PACE.afterKeyMs);
  }

  /** Focus moved: the screen reader says where (the element's name, its role, the regions it
   * left and entered) before any news, so news waits that long, and its time is counted from
   * when it can really start. `byPage`: the page moved it, no key (see below). */
  focusMoved(element, byPage = false) {
    // why given again when the page moved focus itself (a hand emptied or dealt): the screen
    // reader's words for the focus cut the sentence being said, and no key of the player's
    // did ("You went out with ..." was lost at a new round). Why not one given within the
    // lead: the screen reader had not begun it, and says it after the focus's words (Orca,
    // "You went out ..." and the emptied hand in the same moment): given again, it was twice
    const current = this.current;
    const given = byPage && current && performance.now() - current.at >= PACE.lead * 1000;
    if (given) this.putBack(true);
    const name =
      element.getAttribute("aria-label") || element.textContent || element.value || "";
    // and its description, which Orca says after the name
    const describedBy = element.getAttribute("aria-describedby");
    const about = describedBy ? document.getElementById(describedBy) : null;
    const text = `${name} ${about ? about.textContent : ""}`;
    const words = text.trim().split(/\s+/).slice(0, 60).join(" ");
    // why 8 more words: the role and the landmarks ("leaving banner, main content, region")
    this.busyUntil = performance.now() + speakingTime(`${words} a b c d e f g h`);
    this.ownWordsUntil = Math.max(this.ownWordsUntil, this.busyUntil);
    // a sentence not yet begun is said after the focus's words: a key may cut it until then
    const late = this.current;
    if (late && late.region === "log" && !given && performance.now() < late.until) {
      late.unsure = Math.max(late.unsure, this.busyUntil + speakingTime(late.text) + PACE.slackMs);
    }
    this.schedule(this.busyUntil - performance.now());
  }

  /** The screen reader says `text` of its own now, with no focus change (the card an arrow
   * picked, read from aria-activedescendant): news waits until it has been said. */
  readerSays(text) {
    this.busyUntil = Math.max(this.busyUntil, performance.now() + speakingTime(text));
    this.schedule(this.busyUntil - performance.now());
  }

  /** When the answer to the player's last key will have been said (0: none being said). */
  answerUntil() {
    return this.current && this.current.region === "answer" ? this.current.until : 0;
  }

  /** The key was a move sent to the server: its news is the key's reply, so it need not wait. */
  replyComing() {
    this.lastKeyAt = -Infinity;
  }

  /** Built-in voice on: the page speaks, the live regions are quiet (text stays for braille). */
  setVoiceMode(on) {
    this.voiceMode = on;
    for (const region of Object.values(this.regions)) {
      region.setAttribute("aria-live", on ? "off" : "polite");
    }
  }

  // --- inside ------------------------------------------------------------------------------

  /** The news sentence cut off by a key goes back to the head of the queue: once if the
   * screen reader had begun it, every time if not (PACE.beginMs). Why once when begun: every
   * key cuts the screen reader off, and a sentence begun again after each of them (a player
   * browsing the hand) was heard in part again and again and held the queue, and the game,
   * 20 to 70 s behind (Orca, Firefox); one not begun was not heard at all, and a move of
   * another player must never be lost. Its hold is bounded by joining (release). */
  putBack(byPage = false) {
    const current = this.current;
    const now = performance.now();
    if (!current || current.region !== "log" || now >= current.unsure) return;
    const unbegun = !byPage && now - current.at < PACE.beginMs;
    if (current.stale || (current.again && !byPage && !unbegun)) {
      // why recorded: it is left to the history, heard in part (the Orca test's check reads it)
      if (current.entry) current.entry.left = true;
      return;
    }
    this.current = null;
    // `again`: begun and cut (or cut by the page) once; `held`: cut before it was begun
    const again = current.again || !unbegun;
    const held = unbegun || !!current.item.held;
    this.queue.unshift({ ...current.item, again, held, entry: current.entry });
    this.edge();
  }

  /** `item`, held by keys, with the plain news queued behind it (no key, not your own move,
   * the same table) joined on, in order, up to PACE.joinWords words. */
  joinHeld(item) {
    if (!item.held || item.region !== "log") return item;
    let text = item.text;
    let words = text.split(/\s+/).length;
    while (this.queue.length) {
      const next = this.queue[0];
      const size = next.text.split(/\s+/).length;
      if (next.key !== null || next.first || next.table !== item.table) break;
      if (words + size > PACE.joinWords) break;
      this.queue.shift();
      text = `${text} ${next.text}`;
      words += size;
    }
    if (text === item.text) return item;
    // why the record's text too: what the page meant to say is now the joined line
    if (item.entry) item.entry.text = text;
    const added = text.slice(item.text.length + 1);
    return { ...item, text, part: null, added: [...(item.added ?? []), added] };
  }

  /** Queued news that `gone` picks is dropped; the sentence being said is not given again. */
  drop(gone) {
    this.queue = this.queue.filter((item) => !gone(item));
    if (this.current && this.current.region === "log" && gone(this.current.item)) {
      this.current.stale = true;
    }
    this.edge();
  }

  /** Tell onBehind when news starts or stops waiting. Why waiting, not the sentence being
   * said: computers that wait until the last sentence is over, not only given, would add a
   * pause of their own after every move; news that waits is what falls behind the game. */
  edge() {
    const behind = this.queue.length > 0;
    if (behind === this.behind) return;
    this.behind = behind;
    this.onBehind(behind);
  }

  pump() {
    // why a bounded loop: with no pacing (tests) everything waiting goes out at once, in order
    for (let count = 0; this.queue.length && count < 1000; count += 1) {
      const now = performance.now();
      const free = Math.max(
        this.current ? this.current.until : 0,
        this.lastKeyAt + PACE.afterKeyMs,
        this.busyUntil,
      );
      if (now < free) {
        this.schedule(free - now);
        break;
      }
      this.release(this.joinHeld(this.queue.shift()));
    }
    this.edge();
  }

  schedule(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(0, ms));
  }

  release(item) {
    const now = performance.now();
    const region = this.regions[item.region];
    const line = document.createElement("p");
    if (item.region === "log") {
      // why a sentence given again is a new line, the old one kept: a screen reader still
      // busy with the old line's addition would find it gone and skip it (Orca in Firefox)
      // why the toggled no-break space: Orca skips an addition whose text equals the last
      // one it queued, and a sentence given again after a key cut it off must be said
      this.toggle = !this.toggle;
      line.textContent = this.toggle ? item.text : `${item.text}\u00a0`;
      line.dataset.text = item.text;
      // why each line in a slot of its own, put in the page lines earlier: Orca 43, when it
      // runs behind, skips an addition if a newer one to the same parent waits in its queue
      // (its log: "Skipping object event due to more recent system event in the same
      // object"); lines added to different parents are each said. Why AHEAD slots, not one:
      // Orca reads a slot's text when it gets to the slot's own addition, and a slot added
      // one line earlier was, with Orca seconds behind, already filled: the line said twice
      const empty = [...region.children].filter((e) => e.tagName === "DIV" && !e.childElementCount);
      const place = empty[0] ?? region.appendChild(slot());
      place.append(line);
      for (let count = Math.max(empty.length - 1, 0); count < AHEAD; count += 1) region.append(slot());
      while (region.childElementCount > KEEP + AHEAD) region.firstElementChild.remove();
      region.scrollTop = region.scrollHeight; // the newest line in sight
    } else {
      // why a new node and a toggled no-break space: the same answer twice is still a change
      this.toggle = !this.toggle;
      line.textContent = this.toggle ? item.text : `${item.text}\u00a0`;
      region.replaceChildren(line);
    }
    if (this.voiceMode) {
      if (item.region === "answer") this.speaker.interrupt(item.text);
      else if (!item.again && !item.held) this.speaker.queue(item.text);
      else for (const added of item.added ?? []) this.speaker.queue(added); // joined on (joinHeld)
    }
    // why: the tests and the benchmark read what the page meant to say, and when; a sentence
    // given again after a key cut it off is the same sentence, its last time in `last`
    let entry = item.entry;
    if (entry) entry.last = now;
    else {
      // born: when its news (the first, for joined parts) reached the channel, for the lag
      entry = { region: item.region, text: item.text, at: now, born: item.born ?? now };
      const record = (window.__announcements ??= []);
      record.push(entry);
      if (record.length > 5000) record.shift();
    }
    const until = now + speakingTime(item.text);
    // until `unsure` a key may have cut it: it is given again; the long slack only when the
    // screen reader's own words came just before and may have held it back
    const behind = now - this.ownWordsUntil < PACE.ownWordsMs;
    const unsure = until + (behind ? PACE.slackMs : Math.min(PACE.shortSlackMs, PACE.slackMs));
    const again = !!item.again;
    const current = { text: item.text, region: item.region, at: now, until, unsure, entry };
    this.current = { ...current, item, again };
  }
}
