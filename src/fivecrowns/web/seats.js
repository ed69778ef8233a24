// The seats this browser holds at game servers, and how long a dropped connection is tried
// again: the page's side of what the terminal keeps in seats.json
// (fivecrowns.storage.seats) and of its retry policy (fivecrowns.net.client.retry).
//
// A seat's token is kept in localStorage, keyed by the server (this page's host) and the
// table, so a closed tab, a crashed browser or a new tab takes the seat back. It is the secret
// of one seat: it is never shown, said or sent anywhere but to the server that gave it. The
// entry goes when the game ends, when the player leaves, and when the server no longer knows
// the token or the table.

const KEY = "fivecrowns-seats";
const MAX_SEATS = 20; // kept at most, the oldest go first (as seats.json: far more than needed)

/** The same numbers as fivecrowns.net.client.retry.RECONNECT (a test compares them). */
export const RECONNECT = {
  windowSeconds: 300,
  longestPause: 5,
  attempts: 400,
  /** The pause after failed attempt ``attempt`` (from 1), in seconds: growing, then capped. */
  pause(attempt) {
    return Math.min(0.5 * attempt, this.longestPause);
  },
  /** Whether attempt ``attempt`` may still be made, ``elapsed`` seconds after the drop. */
  keepTrying(attempt, elapsed) {
    return attempt <= this.attempts && elapsed < this.windowSeconds;
  },
  minutes() {
    return Math.round(this.windowSeconds / 60);
  },
};

function readAll() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {}; // why: storage that cannot be read (blocked, damaged) only means no seat to take back
  }
}

function writeAll(seats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(seats));
  } catch {
    // why quiet: a browser that keeps nothing (private mode, full storage) plays on; only a
    // closed tab then loses the seat, as before
  }
}

/** The newest seat kept for this server: {token, name, table}, or null. */
export function keptSeat(server = location.host) {
  const found = Object.values(readAll())
    .filter((seat) => seat && seat.server === server && typeof seat.token === "string" && seat.name)
    .sort((a, b) => (b.at || 0) - (a.at || 0));
  return found[0] ?? null;
}

/** Keep the seat ``token`` holds at ``table`` of this server. */
export function keepSeat(token, name, table, server = location.host) {
  const seats = readAll();
  // why one per server: one token is one player at a server, seated at one table at a time
  for (const [key, seat] of Object.entries(seats)) if (seat && seat.server === server) delete seats[key];
  seats[`${server} ${table}`] = { server, table, token, name, at: Date.now() };
  const keys = Object.keys(seats).sort((a, b) => (seats[a].at || 0) - (seats[b].at || 0));
  while (keys.length > MAX_SEATS) delete seats[keys.shift()];
  writeAll(seats);
}

/** Nothing to take back at this server any more (the game ended, the player left, the
 * server forgot the token or closed the table). */
export function forgetSeat(server = location.host) {
  const seats = readAll();
  let changed = false;
  for (const [key, seat] of Object.entries(seats)) {
    if (!seat || seat.server === server) {
      delete seats[key];
      changed = true;
    }
  }
  if (changed) writeAll(seats);
}
