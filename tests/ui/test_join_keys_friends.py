"""Friends in `fivecrowns join --keys` (issue 28, item 4), against a real server process: F
lists your friends with where each is and opens a list to act on (accept, decline, message,
remove, block, unblock), Shift+F asks by name, M writes to a friend, Shift+B blocks by name;
every action is also in the Escape menu; the inbox kept while you were away is told once when
you come back; a guest is told to log in. Every sentence comes whole, the name first."""

from __future__ import annotations

import time
from pathlib import Path

from fivecrowns.net.client.websocket import WebSocketLink
from join_support import Player
from server_support import FAST, ServerProcess

PASSWORD = "correct horse battery"


def _account(url: str, name: str, kind: str) -> Player:
    link = WebSocketLink(url, name)
    link.connection.credentials = (kind, PASSWORD)
    player = Player(url, name, link)
    player.wait(rf"Logged in as {name}\.")
    player.wait(r"No open tables")
    return player


def _last(player: Player) -> str:
    return player.backend.spoken[-1]


def test_friends_by_key_ask_accept_message_inbox_block_and_remove(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", *FAST).start()
    players: list[Player] = []
    try:
        ann = _account(server.url, "Ann", "sign_up")
        bob = _account(server.url, "Bob", "sign_up")
        players += [ann, bob]
        # F with no friends: the server's sentence, then the list of what can be done
        mark = ann.mark()
        ann.keys("f")
        ann.wait(r"No friends yet\.", after=mark)
        ann.wait(r"Friends and requests: choose one\. 2 items\. Ask a player", after=mark)
        # its first item asks by name (as Shift+F does)
        ann.keys("c-m")
        assert _last(ann).startswith("Ask to be your friend: type the player's name")
        mark = ann.mark()
        ann.keys(*"bob", "c-m")
        ann.wait(r"Asked Bob to be your friend; you hear when they answer\.", after=mark)
        # Bob hears the request, then which key answers it
        bob.wait(r"Ann asks to be your friend\.\nFriend requests wait for you: press F to ")
        mark = bob.mark()
        bob.keys("f")
        bob.wait(r"No friends yet\..*\. Asking you: Ann\.", after=mark)
        bob.wait(r"Friends and requests: choose one\. 3 items\. Ann asks to be your friend")
        bob.keys("c-m")
        assert _last(bob) == "Ann: what to do. 3 items. Accept"
        mark = bob.mark()
        bob.keys("c-m")
        bob.wait(r"Ann is your friend now\.", after=mark)
        ann.wait(r"Bob is your friend now\.\nBob is in the lobby\.")
        # M: a list of friends with where each is, then the line
        mark = ann.mark()
        ann.keys("m")
        ann.wait(r"A private message to which friend\. 1 item\. Bob, in the lobby", after=mark)
        ann.keys("c-m")
        assert _last(ann).startswith("Private message to Bob: type it, then Enter")
        mark = ann.mark()
        ann.keys(*"See you", "c-m")
        ann.wait(r"Sent to Bob\.", after=mark)
        bob.wait(r"Ann, privately: See you")
        # Bob goes; Ann's message waits in his inbox
        bob.close()
        ann.wait(r"Bob is offline\.")
        mark = ann.mark()
        ann.keys("m")
        ann.wait(r"A private message to which friend\. 1 item\. Bob, offline", after=mark)
        ann.keys("c-m", *"Later", "c-m")
        ann.wait(r"Bob is not connected; they hear it when they come back\.", after=mark)
        # Bob comes back (from the Escape menu this time): the inbox is told once
        bob = _account(server.url, "Bob", "log_in")
        players.append(bob)
        bob.wait(r"1 private message while you were away:\nAnn, privately: Later")
        ann.wait(r"Bob is in the lobby\.", after=mark)
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            bob.play.news()
            time.sleep(0.05)
        assert bob.said().count("Ann, privately: Later") == 1
        # every friends key is in the Escape menu too: Bob removes Ann from it
        bob.keys("escape", "f")
        assert _last(bob).startswith("Friends: F,")
        mark = bob.mark()
        bob.keys("c-m")
        bob.wait(r"Friends: Ann, in the lobby\.", after=mark)
        bob.wait(r"choose one\. 3 items\. Ann, in the lobby", after=mark)
        bob.keys("c-m", "down")
        assert _last(bob) == "Remove from your friends, 2 of 3"
        mark = bob.mark()
        bob.keys("c-m")
        bob.wait(r"Ann is no longer your friend\.", after=mark)
        ann.wait(r"Bob removed you from their friends\.")
        # Shift+B blocks by name; F lists the block, and its item unblocks
        mark = ann.mark()
        ann.keys("B", *"Bob", "c-m")
        ann.wait(r"Bob is blocked: they cannot message you", after=mark)
        ann.keys("f")
        ann.wait(r"You block: Bob\.", after=mark)
        ann.wait(r"3 items\. Bob, blocked by you", after=mark)
        ann.keys("c-m")
        assert _last(ann) == "Bob: what to do. 1 item. Unblock"
        mark = ann.mark()
        ann.keys("c-m")
        ann.wait(r"Bob is unblocked\.", after=mark)
        # a request declined from the list, and a request taken back
        bob.keys("F", *"Ann", "c-m")
        ann.wait(r"Bob asks to be your friend\.", after=mark)
        mark = ann.mark()
        ann.keys("f")
        ann.wait(r"Bob asks to be your friend, 1 of 3|3 items\. Bob asks", after=mark)
        ann.keys("c-m", "down")
        assert _last(ann) == "Decline, 2 of 3"
        ann.keys("c-m")
        ann.wait(r"Declined: Bob is not your friend\.", after=mark)
        bob.wait(r"Ann declined your friend request\.")
        mark = bob.mark()
        bob.keys("F", *"Ann", "c-m")
        bob.wait(r"Asked Ann to be your friend", after=mark)
        bob.keys("f")
        bob.wait(r"You asked: Ann\.", after=mark)
        bob.wait(r"3 items\. Ann, your request waits for their answer", after=mark)
        bob.keys("c-m", "c-m")
        bob.wait(r"Your friend request to Ann is taken back\.", after=mark)
        # a bad name is one sentence, and Escape sends nothing
        mark = bob.mark()
        bob.keys("F", *"Zed", "c-m")
        bob.wait(r"No account here is named Zed\.", after=mark)
        bob.keys("F", "x", "escape")
        assert _last(bob) == "Nothing sent."
        # a guest is told to log in, and nothing is sent
        guest = Player(server.url, "Cat")
        players.append(guest)
        guest.wait(r"No open tables")
        for key in ("f", "F", "m", "B"):
            guest.keys(key)
            assert _last(guest).startswith("Friends are for players logged in to an account.")
        assert PASSWORD not in "\n".join(player.said() for player in players)
    finally:
        for player in players:
            player.close()
        errors = server.stop()
    assert "Traceback" not in errors and PASSWORD not in errors, errors
