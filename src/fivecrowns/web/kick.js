// The creator's Remove and Remove-and-ban buttons for the people seated at their table before
// the start (issue 28 item 4: the kick message of docs/protocol.md "Friends"), in a group of
// its own after the computer players' controls. why made here: the page's other helpers change
// index.html too; this group is this module's alone.
import { _, N_, fill } from "./i18n.js";
import { drawKeyed } from "./keyed.js";

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
 * the start; hide the group otherwise. The list is kept in place (keyed.js): focus stays on
 * its button, or goes to the next one left before its item goes. */
export function renderKick(app, snap) {
  const box = group();
  $("kick-heading").textContent = _(S.heading);
  const others = snap.seats
    .map((seat, index) => ({ seat, index }))
    .filter(({ seat, index }) => seat.kind === "human" && index !== app.seat);
  const hidden = !app.creator || snap.started || others.length === 0;
  const list = $("kick-seats");
  const wanted = [];
  if (!hidden) {
    for (const { seat, index } of others) {
      const labels = [
        [false, S.remove, S.removePlayer],
        [true, S.ban, S.banPlayer],
      ].map(([ban, label, aria]) => {
        const words = fill(_(aria), { name: seat.name, number: index + 1 });
        return [ban, _(label), words];
      });
      const build = () => {
        const item = document.createElement("li");
        item.append(seat.name);
        for (const [ban, text, aria] of labels) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = text;
          button.dataset.kick = `${index}-${ban}`;
          button.dataset.part = String(ban);
          button.setAttribute("aria-label", aria);
          button.addEventListener("click", () => app.send({ type: "kick", seat: index, ban }));
          item.append(" ", button);
        }
        return item;
      };
      wanted.push({ key: String(index), words: JSON.stringify([seat.name, labels]), build });
    }
  }
  // why in place, focus moved before an item goes (keyed.js): a removed focused button left
  // Orca in Firefox silent for the rest of the game; the group hidden: focus to Add first
  if (hidden && box.contains(document.activeElement)) $("add-bot").focus();
  box.hidden = hidden;
  drawKeyed(list, wanted, () => $("add-bot"));
}
