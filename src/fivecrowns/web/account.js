// Accounts in the web page: sign-up, log-in, log-out and deleting one's account (the server's
// side is docs/protocol.md "Accounts"), as forms a keyboard and a screen reader use as any
// other (WAI-ARIA APG form practice): each field has its label; a refusal is written under the
// field it concerns, tied to it by aria-describedby with aria-invalid set, said in the alert
// region, and focus moves to that field; on success focus lands on the lobby's heading.
//
// Tokens. The access token (15 minutes) is kept in memory only: it says hello again after a
// dropped connection. The refresh token (30 days) is kept in localStorage, keyed by the server
// (this page's host), as the page keeps its seat token (seats.js), so a reload, a new tab or a
// browser started again stays logged in. Why that is safe enough: only scripts of this origin
// read it, and the page runs its own files only (the server's Content-Security-Policy allows
// no inline or other script); it is sent to the server that gave it and nowhere else, never
// shown or said; it works once (each use trades it for a new one), so a copy used after the
// page used it is detected by the server, which logs the account out everywhere; and log-out
// removes it. A password is never kept: it is sent once and the fields are emptied.
import { _, N_, fill, language } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const KEY = "fivecrowns-accounts";

const T = {
  loggedIn: N_("Logged in as {name}."),
  needsName: N_("Every account needs a name; type one."),
  needsPassword: N_("Type your password."),
};

/** Words written in index.html for accounts: [selector, attribute (null: the text), sentence]. */
export const ACCOUNT_PAGE = [
  ["#account-heading", null, N_("Your account")],
  ["#account-intro", null, N_("Log in to keep your name on this server, or sign up to make an account.")],
  ["label[for=account-name]", null, N_("Account name")],
  ["label[for=password]", null, N_("Password")],
  ["#password-help", null, N_("At least 8 characters.")],
  ["#log-in-button", null, N_("Log in")],
  ["#sign-up-button", null, N_("Sign up")],
  ["#log-out-button", null, N_("Log out")],
  ["#log-out-all-button", null, N_("Log out on every device")],
  ["label[for=delete-password]", null, N_("Password, to delete your account")],
  ["#delete-form button", null, N_("Delete my account")],
];

// The field each refusal of the server concerns; any other is said for the whole form.
const LOG_IN_FIELDS = {
  bad_name: "account-name",
  name_taken: "account-name",
  name_owned: "account-name",
  no_match: "password",
  password_too_short: "password",
  password_too_long: "password",
};
const DELETE_FIELDS = { wrong_password: "delete-password", password_too_long: "delete-password" };
// Refusals that end what the page knows of a log-in: it asks for the password again.
const LOG_IN_ENDED = new Set(["bad_refresh", "refresh_reused", "bad_access", "disabled", "pending"]);
const ERROR_IDS = ["account-error", "account-name-error", "password-error", "delete-password-error"];

function readAll() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {}; // why: storage that cannot be read only means no log-in to keep
  }
}

function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // why quiet: a browser that keeps nothing stays logged in until the page closes
  }
}

/** The log-in this browser keeps for this server: {name, refresh}, or null. */
export function keptAccount(server = location.host) {
  const kept = readAll()[server];
  return kept && typeof kept.refresh === "string" && typeof kept.name === "string" ? kept : null;
}

function keepAccount(name, refresh, server = location.host) {
  const all = readAll();
  all[server] = { name, refresh };
  writeAll(all);
}

function forgetAccount(server = location.host) {
  const all = readAll();
  if (server in all) {
    delete all[server];
    writeAll(all);
  }
}

export class AccountForms {
  constructor(app) {
    this.app = app;
    this.name = keptAccount()?.name ?? null; // the account this page is logged in to
    this.access = null; // in memory only (see the top of this file)
    this.accessUntil = 0; // performance.now() after which the access token is not tried
    this.asking = null; // "log_in", "sign_up" or "delete": the form whose answer is awaited
    this.password = null; // until the socket opens, then forgotten
    this.helloAfterRefresh = false;
    this.greeted = false; // this page said hello as the account once already
    this.bind();
  }

  /** Logged in (or about to say hello as the kept log-in). */
  active() {
    return this.name !== null;
  }

