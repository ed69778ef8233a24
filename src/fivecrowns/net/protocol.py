# One file (~820 lines): every message of the protocol, so docs/protocol.md has one source to match.
"""The network protocol: JSON messages over WebSocket, version 1 (see docs/protocol.md).

Every message is a JSON object whose ``type`` names it. Messages from a client
are decoded and validated by msgspec against the structs below (unknown fields,
wrong types, out-of-range numbers and over-long strings are refused);
:func:`decode_client` raises :class:`ProtocolError` with a sentence naming the
problem, and the server answers it with an ``error`` and changes nothing.

>>> decode_client(b'{"type": "hello", "v": 1, "name": "Ann"}')  # doctest: +ELLIPSIS
Hello(v=1, name='Ann', token=None, last_seq=None, language='en', ...)
>>> decode_client(b'{"type": "hello", "v": 1, "name": "A", "language": "fr"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fivecrowns.net.protocol.ProtocolError: ... protocol: Invalid enum value 'fr' - at `$.language`.
>>> decode_client(b'{"type": "chat", "text": 7}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fivecrowns.net.protocol.ProtocolError: ... protocol: Expected `str`, got `int` - at `$.text`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from fivecrowns.core.cards import parse_card
from fivecrowns.core.moves import Discard, DrawFromStock, GoOut, LayDown, Move, TakeDiscard
from fivecrowns.i18n import gettext as _
from fivecrowns.words.questions import QUESTIONS, Question

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "QUESTIONS",
    "AccountPending",
    "AccountTokens",
    "Act",
    "ActArgs",
    "AddBot",
    "Answer",
    "Ask",
    "Block",
    "Chat",
    "ClientMessage",
    "CreateTable",
    "DeleteAccount",
    "Error",
    "EventFrame",
    "FriendAnswer",
    "FriendAsk",
    "FriendInfo",
    "FriendNews",
    "FriendRemove",
    "Friends",
    "FriendsList",
    "GameRounds",
    "GameRow",
    "GamesPage",
    "Hello",
    "Inbox",
    "Join",
    "Kick",
    "Language",
    "LeaderboardPage",
    "LeaderboardRow",
    "Leave",
    "Left",
    "ListTables",
    "Listening",
    "LogIn",
    "LogOut",
    "LoggedOut",
    "MoveError",
    "MuteChat",
    "Presence",
    "PresenceNews",
    "PrivateLine",
    "PrivateMessageFrame",
    "ProtocolError",
    "Question",
    "RatingChanged",
    "ReadGame",
    "ReadGames",
    "ReadLeaderboard",
    "ReadRecord",
    "Record",
    "Refresh",
    "RemoveBot",
    "Resume",
    "Seated",
    "SetLanguage",
    "SignUp",
    "Snapshot",
    "SpectatorChat",
    "Start",
    "TableInfo",
    "Tables",
    "Tell",
    "Unblock",
    "Watch",
    "Welcome",
    "act_message",
    "decode_client",
    "encode",
    "move_of",
]

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096  # a client message; the longest real one (a lay-down) is under 400

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=24)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
TableId = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
CardToken = Annotated[str, msgspec.Meta(min_length=2, max_length=4)]  # "7h", "10st", "jk"
# why 2**53 - 1: the largest whole number a JavaScript client reads exactly; at a million
# events a second a table would need 285 years to reach it (1,000,000 was reached by a flood)
Seq = Annotated[int, msgspec.Meta(ge=0, le=2**53 - 1)]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=6)]
Level = Annotated[str, msgspec.Meta(min_length=1, max_length=16)]
#: The languages the server words sentences in (fivecrowns.i18n.LANGUAGES; a test checks).
Language = Literal["en", "es"]


class MoveError(Exception):
    """An ``act`` whose move cannot be read (no card, a bad card token). ``code`` is the
    error frame's code (``bad_args``, ``bad_card``); the message is spoken."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class ProtocolError(ValueError):
    """A client message that is not valid JSON or does not fit the protocol."""


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


# --- client to server ------------------------------------------------------------


class Hello(_Message, tag="hello"):
    """The first message: protocol version, the player's name, the token of an earlier
    connection to take one's seat back, and the language this connection's sentences are
    worded in (added to version 1; English when it is left out)."""

    v: int
    name: Name
    token: Token | None = None
    last_seq: Seq | None = None  # with a token: send every event after this one first
    language: Language = "en"
    # with a token: the table this connection watched, and its invite code if it is private
    # (why: a restarted server keeps players and seats, not who watched what)
    watch: TableId | None = None
    watch_code: Token | None = None
    # the access token of an ``account``: say hello as that account (its name, not ``name``)
    access: Token | None = None


