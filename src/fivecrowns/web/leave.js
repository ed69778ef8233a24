// Leaving a table, confirmed first (as the ARIA Authoring Practices' alert dialog, with the
// role of a plain dialog: index.html says why): the question says what becomes of your seat, Stay has the focus (the choice that changes nothing),
// Escape stays, and focus goes back to the control that opened it. A kept dialog, not a
// modal one (dialog.js says why: Orca fell silent after a modal dialog closed).
import { _, N_ } from "./i18n.js";
import { KeptDialog } from "./dialog.js";

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
    this.dialog = new KeptDialog($("leave-dialog"), () => app.viewTarget(), (e) => app.marked(e));
    // why the dialog stays open after Leave: focus stays where it is until the server says
    // you left and the lobby takes it (app.js toLobby, then dismiss), never on a page going
    $("leave-yes").addEventListener("click", () => this.app.send({ type: "leave" }));
    $("leave-no").addEventListener("click", () => this.dialog.close());
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
    if (this.dialog.open) return;
    $("leave-text").textContent = this.question();
    $("leave-yes").textContent = _(this.app.seat === null ? L.stopWatching : L.leave);
    this.dialog.show($("leave-no"));
  }

  /** The table is gone (you left it, or it closed): the lobby has the focus already. */
  dismiss() {
    this.dialog.dismiss();
  }
}
