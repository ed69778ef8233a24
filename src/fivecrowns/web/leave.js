// Leaving a table, confirmed first (the ARIA Authoring Practices' alert dialog): the question
// says what becomes of your seat, Stay has the focus (the choice that changes nothing),
// Escape stays, and focus goes back to the control that opened it.
import { _, N_ } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const L = {
  beforeStart: N_("Leave the table? Your seat becomes empty, for someone else to take."),
  playing: N_(
    "Leave the table? A computer player takes your seat for the rest of the game, and you cannot come back to it.",
  ),
  over: N_(
    "Leave the table? A computer player takes your seat in any new game here, and you cannot come back to it.",
  ),
  watching: N_("Stop watching this table? You go back to the lobby."),
  leave: N_("Leave the table"),
  stopWatching: N_("Stop watching"),
};

export class LeaveDialog {
  constructor(app) {
    this.app = app;
    this.back = null;
    const dialog = $("leave-dialog");
    $("leave-yes").addEventListener("click", () => {
      this.back = null; // why: the lobby takes the focus once the server says we left
      dialog.close();
      this.app.send({ type: "leave" });
    });
    $("leave-no").addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      const back = this.back;
      this.back = null;
      // why later: Chromium moves focus itself after the close event
      if (back) setTimeout(() => (back.isConnected && !back.closest("[hidden]") ? back.focus() : this.app.focusView()), 0);
    });
  }

  /** The question for this seat now: before the start, during the game, after it, watching. */
  question() {
    const app = this.app;
    if (app.seat === null) return _(L.watching);
    const snap = app.snapshot;
    if (!snap || !snap.started) return _(L.beforeStart);
    if (snap.view && snap.view.game_over) return _(L.over);
    return _(L.playing);
  }

  open() {
    const dialog = $("leave-dialog");
    if (dialog.open) return;
    const active = document.activeElement;
    this.back = active && active !== document.body ? active : null;
    $("leave-text").textContent = this.question();
    $("leave-yes").textContent = _(this.app.seat === null ? L.stopWatching : L.leave);
    dialog.showModal();
    $("leave-no").focus();
  }
}
