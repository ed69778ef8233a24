// The creator's Remove and Remove-and-ban buttons for the people seated at their table before
// the start (issue 28 item 4: the kick message of docs/protocol.md "Friends"), in a group of
// its own after the computer players' controls. why made here: the page's other helpers change
// index.html too; this group is this module's alone.
import { _, N_, fill } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const S = {
  heading: N_("Players at your table"),
  remove: N_("Remove"),
  ban: N_("Remove and ban"),
  removePlayer: N_("Remove {name} from seat {number}"),
  banPlayer: N_("Remove {name} from seat {number}, and let them not sit here again"),
};

/** The group, made once, after the computer players' controls. */
function group() {
  let box = $("kick-controls");
  if (box) return box;
  box = document.createElement("div");
  box.id = "kick-controls";
  box.className = "panel";
  box.setAttribute("role", "group");
  box.setAttribute("aria-labelledby", "kick-heading");
  const heading = document.createElement("h3");
  heading.id = "kick-heading";
  const list = document.createElement("ul");
  list.id = "kick-seats";
  box.append(heading, list);
  $("bot-controls").after(box);
  return box;
}

/** Show the creator a Remove and a Remove-and-ban button for each other person seated, before
 * the start; hide the group otherwise. Focus stays on the button of the same seat when the list
 * is made again, or goes to the first one left. */
export function renderKick(app, snap) {
  const box = group();
  $("kick-heading").textContent = _(S.heading);
  const others = snap.seats
    .map((seat, index) => ({ seat, index }))
    .filter(({ seat, index }) => seat.kind === "human" && index !== app.seat);
  box.hidden = !app.creator || snap.started || others.length === 0;
  const list = $("kick-seats");
  const active = document.activeElement;
  const focused = list.contains(active) ? active.dataset.kick : null;
  list.replaceChildren();
  if (box.hidden) {
    if (focused !== null) $("add-bot").focus();
    return;
  }
  for (const { seat, index } of others) {
    const item = document.createElement("li");
    item.append(seat.name);
    for (const [ban, label, aria] of [
      [false, S.remove, S.removePlayer],
      [true, S.ban, S.banPlayer],
    ]) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = _(label);
      button.dataset.kick = `${index}-${ban}`;
      button.setAttribute("aria-label", fill(_(aria), { name: seat.name, number: index + 1 }));
      button.addEventListener("click", () => app.send({ type: "kick", seat: index, ban }));
      item.append(" ", button);
    }
    list.append(item);
  }
  if (focused === null) return;
  const again = list.querySelector(`button[data-kick="${focused}"]`) ?? list.querySelector("button");
  (again ?? $("add-bot")).focus();
}
