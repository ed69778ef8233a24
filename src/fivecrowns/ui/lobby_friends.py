"""The friends keys of the ``join --keys`` lobby (issue 28, item 4): your friends with where
each is, asking, answering, removing, blocking and unblocking, and private messages.

F asks the server for the list (``friends``); when it comes, its sentence is said and a list
opens: each friend, each request, each block, then asking and blocking by name. Choosing one
opens what can be done with it. Shift+F asks a player by name, M writes to a friend (a list
of friends, then the line), Shift+B blocks a player by name. The server words every answer
and every piece of news (name first); they come back as the link's notices, which the lobby
and the game say as they arrive, and the inbox kept while you were away is said once, after
the hello that follows your return (docs/protocol.md "Friends")."""

from __future__ import annotations

import functools
from typing import Any

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.server.friends import FRIEND_ITEM, PRESENCE_WORDS
from fivecrowns.ui.commands import MenuItem
from fivecrowns.ui.lobby_ratings import PlayerTyping

__all__ = ["FriendKeys"]

GUEST = N_(
    "Friends are for players logged in to an account. To log in, start join again with "
    "--log-in, or --sign-up to make an account."
)
ASKS_HINT = N_("Friend requests wait for you: press {friends} to accept or decline.")
LIST_TITLE = N_("Friends and requests: choose one")
# TRANSLATORS: a friend request in the friends list, the asker's name first
ASKING_ITEM = N_("{name} asks to be your friend")
ASKED_ITEM = N_("{name}, your request waits for their answer")
BLOCKED_ITEM = N_("{name}, blocked by you")
ASK_ITEM = N_("Ask a player to be your friend: {keys}")
BLOCK_ITEM = N_("Block a player: {keys}")
# TRANSLATORS: the title of what can be done with one friend (or request, or block)
CHOICES_TITLE = N_("{name}: what to do")
MESSAGE_CHOICE = N_("Send a private message")
REMOVE_CHOICE = N_("Remove from your friends")
BLOCK_CHOICE = N_("Block")
ACCEPT_CHOICE = N_("Accept")
DECLINE_CHOICE = N_("Decline")
WITHDRAW_CHOICE = N_("Take back your request")
UNBLOCK_CHOICE = N_("Unblock")
MESSAGE_TITLE = N_("A private message to which friend")
NO_FRIENDS_TO_MESSAGE = N_(
    "No friends yet, so nobody to message. Press {ask} to ask a player to be your friend."
)
TYPE_ASK = N_("Ask to be your friend: type the player's name, then Enter, or Escape to cancel.")
ASK_PROMPT = N_("Ask to be your friend: {text}")
TYPE_BLOCK = N_("Block: type the player's name, then Enter, or Escape to cancel.")
BLOCK_PROMPT = N_("Block: {text}")
TYPE_MESSAGE = N_("Private message to {name}: type it, then Enter to send or Escape to cancel.")
MESSAGE_PROMPT = N_("Private message to {name}: {text}")
NAME_LONGEST = 24  # a name's longest (the protocol's)
MESSAGE_LONGEST = 300  # a private message's longest (the protocol's)


