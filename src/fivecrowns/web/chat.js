// Chat at a table, as the terminal's slash key (fivecrowns.ui.session.chat): / opens a field,
// Enter sends, Escape cancels and gives focus back; Up and Down in the field bring back the
// lines you sent. Lines said at the table (yours too) are kept in the Chat list, oldest first.
import { _, N_ } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const C = {
  open: N_("Say to the table: type your line, then Enter to send or Escape to cancel."),
  cancelled: N_("Nothing sent."),
  empty: N_("There is nothing to send: type a line first, or Escape to cancel."),
};
const LONGEST = 300; // the server's longest chat line (docs/protocol.md)
const KEPT = 200; // why a bound: the page stays small over a long evening

export class Chat {
  constructor(app) {
    this.app = app;
    this.sent = []; // the lines this page sent, for Up and Down
    this.place = 0;
    this.back = null; // where focus was before / (given back after Enter or Escape)
    const field = $("chat");
    field.maxLength = LONGEST;
    $("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.send();
    });
    field.addEventListener("keydown", (e) => this.key(e));
  }

  /** The / key: to the field, saying what to do (the terminal's words). */
  open() {
    const field = $("chat");
    const active = document.activeElement;
    this.back = active && active !== field && active !== document.body ? active : null;
    this.place = this.sent.length;
    field.focus();
    this.app.answer(_(C.open), false);
  }

  send() {
    const field = $("chat");
    const text = field.value.split(/\s+/).filter(Boolean).join(" ");
    if (!text) {
      this.app.answer(_(C.empty), false);
      return;
    }
    this.app.send({ type: "chat", text });
    if (this.sent[this.sent.length - 1] !== text) this.sent.push(text);
    if (this.sent.length > KEPT) this.sent.shift();
    field.value = "";
    this.giveBack();
  }

  key(e) {
    const field = $("chat");
    if (e.key === "Escape") {
      e.preventDefault();
      field.value = "";
      this.app.answer(_(C.cancelled), false);
      this.giveBack();
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && this.sent.length) {
      e.preventDefault();
      const step = e.key === "ArrowUp" ? -1 : 1;
      this.place = Math.max(0, Math.min(this.sent.length, this.place + step));
      field.value = this.sent[this.place] ?? "";
    }
  }

  giveBack() {
    const back = this.back;
    this.back = null;
    // why: a player who pressed / from the hand goes on playing there
    if (back && back.isConnected && !back.closest("[hidden]")) back.focus();
    else this.app.focusView();
  }

  /** A chat event: its sentence joins the Chat list ("Ann says: hello"). */
  heard(text) {
    const list = $("chat-lines");
    const item = document.createElement("li");
    item.textContent = text;
    list.append(item);
    while (list.childElementCount > KEPT) list.firstElementChild.remove();
    $("no-chat").hidden = true;
  }

  /** A new table: its chat starts empty. */
  clear() {
    $("chat-lines").replaceChildren();
    $("no-chat").hidden = false;
    $("chat").value = "";
  }
}
