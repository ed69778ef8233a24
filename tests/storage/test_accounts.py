"""The account stores: one behaviour in SQLite and in memory; deleting forgets the name."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from fivecrowns.net.server.store import SqliteStore, StoredPlayer, StoredTable
from fivecrowns.storage.accounts import (
    DELETED_NAME,
    Account,
    AccountStore,
    NameTakenError,
    Session,
    forget_name_in_history,
)


@pytest.fixture(name="store")
def store_fixture(server_store: Any) -> AccountStore:
    return server_store.accounts


def _ann(status: str = "active") -> Account:
    return Account("a1", "Ann", "ann", "$argon2id$x", status, 1.0)  # type: ignore[arg-type]


def test_an_accounts_name_key_is_its_own(store: AccountStore) -> None:
    store.add_account(_ann())
    with pytest.raises(NameTakenError):
        store.add_account(Account("a2", "ANN", "ann", "$argon2id$y", "active", 2.0))
    assert store.account_by_key("ann") == _ann()
    assert store.account("a1") == _ann()
    assert store.account_by_key("bob") is None
    store.set_status("a1", "disabled")
    assert store.account("a1") == _ann("disabled")
    assert [a.id for a in store.accounts()] == ["a1"]


def test_a_password_hash_is_renewed_only_while_it_is_the_same(store: AccountStore) -> None:
    store.add_account(_ann())
    assert not store.set_password_hash("a1", "$argon2id$other", "$argon2id$new")
    assert store.account("a1") == _ann()  # a hash changed meanwhile is never overwritten
    assert store.set_password_hash("a1", "$argon2id$x", "$argon2id$new")
    renewed = store.account("a1")
    assert renewed is not None and renewed.password_hash == "$argon2id$new"
    assert not store.set_password_hash("nobody", "$argon2id$x", "$argon2id$new")
    store.delete_account("a1")  # a deleted account has no hash to renew
    assert not store.set_password_hash("a1", "", "$argon2id$new")
    deleted = store.account("a1")
    assert deleted is not None and deleted.password_hash == ""


def test_a_rotated_refresh_hash_is_known_as_used_and_sessions_end(store: AccountStore) -> None:
    store.add_account(_ann())
    first = Session("s1", "a1", "acc1", 10.0, "ref1", 100.0)
    store.add_session(first)
    store.add_session(Session("s2", "a1", "acc2", 10.0, "ref2", 100.0))
    assert store.session_by_access("acc1") == first
    assert store.session_by_refresh("ref1") == first
    second = Session("s1", "a1", "acc3", 20.0, "ref3", 200.0)
    store.rotate(first, second, 15.0)
    assert store.session_by_refresh("ref1") is None
    assert store.session_by_access("acc1") is None
    assert store.used_refresh("ref1") == "a1"
    assert store.used_refresh("ref3") is None
    assert store.session_by_refresh("ref3") == second
    store.end_session("s2")
    assert store.session_by_access("acc2") is None
    assert store.end_sessions("a1") == 1
    assert store.session_by_refresh("ref3") is None


def test_deleting_an_account_frees_its_name_and_ends_its_sessions(store: AccountStore) -> None:
    store.add_account(_ann())
    store.add_session(Session("s1", "a1", "acc1", 10.0, "ref1", 100.0))
    store.delete_account("a1")
    assert store.account_by_key("ann") is None
    deleted = store.account("a1")
    assert deleted is not None
    assert (deleted.name, deleted.password_hash, deleted.status) == ("", "", "deleted")
    assert store.session_by_access("acc1") is None
    assert store.accounts() == []
    store.add_account(Account("a2", "Ann", "ann", "$argon2id$z", "active", 3.0))


def test_deleting_keeps_the_games_under_a_deleted_player(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    store = SqliteStore(path)
    store.accounts.add_account(_ann())
    store.add_player(StoredPlayer("a1", "Ann", "tokenhash"))
    store.add_player(StoredPlayer("p2", "Bob", "tokenhash2"))
    store.add_table(StoredTable("t1", 2, "a1", "Ann", None, False))
    store.append_input("t1", 0, {"op": "sit", "seat": 1, "name": "Bob", "player": "p2"})
    store.append_input("t1", 1, {"op": "chat", "player": "a1", "name": "Ann", "text": "my secret"})
    store.append_input("t1", 2, {"op": "chat", "player": "p2", "name": "Bob", "text": "hi Ann"})
    store.flush()
    store.accounts.delete_account("a1")
    store.close()
    with sqlite3.connect(path) as db:
        text = "\n".join(
            str(row)
            for table in ("accounts", "players", "tables", "inputs")
            for row in db.execute(f"SELECT * FROM {table}")
        )
        inputs = [json.loads(row[0]) for row in db.execute("SELECT command FROM inputs")]
    db.close()
    assert "my secret" not in text and "$argon2id$x" not in text and "tokenhash'" not in text
    assert "'Ann'" not in text
    assert inputs[1] == {"op": "chat", "player": "a1", "name": DELETED_NAME, "text": "-"}
    assert inputs[0]["name"] == "Bob" and inputs[2]["text"] == "hi Ann"  # the others' own
    again = SqliteStore(path)
    (table,), _left_out = again.load()
    assert table.creator_name == DELETED_NAME
    again.close()
    with sqlite3.connect(path) as db:
        names = dict(db.execute("SELECT id, name FROM players").fetchall())
    db.close()
    assert names == {"a1": DELETED_NAME, "p2": "Bob"}


def test_deleting_forgets_the_name_in_the_servers_history(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    games = [
        {"date": "d1", "players": ["Ann", "Bob"], "totals": [10, 20]},
        {"date": "d2", "players": ["Bob", "Bot 2"], "totals": [5, 6]},
        {"date": "d3", "players": ["ÀNN", "Cy"], "totals": [1, 2]},
    ]
    path.write_text("".join(json.dumps(g) + "\n" for g in games) + "not json\n", "utf-8")
    assert forget_name_in_history(path, "Ann") == 2
    lines = path.read_text("utf-8").splitlines()
    assert [json.loads(line)["players"] for line in lines[:3]] == [
        [DELETED_NAME, "Bob"],
        ["Bob", "Bot 2"],
        [DELETED_NAME, "Cy"],
    ]
    assert json.loads(lines[0])["totals"] == [10, 20] and lines[3] == "not json"
    assert forget_name_in_history(tmp_path / "none.jsonl", "Ann") == 0
