"""The client's person keys and pins (client/settings.py): one person key per server key
(the fingerprint its TLS handshake proved), chosen before the welcome, kept in the file
beside the seats, dropped when forgotten; the key each server showed first, pinned."""

from __future__ import annotations

import json

from sarja.client.settings import Settings

KEY_A, KEY_B, KEY_C = "aa" * 32, "bb" * 32, "cc" * 32


def test_a_new_server_key_gets_a_fresh_person_key_which_the_welcome_keeps(tmp_path):
    path = tmp_path / "client.json"
    s = Settings(path)
    key = s.person_for(KEY_A)
    assert key == s.person_for(KEY_A) and len(key) >= 32  # the same all this run
    assert s.learn(KEY_A, "srv1", key)
    kept = json.loads(path.read_text())
    assert kept["people"] == {KEY_A: key} and kept["pins"] == {"srv1": KEY_A}
    assert Settings(path).person_for(KEY_A) == key  # the next run too


def test_a_server_id_over_another_key_is_refused_and_nothing_is_kept(tmp_path):
    """Someone answering with srv1's id cannot show srv1's key: the person key offered
    to it is a fresh one, and it is neither kept nor pinned."""
    path = tmp_path / "client.json"
    s = Settings(path)
    mine = s.person_for(KEY_A)
    s.learn(KEY_A, "srv1", mine)
    s.save("Aino", {KEY_A: {"Aino": "t" * 43}})
    offered = s.person_for(KEY_B)
    assert offered != mine
    assert not s.learn(KEY_B, "srv1", offered)
    kept = json.loads(path.read_text())
    assert kept["pins"] == {"srv1": KEY_A} and kept["people"] == {KEY_A: mine}
    assert kept["seats"] == {KEY_A: {"Aino": "t" * 43}}


def test_accepting_a_reinstalled_server_moves_what_was_kept_to_its_new_key(tmp_path):
    path = tmp_path / "client.json"
    s = Settings(path)
    mine = s.person_for(KEY_A)
    s.learn(KEY_A, "srv1", mine)
    s.save("Aino", {KEY_A: {"Aino": "t" * 43}})
    s.accept_key("srv1", KEY_B)
    kept = json.loads(path.read_text())
    assert kept["pins"] == {"srv1": KEY_B} and kept["people"] == {KEY_B: mine}
    assert kept["seats"] == {KEY_B: {"Aino": "t" * 43}}
    assert s.person_for(KEY_B) == mine and s.learn(KEY_B, "srv1", mine)


def test_two_servers_have_two_keys_and_forgetting_drops_one(tmp_path):
    path = tmp_path / "client.json"
    s = Settings(path)
    a, b = s.person_for(KEY_A), s.person_for(KEY_B)
    s.learn(KEY_A, "srvA", a)
    s.learn(KEY_B, "srvB", b)
    assert a != b
    s.forget_person(KEY_A)
    assert json.loads(path.read_text())["people"] == {KEY_B: b}
    fresh = s.person_for(KEY_A)
    assert fresh not in (a, b)


def test_another_clients_keys_are_kept_when_we_save(tmp_path):
    path = tmp_path / "client.json"
    one, two = Settings(path), Settings(path)
    key = one.person_for(KEY_A)
    one.learn(KEY_A, "srvA", key)
    two.save("Bertil", {KEY_C: {"Bertil": "t" * 40}})  # read before `one` learnt
    kept = json.loads(path.read_text())
    assert kept["people"] == {KEY_A: key} and kept["pins"] == {"srvA": KEY_A}


def test_a_broken_file_remembers_no_keys(tmp_path):
    path = tmp_path / "client.json"
    path.write_text(json.dumps({"people": ["x"], "pins": {"srv1": 5}}))
    s = Settings(path)
    assert s.people == {} and s.pins == {}