class ListTables(_Message, tag="list_tables"):
    pass


class CreateTable(_Message, tag="create_table"):
    seats: Annotated[int, msgspec.Meta(ge=2, le=7)] = 4
    bots: Annotated[list[Level], msgspec.Meta(max_length=6)] = []
    private: bool = False
    guests: bool = True  # False: only players logged in to an account may sit here
    # ratings: its account holders' games move their ratings (why rated by default: guests
    # and computer players never move, so only players who keep an account are counted)
    rated: bool = True


class Join(_Message, tag="join"):
    """Join a listed table by its id, or a private one by its invite code."""

    table: TableId | None = None
    code: Token | None = None
    seat: SeatNumber | None = None


class Watch(_Message, tag="watch"):
    table: TableId | None = None
    code: Token | None = None


class Leave(_Message, tag="leave"):
    pass


class AddBot(_Message, tag="add_bot"):
    level: Level
    seat: SeatNumber | None = None


class RemoveBot(_Message, tag="remove_bot"):
    seat: SeatNumber


class Start(_Message, tag="start"):
    pass


class NewGame(_Message, tag="new_game"):
    """After game over, the creator's new game with the same seats."""


class ActArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    card: CardToken | None = None
    melds: (
        Annotated[
            list[Annotated[list[CardToken], msgspec.Meta(max_length=16)]],
            msgspec.Meta(max_length=8),
        ]
        | None
    ) = None


class Act(_Message, tag="act"):
    """A move against ``seq``, the newest event the client had; an older one is refused."""

    action: Literal["draw_stock", "take_discard", "discard", "go_out", "lay_down"]
    seq: Seq
    args: ActArgs = ActArgs()


class Chat(_Message, tag="chat"):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=300)]


class Resume(_Message, tag="resume"):
    """Send every event after ``last_seq``, then a snapshot."""

    last_seq: Seq


class SetLanguage(_Message, tag="language"):
    """Word this connection's sentences in ``language`` from now on (added to version 1:
    the player chose another language mid-game; a server that predates it refuses it as
    ``bad_message``, which changes nothing)."""

    language: Language


class SpectatorChat(_Message, tag="spectator_chat"):
    """The creator lets the table's spectators chat, or not (added to version 1; players
    always may chat)."""

    allowed: bool


class MuteChat(_Message, tag="mute_chat"):
    """Chat lines this player's connections get without words (``text`` empty, so nothing is
    spoken): of ``nobody``, of ``spectators``, or of ``everyone`` (added to version 1)."""

    who: Literal["nobody", "spectators", "everyone"]


class Ask(_Message, tag="ask"):
    """A question an information key asks (added in version 1, a client may ignore it):
    answered by ``answer`` with the sentence the terminal game would say."""

    what: Question


# why 1024 characters here: the server refuses a password over its own bound (in bytes) with a
# sentence of its own; this only keeps a message's fields within what a message may carry
Password = Annotated[str, msgspec.Meta(min_length=1, max_length=1024)]


class SignUp(_Message, tag="sign_up"):
    """Make an account and say hello as it (added to version 1: accounts, docs/protocol.md)."""

    v: int
    name: Name
    password: Password
    language: Language = "en"


class LogIn(_Message, tag="log_in"):
    """Say hello as an account, with its password (added to version 1)."""

    v: int
    name: Name
    password: Password
    language: Language = "en"


class Refresh(_Message, tag="refresh"):
    """Trade a refresh token (once) for a new access token and a new refresh token."""

    refresh: Token


class LogOut(_Message, tag="log_out"):
    """End this connection's log-in (``everywhere``: every log-in of the account)."""

    everywhere: bool = False


class DeleteAccount(_Message, tag="delete_account"):
    """Delete the account this connection is logged in to; its password again, to be sure."""

    password: Password


# --- friends and who is online (issue 28 item 4; docs/protocol.md "Friends") ---------------
# Each needs a hello as an account, except ``kick``, which the creator of a table sends.

PrivateText = Annotated[str, msgspec.Meta(min_length=1, max_length=300)]


class FriendsList(_Message, tag="friends"):
    """Ask for one's friends with their presence, the requests both ways, and who one blocks."""


class FriendAsk(_Message, tag="friend_ask"):
    """Ask the account ``name`` to be friends."""

    name: Name


class FriendAnswer(_Message, tag="friend_answer"):
    """Accept or decline the friend request of ``name``."""

    name: Name
    accept: bool


