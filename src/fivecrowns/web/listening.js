// The page tells the server when its table news starts and stops waiting to be said (issue 25):
// computer players move faster than a voice says their moves, so the server holds their next
// move while a seated player's page is behind, as people at a real table wait for the
// announcements (net/server/listeners.py; its caps keep a page from stopping the game).
// Only edges, never a message per sentence: {"type": "listening", "behind": true|false}. Only a
// seated player's page says it, only on a live socket; a spectator's page, and a page whose
// news goes out at once (nothing queued), say nothing.
// Why the built-in voice reports through here too, and its own queue (speech.js) is not asked:
// it is fed from the same queue (channel.js releases each sentence to it at a screen reader's
// pace, about 240 words a minute), so with a voice at least that fast its own backlog is one
// sentence; a slower voice's backlog is not told (the browser says no more than "pending").

// why at most one message every 300 ms (the latest state after the pause): the server takes
// 5 a second (Limits.listening_rate) and refuses more with a sentence; a queue that fills and
// empties quickly needs no message for each time
export const EVERY_MS = 300;

export class Listening {
  /**
   * @param {() => boolean} seated  the page sits at a table on an open socket
   * @param {(message: object) => void} send  sends a message to the server
   */
  constructor(seated, send) {
    this.seated = seated;
    this.send = send;
    this.wanted = false; // the queue waits now
    this.told = false; // what the server was last told on this socket and seat
    this.sentAt = -Infinity;
    this.timer = null;
  }

  /** The news queue started (true) or stopped (false) waiting (channel.js's onBehind). */
  set(behind) {
    this.wanted = behind;
    this.flush();
  }

  /** A new seat or a new socket: the server knows nothing of this page yet (a reconnected
   * page that is behind says so again). */
  seatedAgain() {
    this.told = false;
    this.flush();
  }

  /** The socket dropped: the next one's server knows nothing of this page; the queue's
   * state is kept, to be told once the page is seated again (seatedAgain). */
  dropped() {
    clearTimeout(this.timer);
    this.timer = null;
    this.told = false;
  }

  /** The page left the table: nothing is said for it any more. */
  forget() {
    clearTimeout(this.timer);
    this.timer = null;
    this.wanted = false;
    this.told = false;
  }

  flush() {
    if (this.wanted === this.told || !this.seated()) return;
    const wait = this.sentAt + EVERY_MS - performance.now();
    if (wait > 0) {
      if (this.timer === null) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.flush();
        }, wait);
      }
      return;
    }
    this.send({ type: "listening", behind: this.wanted });
    this.told = this.wanted;
    this.sentAt = performance.now();
  }
}