  bind() {
    $("account-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const kind = e.submitter && e.submitter.value === "sign_up" ? "sign_up" : "log_in";
      this.clearErrors();
      const name = $("account-name").value.trim().split(/\s+/).join(" ");
      const password = $("password").value;
      if (!name) return this.refuse("account-name", _(T.needsName));
      if (!password) return this.refuse("password", _(T.needsPassword));
      this.asking = kind;
      this.password = password;
      this.app.name = name;
      this.app.token = null;
      this.app.speaker.unlock();
      this.app.connect();
    });
    $("log-out-button").addEventListener("click", () => this.app.send({ type: "log_out" }));
    $("log-out-all-button").addEventListener("click", () =>
      this.app.send({ type: "log_out", everywhere: true }),
    );
    $("delete-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.clearErrors();
      const password = $("delete-password").value;
      if (!password) return this.refuse("delete-password", _(T.needsPassword));
      this.asking = "delete";
      this.app.send({ type: "delete_account", password });
    });
  }

  /** The socket opened: the first message, if it is the account's (else the app says hello). */
  greet(lastSeq) {
    if (this.asking === "log_in" || this.asking === "sign_up") {
      const password = this.password;
      this.password = null;
      const message = { type: this.asking, v: 1, name: this.app.name, password, language: language() };
      this.app.send(message);
      return true;
    }
    if (!this.active()) return false;
    this.lastSeq = lastSeq;
    if (this.access && performance.now() < this.accessUntil) {
      this.helloWithAccess();
      return true;
    }
    // why the seat token after a drop: it says hello as the account too, and leaves the
    // refresh token alone; the tabs of one browser share that one, and two tabs reconnecting
    // at once (a server restarted) must not use it twice (the server would take that for a
    // copy and log out everywhere). Why the refresh token when the page starts: the server
    // then knows which log-in this page is, and Log out ends that one only.
    if (this.greeted && this.app.token) return false;
    return this.refresh();
  }

  refresh() {
    const kept = keptAccount();
    if (!kept) {
      this.loggedOut(null);
      return false;
    }
    this.helloAfterRefresh = true;
    this.app.send({ type: "refresh", refresh: kept.refresh });
    return true;
  }

  helloWithAccess() {
    const hello = { type: "hello", v: 1, name: this.name, access: this.access, language: language() };
    if (this.lastSeq > 0) hello.last_seq = this.lastSeq;
    this.app.send(hello);
  }

  /** A frame about accounts; true if it was handled here. */
  receive(data) {
    switch (data.type) {
      case "account":
        this.name = data.name;
        this.access = data.access;
        // why a margin: a hello sent just before the end would be refused
        this.accessUntil = performance.now() + Math.max(0, data.expires - 30) * 1000;
        keepAccount(data.name, data.refresh);
        if (this.helloAfterRefresh) {
          this.helloAfterRefresh = false;
          this.helloWithAccess();
        }
        return true;
      case "account_pending":
        this.asking = null;
        this.app.dropSocket();
        $("password").value = "";
        this.app.alert(data.text);
        return true;
      case "logged_out":
        this.loggedOut(data.text);
        return true;
      case "error":
        return this.error(data);
      default:
        return false;
    }
  }

  /** The server welcomed this page: as the account, if it is logged in to one. */
  welcomed(data) {
    const asked = this.asking === "log_in" || this.asking === "sign_up";
    this.asking = null;
    if (!this.active()) {
      $("account-panel").hidden = true;
      return;
    }
    this.greeted = true;
    $("account-form").hidden = true;
    $("account-panel").hidden = false;
    $("account-status").textContent = fill(_(T.loggedIn), { name: data.name });
    if (asked) {
      $("password").value = "";
      this.app.answer(fill(_(T.loggedIn), { name: data.name }));
      $("lobby-heading").focus();
    }
  }

  error(data) {
    if (this.asking === "log_in" || this.asking === "sign_up") {
      this.asking = null;
      // why: nobody said hello on this socket, and it must not reconnect and say hello as a guest
      this.app.dropSocket();
      this.refuse(LOG_IN_FIELDS[data.code] ?? null, data.text);
      return true;
    }
    if (this.asking === "delete") {
      this.asking = null;
      if (data.code in DELETE_FIELDS) {
        this.refuse(DELETE_FIELDS[data.code], data.text);
        return true;
      }
    }
    if (!this.active()) return false;
    if (data.code === "access_expired" || (data.code === "bad_token" && !this.helloAfterRefresh)) {
      this.access = null;
      this.refresh();
      return true;
    }
    if (LOG_IN_ENDED.has(data.code)) {
      this.app.dropSocket();
      this.loggedOut(data.text);
      return true;
    }
    return false;
  }

  /** Nothing is logged in here any more: the forms to log in or play as a guest again. */
  loggedOut(text) {
    forgetAccount();
    this.name = null;
    this.access = null;
    this.asking = null;
    this.helloAfterRefresh = false;
    this.greeted = false;
    $("delete-password").value = "";
    $("account-panel").hidden = true;
    if (text === null) return;
    this.app.loggedOut();
    $("account-form").hidden = false;
    this.app.alert(text);
    $("account-heading").focus();
  }

  /** Show forms as the page starts: the account form unless a log-in is kept. */
  show(connected) {
    $("account-form").hidden = connected;
    $("account-panel").hidden = !(connected && this.active());
  }

  refuse(fieldId, text) {
    const field = fieldId ? $(fieldId) : null;
    const box = $(fieldId ? `${fieldId}-error` : "account-error");
    box.textContent = text;
    box.hidden = false;
    this.app.alert(text);
    if (field) {
      field.setAttribute("aria-invalid", "true");
      field.focus();
    } else {
      $("account-heading").focus();
    }
  }

  clearErrors() {
    for (const id of ERROR_IDS) {
      $(id).textContent = "";
      $(id).hidden = true;
    }
    for (const id of ["account-name", "password", "delete-password"]) $(id).removeAttribute("aria-invalid");
  }

  /** The account forms' words in the page's language (each element holds text only). */
  translate() {
    for (const [selector, attribute, sentence] of ACCOUNT_PAGE) {
      const element = document.querySelector(selector);
      if (!element) continue;
      if (attribute) element.setAttribute(attribute, _(sentence));
      else element.textContent = _(sentence);
    }
    if (this.name && !$("account-panel").hidden) {
      $("account-status").textContent = fill(_(T.loggedIn), { name: this.name });
    }
  }
}
