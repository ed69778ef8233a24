"""Friends and who is online at the game server: friend requests, presence told to friends only,
private messages with an inbox for an account that was away, blocks, and a table's creator
removing (and banning) a player before the start (docs/protocol.md "Friends", docs/network.md).

- Friends are accounts: a guest has no lasting name to be a friend of (a guest who asks is told
  to log in). Everything is kept by account id in a
  :class:`~fivecrowns.storage.friends.FriendStore`; names are looked up when said.
- Presence is one word (playing, watching, in the lobby, away, offline), worked out from the
  lobby's records and sent to online friends when it changes: never a table, seat or card.
- A blocked player is told no more than they need: a friend request to one who blocks them is
  answered as if it were sent, a private message needs friends (and a block ends the
  friendship), and a seat at the blocker's table is refused with the sentence a ban gets.
- A private message to a friend who is not connected waits in their inbox (at most
  ``inbox_most``), told once when they next say hello. Friend requests and private messages
  spend the connection's chat allowance (a flood of either is refused like chat).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Container

from fivecrowns.i18n import N_, join_list, ngettext, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import (
    Answer,
    Block,
    Error,
    FriendAnswer,
    FriendAsk,
    FriendInfo,
    FriendNews,
    FriendRemove,
    Friends,
    FriendsList,
    Inbox,
    Kick,
    Left,
    Presence,
    PresenceNews,
    PrivateLine,
    PrivateMessageFrame,
    Tell,
    Unblock,
)
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.lobby import Lobby, room_of
from fivecrowns.net.server.rooms import PlayerRecord, Room, detach
from fivecrowns.net.server.store import Store
from fivecrowns.storage.accounts import Account, find_account
from fivecrowns.storage.friends import FriendStore, PrivateMessage
from fivecrowns.table import SeatKind, TableError
from fivecrowns.words.text import clean_chat

__all__ = ["FriendMessage", "FriendRules", "FriendsHere", "presence_of"]

log = logging.getLogger(__name__)

FriendMessage = FriendsList | FriendAsk | FriendAnswer | FriendRemove | Block | Unblock | Tell

NEED_ACCOUNT = N_("Friends are for players logged in to an account; log in first.")
NO_ACCOUNT = N_("No account here is named {name}.")
THAT_IS_YOU = N_("That is your own name.")
TOO_FAST = N_("You are doing that too fast; wait a moment.")
ASKED = N_("Asked {name} to be your friend; you hear when they answer.")
ASKS = N_("{name} asks to be your friend.")
ASKING_NOW = N_("Friend requests waiting, from {names}.")
ALREADY_FRIENDS = N_("{name} is your friend already.")
ALREADY_ASKED = N_("You asked {name} already; wait for their answer.")
YOU_BLOCK = N_("You block {name}; unblock them first.")
TOO_MANY_ASKS = N_(
    "You have {count} friend requests waiting for answers, as many as one may; wait for "
    "answers, or take some back."
)
FRIENDS_FULL = N_("You have {count} friends, as many as one may; remove one first.")
THEIR_FRIENDS_FULL = N_("{name} has as many friends as one may have.")
NOT_ASKED = N_("{name} has not asked to be your friend.")
NOW_FRIENDS = N_("{name} is your friend now.")
DECLINED = N_("Declined: {name} is not your friend.")
THEY_DECLINED = N_("{name} declined your friend request.")
NOT_FRIEND = N_("{name} is not your friend.")
REMOVED = N_("{name} is no longer your friend.")
THEY_REMOVED = N_("{name} removed you from their friends.")
WITHDRAWN = N_("Your friend request to {name} is taken back.")
BLOCKED = N_(
    "{name} is blocked: they cannot message you, ask to be your friend, or sit at your table."
)
NOT_BLOCKED = N_("You do not block {name}.")
UNBLOCKED = N_("{name} is unblocked.")
ONLY_FRIENDS = N_("Only friends send private messages, and {name} is not your friend.")
EMPTY = N_("There is nothing to send: the message is empty.")
SENT = N_("Sent to {name}.")
KEPT = N_("{name} is not connected; they hear it when they come back.")
INBOX_FULL = N_("{name} has as many messages waiting as one may; try again after they come back.")
# TRANSLATORS: a private message as it is spoken: who sent it first, then what they wrote
SAID = N_("{name}, privately: {text}")
NO_FRIENDS = N_("No friends yet. Ask a player with an account to be your friend.")
# TRANSLATORS: one friend in the list of friends, as in "Ana, in the lobby"
FRIEND_ITEM = N_("{name}, {presence}")
FRIENDS_LINE = N_("Friends: {friends}.")
ASKING_LINE = N_("Asking you: {names}.")
ASKED_LINE = N_("You asked: {names}.")
BLOCKED_LINE = N_("You block: {names}.")
#: Presence in the middle of a list of friends ("Ana, in the lobby").
PRESENCE_WORDS: dict[str, str] = {
    "playing": N_("playing at a table"),
    "watching": N_("watching a table"),
    "lobby": N_("in the lobby"),
    "away": N_("away, their connection dropped"),
    "offline": N_("offline"),
}
#: Presence as news, said when it changes (the name first).
PRESENCE_NEWS: dict[str, str] = {
    "playing": N_("{name} is playing at a table."),
    "watching": N_("{name} is watching a table."),
    "lobby": N_("{name} is in the lobby."),
    "away": N_("{name} is away; their connection dropped."),
    "offline": N_("{name} is offline."),
}
# kicking, by the creator of a table, before the start
NOT_CREATOR = N_("Only the player who made the table can do that.")
KICK_STARTED = N_("The game has started; players can be removed only before the start.")
KICK_NOBODY = N_("Seat {number} has no person in it to remove.")
KICK_SELF = N_("That is your own seat; to go, leave the table.")
KICKED = N_("{name} is removed from the table.")
KICKED_BANNED = N_("{name} is removed from the table, and may not sit here again.")
YOU_WERE_KICKED = N_("{name}, who made the table, removed you from it.")
NOT_WELCOME = N_("You cannot sit at this table; pick another.")


class FriendRules:
    """How much one account may keep waiting (why bounds: each is a row that lasts)."""

    def __init__(self, inbox_most: int = 50, friends_most: int = 200, asks_most: int = 50) -> None:
        self.inbox_most = inbox_most  # private messages waiting for one account
        self.friends_most = friends_most  # friends of one account
        self.asks_most = asks_most  # requests one account has waiting, either way


def presence_of(player: PlayerRecord, open_tables: Container[str] = ()) -> Presence:
    """Where ``player`` is, in one word, from the lobby's record of them; ``away`` only while
    the table of their seat is among ``open_tables`` (a closed one leaves them offline)."""
    conn = player.conn
    if conn is None or conn.closed:
        return "away" if player.table_id in open_tables else "offline"
    if conn.room is None:
        return "lobby"
    return "watching" if conn.seat is None else "playing"


class FriendsHere:
    """The server's friends: each handler takes one client message (app.py hands them on);
    :meth:`welcomed` and :meth:`moved` keep presence told."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        rules: FriendRules | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.accounts = store.accounts
        self.friends: FriendStore = store.friends
        self.lobby = lobby
        self.rules = rules or FriendRules()
        self.clock = clock
        # why: the presence last told of each account that said hello (only connected or
        # seated accounts are here, so it is bounded by them)
        self._told: dict[str, Presence] = {}
        lobby.welcomed = self.welcomed
        lobby.may_sit = self.may_sit

    # --- messages ---------------------------------------------------------------------------

    def handle(self, conn: Connection, message: FriendMessage) -> None:
        me = self._me(conn)
        if isinstance(message, FriendsList):
            conn.send(self._list(me))
            return
        other = self._named(message.name, me)
        if isinstance(message, FriendAsk):
            self._ask(conn, me, other)
        elif isinstance(message, FriendAnswer):
            self._answer(conn, me, other, message.accept)
        elif isinstance(message, FriendRemove):
            self._remove(conn, me, other)
        elif isinstance(message, Block):
            self.friends.block(me.id, other.id, self.clock())
            conn.send(FriendNews("blocked", other.name, _(BLOCKED).format(name=other.name)))
            log.info("An account blocked another")
        elif isinstance(message, Unblock):
            if not self.friends.blocks(me.id, other.id):
                raise TableError("not_blocked", _(NOT_BLOCKED).format(name=other.name))
            self.friends.unblock(me.id, other.id)
            conn.send(FriendNews("unblocked", other.name, _(UNBLOCKED).format(name=other.name)))
        else:
            self._tell(conn, me, other, message.text)

    def _me(self, conn: Connection) -> Account:
        player = conn.player
        account = None if player is None else self.accounts.account(player.id)
        if account is None or account.status != "active":
            raise TableError("not_logged_in", _(NEED_ACCOUNT))
        return account

    def _named(self, name: str, me: Account) -> Account:
        account = find_account(self.accounts, name)
        if account is None or account.status != "active":
            shown = " ".join(name.split())
            raise TableError("no_account", _(NO_ACCOUNT).format(name=shown))
        if account.id == me.id:
            raise TableError("yourself", _(THAT_IS_YOU))
        return account

    def _list(self, me: Account) -> Friends:
        infos: list[FriendInfo] = []
        for friend_id in self.friends.friends(me.id):
            account = self._alive(friend_id)
            if account is not None:
                infos.append(FriendInfo(account.name, self._presence(account.id)))
        asking = self._names(self.friends.asking(me.id))
        asked = self._names(self.friends.asks_of(me.id))
        blocked = self._names(self.friends.blocked_by(me.id))
        if infos:
            items = [
                _(FRIEND_ITEM).format(name=info.name, presence=_(PRESENCE_WORDS[info.presence]))
                for info in infos
            ]
            lines = [_(FRIENDS_LINE).format(friends="; ".join(items))]
        else:
            lines = [_(NO_FRIENDS)]
        for names, line in ((asking, ASKING_LINE), (asked, ASKED_LINE), (blocked, BLOCKED_LINE)):
            if names:
                lines.append(_(line).format(names=join_list(names)))
        return Friends(infos, asking, asked, blocked, " ".join(lines))

    def _ask(self, conn: Connection, me: Account, other: Account) -> None:
        store = self.friends
        if store.are_friends(me.id, other.id):
            raise TableError("already_friends", _(ALREADY_FRIENDS).format(name=other.name))
        if store.blocks(me.id, other.id):
            raise TableError("you_block", _(YOU_BLOCK).format(name=other.name))
        if store.asked(other.id, me.id):  # why: both asked; that is a yes from each
            self._answer(conn, me, other, accept=True)
            return
        if store.asked(me.id, other.id):
            raise TableError("already_asked", _(ALREADY_ASKED).format(name=other.name))
        most = self.rules.asks_most
        if len(store.asks_of(me.id)) >= most:
            raise TableError("too_many_asks", _(TOO_MANY_ASKS).format(count=most))
        if len(store.friends(me.id)) >= self.rules.friends_most:
            text = _(FRIENDS_FULL).format(count=self.rules.friends_most)
            raise TableError("too_many_friends", text)
        if not conn.chat.take():
            raise TableError("too_fast", _(TOO_FAST))
        # why the same answer when they block you, or have too many requests waiting: the
        # asker is told no more than that it was asked (it stays unanswered)
        if not store.blocks(other.id, me.id) and len(store.asking(other.id)) < most:
            store.ask(me.id, other.id, self.clock())
            self._tell_account(other.id, lambda: FriendNews("asks", me.name, _(ASKS)))
        conn.send(FriendNews("asked", other.name, _(ASKED).format(name=other.name)))

    def _answer(self, conn: Connection, me: Account, other: Account, accept: bool) -> None:
        store = self.friends
        if not store.asked(other.id, me.id):
            raise TableError("not_asked", _(NOT_ASKED).format(name=other.name))
        if not accept:
            store.drop_request(other.id, me.id)
            conn.send(FriendNews("declined", other.name, _(DECLINED).format(name=other.name)))
            self._tell_account(other.id, lambda: FriendNews("declined", me.name, _(THEY_DECLINED)))
            return
        most = self.rules.friends_most
        if len(store.friends(me.id)) >= most:
            raise TableError("too_many_friends", _(FRIENDS_FULL).format(count=most))
        if len(store.friends(other.id)) >= most:
            text = _(THEIR_FRIENDS_FULL).format(name=other.name)
            raise TableError("too_many_friends", text)
        store.befriend(me.id, other.id, self.clock())
        conn.send(FriendNews("accepted", other.name, _(NOW_FRIENDS).format(name=other.name)))
        self._tell_account(other.id, lambda: FriendNews("accepted", me.name, _(NOW_FRIENDS)))
        # why: each now sees where the other is, at once
        self._send_presence(conn, other)
        mine = self.lobby.players.get(me.id)
        theirs = self.lobby.players.get(other.id)
        if mine is not None and theirs is not None and theirs.conn is not None:
            self._send_presence(theirs.conn, me)

    def _remove(self, conn: Connection, me: Account, other: Account) -> None:
        store = self.friends
        if store.are_friends(me.id, other.id):
            store.unfriend(me.id, other.id)
            conn.send(FriendNews("removed", other.name, _(REMOVED).format(name=other.name)))
            self._tell_account(other.id, lambda: FriendNews("removed", me.name, _(THEY_REMOVED)))
        elif store.asked(me.id, other.id):
            store.drop_request(me.id, other.id)
            conn.send(FriendNews("withdrawn", other.name, _(WITHDRAWN).format(name=other.name)))
        else:
            raise TableError("not_friends", _(NOT_FRIEND).format(name=other.name))

    def _tell(self, conn: Connection, me: Account, other: Account, text: str) -> None:
        if not self.friends.are_friends(me.id, other.id):
            raise TableError("not_friends", _(ONLY_FRIENDS).format(name=other.name))
        text = clean_chat(text)  # why: a message must not drive anyone's terminal
        if not text:
            raise TableError("empty_message", _(EMPTY))
        if not conn.chat.take():
            raise TableError("too_fast", _(TOO_FAST))
        record = self.lobby.players.get(other.id)
        now = self.clock()
        if record is not None and record.conn is not None and not record.conn.closed:
            with speaking(record.conn.language):
                said = _(SAID).format(name=me.name, text=text)
            record.conn.send(PrivateMessageFrame(PrivateLine(me.name, text, now, said)))
            conn.send(Answer("tell", _(SENT).format(name=other.name)))
            return
        if self.friends.inbox_size(other.id) >= self.rules.inbox_most:
            raise TableError("inbox_full", _(INBOX_FULL).format(name=other.name))
        self.friends.keep_message(PrivateMessage(me.id, other.id, text, now))
        conn.send(Answer("tell", _(KEPT).format(name=other.name)))

    # --- presence and the inbox -----------------------------------------------------------

    def welcomed(self, player: PlayerRecord) -> None:
        """``player`` said hello: an account hears its inbox (once), the friend requests
        waiting and where its friends are who are not offline; its friends hear where it is."""
        conn = player.conn
        account = self.accounts.account(player.id)
        if conn is None or account is None or account.status != "active":
            return
        kept = self.friends.take_inbox(account.id)
        if kept:
            lines = []
            for message in kept:
                sender = self._alive(message.sender)
                if sender is not None:
                    said = _(SAID).format(name=sender.name, text=message.text)
                    lines.append(PrivateLine(sender.name, message.text, message.sent, said))
            if lines:
                text = ngettext(
                    "{count} private message while you were away:",
                    "{count} private messages while you were away:",
                    len(lines),
                ).format(count=len(lines))
                conn.send(Inbox(lines, text))
        asking = self._names(self.friends.asking(account.id))
        if asking:
            conn.send(FriendNews("asks", "", _(ASKING_NOW).format(names=join_list(asking))))
        for friend_id in self.friends.friends(account.id):  # where the friends are now
            friend = self._alive(friend_id)
            if friend is not None and self._presence(friend_id) != "offline":
                self._send_presence(conn, friend)
        self._told.pop(player.id, None)  # why: told again, even if it looks the same
        self._tell_friends(player, self.presence(player))

    def presence(self, player: PlayerRecord) -> Presence:
        """Where ``player`` is, in one word (:func:`presence_of`; the front of ``serve
        --workers`` asks its workers' word instead)."""
        return presence_of(player, self.lobby.rooms)

    def moved(self, player: PlayerRecord | None) -> None:
        """``player`` may be somewhere else now: tell their online friends if so (a dict
        lookup for guests and for anyone whose presence did not change)."""
        if player is None or player.id not in self._told:
            return
        now = self.presence(player)
        if now != self._told[player.id]:
            self._tell_friends(player, now)

    def _tell_friends(self, player: PlayerRecord, now: Presence) -> None:
        if now == "offline":
            self._told.pop(player.id, None)
        else:
            self._told[player.id] = now
        for friend_id in self.friends.friends(player.id):
            friend = self.lobby.players.get(friend_id)
            if friend is not None and friend.conn is not None and not friend.conn.closed:
                with speaking(friend.conn.language):
                    text = _(PRESENCE_NEWS[now]).format(name=player.name)
                friend.conn.send(PresenceNews(player.name, now, text))

    def gone(self, player: PlayerRecord | None) -> None:
        """``player``'s connection ended: an account deleted meanwhile is forgotten here too;
        any other account's friends hear it is away or offline."""
        if player is None or player.id not in self._told:
            return
        account = self.accounts.account(player.id)
        if account is None or account.status == "deleted":
            self._told.pop(player.id, None)
            self.friends.forget(player.id)
            return
        self.moved(player)

    def _presence(self, account_id: str) -> Presence:
        record = self.lobby.players.get(account_id)
        return "offline" if record is None else self.presence(record)

    def _send_presence(self, conn: Connection, account: Account) -> None:
        state = self._presence(account.id)
        text = _(PRESENCE_NEWS[state]).format(name=account.name)
        conn.send(PresenceNews(account.name, state, text))

    def _tell_account(self, account_id: str, frame: Callable[[], FriendNews]) -> None:
        """Send ``frame()`` (worded in their language) to the account if it is connected;
        its ``text`` is formatted with the name of the one it is about."""
        record = self.lobby.players.get(account_id)
        if record is None or record.conn is None or record.conn.closed:
            return
        with speaking(record.conn.language):
            news = frame()
            news.text = news.text.format(name=news.name)
        record.conn.send(news)

    def _alive(self, account_id: str) -> Account | None:
        account = self.accounts.account(account_id)
        return account if account is not None and account.status != "deleted" else None

    def _names(self, ids: list[str]) -> list[str]:
        return [a.name for a in (self._alive(i) for i in ids) if a is not None]

    # --- a table's creator removes a player before the start -------------------------------

    def table_closed(self, room: Room) -> None:
        """The table is gone: its bans go too."""
        self.friends.forget_table(room.id)

    def may_sit(self, room: Room, player: PlayerRecord) -> None:
        """Refuse a seat to a player the table's creator banned, or blocks (one sentence for
        both: the blocked player learns nothing more)."""
        creator = room.table.creator_id
        if self.friends.banned(room.id, player.id) or self.friends.blocks(creator, player.id):
            raise TableError("not_welcome", _(NOT_WELCOME))

    def kick(self, conn: Connection, player: PlayerRecord, message: Kick) -> PlayerRecord | None:
        """The creator removes the person in ``message.seat`` (a guest too) before the start,
        and bans them from the table if asked; returns the removed player's record."""
        room = room_of(conn)
        table = room.table
        if conn.seat is None or table.creator_id != player.id:
            raise TableError("not_creator", _(NOT_CREATOR))
        if table.started:
            raise TableError("started", _(KICK_STARTED))
        seats = table.seats
        seat = message.seat
        if seat >= len(seats) or seats[seat].kind is not SeatKind.HUMAN:
            raise TableError("no_player", _(KICK_NOBODY).format(number=seat + 1))
        if seat == conn.seat:
            raise TableError("yourself", _(KICK_SELF))
        target_id = seats[seat].player_id
        name = seats[seat].name
        assert target_id is not None  # a human seat always has its player
        self.lobby.pacing.end_grace(room, seat)
        self.lobby.pacing.change(room, lambda: table.leave(target_id))
        if message.ban:
            self.friends.ban(room.id, target_id, self.clock())
        target = self.lobby.players.get(target_id)
        if target is not None:
            target.table_id = None
        for other in list(room.conns.get(seat, ())):
            detach(other)
            with speaking(other.language):
                other.send(Error("removed", _(YOU_WERE_KICKED).format(name=player.name)))
            other.send(Left())
        self.lobby.dirty = True
        said = KICKED_BANNED if message.ban else KICKED
        conn.send(Answer("kick", _(said).format(name=name)))
        return target