class FriendRemove(_Message, tag="friend_remove"):
    """End a friendship with ``name``, or take back one's own request to them."""

    name: Name


class Block(_Message, tag="block"):
    """``name`` can no longer message you, ask to be your friend, or sit at your table."""

    name: Name


class Unblock(_Message, tag="unblock"):
    name: Name


class Tell(_Message, tag="tell"):
    """A private message to the friend ``name`` (kept in their inbox while they are away)."""

    name: Name
    text: PrivateText


class Kick(_Message, tag="kick"):
    """The creator removes the player in ``seat`` before the start; ``ban``: and they may not
    sit at this table again."""

    seat: SeatNumber
    ban: bool = False


# --- ratings and records (issue 28; docs/protocol.md "Ratings and records") --------------


class ReadRecord(_Message, tag="record"):
    """Read a record: your own (``player`` left out) or the account named ``player``'s."""

    player: Name | None = None


class ReadLeaderboard(_Message, tag="leaderboard"):
    """Read one page of the leaderboard (10 players a page, the best first)."""

    page: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 1


class ReadGames(_Message, tag="games"):
    """Read one page of a player's rated games (yours with ``player`` left out), newest first."""

    player: Name | None = None
    page: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 1


class ReadGame(_Message, tag="game"):
    """Read one rated game round by round, by the ``id`` a ``games`` page gave."""

    id: Annotated[str, msgspec.Meta(min_length=1, max_length=48)]


# --- computer players wait for a listener (issue 25; docs/protocol.md "Listening") ---------


class Listening(_Message, tag="listening"):
    """A seated player's page: its queue of news to be said starts waiting (``behind``) or
    is empty again (edges only, never a message per sentence). While a seated player's page is
    behind, the server holds its table's computer players, up to a cap."""

    behind: bool


ClientMessage = (
    Hello
    | SignUp
    | LogIn
    | Refresh
    | LogOut
    | DeleteAccount
    | ListTables
    | CreateTable
    | Join
    | Watch
    | Leave
    | AddBot
    | RemoveBot
    | Start
    | NewGame
    | Act
    | Chat
    | Resume
    | Ask
    | SetLanguage
    | SpectatorChat
    | MuteChat
    | FriendsList
    | FriendAsk
    | FriendAnswer
    | FriendRemove
    | Block
    | Unblock
    | Tell
    | Kick
    | ReadRecord
    | ReadLeaderboard
    | ReadGames
    | ReadGame
    | Listening
)

# --- server to client ------------------------------------------------------------


class _ServerMessage(msgspec.Struct, tag_field="type"):
    """A message the server sends. why unknown fields are allowed: a later version of the
    protocol may add fields that this client can ignore (see docs/protocol.md)."""


class Welcome(_ServerMessage, tag="welcome"):
    v: int
    player: str
    name: str
    token: str  # keep it to take the seat back after a dropped connection; never show it


class AccountTokens(_ServerMessage, tag="account"):
    """A log-in: ``access`` says hello as the account (``hello`` with ``access``) for
    ``expires`` seconds; ``refresh`` trades once for a new pair. Keep both secret."""

    name: str
    access: str
    refresh: str
    expires: int


class AccountPending(_ServerMessage, tag="account_pending"):
    """The account is made and waits for the operator's approval; ``text`` says so."""

    name: str
    text: str


class LoggedOut(_ServerMessage, tag="logged_out"):
    """This connection is no longer logged in (``text`` says why); the server closes it."""

    text: str


class Answer(_ServerMessage, tag="answer"):
    """The answer to an ``ask``: ``text`` is spoken as it is."""

    what: str
    text: str


class Error(_ServerMessage, tag="error"):
    code: str
    text: str


class TableInfo(msgspec.Struct, frozen=True):
    id: str
    seats: list[dict[str, Any]]
    round: int
    started: bool
    over: bool
    spectators: int


class Tables(_ServerMessage, tag="tables"):
    tables: list[TableInfo]


class Seated(_ServerMessage, tag="seated"):
    """You are at ``table``: in ``seat``, or watching when ``seat`` is null."""

    table: str
    seat: int | None
    code: str | None  # the invite code of a private table, for its players to pass on
    creator: bool
    # why: a player taken back to a game in progress hears where it is, not the lobby's help
    started: bool = False


class Left(_ServerMessage, tag="left"):
    pass


class Snapshot(_ServerMessage, tag="snapshot"):
    seq: int
    table: str
    seat: int | None
    started: bool
    seats: list[dict[str, Any]]
    view: dict[str, Any] | None
    legal: list[dict[str, Any]]
    #: The names of the spectators watching this table, sorted (names only: nothing else
    #: about another connection reaches a seat); added to version 1, so a client may ignore it
    watchers: list[str] = []
    spectator_chat: bool = True  # spectators may chat at this table (added to version 1)


