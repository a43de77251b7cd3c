"""The client's person keys (client/settings.py): one per server, chosen before the
welcome by the address, kept in the file beside the seats, dropped when forgotten."""

from __future__ import annotations

import json

from sarja.client.settings import Settings


def test_a_new_address_gets_a_fresh_key_which_the_welcome_makes_the_servers(tmp_path):
    path = tmp_path / "client.json"
    s = Settings(path)
    key = s.person_for("lan:7474")
    assert key == s.person_for("lan:7474") and len(key) >= 32  # the same all this run
    assert s.learn("lan:7474", "srv1", key)
    kept = json.loads(path.read_text())
    assert kept["people"] == {"srv1": key} and kept["servers"] == {"lan:7474": "srv1"}
    assert Settings(path).person_for("lan:7474") == key  # the next run too


def test_the_same_server_by_another_address_asks_for_its_own_key(tmp_path):
    path = tmp_path / "client.json"
    s = Settings(path)
    first = s.person_for("localhost:7474")
    s.learn("localhost:7474", "srv1", first)
    other = s.person_for("192.168.1.5:7474")
    assert other != first
    assert not s.learn("192.168.1.5:7474", "srv1", other)  # hello again, with `first`
    assert s.person_for("192.168.1.5:7474") == first
    assert s.learn("192.168.1.5:7474", "srv1", first)


def test_two_servers_have_two_keys_and_forgetting_drops_one(tmp_path):
    path = tmp_path / "client.json"
    s = Settings(path)
    a, b = s.person_for("a:1"), s.person_for("b:1")
    s.learn("a:1", "srvA", a)
    s.learn("b:1", "srvB", b)
    assert a != b
    s.forget_person("srvA")
    assert json.loads(path.read_text())["people"] == {"srvB": b}
    fresh = s.person_for("a:1")
    assert fresh not in (a, b)


def test_another_clients_keys_are_kept_when_we_save(tmp_path):
    path = tmp_path / "client.json"
    one, two = Settings(path), Settings(path)
    key = one.person_for("a:1")
    one.learn("a:1", "srvA", key)
    two.save("Bertil", {"srvB": {"Bertil": "t" * 40}})  # read before `one` learnt
    assert json.loads(path.read_text())["people"] == {"srvA": key}


def test_a_broken_file_remembers_no_keys(tmp_path):
    path = tmp_path / "client.json"
    path.write_text(json.dumps({"people": ["x"], "servers": {"a:1": 5}}))
    s = Settings(path)
    assert s.people == {} and s.servers == {}
