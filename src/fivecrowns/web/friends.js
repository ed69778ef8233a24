// Friends in the web page (issue 28 item 4; docs/protocol.md "Friends"): a Friends section of
// the lobby for a page logged in to an account. A list of your friends with where each is,
// the requests both ways and your blocks, each with its buttons (message, remove, block;
// accept, decline; take back; unblock); a form to ask or block a player by name; a form for a
// private message. Part of the page, not a dialog: a modal dialog silences Orca's reading of
// the live regions, and news must be heard while the player is here.
// The server words every piece of news and every answer; they are announced through the
// page's own log and answer regions (app.log, app.answer), each once.
import { _, N_, fill } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The section's words in index.html, translated with the rest of the page (page.js). */
export const FRIENDS_PAGE = [
  ["#friends-heading", null, N_("Friends")],
  ["#no-friends", null, N_("No friends yet. Ask a player with an account to be your friend.")],
  ["label[for=friend-name]", null, N_("Player's name")],
  ["#friend-ask", null, N_("Ask to be friends")],
  ["#friend-block", null, N_("Block")],
  ["label[for=message-to]", null, N_("Private message to")],
  ["label[for=message-text]", null, N_("Message")],
  ["#message-form button[type=submit]", null, N_("Send")],
];

// why the server's sentences (the same msgids as net/server/friends.py and ui/lobby_friends.py):
// one translation for the terminal and the page
const PRESENCE = {
  playing: N_("playing at a table"),
  watching: N_("watching a table"),
  lobby: N_("in the lobby"),
  away: N_("away, their connection dropped"),
  offline: N_("offline"),
};
const S = {
  friend: N_("{name}, {presence}"),
  asking: N_("{name} asks to be your friend"),
  asked: N_("{name}, your request waits for their answer"),
  blocked: N_("{name}, blocked by you"),
  message: N_("Message"),
  messageFriend: N_("Message {name}"),
  remove: N_("Remove"),
  removeFriend: N_("Remove {name} from your friends"),
  block: N_("Block"),
  blockPlayer: N_("Block {name}"),
  accept: N_("Accept"),
  acceptFriend: N_("Accept {name}'s friend request"),
  decline: N_("Decline"),
  declineFriend: N_("Decline {name}'s friend request"),
  withdraw: N_("Take back"),
  withdrawFriend: N_("Take back your friend request to {name}"),
  unblock: N_("Unblock"),
  unblockPlayer: N_("Unblock {name}"),
  needsName: N_("Type a player's name first."),
  needsFriend: N_("Nobody to write to yet: ask a player to be your friend first."),
  needsText: N_("Type a message first."),
};
// the frames of news this module announces in the log
const NEWS = new Set(["friend", "presence", "private_message", "inbox"]);
const REFRESH_MS = 250; // why a pause: a burst of news (friends coming at once) asks once

let refresh = null;

/** The server's friends messages: news announced and the list kept current; false for any
 * other message (the page goes on with it: a welcome, a log-out, an error). */
export function showFriends(app, data) {
  switch (data.type) {
    case "welcome": {
      const member = app.account.active();
      $("friends").hidden = !member;
      if (member) app.send({ type: "friends" });
      return false;
    }
    case "logged_out":
      $("friends").hidden = true;
      return false;
    case "friends":
      render(app, data);
      return true;
    case "answer":
      if (data.what === "tell") $("message-text").value = ""; // sent: the line is done
      return false;
    case "inbox":
      app.log(data.text);
      for (const message of data.messages) app.log(message.said);
      return true;
    case "private_message":
      app.log(data.message.said);
      return true;
    default:
      if (!NEWS.has(data.type)) return false;
      app.log(data.text);
      clearTimeout(refresh);
      refresh = setTimeout(() => app.send({ type: "friends" }), REFRESH_MS);
      return true;
  }
}

function button(label, aria, name, key, run) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = _(label);
  made.setAttribute("aria-label", fill(_(aria), { name }));
  made.dataset.friend = `${name}\u0000${key}`;
  made.dataset.name = name;
  made.addEventListener("click", run);
  return made;
}

/** The list, made again from a friends frame; focus stays on the same button, or the same
 * name's first one, or the list's first, or the name field. */
function render(app, data) {
  const list = $("friends-list");
  const active = document.activeElement;
  const focused = list.contains(active) ? active.dataset : null;
  const send = (message) => () => app.send(message);
  const rows = [];
  for (const friend of data.friends) {
    const name = friend.name;
    const presence = _(PRESENCE[friend.presence] ?? PRESENCE.offline);
    rows.push([
      fill(_(S.friend), { name, presence }),
      button(S.message, S.messageFriend, name, "message", () => writeTo(name)),
      button(S.remove, S.removeFriend, name, "remove", send({ type: "friend_remove", name })),
      button(S.block, S.blockPlayer, name, "block", send({ type: "block", name })),
    ]);
  }
  for (const name of data.asking) {
    rows.push([
      fill(_(S.asking), { name }),
      button(S.accept, S.acceptFriend, name, "accept", send({ type: "friend_answer", name, accept: true })),
      button(S.decline, S.declineFriend, name, "decline", send({ type: "friend_answer", name, accept: false })),
      button(S.block, S.blockPlayer, name, "block", send({ type: "block", name })),
    ]);
  }
  for (const name of data.asked) {
    rows.push([
      fill(_(S.asked), { name }),
      button(S.withdraw, S.withdrawFriend, name, "withdraw", send({ type: "friend_remove", name })),
    ]);
  }
  for (const name of data.blocked) {
    rows.push([
      fill(_(S.blocked), { name }),
      button(S.unblock, S.unblockPlayer, name, "unblock", send({ type: "unblock", name })),
    ]);
  }
  list.replaceChildren(
    ...rows.map(([text, ...buttons]) => {
      const item = document.createElement("li");
      item.append(text);
      for (const made of buttons) item.append(" ", made);
      return item;
    }),
  );
  $("no-friends").hidden = data.friends.length > 0;
  fillRecipients(data.friends.map((friend) => friend.name));
  if (!focused) return;
  const buttons = [...list.querySelectorAll("button")];
  const again =
    buttons.find((made) => made.dataset.friend === focused.friend) ??
    buttons.find((made) => made.dataset.name === focused.name) ??
    buttons[0];
  (again ?? $("friend-name")).focus();
}

function fillRecipients(names) {
  const select = $("message-to");
  const chosen = select.value;
  select.replaceChildren(
    ...names.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name;
      return option;
    }),
  );
  if (names.includes(chosen)) select.value = chosen;
}

/** A friend's Message button: the message form, addressed to them, the text field focused. */
function writeTo(name) {
  $("message-to").value = name;
  $("message-text").focus();
}

export function bindFriends(app) {
  const typed = () => $("friend-name").value.trim().split(/\s+/).join(" ");
  const byName = (type) => {
    const name = typed();
    if (!name) {
      app.alert(_(S.needsName));
      $("friend-name").focus();
      return;
    }
    app.send({ type, name });
  };
  $("friend-form").addEventListener("submit", (e) => {
    e.preventDefault();
    byName("friend_ask");
  });
  $("friend-block").addEventListener("click", () => byName("block"));
  $("message-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("message-to").value;
    const text = $("message-text").value.trim();
    if (!name) {
      app.alert(_(S.needsFriend));
      $("friend-name").focus();
    } else if (!text) {
      app.alert(_(S.needsText));
      $("message-text").focus();
    } else {
      app.send({ type: "tell", name, text });
    }
  });
}