class FriendKeys:
    """A mixin of :class:`fivecrowns.ui.lobby.Lobby`: the ``_do_`` methods of its friends keys
    and the news that opens their lists.

    why a mixin in its own module: the lobby's keys are methods of the lobby, and the friends
    keys stay apart from its other keys, as the ratings keys do."""

    #: What the next ``friends`` answer opens: "list" (F), "message" (M), or None.
    friends_wanted: str | None = None
    friends_told = 0  # ``friends`` answers taken so far
    asks_told = 0  # friend requests heard so far (each gets the hint once)

    def _friendly(self) -> Any:
        lobby: Any = self
        if lobby.link.account is None:
            raise FiveCrownsError(_(GUEST))
        return lobby

    # --- keys ------------------------------------------------------------------------

    def _do_friends(self, key: str) -> None:
        lobby = self._friendly()
        self.friends_wanted = "list"
        lobby.link.send({"type": "friends"})

    def _do_friend_ask(self, key: str) -> None:
        self._type_name(ASK_PROMPT, TYPE_ASK, "friend_ask")

    def _do_block_player(self, key: str) -> None:
        self._type_name(BLOCK_PROMPT, TYPE_BLOCK, "block")

    def _do_private_message(self, key: str) -> None:
        lobby = self._friendly()
        self.friends_wanted = "message"  # why ask: presence and friends change while away
        lobby.link.send({"type": "friends"})

    # --- what the server's answers open ---------------------------------------------------

    def friends_news(self) -> None:
        """Called by the lobby with the news: a friend request's hint, and the list a key
        asked for once the server's answer is here."""
        lobby: Any = self
        link = lobby.link
        if link.asks_heard != self.asks_told:
            self.asks_told = link.asks_heard
            lobby.say(_(ASKS_HINT).format(friends=lobby.keymap.display_keys("friends")))
        if link.friends_heard == self.friends_told:
            return
        self.friends_told = link.friends_heard
        wanted, self.friends_wanted = self.friends_wanted, None
        frame = link.friends
        if wanted == "list" and frame is not None:
            lobby.say(str(frame["text"]))
            self._open_friends(frame)
        elif wanted == "message" and frame is not None:
            self._open_message_list(frame)

    def _open_friends(self, frame: dict[str, Any]) -> None:
        lobby: Any = self
        keys = lobby.keymap.display_keys
        items: list[MenuItem] = []
        for info in frame.get("friends", ()):
            name = str(info["name"])
            words = _(PRESENCE_WORDS.get(str(info["presence"]), PRESENCE_WORDS["offline"]))
            choices = [(MESSAGE_CHOICE, "message"), (REMOVE_CHOICE, "friend_remove")]
            choices.append((BLOCK_CHOICE, "block"))
            label = _(FRIEND_ITEM).format(name=name, presence=words)
            items.append((label, functools.partial(self._choices, name, choices)))
        for names, template, choices in (
            (
                frame.get("asking", ()),
                ASKING_ITEM,
                [(ACCEPT_CHOICE, "accept"), (DECLINE_CHOICE, "decline"), (BLOCK_CHOICE, "block")],
            ),
            (frame.get("asked", ()), ASKED_ITEM, [(WITHDRAW_CHOICE, "friend_remove")]),
            (frame.get("blocked", ()), BLOCKED_ITEM, [(UNBLOCK_CHOICE, "unblock")]),
        ):
            for name in names:
                label = _(template).format(name=name)
                items.append((label, functools.partial(self._choices, str(name), choices)))
        ask, block = keys("friend_ask"), keys("block_player")
        items.append((_(ASK_ITEM).format(keys=ask), functools.partial(self._do_friend_ask, "")))
        block_one = functools.partial(self._do_block_player, "")
        items.append((_(BLOCK_ITEM).format(keys=block), block_one))
        lobby._open_list("menu", _(LIST_TITLE), items)

    def _choices(self, name: str, choices: list[tuple[str, str]]) -> None:
        lobby: Any = self
        items: list[MenuItem] = [
            (_(label), functools.partial(self._do_choice, name, what)) for label, what in choices
        ]
        lobby._open_list("menu", _(CHOICES_TITLE).format(name=name), items)

    def _do_choice(self, name: str, what: str) -> None:
        lobby: Any = self
        if what == "message":
            self._write_to(name)
            return
        message: dict[str, Any] = {"type": what, "name": name}
        if what in ("accept", "decline"):
            message = {"type": "friend_answer", "name": name, "accept": what == "accept"}
        lobby.link.send(message)

    def _open_message_list(self, frame: dict[str, Any]) -> None:
        lobby: Any = self
        friends = [str(info["name"]) for info in frame.get("friends", ())]
        if not friends:
            ask = lobby.keymap.display_keys("friend_ask")
            lobby.refuse(_(NO_FRIENDS_TO_MESSAGE).format(ask=ask))
            return
        items: list[MenuItem] = []
        for info in frame.get("friends", ()):
            words = _(PRESENCE_WORDS.get(str(info["presence"]), PRESENCE_WORDS["offline"]))
            label = _(FRIEND_ITEM).format(name=info["name"], presence=words)
            items.append((label, functools.partial(self._write_to, str(info["name"]))))
        lobby._open_list("menu", _(MESSAGE_TITLE), items)

    # --- typed lines ----------------------------------------------------------------------

    def _type_name(self, prompt: str, invitation: str, kind: str) -> None:
        lobby = self._friendly()

        def send(name: str) -> None:
            lobby.link.send({"type": kind, "name": name})

        lobby.list_state = None
        lobby.typing = PlayerTyping(prompt, "", NAME_LONGEST, send)
        lobby.answer(_(invitation))

    def _write_to(self, name: str) -> None:
        lobby: Any = self

        def send(text: str) -> None:
            lobby.link.send({"type": "tell", "name": name, "text": text})

        lobby.list_state = None
        # why the name in the prompt now: the typing line's template takes only {text}
        prompt = _(MESSAGE_PROMPT).replace("{name}", name.replace("{", "{{").replace("}", "}}"))
        lobby.typing = PlayerTyping(prompt, "", MESSAGE_LONGEST, send)
        lobby.answer(_(TYPE_MESSAGE).format(name=name))