class EventFrame(_ServerMessage, tag="event"):
    seq: int
    kind: str
    data: dict[str, Any]
    text: str


# --- friends and who is online: what the server sends (issue 28 item 4) ------------------

#: Where an account is, as its friends see it (nothing more: never its table or its cards).
Presence = Literal["playing", "watching", "lobby", "away", "offline"]


class FriendInfo(msgspec.Struct, frozen=True):
    name: str
    presence: Presence


class Friends(_ServerMessage, tag="friends"):
    """The answer to ``friends``: ``text`` says it all in one paragraph, to be spoken."""

    friends: list[FriendInfo]
    asking: list[str]  # who asks you to be friends
    asked: list[str]  # whom you asked
    blocked: list[str]
    text: str


class FriendNews(_ServerMessage, tag="friend"):
    """Something about a friendship, for one side: ``what`` is ``asked`` (you asked ``name``),
    ``asks`` (``name`` asks you), ``accepted``, ``declined``, ``removed``, ``withdrawn``,
    ``blocked`` or ``unblocked``; ``text`` says it."""

    what: str
    name: str
    text: str


class PresenceNews(_ServerMessage, tag="presence"):
    """A friend's presence changed (or they just became your friend)."""

    name: str
    presence: Presence
    text: str


class PrivateLine(msgspec.Struct, frozen=True):
    sender: str
    text: str  # as the sender wrote it (cleaned of hidden characters)
    sent: float  # seconds since the epoch
    said: str  # the whole sentence to speak, sender first


class PrivateMessageFrame(_ServerMessage, tag="private_message"):
    """A private message from a friend, now."""

    message: PrivateLine


class Inbox(_ServerMessage, tag="inbox"):
    """The private messages kept while you were away, told once, after your welcome."""

    messages: list[PrivateLine]
    text: str


# --- ratings and records (issue 28) --------------------------------------------------------


class Record(_ServerMessage, tag="record"):
    """A player's record; ``rating``, ``place`` and ``of`` are null before their first rated
    game. ``text`` says it all, the rating first."""

    name: str
    rating: int | None
    place: int | None
    of: int | None
    played: int
    won: int
    text: str


class LeaderboardRow(msgspec.Struct, frozen=True):
    place: int
    name: str
    rating: int
    played: int
    won: int


class LeaderboardPage(_ServerMessage, tag="leaderboard"):
    """One page of the leaderboard; ``lines`` are said in order (a heading, then a row each)."""

    page: int
    pages: int
    of: int
    rows: list[LeaderboardRow]
    lines: list[str]


class GameRow(msgspec.Struct, frozen=True):
    id: str
    date: str
    players: list[str]
    totals: list[int]


class GamesPage(_ServerMessage, tag="games"):
    """One page of a player's rated games; ``lines`` are said in order (a heading, a game
    each, in the words of the terminal's history of games)."""

    name: str
    page: int
    pages: int
    of: int
    games: list[GameRow]
    lines: list[str]


class GameRounds(_ServerMessage, tag="game"):
    """One rated game, round by round: ``rounds`` holds each round's points, seat by seat;
    ``lines`` say the game, then each round."""

    id: str
    date: str
    players: list[str]
    totals: list[int]
    rounds: list[list[int]]
    lines: list[str]


class RatingChanged(_ServerMessage, tag="rating"):
    """Your game at a rated table is over: your new rating, by how much it moved, where it
    stands; ``text`` says it."""

    rating: int
    change: int
    place: int
    of: int
    text: str


ServerMessage = (
    Welcome
    | Answer
    | Error
    | Tables
    | Seated
    | Left
    | Snapshot
    | EventFrame
    | AccountTokens
    | AccountPending
    | LoggedOut
    | Friends
    | FriendNews
    | PresenceNews
    | PrivateMessageFrame
    | Inbox
    | Record
    | LeaderboardPage
    | RatingChanged
    | GamesPage
    | GameRounds
)


class SeatData(msgspec.Struct):
    """One seat of a snapshot or a table list, as a client reads it."""

    kind: Literal["human", "bot", "empty"]
    name: str | None = None
    level: str | None = None
    standin: bool = False
    left: bool = False
    away: bool = False  # the connection dropped; a computer stands in after the grace


class MeldData(msgspec.Struct):
    kind: Literal["book", "run"]
    cards: list[CardToken]


