// The page's dialogs (the Keys list, F1; the Leave question), after the ARIA Authoring
// Practices' dialog pattern: focus moves into the dialog when it opens, Tab and Shift+Tab go
// round its buttons, Escape closes it, and focus goes back to the control that opened it;
// the page's own keys wait while it is open (app.js key()), and the page behind takes no
// clicks (style.css, body.dialog-open).
// Why not showModal() (nor aria-modal, which asks the same of a screen reader): a modal
// dialog takes the rest of the page out of the accessibility tree, and closing it puts the
// page back, so a screen reader (Orca in Chromium) heard every line of the message log added
// again and read old messages as new, and Orca in Firefox, its focus gone with the dialog,
// said nothing more. Focus moves back before the dialog closes, so it never falls to the
// page, and the dialog retires (focus.js): out of sight at once, closed a few seconds later,
// once the screen reader has followed the focus.

import { retire, retiring, show } from "./focus.js";

export class KeptDialog {
  /**
   * @param {HTMLDialogElement} dialog
   * @param {() => HTMLElement} fallback where focus goes when where it came from is gone
   * @param {(e: KeyboardEvent) => void} handled told of each key the dialog acted on
   */
  constructor(dialog, fallback, handled = () => {}) {
    this.dialog = dialog;
    this.fallback = fallback;
    this.handled = handled;
    this.cameFrom = null;
    dialog.addEventListener("keydown", (e) => this.key(e));
  }

  /** Open for the player: shown, not retiring. */
  get open() {
    return this.dialog.open && !retiring(this.dialog);
  }

  show(first) {
    if (!this.open) {
      this.cameFrom = document.activeElement;
      show(this.dialog); // a dialog still retiring comes back as it is
      if (!this.dialog.open) this.dialog.show();
      document.body.classList.add("dialog-open");
    }
    first.focus();
  }

  /** Closed by the player: focus goes back where it came from (or to the fallback). */
  close() {
    if (!this.open) return;
    const back = this.cameFrom;
    const usable = back && back !== document.body && back.isConnected && !back.closest("[hidden]");
    (usable ? back : this.fallback()).focus();
    this.dismiss();
  }

  /** Closed after the page itself moved focus elsewhere (e.g. to the lobby, once you left). */
  dismiss() {
    if (!this.open) return;
    this.cameFrom = null;
    document.body.classList.remove("dialog-open");
    retire(this.dialog, (dialog) => dialog.close());
  }

  key(e) {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      this.close();
      this.handled(e);
      return;
    }
    if (e.key !== "Tab") return;
    // why: a non-modal dialog lets Tab leave it; its few stops go round instead
    const stops = [...this.dialog.querySelectorAll("button, input, select, [tabindex='0']")];
    if (!stops.length) return;
    const at = stops.indexOf(document.activeElement);
    const next = (at + (e.shiftKey ? stops.length - 1 : 1)) % stops.length;
    e.preventDefault();
    stops[at < 0 ? 0 : next].focus();
  }
}