class ViewData(msgspec.Struct):
    """What a client reads of a snapshot's ``view`` (more fields may come)."""

    players: list[str]
    round: Annotated[int, msgspec.Meta(ge=1, le=11)]
    wild_rank: str
    dealer: int
    current_player: int
    phase: str
    hand_counts: list[int]
    top_discard: CardToken | None
    discard_count: int
    stock_count: int
    round_scores: list[list[int]]
    totals: list[int]
    went_out: int | None
    last_turns_left: list[int]
    laid_down: list[list[MeldData]]
    game_over: bool
    winners: list[int]
    hand: list[CardToken] | None = None
    decks_in_play: int = 2


_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
# why: msgspec builds a Struct's type information lazily, on its first use, and two threads
# making that first use at once (a terminal client's reader and its screen, two clients in one
# test) can crash the interpreter: 6 of 40 processes did with msgspec 0.22 in a race on fresh
# Structs, none once each was used first by one thread. A decoder made here, at import (under
# the import lock), builds it for the types ``msgspec.convert`` checks below.
_PREPARED = (msgspec.json.Decoder(list[SeatData]), msgspec.json.Decoder(ViewData))
_encoder = msgspec.json.Encoder()


def decode_client(raw: bytes | str) -> ClientMessage:
    """The client message in ``raw``; :class:`ProtocolError` says what is wrong with it."""
    try:
        message: ClientMessage = _decoder.decode(raw)
    except msgspec.ValidationError as error:
        # TRANSLATORS: {error} is msgspec's own English detail naming the field, kept as it is
        text = _("That message does not fit the protocol: {error}.").format(error=error)
        raise ProtocolError(text) from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        # why UnicodeDecodeError: msgspec raises it for invalid UTF-8 inside a string (in a
        # binary frame); JSON text is UTF-8 (RFC 8259), so it is not valid JSON either
        raise ProtocolError(_("That message is not valid JSON.")) from None
    return message


def read_server_message(raw: bytes | str) -> dict[str, Any]:
    """A server message as a client keeps it (a dict, as the JSON has it), checked first:
    :class:`ProtocolError` says what is wrong. The seats and view of a snapshot and the
    table list are checked too (a client checks the cards and events against the game)."""
    try:
        message = _server_decoder.decode(raw)
        if isinstance(message, Snapshot):
            msgspec.convert(message.seats, list[SeatData])
            if message.view is not None:
                msgspec.convert(message.view, ViewData)
        elif isinstance(message, Tables):
            for info in message.tables:
                msgspec.convert(info.seats, list[SeatData])
    except msgspec.ValidationError as error:
        raise ProtocolError(str(error)) from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise ProtocolError("not JSON") from None
    data: dict[str, Any] = msgspec.to_builtins(message)
    return data


def encode(message: msgspec.Struct) -> bytes:
    return _encoder.encode(message)


# --- moves on the wire: the one codec both ends use ----------------------------


def act_message(move: Move, seq: int) -> dict[str, Any]:
    """The protocol's ``act`` for ``move``.

    >>> from fivecrowns.core.cards import parse_card
    >>> act_message(GoOut(parse_card("7h")), 12)
    {'type': 'act', 'action': 'go_out', 'args': {'card': '7h'}, 'seq': 12}
    """
    args: dict[str, Any] = {}
    if isinstance(move, Discard):
        args["card"] = move.card.token
    elif isinstance(move, GoOut):
        args["card"] = move.discard.token
    elif isinstance(move, LayDown) and move.melds is not None:
        args["melds"] = [[card.token for card in meld] for meld in move.melds]
    return {"type": "act", "action": move.kind, "args": args, "seq": seq}


def move_of(message: Act) -> Move:
    """The move an ``act`` asks for (the server's side of :func:`act_message`); a bad card
    token is a sentence, not a crash: :class:`MoveError` with its code."""
    args = message.args
    try:
        if message.action == "draw_stock":
            return DrawFromStock()
        if message.action == "take_discard":
            return TakeDiscard()
        if message.action in ("discard", "go_out"):
            if args.card is None:
                # TRANSLATORS: {action} is the protocol's word (discard, go_out), not translated
                text = _("{action} needs a card, as in 7h.").format(action=message.action)
                raise MoveError("bad_args", text)
            card = parse_card(args.card)
            return Discard(card) if message.action == "discard" else GoOut(card)
        if args.melds is None:
            return LayDown()
        return LayDown(tuple(tuple(parse_card(token) for token in meld) for meld in args.melds))
    except ValueError as error:
        raise MoveError("bad_card", str(error)) from None
